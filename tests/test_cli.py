"""The command line: ``burraco replay`` (RECORDS.md §5 exit codes and JSON), ``burraco simulate``, ``burraco
presets``, and the public conformance runner driven through ``python -m burraco replay``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import burraco
import run_conformance
from burraco import Game, preset
from helpers import build_deal

CONFORMANCE = run_conformance.CONFORMANCE
REPLAY = [sys.executable, "-m", "burraco", "replay"]


def run(args: list[str], stdin: str | None = None, timeout: int = 120) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, COLUMNS="200")  # rich wraps tables to the terminal width
    return subprocess.run(args, input=stdin, capture_output=True, text=True, timeout=timeout, env=env)


def good_record() -> dict:
    g = Game.from_deal(
        preset("italian"),
        build_deal(
            "italian",
            hands={"N": "3h 4h 5h 6h 7h 8h 9h Kc Kd Ks JK"},
            stock_top="Th",
            pozzetti=["Ac Ad As 4c 5c 6c 7c Qd Qs Qh 9s"],
        ),
        3,
    )
    for a in [
        "N draw",
        "N meld 3h 4h 5h 6h 7h 8h 9h Th",
        "N meld Kc Kd Ks JK",
        "N meld Ac Ad As",
        "N meld 4c 5c 6c 7c",
        "N meld Qd Qs Qh",
        "N discard 9s",
    ]:
        g.apply(a)
    assert g.end == "closed"
    return g.to_record()


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("records")
    out = {}
    rec = good_record()
    out["good"] = d / "good.json"
    out["good"].write_text(json.dumps(rec))
    bad = json.loads(json.dumps(rec))
    bad["hands"][0]["actions"][2] = "N add 1 Kc"
    out["illegal"] = d / "illegal.json"
    out["illegal"].write_text(json.dumps(bad))
    inv = json.loads(json.dumps(rec))
    inv["hands"][0]["actions"][1] = "N frob"
    out["invalid"] = d / "invalid.json"
    out["invalid"].write_text(json.dumps(inv))
    out["notjson"] = d / "notjson.json"
    out["notjson"].write_text("{this is not json")
    unk = json.loads(json.dumps(rec))
    unk["rules"] = "italian-5p"
    out["preset"] = d / "preset.json"
    out["preset"].write_text(json.dumps(unk))
    partial = json.loads(json.dumps(rec))
    partial["hands"][0]["actions"] = partial["hands"][0]["actions"][:3]
    out["partial"] = d / "partial.json"
    out["partial"].write_text(json.dumps(partial))
    return out


def test_replay_ok_exit_0_and_same_json_as_the_library(records: dict[str, Path]) -> None:
    p = run(REPLAY + [str(records["good"])])
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out == burraco.replay(json.loads(records["good"].read_text()))
    assert out["ok"] is True and set(out) >= {"ok", "hands", "totals", "winner", "vp"}
    h = out["hands"][0]
    assert set(h) >= {"end", "closed_by", "table", "scores"}
    assert h["end"] == "closed" and h["closed_by"] == "N"
    assert set(h["table"]) >= {
        "turn",
        "phase",
        "stock",
        "pile",
        "hands",
        "pozzetti_left",
        "pozzetto_taken",
        "melds",
    }
    assert h["scores"]["NS"]["total"] == sum(v for k, v in h["scores"]["NS"].items() if k != "total")


def test_replay_unfinished_hand_exit_0(records: dict[str, Path]) -> None:
    p = run(REPLAY + [str(records["partial"])])
    assert p.returncode == 0
    out = json.loads(p.stdout)
    h = out["hands"][0]
    assert h["end"] is None and h["scores"] is None and h["closed_by"] is None
    assert h["table"]["turn"] == "N" and h["table"]["phase"] == "play"
    assert out["totals"] == {"NS": 0, "EW": 0} and out["winner"] is None and out["vp"] is None


def test_replay_illegal_action_exit_1(records: dict[str, Path]) -> None:
    p = run(REPLAY + [str(records["illegal"])])
    assert p.returncode == 1
    out = json.loads(p.stdout)
    assert out["ok"] is False and out["error"] == "illegal"
    assert out["hand"] == 0 and out["action_index"] == 2 and out["action"] == "N add 1 Kc"
    assert "Kc is not a heart" in out["message"]


def test_replay_invalid_action_exit_1(records: dict[str, Path]) -> None:
    p = run(REPLAY + [str(records["invalid"])])
    assert p.returncode == 1
    out = json.loads(p.stdout)
    assert out["error"] == "invalid" and out["action_index"] == 1 and out["action"] == "N frob"


@pytest.mark.parametrize("which", ["notjson", "preset"])
def test_replay_bad_record_exit_2(records: dict[str, Path], which: str) -> None:
    p = run(REPLAY + [str(records[which])])
    assert p.returncode == 2
    out = json.loads(p.stdout)
    assert out["ok"] is False and out["error"] == "record" and out["message"]


def test_replay_missing_file_exit_2(tmp_path: Path) -> None:
    p = run(REPLAY + [str(tmp_path / "nope.json")])
    assert p.returncode == 2
    out = json.loads(p.stdout)
    assert out["error"] == "record"


def test_replay_of_a_file_skips_the_command_line_libraries_and_answers_as_the_full_command(
    records: dict[str, Path], tmp_path: Path
) -> None:
    """``burraco replay FILE``, run once per case by outside suites, loads neither Typer nor Rich (burraco.launch);
    its output and exit status are those of the full command (``replay`` with an option), both printing
    burraco.replay_cmd's."""
    from typer.testing import CliRunner

    from burraco.cli import app

    probe = (
        "import sys\nimport burraco.launch as l\nsys.argv = ['burraco', 'replay', sys.argv[1]]\n"
        "try:\n    l.main()\nexcept SystemExit as e:\n"
        "    print(e.code, 'typer' in sys.modules, 'rich' in sys.modules, file=sys.stderr)\n"
    )
    missing = str(tmp_path / "." / "nope.json")
    for f in [*(str(records[k]) for k in ("good", "illegal", "notjson")), missing]:
        p = run([sys.executable, "-c", probe, f])
        code, typer_loaded, rich_loaded = p.stderr.split()
        assert (typer_loaded, rich_loaded) == ("False", "False"), p.stderr
        full = CliRunner().invoke(app, ["replay", f])
        assert (int(code), p.stdout) == (full.exit_code, full.output), f
    assert "cannot read " + str(tmp_path / "nope.json") in run(REPLAY + [missing]).stdout


def test_replay_reads_standard_input(records: dict[str, Path]) -> None:
    p = run(REPLAY + ["-"], stdin=records["good"].read_text())
    assert p.returncode == 0
    assert json.loads(p.stdout)["hands"][0]["end"] == "closed"


def test_simulate_json_output_keys() -> None:
    p = run([sys.executable, "-m", "burraco", "simulate", "--games", "3", "--json"])
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    assert set(data) >= {
        "rules", "players", "hands", "ends", "mean_score", "decisions_per_hand", "hands_per_s",
        "decisions_per_s", "seconds",
    }  # fmt: skip
    assert data["rules"] == "italian" and data["players"] == 4 and data["hands"] == 3
    assert set(data["ends"]) == {"closed", "stock", "stalemate", "timeout", "cap"}
    assert sum(data["ends"].values()) == 3
    assert set(data["mean_score"]) == {"NS", "EW"}
    # the same seed gives the same games
    p2 = run([sys.executable, "-m", "burraco", "simulate", "--games", "3", "--json"])
    d2 = json.loads(p2.stdout)
    for k in ("ends", "mean_score", "decisions_per_hand"):
        assert d2[k] == data[k]


def test_simulate_matches_and_players_override() -> None:
    p = run(
        [
            sys.executable,
            "-m",
            "burraco",
            "simulate",
            "--matches",
            "1",
            "--rules",
            "italian-tournament",
            "--json",
            "--seed",
            "3",
        ]
    )
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    assert data["matches"] == 1 and data["hands"] == 3
    assert set(data) >= {"match_wins", "match_draws", "hands_per_match"}
    p = run(
        [
            sys.executable,
            "-m",
            "burraco",
            "simulate",
            "--games",
            "2",
            "--players",
            "2",
            "--rules",
            "brazilian",
            "--json",
        ]
    )
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    assert data["players"] == 2 and set(data["mean_score"]) == {"N", "S"}


def test_simulate_unknown_preset_fails() -> None:
    p = run([sys.executable, "-m", "burraco", "simulate", "--games", "1", "--rules", "nope", "--json"])
    assert p.returncode != 0


def test_presets_lists_every_preset() -> None:
    p = run([sys.executable, "-m", "burraco", "presets"])
    assert p.returncode == 0
    for name in burraco.PRESETS:
        assert name in p.stdout


@pytest.mark.skipif(
    not CONFORMANCE.exists(), reason="the shared conformance suite is not beside this checkout"
)
def test_public_conformance_suite_passes() -> None:
    """Every public case passes, but for the disputed ones, which fail exactly as tests/conformance_disputes.json
    says (tests/run_conformance.py)."""
    env = dict(os.environ, BURRACO_REPLAY=f"{sys.executable} -m burraco replay")
    p = subprocess.run(
        [sys.executable, str(CONFORMANCE), "run"], capture_output=True, text=True, env=env, timeout=600
    )
    ok, report = run_conformance.judge(p.stdout, json.loads(run_conformance.DISPUTES.read_text()))
    assert ok, "\n".join(report) + p.stdout[-3000:] + p.stderr[-2000:]
    assert " 0 failed" in p.stdout or all(line.startswith(("DISPUTED", "note")) for line in report)


def test_conformance_disputes_are_judged_strictly() -> None:
    disputes = {"a.json": {"failure": [".x: expected 1, got 2"], "rule": "§1", "why": "because"}}
    out = "FAIL a.json: A [§1]\n     .x: expected 1, got 2\nconformance: 3 passed, 1 failed\n"
    assert run_conformance.judge(out, disputes)[0]
    worse = "FAIL a.json: A [§1]\n     .x: expected 1, got 2\n     .y: expected 3, got 4\nconformance: 0 passed, 1 failed"
    assert not run_conformance.judge(worse, disputes)[0]
    other = "FAIL b.json: B [§2]\n     .x: expected 1, got 2\nconformance: 0 passed, 1 failed"
    assert not run_conformance.judge(other, disputes)[0]
    ok, report = run_conformance.judge("conformance: 4 passed, 0 failed", disputes)
    assert ok and "passes now" in report[0]
    assert not run_conformance.judge("", {})[0]


@pytest.mark.skipif(
    not CONFORMANCE.exists(), reason="the shared conformance suite is not beside this checkout"
)
def test_brazilian_case_the_engine_refuses_the_batida_and_not_the_move_before() -> None:
    """brazilian-no-batida-before-indirect-morto-is-reached-illegal (corrected on 2026-12-06 after our dispute)
    expects action 9, the batida, to be refused (RULES.md §0.1 C-22 / "No dead ends"): S keeps five cards after
    action 8."""
    case = json.loads(
        (
            CONFORMANCE.parent / "cases" / "brazilian-no-batida-before-indirect-morto-is-reached-illegal.json"
        ).read_text()
    )
    out = burraco.replay(case["record"])
    assert (out["ok"], out["action_index"], out["error"]) == (False, 9, "illegal")
    assert out["action"] == "S meld 9h Th Jh Qh Kh" and "morto" in out["message"]
    rec = json.loads(json.dumps(case["record"]))
    rec["hands"][0]["actions"] = rec["hands"][0]["actions"][:9]
    before = burraco.replay(rec)
    assert before["ok"] and before["hands"][0]["table"]["hands"]["S"] == 5


@pytest.mark.skipif(
    not CONFORMANCE.exists(), reason="the shared conformance suite is not beside this checkout"
)
def test_disputed_timeout_case_has_the_record_of_the_case_that_decides_it() -> None:
    """timeout-round-from-player-in-turn (written before the decision of 2026-12-06) and
    tournament-timeout-ends-the-match-vp hold the same record and expect different ``vp``/``winner``; the engine
    follows RULES.md §0.1 "The time-out ends the match", which the newer case states (tests/conformance_disputes.json)."""
    cases = CONFORMANCE.parent / "cases"
    old = json.loads((cases / "timeout-round-from-player-in-turn.json").read_text())
    new = json.loads((cases / "tournament-timeout-ends-the-match-vp.json").read_text())
    assert old["record"] == new["record"]
    out = burraco.replay(old["record"])
    assert (out["vp"], out["winner"]) == (new["expect"]["vp"], new["expect"]["winner"]) == ({"NS": 14, "EW": 6}, "NS")
    assert (old["expect"]["vp"], old["expect"]["winner"]) == (None, None)
