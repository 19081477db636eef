"""``burraco tournament …``: the director's desk on the command line. An event lives in one JSON file (its setup and
its log, :meth:`Event.to_json`); every command reads it, adds its entry and writes it back (atomically), or
refuses with the reason and leaves the file as it was.

    burraco tournament new club.json --name "Torneo del giovedì" --rounds 4 --movements mitchell,mitchell,mitchell,danish
    burraco tournament register club.json "Rossi – Bianchi" "Anna Rossi" "Bruno Bianchi" --club "BC Roma"
    burraco tournament import club.json iscritti.csv
    burraco tournament start club.json
    burraco tournament enter club.json 3 1 --by NS --ns "clean=1,closing,melds=105,hand=20" --ew "melds=75,hand=70"
    burraco tournament confirm club.json 3 1 --by EW
    burraco tournament close club.json
    burraco tournament standings club.json
    burraco tournament print club.json standings --pdf classifica.pdf
    burraco tournament simulate --pairs 16 --rounds 4 --movements mitchell,mitchell,mitchell,danish --players heuristic:hard,ismcts:0.1s
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table as RichTable

from ..messages import msg, render
from ..parallel import ParallelError
from .event import Event
from .scoring import LineScore, ScoreError
from .setup import TournamentError

app = typer.Typer(no_args_is_help=True, help="Run a tournament: pairs, teams or individual (rule 12 of the rule book).")
console = Console()
err = Console(stderr=True)

EVENT = typer.Argument(..., help="the event file (JSON), made by `burraco tournament new`")


def _now() -> str:
    return datetime.now().isoformat(timespec="seconds")


def _fail(message: str, code: int = 1) -> typer.Exit:
    """A refusal in one line; ``code`` 2 for a usage error (an option or a path that cannot be used)."""
    err.print(f"[red]refused:[/red] {message}", highlight=False, markup=True, soft_wrap=True)
    return typer.Exit(code)


def _load(path: Path) -> Event:
    try:
        return Event.from_json(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise _fail(f"no event file {path} (make one with `burraco tournament new {path}`)", 2) from None
    except (OSError, UnicodeDecodeError) as e:
        raise _fail(f"cannot read the event file {path}: {e}", 2) from None
    except TournamentError as e:
        raise _fail(f"{path}: {e}", 2) from None


def _writable(path: Path) -> None:
    """An event file's path checked before any work (a usage error: no folder, a folder given …)."""
    from ..files import output_problem

    why = output_problem(path)
    if why is not None:
        raise _fail(why, 2)


def _save(ev: Event, path: Path) -> None:
    """Write the event atomically: a crash never leaves half a file."""
    data = json.dumps(ev.to_json(), ensure_ascii=False, indent=1)
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent or Path("."), prefix=path.name, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(data)
        os.replace(tmp, path)
    except OSError as e:
        raise _fail(f"cannot write the event file {path}: {e}") from None


def _do(path: Path, action: Any) -> Event:
    ev = _load(path)
    try:
        action(ev)
    except (TournamentError, ScoreError) as e:
        raise _fail(str(e)) from None
    _save(ev, path)
    return ev


def parse_line(text: str) -> LineScore:
    """``clean=1,semiclean=0,dirty=1,closing,melds=105,hand=20,nopozzetto`` → a :class:`LineScore` (``closing`` and
    ``nopozzetto`` are flags; unnamed figures are 0, the pozzetto taken)."""
    kw: dict[str, Any] = {}
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        if part == "closing":
            kw["closing"] = True
        elif part in ("nopozzetto", "no-pozzetto"):
            kw["pozzetto"] = False
        elif "=" in part:
            k, _, v = part.partition("=")
            k = k.strip()
            if k not in ("clean", "semiclean", "dirty", "melds", "hand"):
                raise ScoreError(
                    f"unknown figure {k!r} (clean, semiclean, dirty, melds, hand; flags closing, nopozzetto)"
                )
            try:
                kw[k] = int(v)
            except ValueError:
                raise ScoreError(f"{k}={v}: a whole number") from None
        else:
            raise ScoreError(f"{part!r}: write name=number, or the flags closing / nopozzetto")
    return LineScore(**kw)


@app.command()
def new(
    file: Path = EVENT,
    name: str = typer.Option(..., "--name", help="the event's name"),
    date: str = typer.Option("", "--date", help="its date (YYYY-MM-DD)"),
    kind: str = typer.Option("pairs", "--kind", help="pairs, teams or individual"),
    rules: str = typer.Option("italian-tournament", "--rules", help="the rules preset every table plays"),
    hands: int = typer.Option(3, "--hands", help="hands per round: 2, 3, 4 or 5"),
    minutes: int | None = typer.Option(None, "--minutes", help="minutes per round (the time-out)"),
    rounds: int = typer.Option(4, "--rounds", help="number of rounds (1 to 40)"),
    movements: str | None = typer.Option(
        None,
        "--movements",
        help="one per round or one for all: mitchell, danish, danish_modified, round_robin (default: up to "
        "three Mitchell rounds, then danish_modified)",
    ),
    groups: int = typer.Option(1, "--groups", help="round robin in this many groups"),
    vp_table: Path | None = typer.Option(
        None, "--vp-table", help="a VP table file (JSON; 2- and 5-hand rounds)"
    ),
    team_vp_table: Path | None = typer.Option(None, "--team-vp-table", help="a team VP table file (JSON)"),
    bye_vp: int = typer.Option(14, "--bye-vp", help="VP of a bye (rule 12.6)"),
    bye_mp: int = typer.Option(355, "--bye-mp", help="MP of a bye"),
    duplicate: bool = typer.Option(False, "--duplicate", help="every table of a round plays the same deals"),
    seed: int = typer.Option(0, "--seed", help="seed of the deals and of the lot"),
    seeding: str = typer.Option("registration", "--seeding", help="first round by registration or random"),
    ranking: str = typer.Option("vp", "--ranking", help="standings by vp or by mp"),
    adjusted: str = typer.Option(
        "draw", "--adjusted", help="a table that could not play scores a 'draw' (the VP table's, 0 MP) or a 'bye'"
    ),
    prizes: str = typer.Option("", "--prizes", help="prizes: how many overall, then categories: 3,ladies:1"),
    force: bool = typer.Option(False, "--force", help="overwrite an existing file"),
) -> None:
    """Create an event file."""
    _writable(file)
    if file.exists() and not force:
        raise _fail(f"{file} exists (use --force to start it anew)", 2)
    vp, tvp = None, None
    for name_, table in (("--vp-table", vp_table), ("--team-vp-table", team_vp_table)):
        if table is not None:
            try:
                text = table.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as e:
                raise _fail(f"{name_}: cannot read {table}: {e}", 2) from None
            vp, tvp = (text, tvp) if name_ == "--vp-table" else (vp, text)
    try:
        ev = Event.create(
            name,
            date=date,
            kind=kind,
            rules=rules,
            hands=hands,
            minutes=minutes,
            rounds=rounds,
            movements=movements,
            groups=groups,
            vp_table=vp,
            team_vp_table=tvp,
            bye_vp=bye_vp,
            bye_mp=bye_mp,
            duplicate=duplicate,
            seed=seed,
            seeding=seeding,
            ranking=ranking,
            adjusted=adjusted,
            prizes=prizes,
        )
    except TournamentError as e:  # a setting that cannot be: a usage error
        raise _fail(str(e), 2) from None
    _save(ev, file)
    console.print(
        f"{file}: {ev.setup.name}, {ev.setup.kind}, {ev.setup.rounds} rounds of {ev.setup.hands} hands "
        f"({', '.join(ev.setup.movements)})"
    )


@app.command()
def register(
    file: Path = EVENT,
    name: str = typer.Argument(..., help="the pair's, team's or player's name"),
    players: list[str] = typer.Argument(..., help="the players' names (two for a pair, 4-8 for a team)"),
    club: str = typer.Option("", "--club", help="their club"),
    members: str = typer.Option(
        "", "--members", help="membership numbers, comma-separated, in the players' order"
    ),
    category: list[str] = typer.Option([], "--category", help="a prize category it competes in (repeatable)"),
) -> None:
    """Register an entrant (a late entry between rounds plays from the next round)."""
    nums = [m.strip() for m in members.split(",")] if members else []
    people = [
        {"name": p, "club": club, "member": nums[i] if i < len(nums) else ""} for i, p in enumerate(players)
    ]
    ev = _do(file, lambda ev: ev.register(name, people, at=_now(), by="director", categories=category))
    e = list(ev.entrants.values())[-1]
    console.print(f"registered {e.label}")


@app.command("import")
def import_csv(
    file: Path = EVENT, csv_file: Path = typer.Argument(..., help="columns entrant,name,club,member")
) -> None:
    """Register every entrant of a CSV file (all or nothing)."""
    from .printouts import import_participants

    try:
        text = csv_file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise _fail(f"cannot read the CSV file {csv_file}: {e}", 2) from None
    got: list[Any] = []
    _do(file, lambda ev: got.extend(import_participants(ev, text, at=_now(), by="director")))
    console.print(f"registered {len(got)} entrants")


@app.command("import-sheets")
def import_sheets(
    file: Path = EVENT,
    csv_file: Path = typer.Argument(..., help="the running round's sheets: the columns `export sheets` writes"),
    by: str = typer.Option("director", "--by", help="the director entering them: director or director:<name>"),
) -> None:
    """Enter score sheets from a CSV as the director's entries (counted at once; all rows or none)."""
    from .printouts import import_sheets as load

    if not by.startswith("director"):
        raise _fail("sheets are imported by the director: --by director or director:<name>")
    try:
        text = csv_file.read_text(encoding="utf-8")
    except OSError as e:
        raise _fail(str(e)) from None
    got: list[int] = []
    _do(file, lambda ev: got.append(load(ev, text, by=by, at=_now())))
    console.print(f"entered {got[0]} sheet(s)")


@app.command()
def export(
    file: Path = EVENT,
    what: str = typer.Argument("participants", help="participants, standings, sheets or federation"),
) -> None:
    """Write a CSV to standard output (federation: the results with the members' clubs and numbers)."""
    from . import printouts

    ev = _load(file)
    fns: dict[str, Callable[[Event], str]] = {
        "participants": lambda ev: printouts.participants_csv(ev),  # no server: accounts as they were linked
        "standings": printouts.standings_csv,
        "sheets": printouts.sheets_csv,
        "federation": printouts.federation_csv,
    }
    if what not in fns:
        raise _fail(f"export participants, standings, sheets or federation, not {what!r}")
    try:
        typer.echo(fns[what](ev), nl=False)
    except TournamentError as e:
        raise _fail(str(e)) from None


@app.command()
def withdraw(file: Path = EVENT, entrant: str = typer.Argument(..., help="the entrant's number")) -> None:
    """Withdraw an entrant between rounds."""
    _do(file, lambda ev: ev.withdraw(entrant, at=_now(), by="director"))
    console.print(f"withdrawn: {entrant}")


@app.command()
def lineup(
    file: Path = EVENT,
    team: str = typer.Argument(..., help="the team's number"),
    pairs: list[str] = typer.Argument(..., help="its pairs for the next round, players by number: 1-3 2-4"),
) -> None:
    """A team's pairs for the next round."""
    try:
        ps = [[int(x) - 1 for x in p.split("-")] for p in pairs]
    except ValueError:
        raise _fail("write each pair as two player numbers joined by '-': 1-3 2-4") from None
    _do(file, lambda ev: ev.lineup(team, ps, at=_now(), by="director"))


@app.command()
def start(file: Path = EVENT) -> None:
    """Pair, seat and start the next round; print its tables."""
    ev = _do(file, lambda ev: ev.start_round(at=_now(), by="director"))
    _print_round(ev)


def _print_round(ev: Event) -> None:
    rs = ev.rounds[-1]
    t = RichTable(title=f"{ev.setup.name}: round {rs.number} ({rs.movement})")
    for col in ("table", "NS", "EW"):
        t.add_column(col)
    for tab in rs.tables:
        t.add_row(
            str(tab.number),
            " – ".join(ev.who(m) for m in tab.ns.members),
            " – ".join(ev.who(m) for m in tab.ew.members),
        )
    console.print(t)
    if rs.byes:
        console.print("bye: " + ", ".join(ev.entrants[b].label for b in rs.byes))


@app.command()
def enter(
    file: Path = EVENT,
    table: int = typer.Argument(..., help="the table"),
    hand: int = typer.Argument(..., help="the hand (1, 2, …)"),
    by: str = typer.Option(..., "--by", help="NS or EW (the line entering), or director:<name>"),
    ns: str = typer.Option(
        ..., "--ns", help="NS's figures: clean=1,semiclean=0,dirty=0,closing,melds=105,hand=20"
    ),
    ew: str = typer.Option(
        ..., "--ew", help="EW's figures, the same way (nopozzetto: the pozzetto not taken)"
    ),
    timeout: bool = typer.Option(
        False, "--timeout", help="the time-out was announced during this hand: the table's match ends with it"
    ),
) -> None:
    """Enter a hand's score sheet (both lines); it counts once the other line confirms it (at once when the
    director enters it)."""
    try:
        a, b = parse_line(ns), parse_line(ew)
    except ScoreError as e:
        raise _fail(str(e)) from None
    ev = _do(file, lambda ev: ev.enter_hand(table, hand, a, b, by=by, at=_now(), timeout=timeout))
    waiting = "" if by.startswith("director") else " — waiting for the other line's confirmation"
    console.print(f"table {table}, hand {hand}: NS {a.total(ev.rules)}, EW {b.total(ev.rules)}{waiting}")


@app.command()
def confirm(
    file: Path = EVENT,
    table: int = typer.Argument(...),
    hand: int = typer.Argument(...),
    by: str = typer.Option(..., "--by", help="the other line: NS or EW"),
) -> None:
    """Countersign a hand's sheet (the line that did not enter it)."""
    _do(file, lambda ev: ev.confirm(table, hand, by=by, at=_now()))
    console.print(f"table {table}, hand {hand}: confirmed by {by}")


@app.command()
def correct(
    file: Path = EVENT,
    table: int = typer.Argument(...),
    hand: int = typer.Argument(...),
    by: str = typer.Option(..., "--by", help="director:<name>"),
    reason: str = typer.Option(..., "--reason", help="why"),
    ns: str = typer.Option(..., "--ns"),
    ew: str = typer.Option(..., "--ew"),
    round_no: int | None = typer.Option(None, "--round", help="a past round (default: the current one)"),
    timeout: bool | None = typer.Option(
        None, "--timeout/--no-timeout", help="mark (or unmark) the hand as the hand of the time-out"
    ),
) -> None:
    """The director's correction of a sheet (kept with who and why)."""
    try:
        a, b = parse_line(ns), parse_line(ew)
    except ScoreError as e:
        raise _fail(str(e)) from None
    _do(file, lambda ev: ev.correct(table, hand, a, b, by=by, reason=reason, round=round_no, at=_now(),
                                    timeout=timeout))
    console.print(f"table {table}, hand {hand}: corrected")


@app.command()
def timeout(file: Path = EVENT) -> None:
    """Announce the time-out for every table of the round (rule 9.4: each table's match ends with its hand)."""
    _do(file, lambda ev: ev.timeout(at=_now(), by="director"))
    console.print(
        "time-out announced: one more round at every table, then the hand ends and with it the table's match "
        "(enter that hand with --timeout; a table between hands: `finish`)"
    )


@app.command()
def finish(file: Path = EVENT, table: int = typer.Argument(...)) -> None:
    """After the time-out: end a table's round with the hands it played."""
    _do(file, lambda ev: ev.finish_table(table, at=_now(), by="director"))


@app.command()
def close(file: Path = EVENT) -> None:
    """Close the round (every table complete; after the time-out every table ends with the hands it counted)
    and print the standings."""
    ev = _do(file, lambda ev: ev.close_round(at=_now(), by="director"))
    _print_standings(ev, None)


@app.command()
def penalty(
    file: Path = EVENT,
    entrant: str = typer.Argument(..., help="the entrant's number"),
    reason: str = typer.Option(..., "--reason", help="why (rule 13)"),
    vp: int = typer.Option(0, "--vp", help="victory points off its total"),
    mp: int = typer.Option(0, "--mp", help="match points off the MP it scored"),
    by: str = typer.Option("director", "--by", help="director:<name>"),
    round_no: int | None = typer.Option(None, "--round", help="the round (default: the latest started)"),
) -> None:
    """The director's penalty: VP off the total, MP off the MP scored (the opponents are unchanged)."""
    _do(file, lambda ev: ev.penalty(entrant, vp=vp, mp=mp, reason=reason, by=by, round=round_no, at=_now()))
    console.print(f"penalty for {entrant}: -{vp} VP, -{mp} MP")


@app.command()
def adjust(
    file: Path = EVENT,
    table: int = typer.Argument(..., help="the table that could not play"),
    reason: str = typer.Option(..., "--reason", help="why"),
    ns: str = typer.Option("", "--ns", help="NS's adjusted score as VP,MP (with --ew; none: the convention)"),
    ew: str = typer.Option("", "--ew", help="EW's adjusted score as VP,MP"),
    by: str = typer.Option("director", "--by", help="director:<name>"),
    round_no: int | None = typer.Option(None, "--round", help="the round (default: the latest started)"),
) -> None:
    """The director's adjusted score for a table that could not play (rule 13): both lines' VP and MP,
    or neither for the event's convention (`new --adjusted`)."""

    def pair(text: str) -> tuple[int, int] | None:
        if not text:
            return None
        try:
            v, m = (int(x) for x in text.split(","))
        except ValueError:
            raise _fail(f"{text!r}: write the line's VP and MP as two whole numbers: 12,200") from None
        return v, m

    a, b = pair(ns), pair(ew)
    _do(file, lambda ev: ev.adjust(table, reason=reason, by=by, ns=a, ew=b, round=round_no, at=_now()))
    console.print(f"table {table}: adjusted score")


@app.command()
def lot(
    file: Path = EVENT,
    entrants: list[str] = typer.Argument(..., help="the entrants still level, in the order drawn"),
    by: str = typer.Option("director", "--by", help="director:<name>"),
    round_no: int | None = typer.Option(None, "--round", help="the standings after this round (default: latest)"),
) -> None:
    """Record the director's draw by lot for entrants level after every other step (rule 0.1)."""
    ev = _do(file, lambda ev: ev.draw_lots(entrants, by=by, round=round_no, at=_now()))
    _print_standings(ev, round_no)


@app.command()
def standings(
    file: Path = EVENT,
    round_no: int | None = typer.Option(None, "--round", help="after this round (default: all counted)"),
    as_json: bool = typer.Option(False, "--json", help="as JSON"),
) -> None:
    """The standings (rule 0.1 of the rule book, ties in the standings: each tie-break step named)."""
    ev = _load(file)
    if as_json:
        typer.echo(
            json.dumps([_standing_json(s) for s in ev.standings(round_no)], ensure_ascii=False, indent=1)
        )
        return
    _print_standings(ev, round_no)


def _standing_json(s: Any) -> dict[str, Any]:
    return {
        "rank": s.rank,
        "id": s.entrant.id,
        "name": s.entrant.name,
        "rounds": s.rounds,
        "vp": s.vp,
        "mp_for": s.mp_for,
        "mp_against": s.mp_against,
        "mp_diff": s.diff,
        "byes": s.byes,
        "penalty_vp": s.penalty_vp,
        "penalty_mp": s.penalty_mp,
        "tie": s.tie,
        "tie_value": s.tie_value,
    }


def _print_standings(ev: Event, upto: int | None) -> None:
    from .printouts import pts, tie_text

    t = RichTable(title=f"{ev.setup.name}: standings")
    for col in ("#", "entrant", "rounds", "VP", "MP +", "MP −", "diff", "penalty", "tie-break"):
        t.add_column(col, justify="left" if col in ("entrant", "tie-break") else "right")
    for s in ev.standings(upto):
        pen = " ".join(x for x in (f"-{s.penalty_vp} VP" if s.penalty_vp else "",
                                   f"-{s.penalty_mp} MP" if s.penalty_mp else "") if x)
        t.add_row(
            str(s.rank),
            s.entrant.label,
            str(s.rounds),
            str(s.vp),
            pts(s.mp_for),
            pts(s.mp_against),
            f"{s.diff:+d}",
            pen,
            tie_text(s),
        )
    console.print(t)


@app.command()
def compare(
    file: Path = EVENT,
    round_no: int | None = typer.Option(None, "--round", help="the round (default: every round)"),
    as_json: bool = typer.Option(False, "--json", help="as JSON"),
) -> None:
    """A duplicate event: each deal's scores across the tables, each NS line against the field's average."""
    ev = _load(file)
    rounds = [round_no] if round_no else [r.number for r in ev.rounds]
    try:
        if not ev.setup.duplicate:
            raise TournamentError(msg("te_not_duplicate"))
        data = {k: ev.deal_comparison(k) for k in rounds}
    except TournamentError as e:
        raise _fail(str(e)) from None
    if as_json:
        typer.echo(json.dumps([{"round": k, "hands": v} for k, v in data.items()], ensure_ascii=False, indent=1))
        return
    for k, hands in data.items():
        for h in hands:
            t = RichTable(title=f"round {k}, hand {h['hand']}")
            for col in ("table", "NS", "EW", "NS MP", "EW MP", "NS v field"):
                t.add_column(col, justify="right" if "MP" in col or "field" in col else "left")
            for x in h["tables"]:
                t.add_row(str(x["table"]), ev.entrants[x["ns"]].label, ev.entrants[x["ew"]].label,
                          str(x["ns_mp"]), str(x["ew_mp"]), f"{x['ns_vs_field']:+}")
            console.print(t)


@app.command()
def season(
    files: list[Path] = typer.Argument(..., help="the season's event files (JSON), in any order"),
    scoring: str = typer.Option("placing", "--scoring", help="placing (points per place) or vp (total VP)"),
    points: str = typer.Option("", "--points", help="points per place, e.g. 25,20,16,13,11 (default: the "
                               "field's size for the first, one fewer per place)"),
    out: Path | None = typer.Option(None, "--out", "-o", help="write it: .html, .pdf or .csv"),
    lang: str = typer.Option("it", "--lang", help="it, en, de, pt or nl"),
) -> None:
    """A club's season: one ranking of its players across the evenings (events)."""
    from . import printouts as p
    from .season import season as rank

    try:
        pts_ = [int(x) for x in points.split(",") if x.strip()] if points else None
    except ValueError:
        raise _fail(f"--points {points!r}: whole numbers separated by commas") from None
    events = [_load(f) for f in files]
    try:
        lines = rank(events, scoring, pts_)
    except TournamentError as e:
        raise _fail(str(e)) from None
    if out is not None and out.suffix.lower() == ".csv":
        import csv
        import io

        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(("rank", "name", "club", "member", "events", "points", "best"))
        for x in lines:
            w.writerow((x.rank, x.name, x.club, x.member, x.events, x.points, x.best))
        out.write_text(buf.getvalue(), encoding="utf-8")
    elif out is not None:
        doc = p.season(lines, render(msg("t_season_title"), lang), lang)
        if out.suffix.lower() == ".pdf":
            out.write_bytes(p.to_pdf(doc))
        elif out.suffix.lower() in (".html", ".htm"):
            out.write_text(p.to_html(doc), encoding="utf-8")
        else:
            raise _fail(f"{out}: write a .html, .pdf or .csv file")
    else:
        t = RichTable(title=f"season: {len(events)} events, by {scoring}")
        for col in ("#", "player", "club", "member", "events", "points", "best"):
            t.add_column(col, justify="left" if col in ("player", "club", "member") else "right")
        for x in lines:
            t.add_row(str(x.rank), x.name, x.club, x.member, str(x.events), str(x.points), str(x.best))
        console.print(t)
        return
    console.print(f"wrote {out}")


@app.command("print")
def print_cmd(
    file: Path = EVENT,
    what: str = typer.Argument(
        ..., help="sheets, pairings, tablecards, namecards, standings, results, compare or participants"
    ),
    out: Path = typer.Option(..., "--out", "-o", help="the file to write: .html or .pdf"),
    round_no: int | None = typer.Option(None, "--round", help="the round (default: the latest; standings: the "
                                        "last closed)"),
    lang: str = typer.Option("it", "--lang", help="it, en, de, pt or nl"),
) -> None:
    """Write a printable document as HTML or PDF."""
    from . import printouts as p

    if out.suffix.lower() not in (".pdf", ".html", ".htm"):
        raise _fail(f"{out}: write a .html or a .pdf file", 2)
    _writable(out)
    ev = _load(file)
    makers = {
        "sheets": lambda: p.score_sheets(ev, round_no, lang),
        "pairings": lambda: p.pairings(ev, round_no, lang),
        "tablecards": lambda: p.table_cards(ev, round_no, lang),
        "namecards": lambda: p.name_cards(ev, lang),
        "standings": lambda: p.standings(ev, round_no, lang),
        "results": lambda: p.final_results(ev, lang),
        "compare": lambda: p.compare(ev, round_no, lang),
        "participants": lambda: p.participants(ev, lang),
    }
    if what not in makers:
        raise _fail(f"print {', '.join(makers)}, not {what!r}")
    try:
        doc = makers[what]()
        if out.suffix.lower() == ".pdf":
            out.write_bytes(p.to_pdf(doc))
        elif out.suffix.lower() in (".html", ".htm"):
            out.write_text(p.to_html(doc), encoding="utf-8")
        else:
            raise _fail(f"{out}: write a .html or a .pdf file")
    except TournamentError as e:
        raise _fail(render(e.msg, lang)) from None  # in the printout's language
    except OSError as e:
        raise _fail(f"cannot write {out}: {e}") from None
    console.print(f"wrote {out}")


@app.command()
def simulate(
    pairs: int = typer.Option(16, "--pairs", min=2, help="number of pairs"),
    rounds: int = typer.Option(4, "--rounds", min=1, max=40, help="number of rounds (1 to 40)"),
    movements: str | None = typer.Option(
        None, "--movements", "--movement",
        help="one per round, or one for all (default: up to three Mitchell rounds, then danish_modified)",
    ),
    hands: int = typer.Option(3, "--hands", help="hands per round"),
    players: str = typer.Option(
        "heuristic:hard", "--players", help="computer players, comma-separated, dealt to the pairs in turn"
    ),
    seed: int = typer.Option(0, "--seed"),
    rules: str = typer.Option("italian-tournament", "--rules"),
    duplicate: bool = typer.Option(False, "--duplicate", help="every table of a round plays the same deals"),
    out: Path | None = typer.Option(None, "--out", help="save the event file here"),
    as_json: bool = typer.Option(False, "--json", help="print the standings as JSON"),
    workers: int = typer.Option(
        1, "--workers", "-w", help="play a round's tables over this many processes (0: one per CPU); same results"
    ),
    ray: str | None = typer.Option(
        None, "--ray", help="play the tables on the Ray cluster at ADDRESS ('local': start one here; needs burraco\\[ray])"
    ),
) -> None:
    """A whole tournament of computer players: the standings, for trying a format or ranking bots. Progress goes
    to standard error: a bar on a terminal, a line per table otherwise (a log, a pipe)."""
    from rich.progress import Progress

    from .simulate import simulate as run

    specs = [s.strip() for s in players.split(",") if s.strip()]
    if out is not None:
        _writable(out)  # before the tournament is played
    tty = err.is_terminal
    with Progress(console=err, transient=True, disable=not tty) as bar:
        task = bar.add_task("tables", total=None)

        def step(r: int, t: int, n: int) -> None:
            if tty:
                bar.update(task, description=f"round {r}: table {t}/{n}", advance=1)
            else:  # off a terminal the bar draws nothing: say where it is, one line per table
                typer.echo(f"round {r}/{rounds}: table {t}/{n} played", err=True)

        try:
            ev, _ = run(
                pairs=pairs,
                rounds=rounds,
                movements=movements,
                hands=hands,
                players=specs,
                seed=seed,
                rules=rules,
                duplicate=duplicate,
                progress=step,
                workers=workers,
                ray=ray,
            )
        except (ValueError, TournamentError, ParallelError) as e:
            raise _fail(str(e)) from None
    if out is not None:
        _save(ev, out)
    if as_json:
        typer.echo(json.dumps([_standing_json(s) for s in ev.standings()], ensure_ascii=False, indent=1))
    else:
        _print_standings(ev, None)


__all__ = ["app", "parse_line"]
