"""Map a picklable function over work items: in this process, on a pool of processes, or on a Ray cluster.

The function must be deterministic in its item (derive any seed from the item, e.g. with :func:`item_seed`), so a
run gives the same results whatever the number of workers and wherever the items run. :func:`run` yields
``(position, result)`` pairs as items finish (any order: good for progress bars and saving as you go);
:func:`pmap` returns the results in the items' order.

>>> pmap(abs, [-3, 1, -2])
[3, 1, 2]
>>> sorted(run(abs, [-3, 1, -2], workers=1))
[(0, 3), (1, 1), (2, 2)]

``initializer(*initargs)`` runs once per worker process before its first item (in this process when
``workers == 1``), to build state the items share (players, rules) without pickling it with every item.

Ray (``pip install "burraco[ray]"``): ``ray="local"`` starts a Ray instance on this machine, any other address
(``"auto"``, ``"ray://host:10001"``, ``"host:6379"``) connects to that cluster; the burraco package must be
importable on its nodes. A Ray worker process runs the initializer once for each distinct ``(initializer,
initargs)``.
"""

from __future__ import annotations

import concurrent.futures
import hashlib
import multiprocessing
import os
import pickle
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

#: the message shown when Ray is asked for and not installed
RAY_INSTALL_HINT = 'Ray is not installed: pip install "burraco[ray]"'


class ParallelError(RuntimeError):
    """Ray asked for but not installed, or a Ray cluster that cannot be reached."""


def item_seed(seed: int, i: int) -> int:
    """A seed for item ``i`` of a run seeded ``seed``: distinct per item, the same on every machine."""
    return seed * 1_000_003 + i


def workers_for(workers: int) -> int:
    """``workers`` with 0 meaning one per CPU."""
    return workers if workers > 0 else (os.cpu_count() or 1)


#: modules after whose import a fork is not safe (threads of their own, or state that must not be shared)
_NO_FORK_MODULES = ("torch", "ray", "jax", "tensorflow")


def mp_context() -> multiprocessing.context.BaseContext:
    """How worker processes start: ``fork`` where it is safe — Linux, no other thread in this process and none of
    the libraries that start their own (torch, Ray, …) imported — so that a worker starts at once with the modules
    already imported (a spawned one spends ~0.2 s re-importing them and re-running the main module); ``spawn``
    everywhere else. The environment variable ``BURRACO_MP_START`` (``fork``, ``spawn``, ``forkserver``) overrides
    the choice. The results never depend on it (every item is deterministic in itself)."""
    forced = os.environ.get("BURRACO_MP_START")
    if forced:
        return multiprocessing.get_context(forced)
    if (
        sys.platform == "linux"
        and threading.active_count() == 1
        and not any(m in sys.modules for m in _NO_FORK_MODULES)
    ):
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def run(
    fn: Callable[[T], R],
    items: Sequence[T],
    *,
    workers: int = 1,
    ray: str | None = None,
    initializer: Callable[..., Any] | None = None,
    initargs: tuple[Any, ...] = (),
) -> Iterator[tuple[int, R]]:
    """Yield ``(position, fn(items[position]))`` for every item as it finishes. ``workers`` processes (0: one per
    CPU; 1: in this process), or Ray tasks when ``ray`` is an address (then ``workers`` > 0 caps the tasks in
    flight)."""
    if ray is not None:
        yield from _run_ray(fn, items, ray, workers, initializer, initargs)
        return
    n = workers_for(workers)
    if n == 1 or len(items) <= 1:
        if initializer is not None:
            initializer(*initargs)
        for i, x in enumerate(items):
            yield i, fn(x)
        return
    pool = concurrent.futures.ProcessPoolExecutor(
        max_workers=min(n, len(items)),
        mp_context=mp_context(),
        initializer=initializer,
        initargs=initargs,
    )
    try:
        futures = {pool.submit(fn, x): i for i, x in enumerate(items)}
        for fut in concurrent.futures.as_completed(futures):
            yield futures[fut], fut.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def pmap(
    fn: Callable[[T], R],
    items: Sequence[T],
    *,
    workers: int = 1,
    ray: str | None = None,
    initializer: Callable[..., Any] | None = None,
    initargs: tuple[Any, ...] = (),
) -> list[R]:
    """``[fn(x) for x in items]``, spread like :func:`run`; the results in the items' order."""
    out: list[Any] = [None] * len(items)
    for i, r in run(fn, items, workers=workers, ray=ray, initializer=initializer, initargs=initargs):
        out[i] = r
    return out


# --- Ray ----------------------------------------------------------------------------------------------------------

_RAY_INIT_DONE: set[str] = set()


def _ray_task(
    fn: Callable[[Any], Any], item: Any, init: Callable[..., Any] | None, args: tuple[Any, ...], key: str
) -> Any:
    """Runs in a Ray worker: the initializer once per worker process and key, then the item."""
    if init is not None and key not in _RAY_INIT_DONE:
        init(*args)
        _RAY_INIT_DONE.add(key)
    return fn(item)


def ray_init(address: str) -> Any:
    """Connect to (or, for ``"local"``, start) Ray once per process; returns the ``ray`` module."""
    try:
        import ray
    except ImportError as e:
        raise ParallelError(RAY_INSTALL_HINT) from e
    if not ray.is_initialized():
        try:
            if address == "local":  # a private instance, never a cluster that happens to run on this machine
                ray.init(address="local", include_dashboard=False, log_to_driver=False, configure_logging=False)
            else:
                ray.init(address=address, log_to_driver=False, configure_logging=False)
        except Exception as e:  # a cluster that is not there
            raise ParallelError(f"cannot reach the Ray cluster at {address!r}: {e}") from e
    return ray


def _run_ray(
    fn: Callable[[T], R],
    items: Sequence[T],
    address: str,
    workers: int,
    initializer: Callable[..., Any] | None,
    initargs: tuple[Any, ...],
) -> Iterator[tuple[int, R]]:
    ray = ray_init(address)
    key = hashlib.sha256(pickle.dumps((initializer, initargs))).hexdigest()
    task = ray.remote(_ray_task)
    fn_ref = ray.put(fn)
    args_ref = ray.put(initargs)
    cap = workers if workers > 0 else len(items)
    pending: dict[Any, int] = {}
    nxt = 0
    try:
        while nxt < len(items) or pending:
            while nxt < len(items) and len(pending) < cap:
                pending[task.remote(fn_ref, items[nxt], initializer, args_ref, key)] = nxt
                nxt += 1
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                yield pending.pop(ref), ray.get(ref)
    finally:
        for ref in pending:
            ray.cancel(ref)


__all__ = ["ParallelError", "RAY_INSTALL_HINT", "item_seed", "mp_context", "pmap", "ray_init", "run", "workers_for"]
