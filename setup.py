"""Build hook for the compiled parts (the project's metadata lives in pyproject.toml).

**C speed-ups, always tried.** ``burraco._speedups`` (src/burraco/_speedups.c, plain CPython C API, no other
dependency) holds C versions of the inner loop of move generation and of the research environments (new melds and
attachments from the generator's caches, the observation, the action indices and the mask). Every install builds it
where a C compiler and the Python headers are present, editable installs included; where it does not compile the
install goes on without it (``optional=True``) and the package runs its pure-Python code, which is the reference
(tests/test_speedups.py compares both on every state of random hands; ``BURRACO_PURE=1`` turns the C code off).

**Compiled engine, on request.** With ``BURRACO_COMPILE=1`` the engine's hot modules (cards, actions, melds,
generation, the game, the research environments' encoding and table) are also compiled with mypyc from the same
typed sources; that needs mypy, setuptools and a C compiler in the installing environment, so build without
isolation::

    python -m pip install "mypy>=1.10" "setuptools>=77" wheel
    BURRACO_COMPILE=1 python -m pip install --no-build-isolation ".[rl]"

The compiled and the pure package behave the same (CI runs the whole test suite on both); the compiled one is faster
(docs/performance.md). Editable installs stay uncompiled by mypyc: a compiled module next to its source would shadow
later edits of that source (the C speed-ups have no Python source to shadow).
"""

from __future__ import annotations

import os
import sys

from setuptools import Extension, setup

#: C versions of the inner loop of move generation and of the research environments (burraco/_speedups.c);
#: optional: where it does not compile (no C compiler, no Python headers) the install goes on without it and the
#: package uses its pure-Python code
SPEEDUPS = Extension("burraco._speedups", ["src/burraco/_speedups.c"], optional=True)

#: the native core (src/native/native.c): one hand in compact C form with the engine's legal actions, apply, clone,
#: scoring and random playouts that release the GIL (burraco/native.py wraps it); optional like the speed-ups: where
#: it does not compile the engine runs on its pure-Python code (``BURRACO_PURE=1`` turns it off too)
NATIVE = Extension("burraco._native", ["src/native/native.c"], optional=True, extra_compile_args=["-O2", "-ffp-contract=off"])

#: the modules compiled with BURRACO_COMPILE=1 (the engine's inner loop, the environments' encoder and table)
COMPILED = [
    "src/burraco/cards.py",
    "src/burraco/actions.py",
    "src/burraco/melds.py",
    "src/burraco/gen.py",
    "src/burraco/game.py",
    "src/burraco/envs/encoding.py",
    "src/burraco/envs/_core.py",
]


def ext_modules() -> list[object]:
    if os.environ.get("BURRACO_COMPILE", "") != "1":
        return [SPEEDUPS, NATIVE]
    if any(cmd in sys.argv for cmd in ("editable_wheel", "develop")):
        print("BURRACO_COMPILE ignored: an editable install is not compiled by mypyc", file=sys.stderr)
        return [SPEEDUPS, NATIVE]
    if not any(cmd in sys.argv for cmd in ("bdist_wheel", "build", "build_ext")):
        return [SPEEDUPS, NATIVE]  # metadata and build requirements: nothing to compile yet
    try:
        from mypyc.build import mypycify
    except ImportError:
        raise SystemExit(
            "BURRACO_COMPILE=1 needs mypy (mypyc) in the installing environment: "
            'python -m pip install "mypy>=1.10" "setuptools>=77" wheel, then pip install --no-build-isolation'
        ) from None

    return [*mypycify(COMPILED, opt_level="3"), SPEEDUPS, NATIVE]


setup(ext_modules=ext_modules())
