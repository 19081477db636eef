"""Test configuration: make ``helpers`` importable from every test module, fixed hypothesis profile."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

sys.path.insert(0, str(Path(__file__).resolve().parent))
# every legal-action list the native core serves to a Game is compared with the Python engine's, and the state with
# it (burraco._accel.check_native): the whole suite is a differential test of the two engines; the subprocesses the
# tests start (servers, CLI) inherit it
os.environ.setdefault("BURRACO_CHECK_NATIVE", "1")

settings.register_profile(
    "burraco",
    deadline=None,
    derandomize=True,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile("burraco")

#: the tests that exercise the engine itself (rules, legality, scoring, views, determinization, records, matches,
#: the computer players' and environments' use of the state): the pure-Python second run of CI (``BURRACO_PURE=1
#: python -m pytest -m engine``) runs these, with the doctests of the core and of docs/ and README.md. Servers,
#: browsers, the terminal table and tournaments drive the same engine through the same API, and run once, on the
#: native core. A new test file that tests the engine belongs here. The coach's and the hint's tests
#: (test_analysis.py, test_hint.py) are not: they judge the search's statistics, hundreds of rollouts a decision,
#: which took the pure-Python run from ~7 to 18 minutes (over 400 s for those two files alone on 2 workers); the
#: engine under them is the one the native run compares state by state (BURRACO_CHECK_NATIVE).
ENGINE_FILES = frozenset(
    {
        "test_bots.py",
        "test_conformance_own.py",
        "test_fair.py",
        "test_envs_encoding.py",
        "test_envs_features.py",
        "test_generation.py",
        "test_golden.py",
        "test_heuristic_levels.py",
        "test_heuristic_partner.py",
        "test_honesty.py",
        "test_house_rules.py",
        "test_infer.py",
        "test_ismcts.py",
        "test_match.py",
        "test_melds_examples.py",
        "test_messages.py",
        "test_narrate.py",
        "test_native.py",
        "test_perft.py",
        "test_properties.py",
        "test_rules_356.py",
        "test_rules_game.py",
        "test_takeback.py",
        "test_timeout_policy.py",
        "test_value.py",
        "test_view_json.py",
    }
)
#: the core's modules (their doctests run in the pure-Python run too)
CORE_MODULES = frozenset(
    f"{m}.py" for m in ("cards", "rules", "melds", "gen", "actions", "deal", "seats", "state", "pozzetto", "turns",
                        "legality", "scoring", "game", "view", "determinize", "match", "record", "fair", "takeback")
)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (pyproject's addopts): one worker more than the cores on a machine of up to 8 (issue 45). A
    worker spends part of its time waiting — on a browser, a server it started, a subprocess, a lease to run out —
    and with one worker per core a 2-core machine stood idle 18 % of a full run; with three, 5 %, and the run took
    751 s instead of 808 (2026-12-07, quiet)."""
    cores = os.cpu_count() or 1
    return cores + 1 if cores <= 8 else cores


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "engine: exercises the engine itself (run on both engines by CI)")


#: the test files that hold the longest tests, which run first (issue 45):
#: pytest-xdist's ``worksteal`` hands each worker a contiguous share of the collected tests and an idle worker takes
#: half of what another has left from the end of its queue. Long tests at the front are done while the other worker
#: is still busy, so the end of the run is short tests shared by both workers, not one worker alone in a minute-long
#: test. Whole files move, in their own order, so that a file's module fixtures (a server, a browser) start once.
#: The files whose longest test took 25 s or more in a full run at a load of 12 (2026-12-07; 10 s or more on a
#: quiet machine), by that test's time; a new one belongs here (``--durations=0`` shows where time goes).
SLOW_FIRST = (
    "test_server_tournament_evening_browser.py",
    "test_server_coach.py",
    "test_properties.py",
    "test_cli.py",
    "test_server_coach_browser.py",
    "test_play_tui.py",
    "test_play_table.py",
    "test_server_messages_js.py",
    "test_fair.py",
    "test_server_ratings.py",
    "test_server_phone_browser.py",
    "test_server_tournament.py",
    "test_cli_newcomer.py",
    "test_server_cluster.py",
    "test_ray_cluster.py",
    "test_server_table_browser.py",
    "test_server_restart.py",
    "test_analysis.py",
    "test_server_redis_outage.py",
    "test_server_players_browser.py",
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    rank = {name: i for i, name in enumerate(SLOW_FIRST)}
    items.sort(key=lambda item: rank.get(Path(str(item.path)).name, len(rank)))  # stable: the rest as collected
    for item in items:
        path = Path(str(item.path))
        core_doc = path.parent.name == "burraco" and path.name in CORE_MODULES
        if path.name in ENGINE_FILES or core_doc or path.suffix == ".md":
            item.add_marker(pytest.mark.engine)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium through Playwright, one per test module (tests/browser_support.py)."""
    from browser_support import launch

    yield from launch()
