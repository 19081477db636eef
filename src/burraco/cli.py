"""The ``burraco`` command line (Typer)."""

from __future__ import annotations

import errno
import json
import os
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from typer.core import TyperCommand, TyperGroup

from .analysis import MEASURE_CAP
from .rules import Rules, RulesError, preset


def _bare_flags(params: list[Any]) -> list[Any]:
    """No value placeholder (``<bool>``) in the help beside a flag (``--json``, ``--help``): it takes no value."""
    for p in params:
        if getattr(p, "is_flag", False) and p.metavar is None:
            p.metavar = ""
    return params


class _Command(TyperCommand):
    """A ``burraco`` command: its help shows its flags without a value placeholder."""

    def get_params(self, ctx: Any) -> list[Any]:
        return _bare_flags(super().get_params(ctx))


class _Group(TyperGroup):
    """The ``burraco`` group: its help shows ``--help`` without a value placeholder, and so do the commands and
    groups under it, those of an added Typer app (``app.add_typer``) included."""

    def get_params(self, ctx: Any) -> list[Any]:
        return _bare_flags(super().get_params(ctx))

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        cmd = super().get_command(ctx, cmd_name)
        if type(cmd) is TyperCommand:
            cmd.__class__ = _Command
        elif type(cmd) is TyperGroup:
            cmd.__class__ = _Group
        return cmd


app = typer.Typer(
    cls=_Group,
    add_completion=False,
    no_args_is_help=True,
    help="Burraco: rules engine, records and simulation.",
    # -h as well as --help, on every command (a context passes its help options to its commands')
    context_settings={"help_option_names": ["-h", "--help"]},
)

#: the exit status of a usage error (a bad option, a path that cannot be used), as Click gives it everywhere
USAGE = 2


def _rules(name: str, players: int) -> Rules:
    """A preset with the ``--players`` override, or a usage error naming what is wrong."""
    try:
        return preset(name, **({"players": players} if players else {}))
    except RulesError as e:
        raise typer.BadParameter(str(e)) from e


def _count(value: int, option: str) -> int:
    """A count given on the command line (``--games``, ``--deals`` …): 1 or more, else a usage error."""
    if value < 1:
        raise typer.BadParameter(f"{option} must be 1 or more (got {value})")
    return value


def _player(spec: str, option: str) -> str:
    """A player spec in its canonical spelling (:mod:`burraco.bots.players`), else a usage error that names the
    accepted spellings."""
    from .bots.players import canonical_player

    try:
        return canonical_player(spec)
    except ValueError as e:
        raise typer.BadParameter(f"{option}: {e}") from e


def _progress(console: Console, quiet: bool) -> Any:
    """The progress of a long run on standard error (:func:`burraco.progress.progress`: a bar on a terminal,
    lines elsewhere, none for ``--json`` off a terminal)."""
    from .progress import progress

    return progress(console, quiet)


def _add_tournament() -> None:
    from .tournament.cli import app as tournament_app

    app.add_typer(tournament_app, name="tournament")


_add_tournament()


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            typer.echo(f"burraco {version('burraco')}")
        except PackageNotFoundError:  # a checkout run without an install
            typer.echo("burraco (not installed: version unknown)")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Burraco: rules engine, records and simulation."""


def _output(path: Path | None, option: str, *, folder: bool = False) -> Path | None:
    """An output path checked before any work (a usage error that names the option when it cannot be written:
    no folder, a folder given for a file, no permission), so that a bad path never throws a long run away."""
    from .files import output_problem

    if path is not None:
        why = output_problem(path, folder=folder)
        if why is not None:
            raise typer.BadParameter(why, param_hint=option)
    return path


def _plot_path(path: Path | None, option: str) -> Path | None:
    """``--plot FILE``: writable, and of a format matplotlib draws (its suffix: .png, .svg, .pdf …)."""
    if _output(path, option) is None or path is None:
        return None
    from .arena import plot_available

    if plot_available():
        from matplotlib.figure import Figure

        kinds = Figure().canvas.get_supported_filetypes()
        suffix = path.suffix.lstrip(".").lower()
        if suffix not in kinds:
            raise typer.BadParameter(
                f"{path}: matplotlib draws {', '.join('.' + k for k in sorted(kinds))}, not {path.suffix or 'a file without a suffix'}",
                param_hint=option,
            )
    return path


def _wrote_or_fail(what: str, path: Path, write: Any) -> None:
    """Write an output after the results have been printed; where writing fails anyway, one line says so and the
    command ends with status 1 (the results are on the screen already)."""
    try:
        write()
    except (OSError, ValueError) as e:
        typer.echo(f"error: cannot write the {what} to {path}: {e}", err=True)
        raise typer.Exit(1) from e


@app.command(cls=_Command)
def replay(
    file: Path = typer.Argument(
        ...,
        help='a game record (docs/records.md), or a JSON-lines file with one record (or {"record": …}) a line, as '
        "simulate --records writes; - reads standard input",
    ),
    watch: bool = typer.Option(
        False, "--watch", help="step through the record on the terminal table instead"
    ),
    seat: str | None = typer.Option(None, "--seat", help="with --watch: the seat whose view is shown"),
    lang: str | None = typer.Option(None, "--lang", help="with --watch: it, en, de, pt or nl"),
) -> None:
    """Replay a record through the engine and print the result as JSON (exit 0 ok, 1 illegal action, 2 bad record).

    A JSON-lines file gives one result a line, its line number first ("line"); the exit status is the worst one."""
    if watch:
        from .tui.run import PlayError
        from .tui.run import watch as watch_record

        try:
            raise typer.Exit(watch_record(file, seat, lang))
        except PlayError as e:
            typer.echo(f"error: {e}", err=True)
            raise typer.Exit(2) from e

    from .replay_cmd import replay_file

    raise typer.Exit(replay_file(str(file)))


def read_record(file: Path, game: int | None) -> dict[str, Any]:
    """The record ``analyse`` works on, read as ``replay`` reads it: a record, a record wrapped as ``{"record": …}``
    (a line of ``simulate --records``), or a JSON-lines file of them, where ``game`` (from 1) picks one (it may be
    left out when the file holds one). Raises ``RecordError`` (or ``OSError``, ``UnicodeDecodeError``)."""
    from .record import RecordError, json_lines, load_record, unwrap_record

    text = sys.stdin.read() if str(file) == "-" else file.read_text(encoding="utf-8")
    lines = json_lines(text)
    if lines is None:
        if game not in (None, 1):
            raise RecordError(f"{file} holds one record: --game {game} names none")
        where, data = "", unwrap_record(load_record(text))
    else:
        if game is None:
            raise RecordError(f"{file} holds {len(lines)} records, one a line: choose one with --game (1–{len(lines)})")
        if not 1 <= game <= len(lines):
            raise RecordError(f"--game {game}: {file} holds {len(lines)} records (1–{len(lines)})")
        n, line = lines[game - 1]
        where = f"line {n}: "
        try:
            data = unwrap_record(load_record(line))
        except RecordError as e:
            raise RecordError(f"{where}{e}") from e
    if not isinstance(data, dict):
        raise RecordError(f"{where}a record must be a JSON object")
    return data


@app.command(cls=_Command)
def verify(
    file: Path = typer.Argument(
        ..., help="a game record with its deals' commitments (a download of burraco serve); - reads standard input"
    ),
    lang: str | None = typer.Option(None, "--lang", help="it, en, de, pt or nl (default: the system locale)"),
    as_json: bool = typer.Option(False, "--json", help="one JSON object: every hand's check, with its text"),
) -> None:
    """Check that every hand of a record was dealt exactly as committed before the deal (docs/fairness.md): exit 0
    when every hand was, 1 when one was not or cannot be checked (no commitment, seed not revealed yet), 2 when the
    record is not valid."""
    from .fair import verify_record
    from .i18n import check_lang
    from .messages import msg, render
    from .record import RecordError, load_record, unwrap_record

    try:
        language = check_lang(lang)
    except ValueError as e:
        raise typer.BadParameter(str(e)) from e

    def fail(why: str) -> None:
        if as_json:
            print(json.dumps({"ok": False, "error": "record", "message": why}, ensure_ascii=False))
        else:
            typer.echo(render(msg("fair_record_invalid", why=why), language), err=True)
        raise typer.Exit(2)

    try:
        text = sys.stdin.read() if str(file) == "-" else file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        fail(f"cannot read {file}: {e}")
    try:
        checks = verify_record(unwrap_record(load_record(text)))
    except RecordError as e:
        fail(str(e))
        return
    ok = sum(1 for c in checks if c.ok)
    status = 0 if ok == len(checks) else 1
    if as_json:
        print(json.dumps({"ok": status == 0, "hands": [c.to_json(language) for c in checks]}, indent=1, ensure_ascii=False))
    else:
        for c in checks:
            typer.echo(("✓ " if c.ok else "✗ " if c.ok is False else "? ") + render(c.why, language, symbols=True))
        typer.echo(render(msg("fair_summary", ok=ok, n=len(checks)), language))
    raise typer.Exit(status)


@app.command(cls=_Command)
def analyse(
    file: Path = typer.Argument(
        ...,
        help="a game record (docs/records.md): a saved game, a server download, or a JSON-lines file as simulate "
        "--records writes (choose its record with --game); - reads standard input",
    ),
    seat: list[str] = typer.Option([], "--seat", help="the seat(s) to analyse (default: every seat)"),
    game: int | None = typer.Option(
        None, "--game", min=1, help="the record of a JSON-lines file to analyse (1: its first line)"
    ),
    iterations: int = typer.Option(
        32,
        "--iterations",
        min=1,
        help="determinizations per decision on which the best move is chosen (32: the hint's budget)",
    ),
    budget: float | None = typer.Option(
        None, "--budget", help="seconds per decision instead of --iterations"
    ),
    seed: int = typer.Option(0, "--seed", help="seed of the sampled hidden cards and the rollouts"),
    cap: int = typer.Option(
        MEASURE_CAP, "--cap", min=2,
        help=f"the most samples on which a decision's loss is measured ({MEASURE_CAP}; fewer: faster, and fewer "
        "marks)",
    ),
    as_json: bool = typer.Option(False, "--json", help="print the analysis as JSON (docs/analysis.md)"),
    out: Path | None = typer.Option(None, "--out", help="write the record annotated with the analysis here"),
) -> None:
    """The coach: how much each decision cost, from the seat's view at the time (never the hidden cards)."""
    from .analysis import analyse as run_analysis
    from .record import RecordError

    if budget is not None and budget <= 0:
        raise typer.BadParameter("--budget must be a positive number of seconds")
    _output(out, "--out")
    try:
        record = read_record(file, game)
    except (OSError, UnicodeDecodeError, RecordError) as e:
        typer.echo(f"error: cannot read {file}: {e}", err=True)
        raise typer.Exit(USAGE) from e
    console = Console(stderr=True)
    try:
        with _progress(console, as_json) as bar:
            task = bar.add_task("analysing", total=None)
            res = run_analysis(
                record,
                seat or None,
                iterations=iterations,
                time_budget=budget,
                seed=seed,
                progress=lambda done, total: bar.update(task, completed=done, total=total),
                cap=cap,
            )
    except (ValueError, RecordError) as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(USAGE) from e
    if as_json:
        print(json.dumps(res.to_json(), indent=1, ensure_ascii=False))
    else:
        _print_analysis(res)
    if out is not None:
        text = json.dumps(res.annotate(record), indent=1, ensure_ascii=False)
        _wrote_or_fail("annotated record", out, lambda: out.write_text(text, encoding="utf-8"))
        if not as_json:
            Console().print(f"annotated record: {out}")


def _print_analysis(res: Any) -> None:
    """The coach's tables (``res``: an :class:`~burraco.analysis.Analysis`): the marked decisions, then the points
    lost per hand and kind of decision."""
    from rich.table import Table

    from .messages import cards_symbols

    show = Console()
    t = Table(title=f"{res.rules}: marked decisions of {' '.join(res.seats)} ({res.iterations} samples each)")
    for col in ("hand", "move", "seat", "kind", "played", "better", "lost", "mark"):
        t.add_column(col, justify="right" if col in ("hand", "move", "lost") else "left")

    def words(a: str) -> str:
        return cards_symbols(a.partition(" ")[2])

    for d in res.decisions:
        if d.mark is not None:
            t.add_row(
                str(d.hand + 1),
                str(d.index + 1),
                d.seat,
                d.kind,
                words(d.played),
                words(d.best),
                f"{d.loss:.0f}",
                d.mark,
            )
    show.print(t)
    s = Table(title="points lost per hand, by kind of decision")
    for col in ("hand", "decisions", "pile", "melds", "discards", "closing", "marks"):
        s.add_column(col, justify="left" if col == "marks" else "right")
    for h in res.summary():
        marks = ", ".join(f"{n} {k}" for k, n in h["marks"].items() if n) or "—"
        s.add_row(
            str(h["hand"] + 1),
            str(h["decisions"]),
            *(f"{h['lost'][k]:.0f}" for k in ("pile", "melds", "discards", "closing")),
            marks,
        )
    show.print(s)


@app.command(cls=_Command)
def simulate(
    games: int = typer.Option(100, "--games", "-n", help="number of hands to play"),
    matches: int | None = typer.Option(
        None, "--matches", help="play this many whole matches instead of single hands"
    ),
    rules: str = typer.Option("italian", "--rules", "-r", help="preset name (see `burraco presets`)"),
    seed: int = typer.Option(0, "--seed", "-s", help="random seed (the same seed gives the same games)"),
    players: int = typer.Option(0, "--players", help="override the preset's number of players (2 to 6; 3, 5 and 6 with the Italian presets)"),
    max_hands: int = typer.Option(
        100, "--max-hands", help="stop a match still running after this many hands"
    ),
    as_json: bool = typer.Option(False, "--json", help="print the figures as one JSON object"),
    workers: int = typer.Option(
        1, "--workers", "-w", help="spread the games over this many processes (0: one per CPU); same results"
    ),
    ray: str | None = typer.Option(
        None,
        "--ray",
        help="run the games on the Ray cluster at ADDRESS ('local': start one here; needs burraco\\[ray])",
    ),
    records: Path | None = typer.Option(
        None,
        "--records",
        help="write one JSON line per game (or match) to this file, with its game record (burraco replay reads it)",
    ),
) -> None:
    """Play hands (or matches) between random legal players and report how they ended, scores and speed."""
    from .parallel import ParallelError
    from .sim import simulate as run_sim

    r = _rules(rules, players)
    _output(records, "--records")
    _count(games, "--games")
    if matches is not None:
        _count(matches, "--matches")
    _count(max_hands, "--max-hands")
    if workers < 0:
        raise typer.BadParameter("--workers must be 0 (one per CPU) or more")
    matches = matches or 0
    total = matches or games
    console = Console(stderr=True)
    try:
        with _progress(console, as_json) as prog:
            task = prog.add_task(f"{r.name}: {'matches' if matches else 'hands'}", total=total)
            st = run_sim(
                r,
                games=games,
                seed=seed,
                matches=matches,
                progress=lambda k: prog.advance(task, k),
                max_hands=max_hands,
                workers=workers,
                ray=ray,
                records=records is not None,
                full_records=records is not None,
            )
    except ParallelError as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(1) from e
    data = st.to_json()
    if as_json:
        print(json.dumps(data))
    else:
        _print_simulation(r, st, data)
    if records is not None:
        lines = "".join(json.dumps(rec, separators=(",", ":")) + "\n" for rec in st.games)
        _wrote_or_fail("records", records, lambda: records.write_text(lines, encoding="utf-8"))


def _print_simulation(r: Rules, st: Any, data: dict[str, Any]) -> None:
    """``simulate``'s tables: how the hands (and matches) ended, the mean scores, the speed."""
    from rich.table import Table

    from .sim import END_KINDS

    out = Console()
    t = Table(title=f"{r.name}: {st.hands} hands" + (f" in {st.matches} matches" if st.matches else ""))
    t.add_column("how hands ended")
    t.add_column("hands", justify="right")
    t.add_column("share", justify="right")
    for k in END_KINDS:
        n = st.ends.get(k, 0)
        t.add_row(k, str(n), f"{100 * n / max(st.hands, 1):.1f}%")
    out.print(t)
    for side in st.sides:
        out.print(f"mean hand score {side}: [bold]{data['mean_score'][side]:.1f}[/bold]")
    if st.matches:
        m = Table(title=f"{st.matches} matches, {data['hands_per_match']:.2f} hands per match")
        m.add_column("how matches ended")
        m.add_column("matches", justify="right")
        m.add_column("share", justify="right")
        ended = [(f"{side} won", data["match_wins"][side]) for side in st.sides]
        for what, n in [*ended, ("draw", st.match_draws), ("unfinished", st.match_unfinished)]:
            m.add_row(what, str(n), f"{100 * n / st.matches:.1f}%")
        out.print(m)
    out.print(f"decisions per hand: {data['decisions_per_hand']:.1f}")
    out.print(
        f"throughput: [bold]{st.hands_per_s:.1f}[/bold] hands/s, {st.decisions_per_s:.0f} decisions/s "
        f"({st.seconds:.2f} s)"
    )


#: how ``burraco presets`` writes the pick-up rule (docs/presets.md: ``pickup_rule``)
_PICKUP = {"none": "free", "must_open_or_attach": "open/add", "must_use_top_card": "top card"}


@app.command(cls=_Command)
def presets() -> None:
    """List the rule presets and their main parameters."""
    from rich.table import Table

    from .rules import PRESETS

    # two spaces between columns and no box: 79 columns wide, so that no name is cut in a pipe or an 80-column
    # terminal; a narrower one wraps the explanations, never a preset's name
    t = Table(
        title="rule presets (docs/presets.md)",
        box=None,
        padding=(0, 2, 0, 0),
        pad_edge=False,
        header_style="bold underline",
        caption="match: to a target score, or a fixed number of hands; sets: the ranks that may form sets; "
        "pick-up: what a turn that took the pile must do (free, open or add to a meld, meld its top card); "
        "close with: the burraco needed to close; discard: whether closing needs a last discard",
        caption_justify="left",
    )
    t.add_column("preset", no_wrap=True)
    for col in ("players", "match", "sets", "pick-up", "close with", "discard"):
        t.add_column(col, no_wrap=True)
    for name, r in PRESETS.items():
        match = f"to {r.target}" if r.target is not None else f"{r.hands_per_match} hands"
        if r.target is not None and r.hands_per_match is not None:
            match = f"to {r.target}, {r.hands_per_match} hands"
        sets = (
            "none"
            if not r.allowed_set_ranks
            else ("A, 3" if r.allowed_set_ranks == frozenset({1, 3}) else "all but 2")
        )
        t.add_row(
            name,
            str(r.players),
            match,
            sets,
            _PICKUP.get(r.pickup_rule.value, r.pickup_rule.value),
            r.closing_burraco.value,
            "required" if r.closing_requires_discard else "optional",
        )
    Console().print(t)


@app.command(cls=_Command)
def rules(
    number: str | None = typer.Argument(None, help="a rule's number (3.2, 14.3); none: the list of the rules"),
    lang: str | None = typer.Option(None, "--lang", help="en or it (the other languages read the English book)"),
) -> None:
    """The project's rule book in the terminal: a rule that a message, the help or the docs name ("rule 3.2")."""
    from .i18n import check_lang
    from .rulebook import RulebookError, plain_text, section, sections

    try:
        code = check_lang(lang) if lang else "en"
    except ValueError as e:
        raise typer.BadParameter(str(e), param_hint="--lang") from e
    width = min(Console().width, 100)
    if number is None:
        for s in sections(code).values():
            typer.echo(f"{'  ' * (s.level - 2)}{s.number}  {s.title}")
        return
    try:
        found = section(number.strip().lstrip("§"), code)
    except RulebookError as e:
        raise typer.BadParameter(f"the rule book has no rule {number}", param_hint="NUMBER") from e
    typer.echo(plain_text(found.page, width))


@app.command(cls=_Command)
def players() -> None:
    """List the spellings of the computer players (for play --partner/--opponents and arena --a/--b)."""
    from rich.table import Table

    from .bots.players import SPELLINGS

    t = Table(
        title="computer players",
        box=None,
        padding=(0, 2, 0, 0),
        pad_edge=False,
        header_style="bold underline",
        caption="One of these goes to burraco play --partner/--opponents, burraco arena --a/--b and the research "
        "environments' opponents. Case does not matter: Hard, hard and heuristic:hard are the same player.",
        caption_justify="left",
    )
    t.add_column("player", no_wrap=True)
    t.add_column("what it is")
    for spelling, what in SPELLINGS:
        t.add_row(spelling, what)
    Console().print(t)


@app.command(cls=_Command)
def arena(
    a: str = typer.Option(
        "heuristic:hard",
        "--a",
        help="player A: random, easy, medium, hard, ismcts[:N|:Ts] … (see `burraco players`)",
    ),
    b: str = typer.Option("random", "--b", help="player B (the same choices as --a)"),
    rules: str = typer.Option("italian", "--rules", "-r", help="preset name (see `burraco presets`)"),
    deals: int = typer.Option(20, "--deals", "-n", help="duplicate deals to play (each is played twice)"),
    seed: int = typer.Option(0, "--seed", "-s", help="random seed (the same seed gives the same games)"),
    players: int = typer.Option(0, "--players", help="override the preset's number of players (2 to 6; 3, 5 and 6 with the Italian presets)"),
    workers: int = typer.Option(
        1, "--workers", "-w", help="spread the deals over this many processes (0: one per CPU); same results"
    ),
    ray: str | None = typer.Option(
        None,
        "--ray",
        help="play the deals on the Ray cluster at ADDRESS ('local': start one here; needs burraco\\[ray])",
    ),
    resume: Path | None = typer.Option(
        None,
        "--resume",
        help="save progress to this JSON file after every deal, and continue it if it exists (same parameters)",
    ),
    save: Path | None = typer.Option(
        None, "--save", help="save progress to this JSON file after every deal (a new file; see --resume)"
    ),
    plot: Path | None = typer.Option(
        None, "--plot", help="draw the per-deal score differences into this image (needs burraco\\[plot])"
    ),
    as_json: bool = typer.Option(False, "--json", help="print the figures as one JSON object"),
) -> None:
    """Play duplicate deals between two computer players (sides swapped on every deal) and report who is stronger."""
    from .arena import PLOT_INSTALL_HINT, ArenaError, plot_available, plot_diffs, run_arena
    from .parallel import ParallelError

    r = _rules(rules, players)
    a, b = _player(a, "--a"), _player(b, "--b")
    _count(deals, "--deals")
    if workers < 0:
        raise typer.BadParameter("--workers must be 0 (one per CPU) or more")
    if resume is not None and save is not None:
        raise typer.BadParameter("give --resume or --save, not both (--resume also creates the file)")
    if plot is not None and not plot_available():
        typer.echo(f"error: {PLOT_INSTALL_HINT}", err=True)
        raise typer.Exit(1)
    _plot_path(plot, "--plot")
    if (resume or save) is not None and (resume or save or Path()).is_dir():
        raise typer.BadParameter(f"{resume or save} is a folder: give a file name", param_hint="--resume/--save")
    console = Console(stderr=True)
    try:
        with _progress(console, as_json) as prog:
            task = prog.add_task(f"{r.name}: {a} vs {b}", total=deals)
            data = run_arena(
                r,
                a,
                b,
                deals,
                seed,
                workers=workers,
                save=resume or save,
                resume=resume is not None,
                progress=lambda k: prog.advance(task, k),
                ray=ray,
            )
    except (ArenaError, ParallelError) as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(1) from e
    data["a"], data["b"] = a, b
    if as_json:
        print(json.dumps(data))
    else:
        _print_arena(r, a, b, data)
    if plot is not None:  # after the figures: a plot that cannot be drawn loses nothing
        try:
            plot_diffs(data, plot)
        except (ArenaError, OSError, ValueError) as e:
            typer.echo(f"error: cannot draw the plot to {plot}: {e}", err=True)
            raise typer.Exit(1) from e
        if not as_json:
            Console().print(f"plot: {plot}")


def _print_arena(r: Rules, a: str, b: str, data: dict[str, Any]) -> None:
    """``arena``'s table of figures (a player that saw hidden cards said so)."""
    from rich.table import Table

    from .arena import MATCH_CI_MIN_DEALS, state_note

    out = Console()
    seen = state_note(data)
    t = Table(
        title=f"{r.name}: {a} (A) vs {b} (B), duplicate deals",
        caption=f"[bold red]{seen}[/]" if seen is not None else None,
    )
    t.add_column("figure")
    t.add_column("value", justify="right")
    if seen is not None:
        who = " and ".join(x.upper() for x in ("a", "b") if data[f"{x}_sees_state"])
        t.add_row("[bold red]saw every hidden card[/]", f"[bold red]{who}[/]")
    times = {2: "twice", 3: "three times", 5: "five times", 6: "three times"}.get(r.players, "twice")
    t.add_row(f"deals (each played {times})", str(data["deals"]))
    wlo, whi = data["a_win_rate_ci95"]
    t.add_row(
        "A win rate per deal",
        f"{100 * data['a_win_rate']:.1f}%  (95% CI {100 * wlo:.1f} .. {100 * whi:.1f}%)",
    )
    ci = data["ci95"]
    t.add_row(
        "mean diff A - B per deal",
        f"{data['mean_diff']:.1f}  "
        + (f"(95% CI {ci[0]:.1f} .. {ci[1]:.1f})" if ci is not None else "(no interval from one deal)"),
    )
    goal = f"to {r.target}" if r.target is not None else f"over {r.hands_per_match} hands"
    few = f"no 95% CI below {MATCH_CI_MIN_DEALS} deals"
    m_ci, md_ci = data["match_win_rate_ci95"], data["match_mean_diff_ci95"]
    if data["match_win_rate"] is None:
        t.add_row(f"A match win rate {goal}", "estimated for two sides only")
    else:
        t.add_row(
            f"A match win rate {goal} (estimate)",
            f"{100 * data['match_win_rate']:.1f}%  ("
            + (f"95% CI {100 * m_ci[0]:.1f} .. {100 * m_ci[1]:.1f}%" if m_ci is not None else few)
            + f"; ~{data['match_mean_hands']:.1f} hands)",
        )
        t.add_row(
            f"mean final diff A - B per match {goal}",
            f"{data['match_mean_diff']:.0f}  "
            + (f"(95% CI {md_ci[0]:.0f} .. {md_ci[1]:.0f})" if md_ci is not None else f"({few})"),
        )
    t.add_row("A ms per move", f"{data['a_ms_per_move']:.3f}")
    t.add_row("B ms per move", f"{data['b_ms_per_move']:.3f}")
    for side in "AB":  # a timed search: what the machine let it do (load shows here)
        per = data.get(f"{side.lower()}_dets_per_decision")
        if per is not None:
            t.add_row(f"{side} determinizations per searched decision", f"{per:.0f}")
    t.add_row("decisions per second (per process)", f"{data['decisions_per_s']:.0f}")
    t.add_row("seconds", f"{data['seconds']:.2f}")
    out.print(t)


@app.command(cls=_Command)
def ladder(
    players_: str = typer.Option(
        "random,easy,medium,hard",
        "--players",
        help="the computer players, comma-separated (see `burraco players`): every pair meets",
    ),
    rules: str = typer.Option("italian", "--rules", "-r", help="preset name (see `burraco presets`)"),
    deals: int = typer.Option(20, "--deals", "-n", help="duplicate deals a pairing (each is played twice)"),
    seed: int = typer.Option(0, "--seed", "-s", help="random seed (the same seed gives the same ladder)"),
    workers: int = typer.Option(
        1, "--workers", "-w", help="spread each pairing's deals over this many processes (0: one per CPU)"
    ),
    ray: str | None = typer.Option(
        None, "--ray", help="play the deals on the Ray cluster at ADDRESS ('local': start one here; needs burraco\\[ray])"
    ),
    save: Path | None = typer.Option(
        None, "--save", help="keep each pairing's progress in this folder (a stopped ladder continues there)"
    ),
    plot: Path | None = typer.Option(
        None, "--plot", help="draw the ratings and the pairings into this image (needs burraco\\[plot])"
    ),
    as_json: bool = typer.Option(False, "--json", help="print the ladder as JSON (docs/strength.md)"),
) -> None:
    """A round-robin of computer players in the duplicate arena, rated with OpenSkill: who is stronger, by how much."""
    from .arena import PLOT_INSTALL_HINT, ArenaError, plot_available
    from .ladder import ladder as run_ladder
    from .ladder import plot_ladder
    from .parallel import ParallelError

    r = _rules(rules, 0)
    specs = [_player(p.strip(), "--players") for p in players_.split(",") if p.strip()]
    _count(deals, "--deals")
    if len(specs) < 2:
        raise typer.BadParameter("name at least two players", param_hint="--players")
    if len(set(specs)) != len(specs):
        raise typer.BadParameter(f"a player is named twice: {', '.join(specs)}", param_hint="--players")
    if plot is not None and not plot_available():
        typer.echo(f"error: {PLOT_INSTALL_HINT}", err=True)
        raise typer.Exit(1)
    _plot_path(plot, "--plot")
    _output(save, "--save", folder=True)
    n_pairs = len(specs) * (len(specs) - 1) // 2
    console = Console(stderr=True)
    try:
        with _progress(console, as_json) as prog:
            task = prog.add_task(f"{r.name}: {n_pairs} pairings", total=n_pairs * deals)

            def step(k: int, _n: int, done: int) -> None:
                prog.update(task, completed=k * deals + done, description=f"{r.name}: pairing {k + 1}/{n_pairs}")

            lad = run_ladder(r, specs, deals, seed, workers=workers, ray=ray, save_dir=save, progress=step)
    except (ArenaError, ParallelError, ValueError) as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(1) from e
    except OSError as e:  # the --save folder failed while the ladder ran: what was saved stays
        typer.echo(f"error: cannot keep the progress in {save}: {e}", err=True)
        raise typer.Exit(1) from e
    data = lad.to_json()
    if as_json:
        print(json.dumps(data))
    else:
        _print_ladder(r, deals, lad)
    if plot is not None:  # after the ladder: a plot that cannot be drawn loses nothing
        _wrote_or_fail("plot", plot, lambda: plot_ladder(data, plot))
        if not as_json:
            Console().print(f"plot: {plot}")


def _print_ladder(r: Rules, deals: int, lad: Any) -> None:
    """``ladder``'s tables: the ratings, then the pairings (a player that saw hidden cards marked)."""
    from rich.markup import escape
    from rich.table import Table

    from .ladder import SEES_MARK, SEES_NOTE, marked

    out = Console()
    seen = any(x.sees_state for x in lad.ratings)
    note = f"[bold red]{SEES_MARK} {SEES_NOTE}[/]" if seen else None
    t = Table(title=f"{r.name}: ratings after {deals} duplicate deals a pairing (OpenSkill)", caption=note)
    for col in ("", "player", "rating (mu - 3 sigma)", "mu", "sigma", "deals won / tied / lost"):
        t.add_column(col, justify="left" if col == "player" else "right")
    for k, x in enumerate(lad.ratings, 1):
        name = escape(marked(x.to_json()))
        t.add_row(str(k), name, f"{x.ordinal:.1f}", f"{x.mu:.1f}", f"{x.sigma:.1f}", f"{x.won} / {x.tied} / {x.lost}")
    out.print(t)
    p = Table(title="pairings: points per deal, A - B (95% CI)", caption=note)
    for col in ("A", "B", "mean diff", "95% CI", "A wins"):
        p.add_column(col, justify="left" if col in ("A", "B") else "right")
    for pair in lad.pairings:
        ci = pair.get("ci95")
        p.add_row(
            escape(marked({"player": pair["a"], "sees_state": pair.get("a_sees_state")})),
            escape(marked({"player": pair["b"], "sees_state": pair.get("b_sees_state")})),
            f"{pair['mean_diff']:+.0f}",
            f"{ci[0]:+.0f} .. {ci[1]:+.0f}" if ci else "—",
            f"{100 * pair['a_win_rate']:.0f}%",
        )
    out.print(p)


def _cannot_listen(host: str, port: int) -> OSError | None:
    """Why the server could not listen on ``host:port`` (a bind as uvicorn's: SO_REUSEADDR, IPv6 for an address
    with a colon), or None when it can. The socket is closed at once; a program that takes the port in between
    still makes the server fail, with uvicorn's own error."""
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((host, port))
    except OSError as e:
        return e
    return None


def _db_problem(url: str) -> str | None:
    """Why the server could not use the database URL ``url`` (checked before it starts, so a mistyped ``--db``
    is one line, not the server's traceback), or None: SQLAlchemy must know it, with an asynchronous driver, and a
    SQLite file's folder must exist."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError

    forms = "sqlite+aiosqlite:///FILE or postgresql+asyncpg://USER@HOST/DB"
    try:
        parsed = make_url(url)
        dialect = parsed.get_dialect()
    except (ArgumentError, NoSuchModuleError, ValueError) as e:
        return f"{url!r} is not a database URL the server can use ({forms}): {e}"
    if not getattr(dialect, "is_async", False):
        return f"{url!r}: the server needs an asynchronous driver: {forms}"
    if parsed.get_backend_name() == "sqlite" and parsed.database and parsed.database != ":memory:":
        from .files import output_problem

        why = output_problem(Path(parsed.database))
        if why is not None:
            return f"{url!r}: {why}"
    return None


def _db_unreachable(url: str, timeout: float = 10.0) -> str | None:
    """Why the server could not connect to the database at ``url`` (down, a wrong user or name …), or None: one
    connection opened and closed before the server starts, so that its failure is one line."""
    import asyncio

    from sqlalchemy.ext.asyncio import create_async_engine

    async def probe() -> None:
        engine = create_async_engine(url)
        try:
            async with engine.connect():
                pass
        finally:
            await engine.dispose()

    try:
        asyncio.run(asyncio.wait_for(probe(), timeout))
    except Exception as e:  # whatever the driver raises: said in one line
        why = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        return f"cannot connect to the database {url}: {why}"
    return None


@app.command(cls=_Command)
def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="address to listen on (0.0.0.0: every interface)"),
    port: int = typer.Option(8000, "--port", "-p", help="port to listen on"),
    db: str | None = typer.Option(
        None,
        "--db",
        help="database URL: sqlite+aiosqlite:///FILE or postgresql+asyncpg://USER@HOST/DB "
        "(default: $BURRACO_DB, else a file in your data folder)",
    ),
    redis: str | None = typer.Option(
        None, "--redis", help="redis://HOST:PORT shared by several server processes (needs a PostgreSQL --db; "
        "default: $BURRACO_REDIS, else none: one process serves every table)"),
    workers: int = typer.Option(1, "--workers", help="server processes sharing the port (above 1: needs --redis "
                                "and a PostgreSQL --db)"),
    director_signin: str | None = typer.Option(
        None, "--director-signin", help="who may create a tournament event: auto (the directors' password on a "
        "public server), on (the password always), off (anyone), account (a signed-in account only); default: "
        "$BURRACO_DIRECTOR_SIGNIN, else auto"),
) -> None:
    """Start the online server: play in the browser at http://HOST:PORT (needs the server extra)."""
    try:
        from .server import serve as run_server
    except ImportError as e:  # pragma: no cover - depends on the installed extras
        raise typer.BadParameter(f'the server needs its extra: pip install "burraco[server]" ({e})') from e
    if not 1 <= port <= 65535:
        raise typer.BadParameter(f"--port must be 1 … 65535 (got {port})")
    from .server.config import cluster_refusal, default_db_url

    if director_signin is not None:
        if director_signin not in ("auto", "on", "off", "account"):
            raise typer.BadParameter(f"must be auto, on, off or account (got {director_signin!r})",
                                     param_hint="--director-signin")
        os.environ["BURRACO_DIRECTOR_SIGNIN"] = director_signin  # every worker process reads it
    bad_db = _db_problem(db) if db else None
    if bad_db is not None:
        raise typer.BadParameter(bad_db, param_hint="--db")
    refusal = cluster_refusal(db or default_db_url(), redis or os.environ.get("BURRACO_REDIS", ""), workers)
    if refusal is not None:
        typer.echo(f"error: {refusal}", err=True)
        raise typer.Exit(2)
    busy = _cannot_listen(host, port)
    if busy is not None:
        free = next(
            (p for p in range(port + 1, min(port + 50, 65536)) if _cannot_listen(host, p) is None), None
        )
        why = busy.strerror or str(busy)
        if busy.errno == errno.EADDRINUSE:
            why += ": another program, perhaps another burraco serve, holds that port"
        typer.echo(
            f"error: cannot listen on {host}:{port} ({why}). Choose another port with --port"
            + (f", e.g. --port {free}" if free else "")
            + ("" if free or busy.errno == errno.EADDRINUSE else ", or another --host"),
            err=True,
        )
        raise typer.Exit(1)
    unreachable = _db_unreachable(db or default_db_url())
    if unreachable is not None:
        typer.echo(f"error: {unreachable}", err=True)
        raise typer.Exit(1)
    typer.echo(f"burraco: open http://{host}:{port}/ in your browser (Ctrl-C stops the server)", err=True)
    run_server(host=host, port=port, db=db, redis=redis, workers=workers)


@app.command("account-password", cls=_Command)
def account_password(
    name: str = typer.Argument(..., help="the account's name (any case)"),
    db: str | None = typer.Option(
        None, "--db", help="the server's database URL (default: $BURRACO_DB, else the file in your data folder)"),
) -> None:
    """Set a new password for an account of the server's database (a forgotten password: docs/accounts.md). The
    password is asked twice on the terminal, never given on the command line; every session of the account ends."""
    bad_db = _db_problem(db) if db else None
    if bad_db is not None:
        raise typer.BadParameter(bad_db, param_hint="--db")
    password = typer.prompt("new password", hide_input=True, confirmation_prompt=True)

    _change_account(db, lambda acc: acc.set_password(name, password),
                    lambda a: f"the password of {a.name!r} is changed; its sessions have ended")


def _change_account(db: str | None, change: Callable[[Any], Awaitable[Any]], said: Callable[[Any], str]) -> None:
    """One change to an account of the server's database (``burraco account-password``, ``burraco admin``): the
    store migrated first, the change made through :class:`burraco.server.accounts.Accounts`, its outcome or the
    refusal printed (exit status 1)."""
    import asyncio

    from .server.config import default_db_url

    async def go() -> str:
        from .server.accounts import AccountError, Accounts, Limits
        from .server.store import Store

        store = Store(db or default_db_url())
        try:
            await store.migrate()
            return said(await change(Accounts(store, Limits(0, 0, 0.0))))
        except AccountError as e:
            return f"error: {e.message}"
        finally:
            await store.close()

    out = asyncio.run(go())
    typer.echo(out, err=out.startswith("error"))
    if out.startswith("error"):
        raise typer.Exit(1)


@app.command("admin", cls=_Command)
def admin(
    name: str = typer.Argument(..., help="the account's name (any case)"),
    remove: bool = typer.Option(False, "--remove", help="no longer an administrator"),
    db: str | None = typer.Option(
        None, "--db", help="the server's database URL (default: $BURRACO_DB, else the file in your data folder)"),
) -> None:
    """Make an account of the server's database a site administrator (docs/accounts.md "Administrators"): it may
    disable accounts and close tables. The first account made on a server is one already."""
    bad_db = _db_problem(db) if db else None
    if bad_db is not None:
        raise typer.BadParameter(bad_db, param_hint="--db")

    _change_account(db, lambda acc: acc.set_admin(name, not remove),
                    lambda a: f"{a.name!r} is {'no longer ' if remove else ''}an administrator of this server")


@app.command(cls=_Command)
def play(
    rules: str = typer.Option("italian", "--rules", "-r", help="preset name (see `burraco presets`)"),
    target: int = typer.Option(0, "--target", help="match target score (0: the preset's)"),
    players: int = typer.Option(0, "--players", help="override the preset's number of players (2 to 6; 3, 5 and 6 with the Italian presets)"),
    partner: str = typer.Option(
        "heuristic:medium",
        "--partner",
        help="your partner: easy, medium, hard, ismcts[:N|:Ts] or random (see `burraco players`)",
    ),
    opponents: str = typer.Option("heuristic:medium", "--opponents", help="the opponents (the same choices)"),
    seed: int | None = typer.Option(
        None, "--seed", "-s", help="deal from this seed (the same seed, the same game)"
    ),
    lang: str | None = typer.Option(None, "--lang", help="it, en, de, pt or nl (default: the system locale)"),
    plain: bool = typer.Option(False, "--plain", help="lines of text instead of the full-screen table"),
    resume: bool = typer.Option(False, "--resume", help="continue the last unfinished game"),
    speed: str = typer.Option(
        "normal", "--speed", help="pace of the computer's moves: instant, fast, normal, slow or seconds"
    ),
) -> None:
    """Play Burraco in the terminal against the computer (you sit South; games are saved as you play)."""
    from .tui.run import PlayError
    from .tui.run import play as run_play

    r = _rules(rules, players)
    if target < 0:
        raise typer.BadParameter(f"--target must be 1 or more, or 0 for the preset's (got {target})")
    if target:
        r = r.replace(target=target)
    try:
        status = run_play(
            r,
            partner=partner,
            opponents=opponents,
            seed=seed,
            lang=lang,
            plain=plain,
            resume=resume,
            speed=speed,
        )
    except PlayError as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(2) from e
    raise typer.Exit(status)


def main() -> None:
    """The ``burraco`` command (the console script)."""
    app()
