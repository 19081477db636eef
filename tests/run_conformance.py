"""Run the public conformance cases (../shared/conformance) and hold them to their expectations, except where a case
is disputed in tests/conformance_disputes.json: such a case must fail exactly as the dispute says (the same error
lines, nothing more), and the reason, with the rule it contradicts, is printed with the result. The project's own
cases (tests/conformance/) run first, through the same runner, and must all pass.

    python tests/run_conformance.py          # from the checkout's root; BURRACO_REPLAY as for conformance.py

Exit status 0 when every case passes or fails only as disputed, 1 otherwise (2: no conformance suite here).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
CONFORMANCE = HERE.parents[1] / "shared" / "conformance" / "conformance.py"
DISPUTES = HERE / "conformance_disputes.json"
#: the project's own cases, in the same format (tests/test_conformance_own.py replays them in-process too)
OWN = HERE / "conformance"


def failures(output: str) -> dict[str, list[str]]:
    """The failed cases of a ``conformance.py run`` output: file name -> its error lines."""
    out: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in output.splitlines():
        if line.startswith("FAIL "):
            name = line[5:].split(":", 1)[0]
            current = out.setdefault(name, [])
        elif line.startswith("     ") and current is not None:
            current.append(line.strip())
        else:
            current = None
    return out


def judge(output: str, disputes: dict[str, dict[str, object]]) -> tuple[bool, list[str]]:
    """(ok, report lines) for a conformance output under the disputes."""
    report: list[str] = []
    ok = True
    failed = failures(output)
    for name, errs in sorted(failed.items()):
        d = disputes.get(name)
        if d is None:
            ok = False
            report.append(f"FAILED (not disputed): {name}")
        elif errs != d["failure"]:
            ok = False
            report.append(f"FAILED otherwise than disputed: {name}: {errs} (disputed: {d['failure']})")
        else:
            report.append(f"DISPUTED {name}: {' / '.join(errs)}\n  contradicts {d['rule']}: {d['why']}")
    for name in sorted(set(disputes) - set(failed)):
        report.append(f"note: the disputed case {name} passes now: remove it from {DISPUTES.name}")
    if "conformance:" not in output:
        ok = False
        report.append("the conformance runner printed no summary")
    return ok, report


def main() -> int:
    if not CONFORMANCE.exists():
        print(f"no conformance suite at {CONFORMANCE}")
        return 2
    env = dict(os.environ)
    env.setdefault("BURRACO_REPLAY", f"{sys.executable} -m burraco replay")
    p = subprocess.run(
        [sys.executable, str(CONFORMANCE), "run"], capture_output=True, text=True, env=env, timeout=900
    )
    own = subprocess.run(
        [sys.executable, str(CONFORMANCE), "run", str(OWN)], capture_output=True, text=True, env=env, timeout=900
    )
    sys.stdout.write(own.stdout.replace("conformance:", "own cases (tests/conformance):"))
    sys.stderr.write(own.stderr)
    if own.returncode != 0:
        print("own cases: FAILED")
        return 1
    sys.stdout.write(p.stdout)
    sys.stderr.write(p.stderr)
    ok, report = judge(p.stdout, json.loads(DISPUTES.read_text()))
    for line in report:
        print(line)
    print("conformance: OK" if ok else "conformance: FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
