"""Every bad input a newcomer tried (issue 44 item 2, and the command line's usage of item 4): each gives a clean
error, never a traceback, with the documented exit status: 2 for a usage error (a bad option, a file or path that
cannot be used, checked before any long work), 1 for a failure while running; and where an output cannot be
written after the work, the results come first and the error is one line."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from burraco.arena import plot_available
from burraco.cli import app

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "examples" / "game.json"


@pytest.fixture
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The inputs the bad list uses, in a temporary folder that is also the working folder."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BURRACO_DATA_DIR", str(tmp_path / "data"))
    (tmp_path / "binary.bin").write_bytes(bytes(range(128, 256)) * 4)
    (tmp_path / "notjson.txt").write_text("this is no record\n")
    (tmp_path / "folder").mkdir()
    (tmp_path / "afile").write_text("x")
    rec = json.loads(SAMPLE.read_text())
    (tmp_path / "two.jsonl").write_text("".join(json.dumps({"game": k, "record": rec}) + "\n" for k in (1, 2)))
    res = CliRunner().invoke(app, ["tournament", "new", "event.json", "--name", "Club"])
    assert res.exit_code == 0, res.output
    return {"record": str(SAMPLE), "missing": str(tmp_path / "missing.json")}


PLOT = pytest.mark.skipif(not plot_available(), reason="the plot extra (matplotlib) is not installed")

#: (arguments, exit status, what the error says): {record} and {missing} are the fixture's files
BAD: list[Any] = [
    # replay: its documented statuses (2: the record cannot be read or is not one)
    (["replay", "{missing}"], 2, "cannot read"),
    (["replay", "binary.bin"], 2, "cannot read"),
    (["replay", "folder"], 2, "cannot read"),
    (["replay", "notjson.txt"], 2, "not JSON"),
    (["replay"], 2, "Missing argument"),
    (["replay", "{record}", "--watch", "--seat", "X"], 2, "--seat 'X'"),
    (["replay", "binary.bin", "--watch"], 2, "binary.bin"),
    # analyse: the same inputs as replay; --out checked before the analysis
    (["analyse", "{missing}"], 2, "cannot read"),
    (["analyse", "binary.bin"], 2, "cannot read"),
    (["analyse", "notjson.txt"], 2, "not JSON"),
    (["analyse", "two.jsonl"], 2, "choose one with --game (1–2)"),
    (["analyse", "two.jsonl", "--game", "9"], 2, "--game 9"),
    (["analyse", "{record}", "--game", "2"], 2, "holds one record"),
    (["analyse", "{record}", "--game", "0"], 2, "--game"),
    (["analyse", "{record}", "--out", "/nonexistent-folder/x.json"], 2, "there is no folder /nonexistent-folder"),
    (["analyse", "{record}", "--out", "folder"], 2, "is a folder"),
    (["analyse", "{record}", "--budget", "0"], 2, "--budget"),
    (["analyse", "{record}", "--iterations", "0"], 2, "--iterations"),
    (["analyse", "{record}", "--seat", "Z", "--iterations", "1"], 2, "Z"),
    # simulate
    (["simulate", "--records", "/"], 2, "/ is a folder"),
    (["simulate", "--records", "/nonexistent-folder/r.jsonl"], 2, "there is no folder"),
    (["simulate", "--rules", "nope"], 2, "nope"),
    (["simulate", "--games", "0"], 2, "--games must be 1 or more"),
    (["simulate", "--matches", "0"], 2, "--matches must be 1 or more"),
    (["simulate", "--max-hands", "0"], 2, "--max-hands must be 1 or more"),
    (["simulate", "--players", "7"], 2, "players"),
    (["simulate", "--rules", "brazilian", "--players", "3"], 2, "3"),
    (["simulate", "--workers", "-1"], 2, "--workers"),
    (["simulate", "--rounds", "0"], 2, "No such option"),
    # arena: outputs checked before the deals
    pytest.param(["arena", "--deals", "1", "--plot", "/nonexistent-folder/x.png"], 2, "there is no folder", marks=PLOT),
    pytest.param(["arena", "--deals", "1", "--plot", "x.xyz"], 2, "matplotlib draws", marks=PLOT),
    (["arena", "--a", "nobody"], 2, "nobody"),
    (["arena", "--deals", "0"], 2, "--deals must be 1 or more"),
    (["arena", "--rules", "nope"], 2, "nope"),
    (["arena", "--deals", "1", "--resume", "folder"], 2, "is a folder"),
    (["arena", "--deals", "1", "--resume", "a.json", "--save", "b.json"], 2, "not both"),
    (["arena", "--deals", "1", "--resume", "binary.bin"], 1, "cannot read the progress file"),
    # ladder: the plot and the folder checked before the ladder
    pytest.param(["ladder", "--players", "hard,easy", "--deals", "10", "--plot", "/nonexistent-folder/x.png"], 2,
                 "there is no folder", marks=PLOT),  # fmt: skip
    (["ladder", "--players", "hard,easy", "--save", "afile"], 2, "is a file, not a folder"),
    (["ladder", "--players", "hard"], 2, "at least two players"),
    (["ladder", "--players", "hard,hard"], 2, "named twice"),
    # serve: a database that cannot be used is said before the server starts
    (["serve", "--db", "bogus://x"], 2, "not a database URL"),
    (["serve", "--db", "sqlite:///x.db"], 2, "asynchronous driver"),
    (["serve", "--db", "sqlite+aiosqlite:////nonexistent-folder/x.db"], 2, "there is no folder"),
    (["serve", "--db", "postgresql+asyncpg://nobody@127.0.0.1:1/x"], 1, "cannot connect to the database"),
    (["serve", "--port", "0"], 2, "--port"),
    # play
    (["play", "--rules", "nope"], 2, "nope"),
    (["play", "--lang", "xx"], 2, "unknown language"),
    (["play", "--target", "-5"], 2, "--target"),
    (["play", "--opponents", "cheat"], 2, "cheat"),
    (["play", "--speed", "fast-ish"], 2, "fast-ish"),
    (["play", "--resume"], 2, "No unfinished game"),
    # tournament
    (["tournament", "new", "/nonexistent-folder/e.json", "--name", "X"], 2, "there is no folder"),
    (["tournament", "new", "folder", "--name", "X"], 2, "is a folder"),
    (["tournament", "new", "e2.json", "--name", "X", "--rounds", "0"], 2, "1 to 40 rounds, not 0"),
    (["tournament", "new", "e2.json", "--name", "X", "--hands", "7"], 2, "7"),
    (["tournament", "new", "e2.json", "--name", "X", "--vp-table", "binary.bin"], 2, "binary.bin"),
    (["tournament", "new", "event.json", "--name", "X"], 2, "exists"),
    (["tournament", "start", "binary.bin"], 2, "cannot read the event file"),
    (["tournament", "start", "{missing}"], 2, "no event file"),
    (["tournament", "start", "folder"], 2, "cannot read the event file"),
    (["tournament", "start", "notjson.txt"], 2, "notjson.txt"),
    (["tournament", "import", "event.json", "binary.bin"], 2, "cannot read the CSV file"),
    (["tournament", "import", "event.json", "{missing}"], 2, "cannot read the CSV file"),
    (["tournament", "print", "event.json", "participants", "--out", "/nonexistent-folder/x.html"], 2,
     "there is no folder"),  # fmt: skip
    (["tournament", "print", "event.json", "participants", "--out", "x.doc"], 2, ".html or a .pdf"),
    (["tournament", "simulate", "--out", "/nonexistent-folder/e.json", "--pairs", "4", "--rounds", "1"], 2,
     "there is no folder"),  # fmt: skip
    (["tournament", "simulate", "--rounds", "0"], 2, "--rounds"),
    # the rule book
    (["rules", "99"], 2, "no rule 99"),
    (["rules", "3.2", "--lang", "xx"], 2, "unknown language"),
    # the command line itself
    (["presets", "extra"], 2, "unexpected extra argument"),
    (["--nonsense"], 2, "No such option"),
    (["nocommand"], 2, "No such command"),
]

ONE_LINE = re.compile(r"^(error|refused):")


def _ids(entry: Any) -> str:
    args = entry.values[0] if hasattr(entry, "values") else entry[0]
    return " ".join(args)[:70]


@pytest.mark.parametrize(("args", "status", "says"), BAD, ids=[_ids(e) for e in BAD])
def test_every_bad_input_is_a_clean_error(files: dict[str, str], args: list[str], status: int, says: str) -> None:
    args = [a.format(**files) for a in args]
    res = CliRunner().invoke(app, args, env={"COLUMNS": "200"})
    out = res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), (args, res.exception, out)
    assert "Traceback" not in out and "File \"" not in out, out
    assert res.exit_code == status, (args, res.exit_code, out)
    assert says in " ".join(out.split()), (args, out)
    errors = [line for line in res.stderr.splitlines() if line.strip()]
    if errors and ONE_LINE.match(errors[0]):  # our own errors: one line
        assert len(errors) == 1, errors


def test_the_bad_list_covers_the_issues_tracebacks() -> None:
    """The inputs issue 44 found throwing tracebacks (or work away) are all in the list."""
    listed = [" ".join(e.values[0] if hasattr(e, "values") else e[0]) for e in BAD]
    for cmd in ("arena --deals 1 --plot", "ladder --players hard,easy --deals 10 --plot", "ladder --players hard,easy --save",
                "analyse {record} --out", "simulate --records /", "arena --deals 1 --resume binary.bin",
                "tournament new /nonexistent-folder", "tournament start binary.bin", "serve --db bogus://x",
                "tournament new e2.json --name X --rounds 0"):  # fmt: skip
        assert any(x.startswith(cmd) for x in listed), cmd
    assert len(BAD) >= 66


# ----- the results first, then the error where writing fails anyway ----------------------------------------------


def _fail_writes(monkeypatch: pytest.MonkeyPatch, where: str, name: str) -> None:
    def boom(*_: Any, **__: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(where + "." + name, boom)


@pytest.mark.parametrize(
    ("args", "patch", "results"),
    [
        (["simulate", "--games", "3", "--records", "r.jsonl"], ("pathlib.Path", "write_text"), "how hands ended"),
        (["analyse", "{record}", "--seat", "S", "--iterations", "1", "--out", "a.json"], ("pathlib.Path", "write_text"),
         "marked decisions"),
        pytest.param(["arena", "--deals", "1", "--plot", "p.png"], ("burraco.arena", "plot_diffs"),
                     "A win rate per deal", marks=PLOT),
        pytest.param(["ladder", "--players", "random,easy", "--deals", "1", "--plot", "l.png"],
                     ("burraco.ladder", "plot_ladder"), "ratings after 1 duplicate deals", marks=PLOT),
    ],
)  # fmt: skip
def test_results_come_first_when_writing_fails_anyway(
    files: dict[str, str], monkeypatch: pytest.MonkeyPatch, args: list[str], patch: tuple[str, str], results: str
) -> None:
    args = [a.format(**files) for a in args]
    where, name = patch
    if where == "pathlib.Path":
        real: Callable[..., Any] = Path.write_text

        def write_text(self: Path, *a: Any, **kw: Any) -> Any:
            if self.name in ("r.jsonl", "a.json"):
                raise OSError(28, "No space left on device")
            return real(self, *a, **kw)

        monkeypatch.setattr(Path, "write_text", write_text)
    else:
        _fail_writes(monkeypatch, where, name)
    res = CliRunner().invoke(app, args, env={"COLUMNS": "200"})
    assert res.exit_code == 1, res.output
    assert results in res.stdout  # the work is on the screen
    errors = [line for line in res.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "No space left on device" in errors[0], res.stderr
    assert "Traceback" not in res.output


# ----- the command line (item 4) ----------------------------------------------------------------------------------


def test_version_and_short_help_everywhere() -> None:
    from importlib.metadata import version

    res = CliRunner().invoke(app, ["--version"])
    assert res.exit_code == 0 and res.output.strip() == f"burraco {version('burraco')}"
    for args in (["-h"], ["simulate", "-h"], ["tournament", "-h"], ["tournament", "simulate", "-h"]):
        res = CliRunner().invoke(app, args, env={"COLUMNS": "200"})
        assert res.exit_code == 0 and "Usage: " in res.output and re.search(r"--help\s+-h\s", res.output), args


def _descriptions(args: list[str]) -> list[list[str]]:
    """The paragraphs of a command's help text above its boxes, at 200 columns (each paragraph one line unless the
    text itself breaks it)."""
    out = CliRunner().invoke(app, [*args, "--help"], env={"COLUMNS": "200"}).output
    head = out.split("╭")[0].splitlines()[2:]
    paras: list[list[str]] = [[]]
    for line in head:
        if line.strip():
            paras[-1].append(line.strip())
        elif paras[-1]:
            paras.append([])
    return [p for p in paras if p]


def _commands() -> list[list[str]]:
    names = ["replay", "analyse", "simulate", "presets", "rules", "players", "arena", "ladder", "serve", "play"]
    tour = ["new", "register", "import", "export", "withdraw", "lineup", "start", "enter", "confirm", "correct",
            "timeout", "finish", "close", "standings", "print", "simulate"]  # fmt: skip
    return [[n] for n in names] + [["tournament", n] for n in tour]


@pytest.mark.parametrize("args", _commands(), ids=lambda a: " ".join(a))
def test_help_texts_are_whole(args: list[str]) -> None:
    """No help text breaks a sentence in two lines, and no "[extra]" is eaten by Rich's markup."""
    for para in _descriptions(args):
        assert len(para) == 1, (args, para)
    out = " ".join(CliRunner().invoke(app, [*args, "--help"], env={"COLUMNS": "200"}).output.split())
    if "--ray" in out:
        assert "burraco[ray]" in out, out
    assert "burraco)" not in out


def test_play_without_a_terminal_falls_back_to_plain(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BURRACO_DATA_DIR", str(tmp_path))
    res = CliRunner().invoke(app, ["play", "--seed", "1", "--speed", "instant", "--lang", "en"], input="q\n")
    assert res.exit_code == 0, res.output
    assert res.stderr.startswith("Standard input or output is not a terminal: playing in lines of text (--plain).")
    assert "\x1b[" not in res.stdout and "Your move" in res.stdout


def test_a_long_run_prints_progress_lines_off_a_terminal() -> None:
    res = CliRunner().invoke(app, ["simulate", "--games", "20"])
    assert res.exit_code == 0
    lines = [x for x in res.stderr.splitlines() if x.startswith("italian: hands ")]
    assert lines and lines[-1] == "italian: hands 20/20" and len(lines) <= 11
    quiet = CliRunner().invoke(app, ["simulate", "--games", "5", "--json"])
    assert quiet.stderr == "" and json.loads(quiet.stdout)["hands"] == 5
