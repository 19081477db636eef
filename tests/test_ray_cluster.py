"""Batch work on a two-node Ray cluster on loopback (issue 23 item 4, docs/deploy.md "Batch work on a Ray cluster"):
``burraco simulate``, ``burraco arena`` and ``burraco tournament simulate`` with ``--ray ADDRESS`` give the results
of a single process, and the work really runs on both nodes.

The cluster is two ``ray start --block`` processes of this machine (a head and a worker that joins it, one CPU
each) with their own temporary folder, stopped by terminating exactly those processes: never ``ray stop``, which
would stop every Ray on the machine, and no ``ray_current_cluster`` file left in /tmp/ray, which a later
``ray.init()`` of another test would try to join."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ray = pytest.importorskip("ray")

RAY = [sys.executable, "-m", "ray.scripts.scripts"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _env() -> dict[str, str]:
    # every process of the cluster and its drivers use Ray's token authentication (the token file is written by
    # the head in ~/.ray); without it Ray 2.5x+ refuses a driver that joins a `ray start` cluster
    return {**os.environ, "RAY_AUTH_MODE": "token", "RAY_USAGE_STATS_ENABLED": "0"}


def _start(args: list[str], log: Path, temp: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [*RAY, "start", "--block", "--num-cpus", "1", "--disable-usage-stats", "--temp-dir", temp, *args],
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
        env=_env(),
        start_new_session=True,  # its own process group: stopped as a whole, nothing else
    )


def _alive_nodes(address: str) -> int:
    code = (
        f"import ray, json; ray.init(address={address!r}, log_to_driver=False, configure_logging=False); "
        "print(json.dumps(sum(1 for n in ray.nodes() if n['Alive'])))"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=_env(), timeout=120)
    return int(p.stdout.strip().splitlines()[-1]) if p.returncode == 0 and p.stdout.strip() else 0


def _started(log: Path, deadline: float) -> None:
    while time.monotonic() < deadline and "Ray runtime started" not in log.read_text(errors="replace"):
        time.sleep(0.2)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    logs = tmp_path_factory.mktemp("ray")
    temp = tempfile.mkdtemp(prefix="brc", dir="/tmp")  # short: Ray's socket paths live under it
    port = _free_port()
    address = f"127.0.0.1:{port}"
    procs = [_start(["--head", "--port", str(port), "--include-dashboard=false"], logs / "head.log", temp)]
    try:
        deadline = time.monotonic() + 120
        # each node says "Ray runtime started." in its log once up (read every 0.2 s: cheap), then the driver's
        # count of alive nodes confirms it (a Python that imports Ray: seconds each, so asked once if all is well)
        _started(logs / "head.log", deadline)
        procs.append(_start(["--address", address], logs / "worker.log", temp))
        _started(logs / "worker.log", deadline)
        while time.monotonic() < deadline and _alive_nodes(address) < 2:
            time.sleep(1)
        if _alive_nodes(address) < 2:
            text = "\n".join(p.read_text(errors="replace")[-2000:] for p in sorted(logs.iterdir()))
            pytest.fail(f"the two-node Ray cluster did not come up:\n{text}")
        yield address
    finally:
        # killed at once: the cluster keeps nothing worth a graceful stop (its folder is removed below), and
        # `ray start --block`'s own stop on SIGTERM took ~17 s a node (35 s of CI's time); each node is its own
        # process group, and anything of it that left the group still names the private folder
        for p in reversed(procs):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(p.pid, signal.SIGKILL)
            p.wait(timeout=60)
        subprocess.run(["pkill", "-KILL", "-f", temp], check=False)
        shutil.rmtree(temp, ignore_errors=True)


def burraco(*args: str) -> Any:
    p = subprocess.run(
        [sys.executable, "-m", "burraco", *args], capture_output=True, text=True, env=_env(), timeout=600
    )
    assert p.returncode == 0, p.stderr[-3000:]
    return json.loads(p.stdout)


TIMINGS = {"seconds", "hands_per_s", "decisions_per_s", "a_ms_per_move", "b_ms_per_move", "workers"}


def same(a: dict[str, Any], b: dict[str, Any]) -> None:
    assert {k: v for k, v in a.items() if k not in TIMINGS} == {k: v for k, v in b.items() if k not in TIMINGS}


def test_simulate_on_the_cluster_equals_one_process(cluster: str) -> None:
    args = ["simulate", "--games", "30", "--seed", "3", "--json"]
    same(burraco(*args, "--ray", cluster), burraco(*args))


def test_arena_on_the_cluster_equals_one_process(cluster: str) -> None:
    args = ["arena", "--a", "heuristic:easy", "--b", "random", "--deals", "4", "--seed", "2", "--json"]
    same(burraco(*args, "--ray", cluster), burraco(*args))


def test_tournament_simulation_on_the_cluster_equals_one_process(cluster: str) -> None:
    args = [
        "tournament", "simulate", "--pairs", "6", "--rounds", "2", "--movements", "mitchell,danish",
        "--hands", "3", "--players", "heuristic:easy,random", "--seed", "5", "--json",
    ]  # fmt: skip
    assert burraco(*args, "--ray", cluster) == burraco(*args)


def test_the_work_runs_on_both_nodes(cluster: str) -> None:
    """Tasks of one CPU each, more than one node holds: both nodes take some (the results above were not all
    computed on the head)."""
    code = f"""
import json, time, ray
ray.init(address={cluster!r}, log_to_driver=False, configure_logging=False)

@ray.remote(num_cpus=1)
def where(i):
    time.sleep(0.5)
    return ray.get_runtime_context().get_node_id()

print(json.dumps(len(set(ray.get([where.remote(i) for i in range(8)])))))
"""
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=_env(), timeout=300)
    assert p.returncode == 0, p.stderr[-3000:]
    assert int(p.stdout.strip().splitlines()[-1]) == 2
