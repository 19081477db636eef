#!/usr/bin/env python3
"""Random hands per second of the native core from 1 to N Python threads (its playouts release the GIL).

Each thread deals and plays its share of ``--hands`` random 4-player ``italian`` hands with one
``burraco.native.random_deals`` call; reported: hands per second per thread count and the speed-up over one
thread. On a machine whose cores are busy with other work the speed-up says so::

    python benchmarks/threads.py --threads 4 --json
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import threading
import time
from typing import Any

from burraco import native, preset


def rate(seeds: list[int], threads: int) -> float:
    parts = [seeds[i::threads] for i in range(threads)]
    rules = preset("italian")
    ts = [threading.Thread(target=native.random_deals, args=(rules, part)) for part in parts]
    t0 = time.perf_counter()
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return len(seeds) / (time.perf_counter() - t0)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--hands", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if not native.available():
        print("the native core is not built (or BURRACO_PURE is set)")
        return 2
    master = random.Random(args.seed)
    seeds = [master.getrandbits(63) for _ in range(args.hands)]
    rate(seeds[:200], 1)  # warm-up
    out: dict[str, Any] = {"hands": args.hands, "cpus": os.cpu_count(), "loadavg_1m": os.getloadavg()[0]}
    one = 0.0
    for k in range(1, args.threads + 1):
        r = rate(seeds, k)
        one = one or r
        out[f"threads_{k}_hands_per_s"] = round(r, 1)
        out[f"threads_{k}_speedup"] = round(r / one, 2)
    if args.json:
        print(json.dumps(out))
    else:
        for key, v in out.items():
            print(f"{key:28} {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
