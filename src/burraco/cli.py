"""The ``burraco`` command line (Typer)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from .rules import Rules, RulesError, preset

app = typer.Typer(
    add_completion=False, no_args_is_help=True, help="Burraco: rules engine, records and simulation."
)


def _rules(name: str, players: int) -> Rules:
    """A preset with the ``--players`` override, or a usage error naming what is wrong."""
    try:
        return preset(name, **({"players": players} if players else {}))
    except RulesError as e:
        raise typer.BadParameter(str(e)) from e


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


@app.command()
def replay(
    file: Path = typer.Argument(..., help="a game record (RECORDS.md), or - for standard input"),
    watch: bool = typer.Option(False, "--watch", help="step through the record on the terminal table instead"),
    seat: str | None = typer.Option(None, "--seat", help="with --watch: the seat whose view is shown"),
    lang: str | None = typer.Option(None, "--lang", help="with --watch: it, en, de, pt or nl"),
) -> None:
    """Replay a record through the engine and print the result as JSON (exit 0 ok, 1 illegal action, 2 bad record)."""
    from .record import replay_text

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
    out, status = replay_text(text)
    print(json.dumps(out, indent=1, ensure_ascii=False))
    raise typer.Exit(status)


@app.command()
def simulate(
    games: int = typer.Option(100, "--games", "-n", help="number of hands to play"),
    matches: int = typer.Option(0, "--matches", help="play this many whole matches instead of single hands"),
    rules: str = typer.Option("italian", "--rules", "-r", help="preset name (see `burraco presets`)"),
    seed: int = typer.Option(0, "--seed", "-s", help="random seed (the same seed gives the same games)"),
    players: int = typer.Option(0, "--players", help="override the preset's number of players (2 or 4)"),
    max_hands: int = typer.Option(
        100, "--max-hands", help="stop a match still running after this many hands"
    ),
    as_json: bool = typer.Option(False, "--json", help="print the figures as one JSON object"),
    workers: int = typer.Option(
        1, "--workers", "-w", help="spread the games over this many processes (0: one per CPU); same results"
    ),
    ray: str | None = typer.Option(
        None, "--ray", help="run the games on the Ray cluster at ADDRESS ('local': start one here; burraco[ray])"
    ),
    records: Path | None = typer.Option(
        None, "--records", help="write one JSON line per game (or match) to this file, with its game record"
    ),
) -> None:
    """Play hands (or matches) between random legal players and report how they ended, scores and speed."""
    from rich.table import Table

    from .parallel import ParallelError
    from .sim import END_KINDS
    from .sim import simulate as run_sim

    r = _rules(rules, players)
    if workers < 0:
        raise typer.BadParameter("--workers must be 0 (one per CPU) or more")
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
        out.print(
            f"match wins: {data['match_wins']}  draws: {st.match_draws}  unfinished: {st.match_unfinished}  "
            f"hands per match: {data['hands_per_match']:.2f}"
        )
    out.print(f"decisions per hand: {data['decisions_per_hand']:.1f}")
    out.print(
        f"throughput: [bold]{st.hands_per_s:.1f}[/bold] hands/s, {st.decisions_per_s:.0f} decisions/s "
        f"({st.seconds:.2f} s)"
    )


@app.command()
def presets() -> None:
    """List the rule presets and their main parameters."""
    from rich.table import Table

    from .rules import PRESETS

    t = Table(title="rule presets (RECORDS.md §3)")
    for col in ("preset", "players", "target", "hands", "sets", "pick-up", "close with", "closing discard"):
        t.add_column(col)
    for name, r in PRESETS.items():
        sets = (
            "none"
            if not r.allowed_set_ranks
            else ("A, 3" if r.allowed_set_ranks == frozenset({1, 3}) else "all but 2")
        )
        t.add_row(
            name,
            str(r.players),
            str(r.target),
            str(r.hands_per_match or "-"),
            sets,
            r.pickup_rule.value,
            r.closing_burraco.value + " burraco",
            "required" if r.closing_requires_discard else "optional",
        )
    Console().print(t)


@app.command()
def arena(
    a: str = typer.Option("heuristic:hard", "--a", help="player A: random, heuristic:easy|medium|hard"),
    b: str = typer.Option("random", "--b", help="player B (same choices as --a)"),
    rules: str = typer.Option("italian", "--rules", "-r", help="preset name (see `burraco presets`)"),
    deals: int = typer.Option(20, "--deals", "-n", help="duplicate deals to play (each is played twice)"),
    seed: int = typer.Option(0, "--seed", "-s", help="random seed (the same seed gives the same games)"),
    players: int = typer.Option(0, "--players", help="override the preset's number of players (2 or 4)"),
    workers: int = typer.Option(
        1, "--workers", "-w", help="spread the deals over this many processes (0: one per CPU); same results"
    ),
    ray: str | None = typer.Option(
        None, "--ray", help="play the deals on the Ray cluster at ADDRESS ('local': start one here; burraco[ray])"
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

    from .arena import PLOT_INSTALL_HINT, ArenaError, parse_player, plot_available, plot_diffs, run_arena
    from .parallel import ParallelError

    r = _rules(rules, players)
    try:
        parse_player(a), parse_player(b)
    except ValueError as e:
        raise typer.BadParameter(str(e)) from e
    if deals < 0:
        raise typer.BadParameter("--deals must not be negative")
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
    lo, hi = data["ci95"]
    t.add_row("deals (each played twice)", str(data["deals"]))
    wlo, whi = data["a_win_rate_ci95"]
    t.add_row(
        "A win rate per deal", f"{100 * data['a_win_rate']:.1f}%  (95% CI {100 * wlo:.1f} .. {100 * whi:.1f}%)"
    )
    t.add_row("mean diff A - B per deal", f"{data['mean_diff']:.1f}  (95% CI {lo:.1f} .. {hi:.1f})")
    goal = f"to {r.target}" if r.target is not None else f"over {r.hands_per_match} hands"
    t.add_row(
        f"A match win rate {goal} (estimate)",
        f"{100 * data['match_win_rate']:.1f}%  (95% CI {100 * data['match_win_rate_ci95'][0]:.1f} .. "
        f"{100 * data['match_win_rate_ci95'][1]:.1f}%; ~{data['match_mean_hands']:.1f} hands)",
    )
    mlo, mhi = data["match_mean_diff_ci95"]
    t.add_row(
        f"mean final diff A - B per match {goal}", f"{data['match_mean_diff']:.0f}  (95% CI {mlo:.0f} .. {mhi:.0f})"
    )
    t.add_row("A ms per move", f"{data['a_ms_per_move']:.3f}")
    t.add_row("B ms per move", f"{data['b_ms_per_move']:.3f}")
    t.add_row("decisions per second (per process)", f"{data['decisions_per_s']:.0f}")
    t.add_row("seconds", f"{data['seconds']:.2f}")
    out.print(t)
    if plot is not None:
        out.print(f"plot: {plot}")


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="address to listen on (0.0.0.0: every interface)"),
    port: int = typer.Option(8000, "--port", "-p", help="port to listen on"),
    db: str | None = typer.Option(
        None, "--db", help="database URL: sqlite+aiosqlite:///FILE or postgresql+asyncpg://USER@HOST/DB "
        "(default: $BURRACO_DB, else a file in your data folder)"
    ),
) -> None:
    """Start the online server: play in the browser at http://HOST:PORT (needs the server extra)."""
    try:
        from .server import serve as run_server
    except ImportError as e:  # pragma: no cover - depends on the installed extras
        raise typer.BadParameter(f'the server needs its extra: pip install "burraco[server]" ({e})') from e
    typer.echo(f"burraco: open http://{host}:{port}/ in your browser (Ctrl-C stops the server)", err=True)
    run_server(host=host, port=port, db=db)


@app.command()
def play(
    rules: str = typer.Option("italian", "--rules", "-r", help="preset name (see `burraco presets`)"),
    target: int = typer.Option(0, "--target", help="match target score (0: the preset's)"),
    players: int = typer.Option(0, "--players", help="override the preset's number of players (2 or 4)"),
    partner: str = typer.Option(
        "heuristic:medium", "--partner", help="your partner: easy, medium, hard, ismcts[:N|:Ts] or random"
    ),
    opponents: str = typer.Option("heuristic:medium", "--opponents", help="the opponents (same choices)"),
    seed: int | None = typer.Option(None, "--seed", "-s", help="deal from this seed (the same seed, the same game)"),
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
    app()
