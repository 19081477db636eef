"""The account's page and its forms (docs/accounts.md): ``GET /account`` shows the sign-up and sign-in forms, or
the signed-in player's games (with their results and replays), profile settings, and the forms to change the
password, sign out, sign out everywhere and delete the account; ``POST /account/<action>`` handles each form (a
``303`` back to the page, or the page again with the refusal and its status); ``GET /api/account`` gives the
signed-in account, its profile and its games as JSON (``401`` without a session); ``GET /api/session`` says who
the browser is signed in as (the lobby asks it); ``GET /players/<name>`` is an account's profile page (public, or
its player's own).

The pages are plain HTML forms (a script, ``static/account.js``, only for the passkeys), each form with its CSRF
token (server/accounts.py), under the Content-Security-Policy of the other pages.
"""

from __future__ import annotations

import html
import json
import time
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import parse_qs, quote, urlsplit

from starlette.requests import HTTPConnection, Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from ..messages import LANGS, Message, msg, render
from . import profiles, ratings
from .account_html import (
    Html,
    form,
    games_html,
    leaderboard_html,
    leaderboards_html,
    page_lang,
    profile_form,
    profile_html,
    ratings_html,
    shell,
    texts,
)
from .accounts import (
    COOKIE,
    SESSION_AGE,
    Account,
    AccountError,
    Accounts,
    csrf_ok,
    csrf_token,
    session_cookie,
    session_token,
)
from .guests import COOKIE as GUEST_COOKIE
from .guests import MAX_AGE as GUEST_AGE
from .guests import guest_of, new_guest
from .passkeys import Passkeys
from .protocol import ClientError, refusal

#: the largest form body read, in bytes
MAX_FORM = 8192


class AccountPages:
    """The routes of the account's page; ``keys`` is the server's keys (filled at start: ``guest``, ``session``,
    ``csrf``), ``style`` the address of the style sheet the page links."""

    def __init__(self, accounts: Accounts, keys: dict[str, bytes], style: Callable[[], str],
                 script: Callable[[], str], close_table: Callable[[str, str], Awaitable[None]],
                 remove_chat: Callable[[str, int, str], Awaitable[None]],
                 close_bot: Callable[[str], int] = lambda bot: 0) -> None:
        self.accounts = accounts
        self.passkeys = Passkeys(accounts)
        self.keys = keys
        self.style = style
        self.script = script
        self.close_table = close_table
        self.remove_chat = remove_chat
        #: closes the websockets a bot account opened on this process (its token was replaced): how many
        self.close_bot = close_bot

    # ----- who is asking ------------------------------------------------------------------------------------------
    def token(self, request: Request) -> str | None:
        return session_token(request.cookies.get(COOKIE), self.keys["session"])

    async def account(self, request: Request) -> Account | None:
        return await self.accounts.account_of(self.token(request))

    async def lang(self, request: HTTPConnection) -> str:
        """The language of an answer to ``request`` (a JSON API's refusal): ``?lang=``, else the language of the
        signed-in account's profile, else ``Accept-Language``, else English (the profile is read only for a
        request that carries a session cookie and no ``?lang=``)."""
        if request.query_params.get("lang", "") not in LANGS and request.cookies.get(COOKIE):
            account = await self.accounts.account_of(session_token(request.cookies.get(COOKIE), self.keys["session"]))
            settings = None if account is None else await profiles.profile(self.accounts.store, account.id)
            return str(page_lang(request, settings.language if settings else None))
        return str(page_lang(request))

    def anchor(self, request: Request) -> str | None:
        """What the CSRF token is bound to: the session, else the guest cookie."""
        return self.token(request) or guest_of(request.cookies.get(GUEST_COOKIE), self.keys["guest"])

    # ----- the page -----------------------------------------------------------------------------------------------
    async def page(self, request: Request, error: AccountError | None = None, note: Message | None = None,
                   status: int = 200) -> Response:
        account = await self.account(request)
        settings = None if account is None else await profiles.profile(self.accounts.store, account.id)
        lang = page_lang(request, settings.language if settings else None)
        tr = texts(lang)
        anchor = self.anchor(request)
        fresh = None  # a browser new here (it came from a link, not the card room): its guest cookie, as "/" gives
        if anchor is None and request.method == "GET":
            anchor, fresh = new_guest(self.keys["guest"])
        csrf = csrf_token(self.keys["csrf"], anchor) if anchor else ""

        def form_(action: str, title: str, fields: list[tuple[str, str, str, str]], note: str = "") -> str:
            return form(lang, action, title, csrf, fields, note)

        body: list[str] = []
        if error is not None:
            body.append(f'<p class="error" role="alert" data-code="{error.code}">'
                        f'{html.escape(render(error.msg, lang))}</p>')
        if note is not None:
            body.append(f'<p role="status">{html.escape(render(note, lang))}</p>')
        passkeys_attrs = f'data-no-passkeys="{tr("acc_no_passkeys")}"'
        if not anchor:
            body.append(f'<p>{tr("acc_need_cookie")}</p>')
        elif account is None:
            body.append(f'<section id="passkeys" {passkeys_attrs}><h2>{tr("acc_with_passkey")}</h2><label>'
                        f'{tr("acc_name")} <input id="passkey-name" autocomplete="username webauthn"></label> '
                        f'<button type="button" id="passkey-signup">{tr("acc_signup_passkey")}</button> '
                        f'<button type="button" id="passkey-signin">{tr("acc_signin_passkey")}</button>'
                        '<p id="passkey-status" role="status"></p></section>')
            body.append(form_("signup", tr("acc_signup"), [("name", tr("acc_name"), "text", "username"),
                                                          ("password", tr("acc_password"), "password",
                                                           "new-password")]))
            body.append(form_("signin", tr("acc_signin"), [("name", tr("acc_name"), "text", "username"),
                                                          ("password", tr("acc_password"), "password",
                                                           "current-password")]))
            body.append(f'<p>{tr("acc_guest_games")}</p>')
        else:
            games = await self.accounts.games(account)
            strong = Html(f'<strong id="account-name">{html.escape(account.name)}</strong>')
            body.append(f'<p>{tr("acc_signed_in_as", name=strong)}</p>')
            rated = await ratings.account_ratings(self.accounts.store, account.id)
            if rated["ratings"]:
                body.append(ratings_html(rated, lang))
            body.append(games_html(games, await profiles.results(self.accounts.store, games), lang))
            if not account.bot and settings is not None:
                body.append(profile_form(settings, csrf, lang))
            keys = await self.passkeys.count(account)
            body.append(f'<section id="passkeys" {passkeys_attrs}><h2>{tr("acc_passkeys", n=keys)}</h2>'
                        f'<button type="button" id="passkey-add">{tr("acc_add_passkey")}</button>'
                        '<p id="passkey-status" role="status"></p></section>')
            bots = await self.accounts.bots(account)
            bot_name = [("name", tr("acc_bot_name"), "text", "off")]
            if bots:
                names = "".join("<li>" + tr("acc_bot_item", name=b.name) + "</li>" for b in bots)
                body.append(f'<h2>{tr("acc_your_bots")}</h2><ul id="bots">{names}</ul>')
                body.append(form_("bot-token", tr("acc_bot_token"), bot_name, tr("acc_bot_token_note")))
            body.append(form_("bot", tr("acc_make_bot"), bot_name, tr("acc_make_bot_note")))
            if account.admin:
                name = [("name", tr("acc_name"), "text", "off")]
                table = ("table", tr("acc_table_id"), "text", "off")
                body.append(f'<section id="admin"><h2>{tr("acc_admin")}</h2>')
                body.append(form_("admin-disable", tr("acc_disable"), name, tr("acc_disable_note")))
                body.append(form_("admin-enable", tr("acc_enable"), name))
                body.append(form_("admin-close", tr("acc_close_table"), [table], tr("acc_close_note")))
                body.append(form_("admin-chat", tr("acc_remove_chat"),
                                  [table, ("n", tr("acc_chat_n"), "text", "off")], tr("acc_remove_chat_note")))
                body.append("</section>")
            body.append(form_("password", tr("acc_change_password"),
                              [("old", tr("acc_old_password"), "password", "current-password"),
                               ("new", tr("acc_new_password"), "password", "new-password")],
                              tr("acc_password_note")))
            body.append(form_("signout", tr("acc_signout"), []))
            body.append(form_("signout-all", tr("acc_signout_all"), []))
            body.append(form_("delete", tr("acc_delete"),
                              [("password", tr("acc_delete_password"), "password", "current-password")],
                              tr("acc_delete_note")))
        page = shell(lang, render(msg("acc_title"), lang), self.style(), self.script(), "".join(body), "/account")
        status = error.status if error is not None else status
        resp = HTMLResponse(page, status_code=status, headers={"Cache-Control": "no-store"})
        if fresh is not None:
            resp.set_cookie(GUEST_COOKIE, fresh, max_age=GUEST_AGE, path="/", secure=request.url.scheme == "https",
                            httponly=True, samesite="lax")
        return resp

    async def api(self, request: Request) -> Response:
        account = await self.account(request)
        if account is None:
            out = refusal("signin", msg("acc_e_signed_out"), await self.lang(request), 401)
            out.headers["Cache-Control"] = "no-store"
            return out
        bots = [{"id": b.id, "name": b.name, "created": b.created} for b in await self.accounts.bots(account)]
        settings = await profiles.profile(self.accounts.store, account.id)
        return JSONResponse({"account": {"id": account.id, "name": account.name, "created": account.created,
                                         "bot": account.bot, "admin": account.admin},
                             "profile": None if settings is None else {
                                 "language": settings.language, "rules": settings.rules, "club": settings.club,
                                 "public": settings.public},
                             "bots": bots,
                             "games": await self.accounts.games(account),
                             **await ratings.account_ratings(self.accounts.store, account.id)},
                            headers={"Cache-Control": "no-store"})

    async def public(self, request: Request) -> Response:
        """``GET /players/<name>``: the profile page of the account so named — its club, preferred rules, ratings
        with their plot, and games with their results and replays — for anyone when the profile is public, for its
        player alone otherwise (to anyone else a private profile and no account are the same ``404``)."""
        found = await profiles.by_name(self.accounts.store, request.path_params["name"])
        viewer = await self.account(request)
        mine = None if viewer is None else await profiles.profile(self.accounts.store, viewer.id)
        lang = page_lang(request, mine.language if mine else None)
        tr = texts(lang)
        path = f"/players/{quote(request.path_params['name'])}"
        if found is None or not (found[1].public or (viewer is not None and viewer.id == found[0].id)):
            return HTMLResponse(shell(lang, render(msg("acc_no_profile_title"), lang), self.style(), "",
                                      '<p class="error" role="alert" data-code="not_found">'
                                      f'{tr("acc_no_profile")}</p>', path),
                                status_code=404, headers={"Cache-Control": "no-store"})
        account, settings = found
        body = [profile_html(settings, lang)]
        rated = await ratings.account_ratings(self.accounts.store, account.id)
        if rated["ratings"]:
            body.append(ratings_html(rated, lang))
        games = await self.accounts.games(account)
        body.append(games_html(games, await profiles.results(self.accounts.store, games), lang))
        return HTMLResponse(shell(lang, account.name, self.style(), "", "".join(body), path),
                            headers={"Cache-Control": "no-store"})

    async def session(self, request: Request) -> Response:
        """``GET /api/session``: who this browser is signed in as (id, name, whether a bot, preferred rules and language),
        ``{"account": null}`` for a guest (always ``200``: the lobby asks it on every load, and a guest is no
        error)."""
        account = await self.account(request)
        settings = None if account is None else await profiles.profile(self.accounts.store, account.id)
        who: dict[str, Any] | None = None
        if account is not None:
            who = {"id": account.id, "name": account.name, "bot": account.bot, "admin": account.admin,
                   "rules": settings.rules if settings else None,
                   "language": settings.language if settings else None}
            if account.admin:  # the token of the table page's requests to remove a chat line (admin_chat)
                who["csrf"] = csrf_token(self.keys["csrf"], self.anchor(request) or "")
        return JSONResponse({"account": who}, headers={"Cache-Control": "no-store"})

    async def admin_chat(self, request: Request) -> Response:
        """``POST /api/admin/remove-chat`` (JSON ``{"table", "n"}``, the CSRF token of ``/api/session`` in
        ``X-CSRF-Token``): the table page's button that removes a chat line, for a site administrator; the same
        removal as the account page's form (``hub.remove_chat``)."""
        return await self._admin_json(request, "chat")

    async def admin_close(self, request: Request) -> Response:
        """``POST /api/admin/close-table`` (JSON ``{"table"}``, the CSRF token of ``/api/session`` in
        ``X-CSRF-Token``): the table page's button that closes the table, for a site administrator; the same
        closing as the account page's form (``hub.close_table``: a ``closed`` event ``by`` ``admin``, which tells
        everyone at the table, each in his language)."""
        return await self._admin_json(request, "close")

    async def _admin_json(self, request: Request, what: str) -> Response:
        """A site administrator's request from the table page: its origin, CSRF token and account checked first."""
        try:
            if not same_origin(request):
                raise AccountError("csrf", msg("acc_e_request_origin"), 403)
            if not csrf_ok(self.keys["csrf"], self.anchor(request), request.headers.get("x-csrf-token")):
                raise AccountError("csrf", msg("acc_e_request_csrf"), 403)
            current = await self.account(request)
            if current is None:
                raise AccountError("signin", msg("acc_e_signed_out"), 401)
            if not current.admin:
                raise AccountError("admin", msg("acc_e_admin_only"), 403)
            body = await _json_body(request)
            table = str(body.get("table") or "")
            if what == "close":
                try:
                    await self.close_table(table, "closed by the site's administrator")
                except ClientError as e:
                    raise AccountError(e.code, e.msg, 404 if e.code == "not_found" else 409) from None
                return JSONResponse({"ok": True, "table": table})
            n = body.get("n")
            if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                raise AccountError("bad_message", msg("acc_e_chat_number", n=str(n)))
            try:
                await self.remove_chat(table, n, "removed by the site's administrator")
            except ClientError as e:
                raise AccountError(e.code, e.msg, 404 if e.code == "not_found" else 409) from None
            return JSONResponse({"ok": True, "table": table, "n": n})
        except AccountError as e:
            return refusal(e.code, e.msg, await self.lang(request), e.status)

    async def board(self, pool: str, season: str) -> list[dict[str, Any]]:
        """A pool's board of a season, or of ``all`` the games (the ratings as they are now); ValueError for a
        season's name that is not ``YYYY-Qn``."""
        if season == "all":
            return await ratings.leaderboard(self.accounts.store, pool)
        return await ratings.season_leaderboard(self.accounts.store, pool, season)

    async def leaderboard(self, request: Request) -> Response:
        """``GET /api/ratings/<pool>?season=``: the pool's leaderboard of a season (a calendar quarter in UTC,
        ``2026-Q4``; by default the current one) or of ``all`` the games (docs/accounts.md "Seasons")."""
        pool = request.path_params["pool"]
        if pool not in ratings.pools():
            return refusal("not_found", msg("srv_no_pool", pool=pool, pools=", ".join(ratings.pools())),
                           await self.lang(request), 404)
        season = request.query_params.get("season") or ratings.season_of(time.time())
        try:
            board = await self.board(pool, season)
        except ValueError:
            return refusal("bad_season", msg("srv_bad_season", season=season), await self.lang(request), 400)
        return JSONResponse({"pool": pool, "season": season, "computer": {k: {"mu": v[0], "sigma": v[1]}
                                                                          for k, v in ratings.COMPUTER.items()},
                             "leaderboard": board})

    async def leaderboard_page(self, request: Request) -> Response:
        """``GET /leaderboards`` (the pools and the seasons) and ``GET /leaderboards/<pool>?season=`` (a pool's
        board of a season, the signed-in player's row marked): the pages of :meth:`leaderboard`, in the page's
        language."""
        viewer = await self.account(request)
        mine = None if viewer is None else await profiles.profile(self.accounts.store, viewer.id)
        lang = page_lang(request, mine.language if mine else None)
        tr = texts(lang)
        pool = request.path_params.get("pool")
        current = ratings.season_of(time.time())
        season = request.query_params.get("season") or current
        seasons = await ratings.seasons(self.accounts.store, time.time())
        headers = {"Cache-Control": "no-store"}
        query = {"season": request.query_params.get("season", "")}

        def refused(code: str, text: str, status: int) -> Response:
            body = f'<p class="error" role="alert" data-code="{code}">{text}</p>'
            return HTMLResponse(shell(lang, render(msg("acc_lb_title"), lang), self.style(), "", body,
                                      "/leaderboards"), status_code=status, headers=headers)

        if pool is not None and pool not in ratings.pools():
            return refused("not_found", tr("acc_lb_no_pool", pool=pool), 404)
        if season != "all":
            try:
                ratings.season_bounds(season)
            except ValueError:
                return refused("bad_season", tr("acc_lb_bad_season", season=season), 400)
        if pool is None:
            body = leaderboards_html(lang, seasons, current, season)
            return HTMLResponse(shell(lang, render(msg("acc_lb_title"), lang), self.style(), "", body,
                                      "/leaderboards", query), headers=headers)
        board = await self.board(pool, season)
        body = leaderboard_html(lang, pool, season, current, seasons, board, viewer.name if viewer else None)
        return HTMLResponse(shell(lang, render(msg("acc_lb_pool_title", pool=pool), lang), self.style(), "", body,
                                  f"/leaderboards/{pool}", query), headers=headers)

    # ----- the forms ----------------------------------------------------------------------------------------------
    async def post(self, request: Request, address: str) -> Response:
        action = request.path_params["action"]
        try:
            if action not in ("signup", "signin", "signout", "signout-all", "password", "profile", "delete", "bot",
                              "bot-token", "admin-disable", "admin-enable", "admin-close", "admin-chat"):
                raise AccountError("not_found", msg("acc_e_no_form", action=action), 404)
            form = await _form_body(request)
            if not same_origin(request):
                raise AccountError("csrf", msg("acc_e_origin"), 403)
            if not csrf_ok(self.keys["csrf"], self.anchor(request), form.get("csrf")):
                raise AccountError("csrf", msg("acc_e_csrf"), 403)
            back = RedirectResponse(self.back(request), status_code=303)
            if action in ("signup", "signin"):
                name, password = form.get("name", ""), form.get("password", "")
                if action == "signup":
                    account = await self.accounts.sign_up(name, password, address)
                else:
                    account = await self.accounts.sign_in(name, password, address)
                return await self.signed_in(request, account, back)
            current = await self.account(request)
            if current is None:
                raise AccountError("signin", msg("acc_e_signed_out"), 401)
            if action == "signout":
                await self.accounts.close_session(self.token(request) or "")
            elif action == "signout-all":
                await self.accounts.close_all(current)
            elif action == "password":  # this browser stays signed in; every other session ends
                ended = await self.accounts.change_password(current, form.get("old", ""), form.get("new", ""),
                                                            self.token(request))
                return await self.page(request, note=msg("acc_password_changed", n=ended))
            elif action == "profile":
                if current.bot:
                    raise AccountError("bot", msg("acc_e_bot_profile"), 403)
                saved = await profiles.save(self.accounts.store, current, form)
                return await self.page(request, note=msg("acc_profile_saved_public") if saved.public
                                       else msg("acc_profile_saved_private"))
            elif action == "delete":
                await self.accounts.delete(current, form.get("password", ""))
            elif action.startswith("admin-"):
                if not current.admin:
                    raise AccountError("admin", msg("acc_e_admin_only"), 403)
                if action == "admin-close":
                    table = form.get("table", "").strip()
                    try:
                        await self.close_table(table, "closed by the site's administrator")
                    except ClientError as e:
                        raise AccountError(e.code, e.msg, 404 if e.code == "not_found" else 409) from None
                    return await self.page(request, note=msg("acc_table_closed", table=table))
                if action == "admin-chat":
                    table, n = form.get("table", "").strip(), form.get("n", "").strip()
                    if not n.isdecimal():
                        raise AccountError("bad_message", msg("acc_e_chat_number", n=n))
                    try:
                        await self.remove_chat(table, int(n), "removed by the site's administrator")
                    except ClientError as e:
                        raise AccountError(e.code, e.msg, 404 if e.code == "not_found" else 409) from None
                    return await self.page(request, note=msg("acc_chat_removed", n=n, table=table))
                who = await self.accounts.set_disabled(current, form.get("name", ""), action == "admin-disable")
                return await self.page(request, note=msg("acc_account_disabled", name=who.name)
                                       if action == "admin-disable" else msg("acc_account_enabled", name=who.name))
            elif action == "bot":  # the token is shown this once, on this answer (never stored, never sent again)
                bot, token = await self.accounts.make_bot(current, form.get("name", ""))
                return await self.page(request, note=msg("acc_bot_made", name=bot.name, token=token), status=201)
            elif action == "bot-token":  # the new token is shown this once; the old one no longer signs in
                bot, token = await self.accounts.new_bot_token(current, form.get("name", ""))
                closed = self.close_bot(bot.id)  # what it opened with the old token here; elsewhere: at its next
                return await self.page(request, note=msg("acc_bot_new_token", name=bot.name, token=token, n=closed))
            resp = RedirectResponse(self.back(request), status_code=303)
            resp.delete_cookie(COOKIE, path="/", secure=request.url.scheme == "https", httponly=True,
                               samesite="lax")
            return resp
        except AccountError as e:
            return await self.page(request, e)

    @staticmethod
    def back(request: Request) -> str:
        """The account page, in the language the form was sent in (its address's ``?lang=``)."""
        lang = request.query_params.get("lang", "")
        return f"/account?lang={lang}" if lang in LANGS else "/account"

    async def passkey(self, request: Request, address: str) -> Response:
        """``POST /account/passkey/<step>`` (JSON, the CSRF token in ``X-CSRF-Token``): ``register-options`` and
        ``register`` (a new account, or a passkey more for the signed-in one), ``signin-options`` and ``signin``."""
        step = request.path_params["step"]
        try:
            if step not in ("register-options", "register", "signin-options", "signin"):
                raise AccountError("not_found", msg("acc_e_no_step", step=step), 404)
            if not same_origin(request):
                raise AccountError("csrf", msg("acc_e_request_origin"), 403)
            if not csrf_ok(self.keys["csrf"], self.anchor(request), request.headers.get("x-csrf-token")):
                raise AccountError("csrf", msg("acc_e_request_csrf"), 403)
            body = await _json_body(request)
            host = request.headers.get("host", "")
            rp_id = urlsplit(f"//{host}").hostname or ""
            origin = f"{request.url.scheme}://{host}"
            account = await self.account(request)
            if step == "register-options":
                return Response(await self.passkeys.register_options(rp_id, body.get("name"), account),
                                media_type="application/json", headers={"Cache-Control": "no-store"})
            if step == "signin-options":
                return Response(await self.passkeys.signin_options(rp_id), media_type="application/json",
                                headers={"Cache-Control": "no-store"})
            credential = body.get("credential")
            if not isinstance(credential, dict):
                raise AccountError("bad_form", msg("acc_e_credential"))
            if step == "register":
                made = await self.passkeys.register(rp_id, origin, credential, account)
                if account is not None:  # a passkey more: the session stays
                    return JSONResponse({"ok": True, "account": made.name})
            else:
                made = await self.passkeys.sign_in(rp_id, origin, credential, address)
            return await self.signed_in(request, made, JSONResponse({"ok": True, "account": made.name}))
        except AccountError as e:
            return refusal(e.code, e.msg, await self.lang(request), e.status)

    async def signed_in(self, request: Request, account: Account, resp: Response) -> Response:
        """A new session of ``account`` for this browser (its guest games claimed, its old session ended)."""
        guest = guest_of(request.cookies.get(GUEST_COOKIE), self.keys["guest"])
        if guest is not None:  # the guest games of this browser become the account's
            await self.accounts.claim_guest(account, guest)
        token = await self.accounts.open_session(account)
        old = self.token(request)
        if old is not None:
            await self.accounts.close_session(old)
        resp.set_cookie(COOKIE, session_cookie(self.keys["session"], token), max_age=SESSION_AGE, path="/",
                        secure=request.url.scheme == "https", httponly=True, samesite="lax")
        return resp

    def routes(self, limited: Callable[[Any], Any], address: Callable[[Request], str]) -> list[Route]:
        async def post(request: Request) -> Response:
            return await self.post(request, address(request))

        async def page(request: Request) -> Response:
            return await self.page(request)

        async def passkey(request: Request) -> Response:
            return await self.passkey(request, address(request))

        return [
            Route("/account", limited(page)),
            Route("/account/passkey/{step}", limited(passkey), methods=["POST"]),
            Route("/account/{action}", limited(post), methods=["POST"]),
            Route("/api/account", limited(self.api)),
            Route("/api/session", limited(self.session)),
            Route("/api/admin/remove-chat", limited(self.admin_chat), methods=["POST"]),
            Route("/api/admin/close-table", limited(self.admin_close), methods=["POST"]),
            Route("/players/{name}", limited(self.public)),
            Route("/api/ratings/{pool}", limited(self.leaderboard)),
            Route("/leaderboards", limited(self.leaderboard_page)),
            Route("/leaderboards/{pool}", limited(self.leaderboard_page)),
        ]


async def _form_body(request: Request) -> dict[str, str]:
    """The form's fields (``application/x-www-form-urlencoded``, at most :data:`MAX_FORM` bytes)."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/x-www-form-urlencoded":
        raise AccountError("bad_form", msg("acc_e_form_type"), 415)
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_FORM:
            raise AccountError("too_large", msg("acc_e_form_large", size=MAX_FORM), 413)
    try:
        fields = parse_qs(body.decode("utf-8"), keep_blank_values=True, strict_parsing=False, max_num_fields=8)
    except (UnicodeDecodeError, ValueError):
        raise AccountError("bad_form", msg("acc_e_form_unread")) from None
    return {k: v[0] for k, v in fields.items()}


async def _json_body(request: Request) -> dict[str, Any]:
    """A passkey step's JSON object (at most 16 KiB)."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > 16384:
            raise AccountError("too_large", msg("acc_e_json_large"), 413)
    try:
        out = json.loads(body or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
        raise AccountError("bad_json", msg("acc_e_json")) from None
    if not isinstance(out, dict):
        raise AccountError("bad_json", msg("acc_e_json_object"))
    return out


def same_origin(request: Request) -> bool:
    """Whether the ``Origin`` a browser sends names this very server. None (a program, which holds no victim's
    cookie) and ``null`` (what the browser sends for a form of a page under ``Referrer-Policy: no-referrer``, as
    the server's pages are) prove nothing either way: the CSRF token decides."""
    origin = request.headers.get("origin")
    if origin is None or origin == "null":
        return True
    return urlsplit(origin).netloc.lower() == request.headers.get("host", "").lower()


__all__ = ["AccountPages"]
