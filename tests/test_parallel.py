"""burraco.parallel, batch simulation over processes and Ray, and the arena's --ray: the same results for the
same seed whatever runs the games."""

from __future__ import annotations

import json
import sys

import pytest
from typer.testing import CliRunner

from burraco import preset
from burraco.arena import run_arena
from burraco.cli import app
from burraco.parallel import ParallelError, item_seed, pmap, run
from burraco.sim import simulate


def _square_plus(x: int) -> int:
    return x * x + _STATE.get("add", 0)


_STATE: dict[str, int] = {}


def _init(add: int) -> None:
    _STATE["add"] = add


def test_pmap_keeps_order_and_runs_the_initializer_in_each_worker() -> None:
    items = list(range(7))
    assert pmap(_square_plus, items, initializer=_init, initargs=(10,)) == [x * x + 10 for x in items]
    _STATE.clear()
    got = pmap(_square_plus, items, workers=2, initializer=_init, initargs=(5,))
    assert got == [x * x + 5 for x in items]
    assert "add" not in _STATE  # it ran in the worker processes, not here
    assert sorted(run(_square_plus, items, workers=2)) == [(x, x * x) for x in items]
    assert item_seed(3, 4) != item_seed(4, 3)


def _figures(st):  # type: ignore[no-untyped-def]
    d = st.to_json()
    for k in ("seconds", "hands_per_s", "decisions_per_s", "workers"):
        d.pop(k)
    return d, st.games


def test_simulate_gives_the_same_games_on_one_or_two_processes() -> None:
    r = preset("italian-2p")
    one = simulate(r, games=12, seed=5, records=True)
    two = simulate(r, games=12, seed=5, records=True, workers=2, chunk=3)
    assert _figures(one) == _figures(two)
    assert [g["game"] for g in two.games] == list(range(12))
    m1 = simulate(preset("brazilian-2p", hands_per_match=2), matches=3, seed=1, records=True)
    m2 = simulate(
        preset("brazilian-2p", hands_per_match=2), matches=3, seed=1, records=True, workers=2, chunk=1
    )
    assert _figures(m1) == _figures(m2) and m1.matches == 3


def _arena_figures(d):  # type: ignore[no-untyped-def]
    return d["diffs"], d["mean_diff"], d["ci95"], d["ends"], d["a_moves"], d["b_moves"]


def test_arena_same_results_in_process_and_on_two_processes() -> None:
    r = preset("italian-2p")
    one = run_arena(r, "heuristic:easy", "random", 3, seed=2)
    two = run_arena(r, "heuristic:easy", "random", 3, seed=2, workers=2)
    assert _arena_figures(one) == _arena_figures(two)


def test_ray_missing_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(ParallelError, match="burraco\\[ray\\]"):
        pmap(abs, [1, 2], ray="local")


@pytest.fixture(scope="module")
def ray_local():  # type: ignore[no-untyped-def]
    ray = pytest.importorskip("ray")
    # address="local": a private instance, not a cluster another process left running on this machine
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield ray
    ray.shutdown()


def test_ray_and_multiprocessing_give_identical_results(ray_local) -> None:  # type: ignore[no-untyped-def]
    # Ray workers import functions by module: use the package's own (a test module is not importable there)
    assert pmap(abs, [-1, 2, -3], ray="local") == [1, 2, 3]
    r = preset("italian-2p")
    procs = simulate(r, games=10, seed=9, records=True, workers=2, chunk=3)
    on_ray = simulate(r, games=10, seed=9, records=True, ray="local", chunk=3)
    assert _figures(procs) == _figures(on_ray)
    a = run_arena(r, "heuristic:easy", "random", 3, seed=4, workers=2)
    b = run_arena(r, "heuristic:easy", "random", 3, seed=4, ray="local")
    assert _arena_figures(a) == _arena_figures(b)


def test_cli_simulate_workers_and_records(tmp_path) -> None:  # type: ignore[no-untyped-def]
    runner = CliRunner()
    out = tmp_path / "games.jsonl"
    res = runner.invoke(
        app,
        [
            "simulate",
            "--rules",
            "italian-2p",
            "-n",
            "6",
            "--seed",
            "3",
            "--workers",
            "2",
            "--json",
            "--records",
            str(out),
        ],
    )
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout.strip().splitlines()[-1])
    assert data["hands"] == 6 and data["workers"] == 2
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert [x["game"] for x in lines] == list(range(6))
    assert lines[0]["record"]["format"] == "burraco-record/1"
    one = runner.invoke(app, ["simulate", "--rules", "italian-2p", "-n", "6", "--seed", "3", "--json"])
    d1 = json.loads(one.stdout.strip().splitlines()[-1])
    assert d1["ends"] == data["ends"] and d1["mean_score"] == data["mean_score"]
    bad = runner.invoke(app, ["simulate", "--workers", "-1"])
    assert bad.exit_code != 0


def test_workers_fork_where_safe_and_the_start_method_changes_no_result(monkeypatch: pytest.MonkeyPatch) -> None:
    from burraco.parallel import mp_context

    if sys.platform == "linux":
        import threading

        expect = "fork" if threading.active_count() == 1 and "torch" not in sys.modules else "spawn"
        if "ray" in sys.modules or "jax" in sys.modules or "tensorflow" in sys.modules:
            expect = "spawn"
        assert mp_context().get_start_method() == expect
    r = preset("italian-2p")
    runs = []
    for method in ("spawn", "fork") if sys.platform == "linux" else ("spawn",):
        monkeypatch.setenv("BURRACO_MP_START", method)
        assert mp_context().get_start_method() == method
        runs.append(_figures(simulate(r, games=6, seed=8, records=True, workers=2)))
    assert all(x == runs[0] for x in runs)
