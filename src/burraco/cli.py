"""The ``burraco`` command line (Typer)."""

from __future__ import annotations

import errno
import json
import os
import sys
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from typer.core import TyperCommand, TyperGroup

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
)


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


def _progress(console: Console, quiet: bool) -> Progress:
    """The progress bar of long runs (on standard error; hidden when JSON goes to a pipe)."""
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        disable=quiet and not console.is_terminal,
    )


def _add_tournament() -> None:
    from .tournament.cli import app as tournament_app

    app.add_typer(tournament_app, name="tournament")


_add_tournament()


@app.callback()
def _root() -> None:
    """Burraco: rules engine, records and simulation."""


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

    A JSON-lines file gives one result a line, each with its line number first ("line"); the exit status is the
    worst of theirs."""
    from .record import replay_lines, replay_text

    if watch:
        from .tui.run import PlayError
        from .tui.run import watch as watch_record

        try:
            raise typer.Exit(watch_record(file, seat, lang))
        except PlayError as e:
            typer.echo(f"error: {e}", err=True)
            raise typer.Exit(2) from e

    try:
        text = sys.stdin.read() if str(file) == "-" else file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        print(json.dumps({"ok": False, "error": "record", "message": f"cannot read {file}: {e}"}))
        raise typer.Exit(2) from e
    many = replay_lines(text)
    if many is not None:  # JSON lines: one compact result a line
        results, status = many
        for res in results:
            print(json.dumps(res, ensure_ascii=False))
        raise typer.Exit(status)
    out, status = replay_text(text)
    print(json.dumps(out, indent=1, ensure_ascii=False))
    raise typer.Exit(status)


@app.command(cls=_Command)
def analyse(
    file: Path = typer.Argument(
        ..., help="a game record (docs/records.md): a saved game, a server download …"
    ),
    seat: list[str] = typer.Option([], "--seat", help="the seat(s) to analyse (default: every seat)"),
    iterations: int = typer.Option(
        16, "--iterations", min=1, help="determinizations per decision (reproducible with --seed)"
    ),
    budget: float | None = typer.Option(
        None, "--budget", help="seconds per decision instead of --iterations"
    ),
    seed: int = typer.Option(0, "--seed", help="seed of the sampled hidden cards and the rollouts"),
    as_json: bool = typer.Option(False, "--json", help="print the analysis as JSON (docs/analysis.md)"),
    out: Path | None = typer.Option(None, "--out", help="write the record annotated with the analysis here"),
) -> None:
    """The coach: how much each decision cost, from the seat's view at the time (never the hidden cards)."""
    from rich.table import Table

    from .analysis import analyse as run_analysis
    from .messages import cards_symbols
    from .record import RecordError, load_record

    if budget is not None and budget <= 0:
        raise typer.BadParameter("--budget must be a positive number of seconds")
    try:
        record = load_record(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, RecordError) as e:
        typer.echo(f"error: cannot read {file}: {e}", err=True)
        raise typer.Exit(2) from e
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
            )
    except (ValueError, RecordError) as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(2) from e
    if out is not None:
        out.write_text(json.dumps(res.annotate(record), indent=1, ensure_ascii=False), encoding="utf-8")
    if as_json:
        print(json.dumps(res.to_json(), indent=1, ensure_ascii=False))
        return
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
    if out is not None:
        show.print(f"annotated record: {out}")


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
    from rich.table import Table

    from .parallel import ParallelError
    from .sim import END_KINDS
    from .sim import simulate as run_sim

    r = _rules(rules, players)
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
    if records is not None:
        with records.open("w", encoding="utf-8") as f:
            for rec in st.games:
                f.write(json.dumps(rec, separators=(",", ":")) + "\n")
    data = st.to_json()
    if as_json:
        print(json.dumps(data))
        return
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
    from rich.table import Table

    from .arena import (
        MATCH_CI_MIN_DEALS,
        PLOT_INSTALL_HINT,
        ArenaError,
        plot_available,
        plot_diffs,
        run_arena,
    )
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
    if plot is not None:
        try:
            plot_diffs(data, plot)
        except ArenaError as e:
            typer.echo(f"error: {e}", err=True)
            raise typer.Exit(1) from e
    if as_json:
        print(json.dumps(data))
        return
    out = Console()
    t = Table(title=f"{r.name}: {a} (A) vs {b} (B), duplicate deals")
    t.add_column("figure")
    t.add_column("value", justify="right")
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
    t.add_row("decisions per second (per process)", f"{data['decisions_per_s']:.0f}")
    t.add_row("seconds", f"{data['seconds']:.2f}")
    out.print(t)
    if plot is not None:
        out.print(f"plot: {plot}")


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
        None, "--ray", help="play the deals on the Ray cluster at ADDRESS ('local': start one here)"
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
    from rich.table import Table

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
    data = lad.to_json()
    if plot is not None:
        plot_ladder(data, plot)
    if as_json:
        print(json.dumps(data))
        return
    out = Console()
    t = Table(title=f"{r.name}: ratings after {deals} duplicate deals a pairing (OpenSkill)")
    for col in ("", "player", "rating (mu - 3 sigma)", "mu", "sigma", "deals won / tied / lost"):
        t.add_column(col, justify="left" if col == "player" else "right")
    for k, x in enumerate(lad.ratings, 1):
        t.add_row(str(k), x.player, f"{x.ordinal:.1f}", f"{x.mu:.1f}", f"{x.sigma:.1f}", f"{x.won} / {x.tied} / {x.lost}")
    out.print(t)
    p = Table(title="pairings: points per deal, A - B (95% CI)")
    for col in ("A", "B", "mean diff", "95% CI", "A wins"):
        p.add_column(col, justify="left" if col in ("A", "B") else "right")
    for pair in lad.pairings:
        ci = pair.get("ci95")
        p.add_row(
            pair["a"],
            pair["b"],
            f"{pair['mean_diff']:+.0f}",
            f"{ci[0]:+.0f} .. {ci[1]:+.0f}" if ci else "—",
            f"{100 * pair['a_win_rate']:.0f}%",
        )
    out.print(p)
    if plot is not None:
        out.print(f"plot: {plot}")


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
) -> None:
    """Start the online server: play in the browser at http://HOST:PORT (needs the server extra)."""
    try:
        from .server import serve as run_server
    except ImportError as e:  # pragma: no cover - depends on the installed extras
        raise typer.BadParameter(f'the server needs its extra: pip install "burraco[server]" ({e})') from e
    if not 1 <= port <= 65535:
        raise typer.BadParameter(f"--port must be 1 … 65535 (got {port})")
    from .server.config import cluster_refusal, default_db_url

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
    typer.echo(f"burraco: open http://{host}:{port}/ in your browser (Ctrl-C stops the server)", err=True)
    run_server(host=host, port=port, db=db, redis=redis, workers=workers)


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
