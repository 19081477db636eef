"""The tournament desk's HTTP routes (:mod:`burraco.server.director` holds the events and their online tables):
the pages ``/tournament/new``, ``/tournament/<id>``, ``/tournament/<id>/desk`` and ``/tournament/<id>/score``, the
JSON API under ``/api/tournaments`` (docs/tournaments.md), the printouts, and the pages' texts in every language.
"""

from __future__ import annotations

import asyncio
import csv
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from ..messages import LANGS, msg, render
from ..rules import RulesError, preset
from ..tournament import Event, LineScore, TournamentError, printouts
from ..tournament.event import ADJUSTED, MAX_ROUNDS
from .account_pages import same_origin
from .accounts import Account
from .director import (
    MAX_BODY,
    STATIC,
    Desk,
    DeskError,
    Directors,
    applier,
    now_iso,
    sheet_entry,
    whole_field,
)
from .protocol import DEFAULT_LEVEL, ClientError, refusal
from .seats import check_level
from .security import PRINT_CSP
from .store import token_hash

log = logging.getLogger("burraco.server")
Handler = Callable[[Request], Awaitable[Response]]


async def _body(request: Request) -> bytes:
    declared = request.headers.get("content-length", "0")
    if declared.isdigit() and int(declared) > MAX_BODY:
        raise DeskError("too_large", msg("srv_body_large", kib=MAX_BODY // 1024), 413)
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise DeskError("too_large", msg("srv_body_large", kib=MAX_BODY // 1024), 413)
    return body


async def _json(request: Request) -> dict[str, Any]:
    body = await _body(request)
    try:
        out = json.loads(body or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as e:
        raise DeskError("bad_json", msg("acc_e_json")) from e
    if not isinstance(out, dict):
        raise DeskError("bad_request", msg("srv_body_object"))
    return out


def _token(request: Request) -> str:
    auth = request.headers.get("authorization", "")
    tok = auth[7:].strip() if auth.lower().startswith("bearer ") else ""
    if not tok or len(tok) > 200:
        raise DeskError("bad_token", msg("te_send_token"), 401)
    return tok


def _director(d: Desk, request: Request) -> None:
    if not secrets.compare_digest(token_hash(_token(request)), d.director_hash):
        raise DeskError("bad_token", msg("te_director_link"), 403)


async def _linked(p: str | dict[str, Any], account_named: Callable[[str], Awaitable[Account | None]]
                  ) -> dict[str, Any]:
    """A player as the ``register`` entry stores him: ``account``, where given, checked to name an account of this
    server (not a bot's) and stored as that account spells its name (docs/accounts.md "Tournament entrants")."""
    if isinstance(p, str):
        return {"name": p}
    given = p.get("account", "")
    if not isinstance(given, str):
        raise DeskError("bad_request", msg("srv_account_field"))
    if not given.strip():
        return {k: v for k, v in p.items() if k != "account"}
    who = await account_named(given)
    if who is None or who.bot:
        raise DeskError("no_account", msg("te_no_account", name=given.strip()))
    return {**p, "account": who.name, "account_id": who.id}  # the id is the link: it outlives a rename


def routes(dirs: Directors, limited: Callable[[Handler], Handler], ip_of: Callable[[Request], str],
           account_of: Callable[[Request], Awaitable[Account | None]],
           account_named: Callable[[str], Awaitable[Account | None]],
           names_of: Callable[[set[str]], Awaitable[dict[str, str]]],
           lang_of: Callable[[Request], Awaitable[str]]) -> list[Route]:
    """The desk's routes, for :func:`burraco.server.app.create_app` (``limited``: its per-address request
    limit; ``ip_of``: the address a request counts against; ``account_of``: the account the request's session
    cookie is signed in to, ``account_named``: the account of a name, ``names_of``: the names now of accounts by
    their ids, docs/accounts.md)."""

    async def names(d: Desk) -> dict[str, str]:
        """The names now of the accounts the event's players are linked to (by id: a renamed one stays linked)."""
        return await names_of(dirs.linked_accounts(d))

    def guard(handler: Handler) -> Handler:
        async def wrapped(request: Request) -> Response:
            dirs.follow()
            try:
                return await handler(request)
            except DeskError as e:
                return refusal(e.code, e.msg, await lang_of(request), e.status)
            except TournamentError as e:
                return refusal("refused", e.msg, await lang_of(request))
            except ClientError as e:
                return refusal(e.code, e.msg, await lang_of(request))

        return limited(wrapped)

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "director.html", headers={"Cache-Control": "no-cache"})

    async def create(request: Request) -> Response:
        if dirs.hub.config.director_signin == "account":  # only a signed-in account (docs/tournaments.md)
            if not same_origin(request):  # the session is a cookie: no other site's page may use it
                raise DeskError("csrf", msg("acc_e_request_origin"), 403)
            who = await account_of(request)
            if who is None or who.bot:
                raise DeskError("signin", msg("te_signin_account"), 401)
        else:
            dirs.signin.check(request, ip_of(request))  # a director's sign-in where the server asks for one
        return JSONResponse(await dirs.create(await _json(request)), status_code=201)

    async def config(request: Request) -> Response:
        signin = ({"signin": False, "account": True} if dirs.hub.config.director_signin == "account"
                  else {**dirs.signin.info(), "account": False})
        return JSONResponse({**signin, "adjusted": list(ADJUSTED), "max_rounds": MAX_ROUNDS})

    async def compare(request: Request) -> Response:
        """A duplicate event's deals compared across the tables: every round to the director, the closed
        rounds to everyone (while a round is played, its scores would tell a slower table about its deals)."""
        d = await dirs.get(request.path_params["tid"])
        director = request.headers.get("authorization") is not None
        if director:
            _director(d, request)
        async with d.lock:
            await dirs.sync(d)
            ev = d.event
            if not ev.setup.duplicate:
                raise DeskError("refused", msg("te_not_duplicate"))
            rounds = [rs.number for rs in ev.rounds if director or rs.closed]
            return JSONResponse({"rounds": [{"round": k, "hands": ev.deal_comparison(k)} for k in rounds]})

    async def event_file(request: Request) -> Response:
        """The event as ``burraco tournament`` keeps it (setup and log): the director's backup, and the input of
        a season's ranking (``burraco tournament season``)."""
        d = await dirs.get(request.path_params["tid"])
        _director(d, request)
        async with d.lock:
            await dirs.sync(d)
            body = json.dumps(d.event.to_json(), ensure_ascii=False, indent=1)
        return Response(body, media_type="application/json", headers={
            "Content-Disposition": f'attachment; filename="{d.id}-event.json"'})

    async def public(request: Request) -> Response:
        d = await dirs.get(request.path_params["tid"])
        async with d.lock:
            await dirs.sync(d)
            return JSONResponse(dirs.public_json(d, accounts=await names(d)))

    async def desk(request: Request) -> Response:
        d = await dirs.get(request.path_params["tid"])
        _director(d, request)
        async with d.lock:
            await dirs.sync(d)
            return JSONResponse(dirs.desk_json(d, await names(d)))

    async def action(request: Request) -> Response:
        d = await dirs.get(request.path_params["tid"])
        _director(d, request)
        what = request.path_params["action"]
        if what in ("import", "import_sheets"):
            text = (await _body(request)).decode("utf-8", "replace")
            linked: dict[str, tuple[str, str]] = {}  # the CSV's account names: their accounts (not bots')
            if what == "import":
                try:
                    given = printouts.participant_accounts(text)
                except csv.Error as bad:
                    raise TournamentError(msg("te_not_csv", error=str(bad))) from bad
                for account_name in sorted(given):
                    who = await account_named(account_name)
                    if who is None or who.bot:
                        raise DeskError("no_account", msg("te_no_account", name=account_name))
                    linked[account_name] = (who.id, who.name)
            async with d.lock:
                await dirs.sync(d)

                def load(ev: Event) -> None:
                    try:
                        if what == "import":
                            printouts.import_participants(ev, text, at=now_iso(), by=d.by, accounts=linked)
                        else:
                            printouts.import_sheets(ev, text, at=now_iso(), by=d.by)
                    except csv.Error as e:
                        raise TournamentError(msg("te_not_csv", error=str(e))) from e

                await dirs.commit(d, load)
                return JSONResponse(dirs.desk_json(d, await names(d)))
        body = await _json(request)
        async with d.lock:
            await dirs.sync(d)
            ev = d.event
            at, by = now_iso(), d.by
            if what == "register":
                people = body.get("people")
                if not isinstance(people, list) or not all(isinstance(p, (str, dict)) for p in people):
                    raise DeskError("bad_request", msg("srv_people_field"))
                name = body.get("name")
                if not isinstance(name, str):
                    raise DeskError("bad_request", msg("srv_entrant_name"))
                reg: dict[str, Any] = {"type": "register", "name": name, "at": at, "by": by,
                                       "people": [await _linked(p, account_named) for p in people]}
                if "categories" in body:
                    reg["categories"] = body["categories"]
                await dirs.commit(d, applier(reg))
            elif what == "lineup":
                pairs = body.get("pairs")
                if not isinstance(pairs, list) or not all(isinstance(x, list) for x in pairs):
                    raise DeskError("bad_request", msg("srv_pairs_field"))
                await dirs.commit(d, lambda ev: ev.lineup(str(body.get("team")), pairs, at=at, by=by))
            elif what == "withdraw":
                await dirs.commit(d, lambda ev: ev.withdraw(str(body.get("entrant")), at=at, by=by))
            elif what == "start":
                await _start(dirs, d, body, ip_of(request))
            elif what == "timeout":
                rs = ev.current
                if rs is None:
                    raise DeskError("refused", msg("te_timeout_no_round"))
                await dirs.commit(d, lambda ev: ev.timeout(at=at, by=by))
                await dirs.timeout_online(d, rs)
                await dirs.sync(d)
            elif what == "finish":
                await _finish(dirs, d, whole_field(body, "table"), at)
            elif what == "close":
                await _close(dirs, d, at)
                if d.event.setup.duplicate and d.event.ended:  # every round closed: the deals' secret is revealed
                    await dirs.reveal(d)
            elif what in ("enter", "check"):
                entry = sheet_entry(ev, body, by, at)
                if what == "check":  # the paper-entry grid checks a sheet as it is typed: nothing is stored
                    ev.check(entry)
                    r = ev.rules
                    ns, ew = LineScore.from_json(entry["ns"]), LineScore.from_json(entry["ew"])
                    return JSONResponse({"ok": True, "ns_total": ns.total(r), "ew_total": ew.total(r)})
                await dirs.commit(d, applier(entry))
            elif what == "correct":
                rnd, table, hand = whole_field(body, "round"), whole_field(body, "table"), whole_field(body, "hand")
                fix = {"type": "correct", "round": rnd, "table": table, "hand": hand, "ns": body.get("ns"),
                       "ew": body.get("ew"), "by": by, "reason": str(body.get("reason", "")), "at": at}
                if "timeout" in body:
                    fix["timeout"] = body["timeout"]
                await dirs.commit(d, applier(fix))
            elif what == "replace":
                await _replace(dirs, d, body)
            elif what == "penalty":
                e = {"type": "penalty", "round": body.get("round", len(ev.rounds)), "entrant": str(body.get("entrant")),
                     "vp": body.get("vp", 0), "mp": body.get("mp", 0), "reason": str(body.get("reason", "")),
                     "by": by, "at": at}
                await dirs.commit(d, applier(e))
            elif what == "adjust":
                e = {"type": "adjust", "round": body.get("round", len(ev.rounds)), "table": whole_field(body, "table"),
                     "reason": str(body.get("reason", "")), "by": by, "at": at}
                if "ns" in body or "ew" in body:
                    e |= {"ns": body.get("ns"), "ew": body.get("ew")}
                else:
                    e["convention"] = True
                await dirs.commit(d, applier(e))
            elif what == "lot":
                order = body.get("entrants")
                if not isinstance(order, list) or not all(isinstance(x, str) for x in order):
                    raise DeskError("bad_request", msg("srv_entrants_field"))
                if body.get("draw"):  # the desk draws for the director: a fair shuffle, recorded as his
                    order = list(order)
                    secrets.SystemRandom().shuffle(order)
                closed = sum(1 for x in ev.rounds if x.closed)
                e = {"type": "lot", "round": body.get("round", closed), "entrants": order, "by": by, "at": at}
                await dirs.commit(d, applier(e))
            else:
                raise DeskError("not_found", msg("srv_unknown_action", what="desk", action=what), 404)
            await dirs.sync(d)
            return JSONResponse(dirs.desk_json(d, await names(d)))

    async def line(request: Request) -> Response:
        d = await dirs.get(request.path_params["tid"])
        tok = _token(request)
        async with d.lock:
            rs, t, ln = dirs.line_of(d, tok)
            out = dirs.public_json(d, accounts=await names(d))
            me = next(x for x in out["rounds"][rs.number - 1]["tables"] if x["table"] == t.number)
            mine = set(t.ns.entrants) | set(t.ew.entrants)  # the two lines' names, nobody else's
            return JSONResponse({"event": out["setup"]["name"], "round": rs.number, "table": me, "line": ln,
                                 "hands": d.event.setup.hands, "timeout_at": rs.timeout_at,
                                 "entrants": [x for x in out["entrants"] if x["id"] in mine]})

    async def line_action(request: Request) -> Response:
        d = await dirs.get(request.path_params["tid"])
        tok = _token(request)
        body = await _json(request)
        what = request.path_params["action"]
        async with d.lock:
            rs, t, ln = dirs.line_of(d, tok)
            hand = whole_field(body, "hand")
            at = now_iso()
            if what == "enter":
                entry = {"type": "hand", "round": rs.number, "table": t.number, "hand": hand, "ns": body.get("ns"),
                         "ew": body.get("ew"), "by": ln, "at": at}
                if "timeout" in body:
                    entry["timeout"] = body["timeout"]
                await dirs.commit(d, applier(entry))
            elif what == "confirm":
                await dirs.commit(d, lambda ev: ev.confirm(t.number, hand, by=ln, round=rs.number, at=at))
            else:
                raise DeskError("not_found", msg("srv_unknown_action", what="score", action=what), 404)
        return await line(request)

    async def printout(request: Request) -> Response:
        d = await dirs.get(request.path_params["tid"])
        doc, fmt = request.path_params["doc"], request.path_params["fmt"]
        lang = request.query_params.get("lang", "en")
        rnd_s = request.query_params.get("round")
        rnd = int(rnd_s) if rnd_s and rnd_s.isdigit() else None
        async with d.lock:
            await dirs.sync(d)
            ev = d.event
            if fmt == "csv":
                if doc == "standings":
                    text = printouts.standings_csv(ev, rnd)
                elif doc == "sheets":
                    text = printouts.sheets_csv(ev)
                elif doc in ("participants", "federation"):  # members' numbers: the director's only
                    _director(d, request)
                    text = (printouts.participants_csv(ev, await names(d)) if doc == "participants"
                            else printouts.federation_csv(ev))
                else:
                    raise DeskError("not_found", msg("srv_no_document", what="CSV", doc=doc,
                                                    known="standings, sheets, participants, federation"), 404)
                return Response(text, media_type="text/csv; charset=utf-8", headers={
                    "Content-Disposition": f'attachment; filename="{d.id}-{doc}.csv"'})
            public = request.headers.get("authorization") is None
            if not public:
                _director(d, request)
            # a round in play: its scores on the same deals would tell a slower table about its cards
            if doc == "compare" and public and rnd is not None and not ev._round(rnd).closed:
                raise DeskError("refused", msg("te_compare_closed"))
            makers: dict[str, Callable[[], printouts.Document]] = {
                "standings": lambda: printouts.standings(ev, rnd, lang),
                "pairings": lambda: printouts.pairings(ev, rnd, lang),
                "sheets": lambda: printouts.score_sheets(ev, rnd, lang),
                "tablecards": lambda: printouts.table_cards(ev, rnd, lang),
                "namecards": lambda: printouts.name_cards(ev, lang),
                "final": lambda: printouts.final_results(ev, lang),
                "participants": lambda: printouts.participants(ev, lang),
                "compare": lambda: printouts.compare(ev, rnd, lang, closed_only=public),
            }
            maker = makers.get(doc)
            if maker is None or fmt not in ("html", "pdf"):
                raise DeskError("not_found", msg("srv_no_document", what="printout", doc=f"{doc}.{fmt}", known=(
                    "standings, pairings, sheets, tablecards, namecards, final, participants, compare as html or "
                    "pdf; standings, sheets, participants, federation as csv")), 404)
            document = maker()
        if fmt == "html":
            return Response(printouts.to_html(document), media_type="text/html; charset=utf-8",
                            headers={"Content-Security-Policy": PRINT_CSP})  # its inline style, no script
        pdf = await asyncio.to_thread(printouts.to_pdf, document)
        return Response(pdf, media_type="application/pdf", headers={
            "Content-Disposition": f'inline; filename="{d.id}-{doc}.pdf"'})

    texts_cache: dict[str, bytes] = {}

    async def texts(request: Request) -> Response:
        lang = request.path_params["lang"]
        if lang not in LANGS:
            raise DeskError("not_found", msg("srv_no_lang", what="texts", lang=lang, langs=", ".join(LANGS)), 404)
        body = texts_cache.get(lang)
        if body is None:
            body = texts_cache[lang] = json.dumps(page_texts(lang), ensure_ascii=False).encode()
        return Response(body, media_type="application/json", headers={"Cache-Control": "max-age=3600"})

    return [
        Route("/api/tournament-texts/{lang}", guard(texts)),
        Route("/tournament/new", page),
        Route("/tournament/{tid}", page),
        Route("/tournament/{tid}/desk", page),
        Route("/tournament/{tid}/score", page),
        Route("/api/tournaments", guard(create), methods=["POST"]),
        Route("/api/tournament-config", guard(config)),
        Route("/api/tournaments/{tid}/compare", guard(compare)),
        Route("/api/tournaments/{tid}/event.json", guard(event_file)),
        Route("/api/tournaments/{tid}", guard(public)),
        Route("/api/tournaments/{tid}/desk", guard(desk)),
        Route("/api/tournaments/{tid}/desk/{action}", guard(action), methods=["POST"]),
        Route("/api/tournaments/{tid}/line", guard(line)),
        Route("/api/tournaments/{tid}/line/{action}", guard(line_action), methods=["POST"]),
        Route("/api/tournaments/{tid}/print/{doc}.{fmt}", guard(printout)),
    ]


async def _start(dirs: Directors, d: Desk, body: dict[str, Any], owner_ip: str) -> None:
    """Start the next round: its pairing from the movement; the tables named in ``online`` (numbers, or
    ``"all"``) become browser tables (``computers``: ``{table: {seat: level}}`` seats played by the computer
    from the start; ``all_computers``: every seat of them), the others are physical tables with a score-entry
    link per line."""
    ev = d.event
    online = body.get("online", [])
    computers = body.get("computers", {})
    if not (online == "all" or (isinstance(online, list) and all(isinstance(x, int) for x in online))):
        raise DeskError("bad_request", msg("srv_online_field"))
    if not isinstance(computers, dict):
        raise DeskError("bad_request", msg("srv_computers_field"))
    trial = Event(ev.setup, ev.log)  # pair on a copy first: a refused start changes nothing
    at = now_iso()
    rs = trial.start_round(at=at, by=d.by)
    numbers = [t.number for t in rs.tables]
    wanted = numbers if online == "all" else list(online)
    bad = [x for x in wanted if x not in numbers]
    if bad:
        raise DeskError("refused", msg("te_online_table", round=rs.number, tables=len(numbers), table=bad[0]))
    if body.get("all_computers") is True:  # every seat of every online table to a computer player (a try-out)
        computers = {str(n): dict.fromkeys("NESW", "heuristic:easy") for n in wanted}
    comp: dict[int, dict[str, str]] = {}
    for k, seats in computers.items():
        if not str(k).isdigit() or int(k) not in wanted or not isinstance(seats, dict):
            raise DeskError("refused", msg("te_computers_online", table=k))
        for s, level in seats.items():
            if s not in ("N", "E", "S", "W"):
                raise DeskError("refused", msg("te_seat_not", seat=str(s)))
            seats[s] = check_level(level or DEFAULT_LEVEL)
        comp[int(k)] = dict(seats)
    if wanted:
        try:
            plain = preset(ev.setup.rules, hands_per_match=ev.setup.hands, target=None)
        except RulesError as e:
            raise DeskError("refused", msg("te_rules", error=str(e))) from e
        if plain != ev.rules:
            raise DeskError("refused", msg("te_online_rules"))
    links: dict[tuple[int, int], dict[str, Any]] = {}
    for t in rs.tables:
        if t.number in wanted:
            links[(rs.number, t.number)] = await dirs._create_online(d, rs, t, comp.get(t.number, {}), owner_ip)
        else:
            links[(rs.number, t.number)] = {"mode": "physical", "lines": {
                "NS": secrets.token_urlsafe(12), "EW": secrets.token_urlsafe(12)}}
    entry = trial.log[-1]
    await dirs.commit(d, lambda ev: ev.apply(entry), tables=links)
    # seats replaced by a computer from the start are marked in the results
    marks = [(t, s, lvl) for t, seats in comp.items() for s, lvl in seats.items()]
    if marks:
        def mark(ev: Event) -> None:
            for t, s, lvl in marks:
                ev.replace(t, s, lvl, at=at, by=d.by)

        await dirs.commit(d, mark)


async def _finish(dirs: Directors, d: Desk, table: int, at: str) -> None:
    """End a table's round after the time-out. An online table still playing the hand of the time-out is
    refused (that hand counts: the table ends by itself with it); one between two hands stops dealing and
    ends with the hands it played."""
    ev = d.event
    rs = ev.current
    if rs is None:
        raise DeskError("refused", msg("te_no_round"))
    rs.table(table)
    link = d.tables.get((rs.number, table), {})
    if link.get("mode") == "online" and rs.timeout_at is not None and not rs.complete(table, ev.setup.hands):
        if await dirs.stop_online(d, rs, only=table):
            live = d.live.get(table) or {}
            raise DeskError("refused", msg("te_finish_playing", table=table, hand=live.get("hand", "?")))
        await dirs.sync(d)  # its last hands, and its end, as the online table gives them
        if d.event.current is not None and d.event.current.complete(table, ev.setup.hands):
            return
    await dirs.commit(d, lambda ev: ev.finish_table(table, at=at, by=d.by))


async def _close(dirs: Directors, d: Desk, at: str) -> None:
    """Close the round. After the time-out every online table not playing a hand stops (a table still playing
    the hand of the time-out keeps the round open: refused, naming it); closing then ends every table with the
    hands it counted (RULES.md §0.1)."""
    rs = d.event.current
    if rs is None:
        raise DeskError("refused", msg("te_no_round"))
    if rs.timeout_at is not None:
        playing = await dirs.stop_online(d, rs)
        await dirs.sync(d)
        if playing:
            raise DeskError("refused", msg("te_close_playing", round=rs.number,
                                           tables=", ".join(map(str, playing))))
    await dirs.commit(d, lambda ev: ev.close_round(at=at, by=d.by))


async def _replace(dirs: Directors, d: Desk, body: dict[str, Any]) -> None:
    """A participant who did not come: a computer player takes the seat at the online table (marked)."""
    ev = d.event
    rs = ev.current
    if rs is None:
        raise DeskError("refused", msg("te_no_round"))
    table = whole_field(body, "table")
    seat = body.get("seat")
    level = check_level(body.get("level") or DEFAULT_LEVEL)
    rs.table(table)
    link = d.tables.get((rs.number, table))
    if link is None or link.get("mode") != "online":
        raise DeskError("refused", msg("te_replace_physical", table=table))
    if seat not in ("N", "E", "S", "W"):
        raise DeskError("refused", msg("te_seat"))
    t = await dirs.hub.get(str(link["table_id"]), touch=False)
    if t is None:
        raise DeskError("not_found", msg("te_online_gone", table=table))
    trial = Event(ev.setup, ev.log)
    trial.replace(table, str(seat), level, at=now_iso(), by=d.by)  # checked before the seat changes
    await t.seat_computer(str(seat), level)
    entry = trial.log[-1]
    await dirs.commit(d, lambda ev: ev.apply(entry))


def page_texts(lang: str) -> dict[str, str]:
    """Every text of the desk's pages in ``lang``, rendered from the message catalogues (parameters left as
    ``{name}`` for the page to fill in)."""
    return {m.code: render(m, lang) for m in _PAGE_MESSAGES}


#: the messages of the desk's pages (director.html): every ``desk_`` and ``t_`` text, parameters as placeholders
_PAGE_MESSAGES = (
    msg("t_round", n="{n}"),
    msg("t_table", n="{n}"),
    msg("t_hand", n="{n}"),
    msg("t_pairings", n="{n}"),
    msg("t_standings", n="{n}"),
    msg("t_final"),
    msg("t_score_sheet", round="{round}", table="{table}"),
    msg("t_line"),
    msg("t_clean"),
    msg("t_semiclean"),
    msg("t_dirty"),
    msg("t_closing"),
    msg("t_melds"),
    msg("t_hand_points"),
    msg("t_pozzetto"),
    msg("t_total"),
    msg("t_mp"),
    msg("t_vp"),
    msg("t_diff"),
    msg("t_rank"),
    msg("t_entrant"),
    msg("t_rounds_played"),
    msg("t_bye"),
    msg("t_byes", names="{names}"),
    msg("t_sign", line="{line}"),
    msg("t_computer", seat="{seat}", player="{player}"),
    msg("t_hands_to_play", n="{n}"),
    msg("t_minutes", n="{n}"),
    msg("t_club"),
    msg("t_member"),
    msg("t_players"),
    msg("t_ns"),
    msg("t_ew"),
    msg("t_score_sheets", round="{round}"),
    msg("t_vp_table", hands="{hands}"),
    msg("t_vp_diff"),
    msg("t_table_col"),
    msg("t_hand_col"),
    msg("t_table_cards", n="{n}"),
    msg("t_next_stay", line="{line}", table="{table}"),
    msg("t_next_go", line="{line}", table="{table}", side="{side}"),
    msg("t_next_bye", line="{line}"),
    msg("t_next_standings", line="{line}"),
    msg("t_next_last"),
    msg("t_name_cards"),
    msg("t_standings_live", n="{n}"),
    msg("t_standings_none"),
    msg("t_history"),
    msg("t_compare_title"),
    msg("t_ns_mp"),
    msg("t_ew_mp"),
    msg("t_vs_field"),
    msg("t_mp_for"),
    msg("t_mp_against"),
    msg("t_penalty"),
    msg("t_tie"),
    msg("t_tie_head_to_head", value="{value}"),
    msg("t_tie_head_to_head_mp", value="{value}"),
    msg("t_tie_mp_diff", value="{value}"),
    msg("t_tie_mp_for", value="{value}"),
    msg("t_tie_vp", value="{value}"),
    msg("t_tie_lot"),
    msg("t_tie_lot_pending"),
    msg("t_tie_no_h2h"),
    msg("t_penalty_note", round="{round}", who="{who}", vp="{vp}", mp="{mp}", why="{why}"),
    msg("t_adjusted_note", round="{round}", table="{table}", ns="{ns}", ew="{ew}", why="{why}"),
    msg("t_prizes"),
    msg("t_overall"),
    msg("t_season_events"),
    msg("t_season_points"),
    msg("t_season_best"),
    msg("t_season_player"),
    msg("t_season_title"),
    msg("t_short_clean"),
    msg("t_short_semiclean"),
    msg("t_short_dirty"),
    msg("t_short_closing"),
    msg("t_short_melds"),
    msg("t_short_hand"),
    msg("t_short_pozzetto"),
    msg("desk_adjust"),
    msg("desk_adjust_help", convention="{convention}"),
    msg("desk_adjusted"),
    msg("desk_adjusted_draw"),
    msg("desk_adjusted_bye"),
    msg("desk_adjusted_note", ns="{ns}", ew="{ew}", why="{why}"),
    msg("desk_all_played", n="{n}"),
    msg("desk_close_sure"),
    msg("desk_timeout_sure"),
    msg("desk_draw_lots"),
    msg("desk_duplicate"),
    msg("desk_event_over"),
    msg("desk_final_later"),
    msg("desk_import_sheets"),
    msg("desk_paper_title", n="{n}"),
    msg("desk_paper_help"),
    msg("desk_paper_done", n="{n}"),
    msg("desk_paper_entered", table="{table}", hand="{hand}"),
    msg("desk_paper_waiting", line="{line}"),
    msg("desk_password"),
    msg("desk_signin_needed"),
    msg("desk_signin_link"),
    msg("desk_signed_in_as", name="{name}"),
    msg("desk_penalties"),
    msg("desk_penalty_apply"),
    msg("desk_penalty_line", round="{round}", who="{who}", vp="{vp}", mp="{mp}", why="{why}"),
    msg("desk_prizes"),
    msg("desk_prizes_example"),
    msg("desk_still_finishing", tables="{tables}"),
    msg("desk_timeout_col"),
    msg("desk_timeout_mark"),
    msg("desk_title"),
    msg("desk_new"),
    msg("desk_name"),
    msg("desk_date"),
    msg("desk_director"),
    msg("desk_kind"),
    msg("desk_kind_pairs"),
    msg("desk_kind_teams"),
    msg("desk_kind_individual"),
    msg("desk_rules"),
    msg("desk_hands"),
    msg("desk_minutes"),
    msg("desk_rounds"),
    msg("desk_movements"),
    msg("desk_create"),
    msg("desk_keep_link"),
    msg("desk_public_page"),
    msg("desk_participants"),
    msg("desk_entrant_name"),
    msg("desk_player_names"),
    msg("desk_player_accounts"),
    msg("desk_register"),
    msg("desk_import"),
    msg("desk_export"),
    msg("desk_withdraw"),
    msg("desk_withdrawn"),
    msg("desk_online_tables"),
    msg("desk_computers"),
    msg("desk_start", n="{n}"),
    msg("desk_in_play", n="{n}"),
    msg("desk_standings_none"),
    msg("desk_timeout"),
    msg("desk_close"),
    msg("desk_finish"),
    msg("desk_clock", n="{n}", start="{start}"),
    msg("desk_time_left", m="{m}"),
    msg("desk_time_up"),
    msg("desk_timeout_at", at="{at}"),
    msg("desk_tables"),
    msg("desk_online"),
    msg("desk_physical"),
    msg("desk_progress", done="{done}", hands="{hands}"),
    msg("desk_finished"),
    msg("desk_links"),
    msg("desk_watch"),
    msg("desk_waiting_confirm"),
    msg("desk_corrected", who="{who}", why="{why}"),
    msg("desk_replace"),
    msg("desk_replaced", seat="{seat}"),
    msg("desk_correct"),
    msg("desk_reason"),
    msg("desk_apply"),
    msg("desk_results"),
    msg("desk_printouts"),
    msg("desk_next_table"),
    msg("desk_no_round"),
    msg("desk_score_title", round="{round}", table="{table}", line="{line}"),
    msg("desk_enter", n="{n}"),
    msg("desk_confirm"),
    msg("desk_entered_by", line="{line}"),
    msg("desk_counted"),
    msg("desk_refused", reason="{reason}"),
    msg("desk_done"),
    msg("desk_lineups", n="{n}"),
    msg("desk_lineup_pair", n="{n}"),
    msg("desk_lineup_set"),
    msg("desk_all_entered"),
    msg("desk_finishing"),
    msg("desk_timeout_hand", n="{n}"),
    msg("desk_is_timeout_hand"),
)


__all__ = ["Desk", "DeskError", "Directors", "now_iso", "page_texts", "routes"]
