"""Build hook for the optional compiled engine (the project's metadata lives in pyproject.toml).

By default ``pip install .`` builds the pure-Python package. With ``BURRACO_COMPILE=1`` the engine's hot modules
(cards, actions, melds, generation, the game, the research environments' encoding and table) are compiled with
mypyc from the same typed sources; that needs mypy, setuptools and a C compiler in the installing environment, so
build without isolation::

    python -m pip install "mypy>=1.10" "setuptools>=77" wheel
    BURRACO_COMPILE=1 python -m pip install --no-build-isolation ".[rl]"

The compiled and the pure package behave the same (CI runs the whole test suite on both); the compiled one is faster
(docs/performance.md). Editable installs stay pure Python: a compiled module next to its source would shadow later
edits of that source.
"""

from __future__ import annotations

import os
import sys

from setuptools import setup

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
        return []
    if any(cmd in sys.argv for cmd in ("editable_wheel", "develop")):
        print("BURRACO_COMPILE ignored: an editable install stays pure Python", file=sys.stderr)
        return []
    if not any(cmd in sys.argv for cmd in ("bdist_wheel", "build", "build_ext")):
        return []  # metadata and build requirements: nothing to compile yet
    try:
        from mypyc.build import mypycify
    except ImportError:
        raise SystemExit(
            "BURRACO_COMPILE=1 needs mypy (mypyc) in the installing environment: "
            'python -m pip install "mypy>=1.10" "setuptools>=77" wheel, then pip install --no-build-isolation'
        ) from None

    return list(mypycify(COMPILED, opt_level="3"))


setup(ext_modules=ext_modules())
