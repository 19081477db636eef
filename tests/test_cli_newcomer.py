"""What a newcomer meets first (issue 17): the command line's listings, errors and help, records between
``simulate`` and ``replay``, the links of the README and docs, the benchmark's warnings and the API reference."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import burraco
from burraco import Game, preset
from burraco.arena import MATCH_CI_MIN_DEALS, match_intervals, summarize, t95
from burraco.bots.heuristic import HeuristicPlayer
from burraco.bots.players import (
    SPELLINGS,
    PlayerSpecError,
    canonical_player,
    parse_player,
    parse_spec,
)
from burraco.cli import app
from burraco.record import replay_lines

ROOT = Path(__file__).resolve().parents[1]
BURRACO = [sys.executable, "-m", "burraco"]


def cli(args: list[str], columns: int | None = 200, timeout: int = 300) -> subprocess.CompletedProcess[str]:
    """``burraco ARGS`` in a subprocess, its output in a pipe (``columns``: the COLUMNS it sees; None: unset)."""
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    if columns is not None:
        env["COLUMNS"] = str(columns)
    return subprocess.run(BURRACO + args, capture_output=True, text=True, timeout=timeout, env=env)


def invoke(args: list[str], columns: int = 200) -> Any:
    return CliRunner().invoke(app, args, env={"COLUMNS": str(columns)})


# --- 1. burraco presets ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("columns", [None, 80])
def test_presets_never_cut_a_name_in_a_pipe_or_80_columns(columns: int | None) -> None:
    p = cli(["presets"], columns=columns)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert "…" not in p.stdout and "None" not in p.stdout
    firsts = [line.split()[0] for line in lines if line.split()]
    for name in burraco.PRESETS:
        assert name in firsts, (name, p.stdout)
    row = next(line for line in lines if line.startswith("italian-tournament "))
    assert "3 hands" in row and "-" not in row.replace("italian-tournament", "")


def test_presets_rows_say_the_parameters() -> None:
    out = invoke(["presets"], columns=80).output
    rows = {line.split()[0]: line for line in out.splitlines() if line.split() and line.split()[0] in burraco.PRESETS}
    assert rows["italian"].split()[1:4] == ["4", "to", "2005"]
    assert "A, 3" in rows["international"] and "open/add" in rows["international"]
    assert "top card" in rows["brazilian-fechado"] and rows["brazilian"].split()[-1] == "optional"
    assert rows["italian-2p"].split()[1] == "2"


# --- 2. one spelling of a player --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, canonical",
    [
        ("hard", "heuristic:hard"),
        ("Easy", "heuristic:easy"),
        (" heuristic:MEDIUM ", "heuristic:medium"),
        ("heuristic", "heuristic:hard"),
        ("random", "random"),
        ("ismcts", "ismcts"),
        ("ismcts:0.50s", "ismcts:0.5s"),
        ("ISMCTS:200", "ismcts:200"),
        ("ismcts-uniform:2s", "ismcts-uniform:2s"),
        ("cheat:10", "cheat:10"),
        ("ismcts:0.25s:threads=2", "ismcts:0.25s:threads=2"),
        ("ISMCTS:300:Threads=4", "ismcts:300:threads=4"),
        ("ismcts:threads=2", "ismcts:threads=2"),
        ("ismcts:0.5s:threads=1", "ismcts:0.5s"),
        ("expert", "ismcts:0.5s"),
        (" Expert ", "ismcts:0.5s"),
    ],
)
def test_every_spelling_has_one_canonical_form(text: str, canonical: str) -> None:
    assert canonical_player(text) == canonical
    assert canonical_player(canonical) == canonical


@pytest.mark.parametrize("text", ["hardest", "heuristic:expert", "ismcts:-3", "ismcts:0", "ismcts:0s", "ismcts:xs",
                                  "random:1", "", "easy:1", "ismcts:1s:threads=0", "ismcts:1s:cores=2",
                                  "ismcts:1s:threads=x"])  # fmt: skip
def test_a_bad_spelling_is_refused_naming_the_accepted_ones(text: str) -> None:
    with pytest.raises(PlayerSpecError) as e:
        parse_spec(text)
    msg = str(e.value)
    assert repr(text.strip()) in msg
    assert (
        ("heuristic:easy" in msg)
        or ("ismcts" in msg and "seconds" in msg)
        or ("random, easy" in msg)
        or ("threads=N" in msg)
    )


def test_issue22_expert_is_the_search_at_half_a_second_and_has_its_word_in_every_language() -> None:
    """The levels for people: easy, medium, hard and expert (the search at 0.5 s a move, still written
    ismcts:0.5s in records and in the server's protocol); each has its word in the five catalogues, as has every
    level a table may seat."""
    from importlib import import_module

    from burraco.bots.players import EXPERT_SECONDS, level_word
    from burraco.messages import LANGS, catalogue
    from burraco.server.protocol import LEVELS

    assert parse_spec("expert") == parse_spec("ismcts:0.5s") and EXPERT_SECONDS == 0.5
    assert [level_word(x) for x in ("easy", "medium", "hard", "expert")] == ["easy", "medium", "hard", "expert"]
    assert level_word("ismcts:0.5s") == "expert" and level_word("ismcts:1s") == level_word("ismcts:100") == "ismcts"
    assert "ismcts:0.5s" in LEVELS  # the spelling the browser offers stays valid
    for lang in LANGS:
        words = catalogue(lang)["words"]["level"]
        for level in (*LEVELS, "expert"):
            assert words[level_word(level)], (lang, level)
        own = import_module(f"burraco.lang.{lang}").WORDS["level"]  # the language's own words, not English's
        assert len({own[k] for k in ("easy", "medium", "hard", "expert")}) == 4


def test_parse_player_makes_the_named_player() -> None:
    p = parse_player("hard")(3)
    assert isinstance(p, HeuristicPlayer) and p.level == "hard"
    assert parse_player("random")(3).name == "random"
    from burraco.bots.ismcts import ISMCTSPlayer

    s = parse_player("ismcts:0.25s")(1)
    assert isinstance(s, ISMCTSPlayer)
    # the arena, the terminal table, the environments and the server all use this one parser
    import burraco.arena
    import burraco.tui.session

    assert burraco.arena.parse_player is parse_player
    assert burraco.tui.session.parse_player is parse_player


def test_arena_takes_the_short_spelling_with_the_same_result() -> None:
    base = ["arena", "--b", "random", "--rules", "italian-2p", "--deals", "1", "--seed", "4", "--json"]
    short = invoke([*base, "--a", "hard"])
    full = invoke([*base, "--a", "heuristic:hard"])
    assert short.exit_code == 0, short.output
    a, b = json.loads(short.output.splitlines()[-1]), json.loads(full.output.splitlines()[-1])
    assert a["a"] == b["a"] == "heuristic:hard"
    assert a["diffs"] == b["diffs"] and a["ends"] == b["ends"]


def test_arena_refuses_an_unknown_player_naming_the_spellings() -> None:
    res = invoke(["arena", "--a", "hardest", "--deals", "1"])
    assert res.exit_code == 2
    assert "hardest" in res.output and "burraco players" in res.output and "ismcts" in res.output


def test_play_reads_the_same_spellings() -> None:
    from burraco.tui.run import player_spec

    for text, _ in SPELLINGS[:2]:
        for one in text.split(", "):
            assert player_spec(one) == canonical_player(one)
    assert player_spec("Hard") == "heuristic:hard"
    assert player_spec("hardest") == "hardest"  # the session refuses it, in the player's language


def test_players_lists_every_spelling() -> None:
    res = invoke(["players"], columns=80)
    assert res.exit_code == 0
    for spelling, _ in SPELLINGS:
        assert spelling in res.output
    listed = {w for s, _ in SPELLINGS for w in re.split(r"[,\s]+", s) if w}
    # every spelling listed is accepted
    templates = {"heuristic:LEVEL", "ismcts:N", "ismcts:Ts", "ismcts:Ts:threads=N", "ismcts-uniform[:N|:Ts]"}
    for w in listed - templates - {"cheat[:N|:Ts]"}:
        canonical_player(w)


# --- 3. counts below 1 -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args, option",
    [
        (["simulate", "--games", "-5"], "--games"),
        (["simulate", "--games", "0"], "--games"),
        (["simulate", "--matches", "-2"], "--matches"),
        (["simulate", "--matches", "0"], "--matches"),
        (["simulate", "--matches", "1", "--max-hands", "0"], "--max-hands"),
        (["arena", "--deals", "0"], "--deals"),
        (["arena", "--deals", "-3"], "--deals"),
        (["play", "--target", "-5", "--plain"], "--target"),
    ],
)
def test_counts_below_one_are_refused(args: list[str], option: str) -> None:
    res = invoke(args)
    assert res.exit_code == 2, res.output
    assert f"{option} must be 1 or more" in res.output
    assert "hands" not in res.output.split("Error")[0]  # nothing was played


def test_valid_counts_still_run() -> None:
    res = invoke(["simulate", "--games", "1", "--json"])
    assert res.exit_code == 0 and json.loads(res.output)["hands"] == 1


# --- 4. arena intervals at small numbers of deals ----------------------------------------------------------------


def test_t_quantiles() -> None:
    assert t95(1) == 12.706 and t95(30) == 2.042
    assert abs(t95(31) - 2.040) < 0.001 and abs(t95(120) - 1.980) < 0.001 and abs(t95(10**6) - 1.960) < 0.001
    with pytest.raises(ValueError):
        t95(0)
    stats = pytest.importorskip("scipy.stats")
    for df in (1, 2, 3, 5, 10, 29, 30, 31, 40, 60, 100, 500):
        assert abs(t95(df) - float(stats.t.ppf(0.975, df))) < 0.002, df


def _records(diffs: list[int]) -> list[dict[str, Any]]:
    return [
        {"deal": i, "diff": d, "games": [[d + 100, 100, "closed"], [100, 100, "stock"]], "a_moves": 1, "b_moves": 1,
         "a_s": 0.0, "b_s": 0.0, "s": 0.0}
        for i, d in enumerate(diffs)
    ]  # fmt: skip


def test_few_deals_give_no_fake_interval() -> None:
    r = preset("italian")
    four = summarize(r, 0, _records([600, 500, 700, 650]), 1.0)
    assert four["match_win_rate"] == 1.0
    assert four["match_win_rate_ci95"] is None and four["match_mean_diff_ci95"] is None
    lo, hi = four["ci95"]  # Student's t with 3 degrees of freedom, not 1.96
    sd = (sum((d - 612.5) ** 2 for d in [600, 500, 700, 650]) / 3) ** 0.5
    assert hi - four["mean_diff"] == pytest.approx(3.182 * sd / 2)
    assert four["a_win_rate_ci95"][0] < 0.6  # Wilson: 4 of 4 is not sure
    one = summarize(r, 0, _records([600]), 1.0)
    assert one["ci95"] is None
    many = summarize(r, 0, _records([600, 500, 700, 650, -100] * 4), 1.0)
    assert many["deals"] == MATCH_CI_MIN_DEALS and many["match_win_rate_ci95"] is not None
    assert match_intervals(r, [[(1, 0)]] * (MATCH_CI_MIN_DEALS - 1)) is None


def test_arena_says_too_few_deals() -> None:
    res = invoke(["arena", "--a", "easy", "--b", "random", "--rules", "italian-2p", "--deals", "2", "--seed", "1"])
    assert res.exit_code == 0, res.output
    assert f"no 95% CI below {MATCH_CI_MIN_DEALS} deals" in res.output
    assert "100.0 .. 100.0%" not in res.output and "inf" not in res.output


# --- 5. burraco serve on a busy port -----------------------------------------------------------------------------


def test_serve_on_a_busy_port_says_so_before_anything_else() -> None:
    pytest.importorskip("uvicorn")
    with socket.socket() as busy:
        busy.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        p = cli(["serve", "--port", str(port)], timeout=60)
    assert p.returncode == 1
    assert "open http" not in p.stderr + p.stdout
    assert f"127.0.0.1:{port}" in p.stderr and "--port" in p.stderr and "in use" in p.stderr


def test_serve_refuses_a_port_out_of_range() -> None:
    pytest.importorskip("uvicorn")
    res = invoke(["serve", "--port", "70000"])
    assert res.exit_code == 2 and "--port must be 1" in res.output


# --- 6. help texts -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["simulate", "arena", "replay", "play", "serve", "presets", "players"])
def test_help_shows_flags_without_a_value_and_keeps_brackets(command: str) -> None:
    res = invoke([command, "--help"])
    assert res.exit_code == 0
    assert "<bool>" not in res.output
    assert re.search(r"--help\s+(-h\s+)?Show this message", res.output)  # -h too (issue 44)
    if command in ("simulate", "arena"):
        assert "burraco[ray]" in res.output
        assert re.search(r"--json\s+print the figures", res.output)


def test_an_added_typer_app_gets_the_same_help() -> None:
    import typer

    from burraco.cli import _Group

    root = typer.Typer(cls=_Group)
    sub = typer.Typer()

    @root.command()
    def one() -> None:
        """One."""

    @sub.command()
    def two(flag: bool = typer.Option(False, "--flag", help="a flag")) -> None:
        """Two."""

    root.add_typer(sub, name="sub")
    res = CliRunner().invoke(root, ["sub", "two", "--help"], env={"COLUMNS": "100"})
    assert res.exit_code == 0 and "--flag" in res.output
    assert "<bool>" not in res.output
    assert "<bool>" not in CliRunner().invoke(root, ["sub", "--help"], env={"COLUMNS": "100"}).output


def test_root_help_and_flags_take_no_value() -> None:
    assert "<bool>" not in invoke(["--help"]).output
    res = invoke(["simulate", "--games", "1", "--json", "true"])
    assert res.exit_code == 2


# --- 7. records: simulate writes what replay reads -----------------------------------------------------------------


def test_replay_reads_the_lines_of_simulate_records(tmp_path: Path) -> None:
    f = tmp_path / "games.jsonl"
    p = cli(["simulate", "--games", "3", "--seed", "5", "--records", str(f), "--json"])
    assert p.returncode == 0, p.stderr
    lines = f.read_text().splitlines()
    r = cli(["replay", str(f)])
    assert r.returncode == 0, r.stdout + r.stderr
    results = [json.loads(line) for line in r.stdout.splitlines()]
    assert [x["line"] for x in results] == [1, 2, 3] and list(results[0])[0] == "line"
    for line, res in zip(lines, results, strict=True):
        rec = json.loads(line)
        assert res == {"line": res["line"], **burraco.replay(rec["record"])}
        assert res["hands"][0]["scores"] == rec["scores"] and res["hands"][0]["end"] == rec["end"]


def test_replay_reads_match_records_and_reports_the_worst_line(tmp_path: Path) -> None:
    f = tmp_path / "matches.jsonl"
    assert cli(["simulate", "--matches", "2", "-r", "italian-tournament", "--records", str(f), "--json"]).returncode == 0
    good = f.read_text().splitlines()
    bad = json.loads(good[0])
    bad["record"]["hands"][0]["actions"][0] = "N frob"
    f.write_text("\n".join([good[0], json.dumps(bad), "", good[1]]) + "\n")
    r = cli(["replay", str(f)])
    assert r.returncode == 1
    out = [json.loads(line) for line in r.stdout.splitlines()]
    assert [(x["line"], x["ok"]) for x in out] == [(1, True), (2, False), (4, True)]
    assert out[1]["error"] == "invalid" and out[0]["vp"] is not None
    f.write_text(good[0] + "\n{not json\n")
    r = cli(["replay", str(f)])
    assert r.returncode == 2
    out = [json.loads(line) for line in r.stdout.splitlines()]
    assert out[0]["ok"] and out[1]["error"] == "record" and out[1]["line"] == 2


def test_a_single_record_prints_exactly_as_before(tmp_path: Path) -> None:
    g = Game.new(preset("italian"), seed=3)
    g.apply("N draw")
    rec = g.to_record()
    expected = json.dumps(burraco.replay(rec), indent=1, ensure_ascii=False) + "\n"
    for text in (json.dumps(rec), json.dumps(rec, indent=2), json.dumps(rec) + "\n\n"):
        f = tmp_path / "one.json"
        f.write_text(text)
        r = cli(["replay", str(f)])
        assert r.returncode == 0 and r.stdout == expected
    f.write_text(json.dumps({"game": 0, "record": rec}))  # one line of simulate --records
    r = cli(["replay", str(f)])
    assert r.returncode == 0 and r.stdout == expected


def test_not_json_lines_keep_the_single_record_error() -> None:
    assert replay_lines("{this is not json\n{}") is None
    assert replay_lines('{"format": "burraco-record/1"}') is None
    res = invoke(["replay", "-"], columns=200)
    assert res.exit_code == 2


# --- 9. match results as table lines ------------------------------------------------------------------------------


def test_simulate_prints_match_results_as_a_table() -> None:
    res = invoke(["simulate", "--matches", "2", "--rules", "italian-tournament", "--seed", "3"])
    assert res.exit_code == 0, res.output
    assert "{" not in res.output and "'NS'" not in res.output
    data = json.loads(invoke(["simulate", "--matches", "2", "--rules", "italian-tournament", "--seed", "3",
                              "--json"]).output)  # fmt: skip
    for side, n in data["match_wins"].items():
        assert re.search(rf"{side} won[\s│]+{n}[\s│]+{100 * n / 2:.1f}%", res.output), res.output
    assert re.search(r"unfinished[\s│]+0[\s│]+0\.0%", res.output)


# --- 10. links stay inside the repository --------------------------------------------------------------------------

LINK = re.compile(r"\]\(([^)\s]+)\)")


def _documents() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


@pytest.mark.parametrize("doc", _documents(), ids=lambda p: p.name)
def test_every_link_of_the_docs_is_inside_the_repository(doc: Path) -> None:
    text = re.sub(r"```.*?```", "", doc.read_text(encoding="utf-8"), flags=re.S)
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        path = (doc.parent / target.split("#")[0]).resolve()
        assert path.is_relative_to(ROOT), f"{doc.name} links outside the repository: {target}"
        assert path.exists(), f"{doc.name} links to a missing file: {target}"


def test_records_md_covers_the_contract_sections() -> None:
    text = (ROOT / "docs" / "records.md").read_text(encoding="utf-8")
    for heading in ("## 1. Cards", "## 2. Seats and sides", "## 3. The record", "## 4. Actions", "## 5. Replay",
                    "## 6. What holds", "## Where records come from", "## Several records: JSON lines"):  # fmt: skip
        assert heading in text
    for key in ("players", "target", "hands_per_match", "min_first_meld", "three_morto", "semiclean", "extra_honours"):
        assert f"| `{key}` |" in text
    for name in burraco.PRESETS:
        assert f"| `{name}` |" in text


# --- 11. the benchmark says when its figures are not to be trusted ---------------------------------------------------


def _engine_benchmark() -> Any:
    spec = importlib.util.spec_from_file_location("bench_engine", ROOT / "benchmarks" / "engine.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["bench_engine"] = mod  # its dataclasses look their module up
    try:
        spec.loader.exec_module(mod)
    finally:
        del sys.modules["bench_engine"]
    return mod


def test_benchmark_warns_on_a_shared_core_or_a_high_load() -> None:
    bench = _engine_benchmark()
    quiet = {"burraco_cpu_share": 0.997, "gin_cpu_share": 0.998, "cpus": 2, "loadavg_1m_start": 0.2,
             "loadavg_1m": 0.99}  # fmt: skip
    assert bench.trust_warnings(quiet) == []
    shared = bench.trust_warnings({**quiet, "burraco_cpu_share": 0.7})
    assert len(shared) == 1 and "70 %" in shared[0] and "burraco" in shared[0]
    busy = bench.trust_warnings({**quiet, "loadavg_1m_start": 1.6, "loadavg_1m": 3.4})
    assert len(busy) == 2 and "1.60" in busy[0] and "3.40" in busy[1]
    assert bench.trust_warnings({**quiet, "gin_cpu_share": None, "loadavg_1m": None}) == []


def test_readme_states_the_load_of_its_speed_figures() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    speed = text[text.index("## Speed") : text.index("**Native core.**")]
    assert "load average" in speed and "random hands per second" in speed
    linked = re.findall(r"\]\((docs/bench/[^)]+\.json)\)", speed)
    assert linked  # the figures name the runs they come from
    for f in linked:
        assert (ROOT / f).exists()


# --- 12. the API reference -----------------------------------------------------------------------------------------


def test_api_reference_lists_every_public_module() -> None:
    spec = importlib.util.spec_from_file_location("docs_conf", ROOT / "docs" / "conf.py")
    assert spec is not None and spec.loader is not None
    conf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conf)
    placed = conf.reference_modules(ROOT / "docs")  # api.md and its page per module (issue 44), api/*.md
    public = set(conf.public_modules())
    assert placed <= public and "burraco.rulebook" in placed  # a page per module (the rest: api/other.md)
    pages = sorted((ROOT / "docs" / "api").glob("*.md"))
    assert all(p.stem in public for p in pages if p.stem != "other")
    assert ".. burraco-other-modules::" in (ROOT / "docs" / "api" / "other.md").read_text()  # a new one: added there
    assert "burraco.bots.players" in public and "burraco.cli" not in public and "burraco.tui.run" not in public


FAKE_CONF = """
exec(compile(open({conf!r}).read(), {conf!r}, "exec"))
PACKAGE = "fakepkg"
NOT_IN_REFERENCE = ()
exclude_patterns = []
root_doc = "index"
"""


def _sphinx(tmp_path: Path, module_text: str, page: str) -> subprocess.CompletedProcess[str]:
    pytest.importorskip("sphinx")
    pytest.importorskip("myst_parser")
    pkg = tmp_path / "src" / "fakepkg"
    pkg.mkdir(parents=True, exist_ok=True)
    (pkg / "__init__.py").write_text('"""A package."""\n')
    (pkg / "mod.py").write_text(module_text)
    docs = tmp_path / "docs"
    docs.mkdir(exist_ok=True)
    (docs / "conf.py").write_text(FAKE_CONF.format(conf=str(ROOT / "docs" / "conf.py")))
    (docs / "index.md").write_text(page)
    env = dict(os.environ, PYTHONPATH=str(tmp_path / "src"))
    return subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-E", "-q", "-b", "html", str(docs),
         str(tmp_path / "out")],
        capture_output=True, text=True, env=env, timeout=300,
    )  # fmt: skip


PAGE = "# Fake\n\n```{eval-rst}\n.. automodule:: fakepkg\n\n.. automodule:: fakepkg.mod\n```\n"


def test_docs_build_fails_on_an_undocumented_name_or_a_broken_reference(tmp_path: Path) -> None:
    good = '"""A module."""\n\n\ndef f() -> int:\n    """One, see :func:`g`."""\n    return 1\n\n\ndef g() -> int:\n    """Two."""\n    return 2\n'
    ok = _sphinx(tmp_path, good, PAGE)
    assert ok.returncode == 0, ok.stderr
    undocumented = _sphinx(tmp_path, good.replace('    """Two."""\n', ""), PAGE)
    assert undocumented.returncode != 0 and "fakepkg.mod.g has no docstring" in undocumented.stderr
    broken = _sphinx(tmp_path, good.replace(":func:`g`", ":func:`nowhere`"), PAGE)
    assert broken.returncode != 0 and "nowhere" in broken.stderr
    missing = _sphinx(tmp_path, good, PAGE.replace("\n.. automodule:: fakepkg.mod\n", "\n"))
    assert missing.returncode != 0 and "module fakepkg.mod is not in the API reference" in missing.stderr
    other = _sphinx(tmp_path, good, PAGE.replace("\n.. automodule:: fakepkg.mod\n", "\n.. burraco-other-modules::\n"))
    assert other.returncode == 0, other.stderr
    assert 'id="fakepkg.mod.g"' in (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    undocumented_other = _sphinx(
        tmp_path, good.replace('    """Two."""\n', ""), PAGE.replace(".. automodule:: fakepkg.mod", ".. burraco-other-modules::")
    )
    assert undocumented_other.returncode != 0 and "fakepkg.mod.g has no docstring" in undocumented_other.stderr


# --- 11. anchors that work on GitHub and in the built docs (issue 44) ---------------------------------------------

ANCHOR_LINK = re.compile(r"\]\(([^)\s#]*)#([^)\s]+)\)")


def _anchors(path: Path) -> set[str]:
    """The anchors of a Markdown file as GitHub makes them (and the docs, ``myst_heading_slug_func = "github"``):
    its headings' slugs (a repeated one with -1, -2 …) and the ids it writes itself; a page that includes another
    (```{include}```) has that one's anchors."""
    from burraco.rulebook import slug

    text = path.read_text(encoding="utf-8")
    out: set[str] = set(re.findall(r'id="([^"]+)"', text))
    for inc in re.findall(r"```\{include\} (\S+)", text):
        out |= _anchors((path.parent / inc).resolve())
    seen: dict[str, int] = {}
    for heading in re.findall(r"^#{1,6} (.+?)\s*$", re.sub(r"```.*?```", "", text, flags=re.S), flags=re.M):
        base = slug(heading)
        n = seen.get(base, 0)
        out.add(base if n == 0 else f"{base}-{n}")
        seen[base] = n + 1
    return out


def _linking_documents() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")), *sorted((ROOT / "src" / "burraco" / "data" / "rulebook").glob("*.md"))]


@pytest.mark.parametrize("doc", _linking_documents(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_anchor_of_the_docs_exists_on_github_and_in_the_built_docs(doc: Path) -> None:
    text = re.sub(r"```.*?```", "", doc.read_text(encoding="utf-8"), flags=re.S)
    for target, anchor in ANCHOR_LINK.findall(text):
        if re.match(r"[a-z]+:", target):
            continue
        page = doc if not target else (doc.parent / target).resolve()
        assert anchor in _anchors(page), f"{doc.name} links to #{anchor} of {target or 'itself'}, which has no such anchor"


def test_the_docs_slugs_are_githubs() -> None:
    spec = importlib.util.spec_from_file_location("docs_conf_slugs", ROOT / "docs" / "conf.py")
    assert spec is not None and spec.loader is not None
    conf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conf)
    assert conf.myst_heading_slug_func == "github"
