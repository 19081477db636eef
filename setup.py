"""Build hook for the compiled parts (the project's metadata lives in pyproject.toml).

**Native core, always tried.** ``burraco._native`` (the C files of src/native, one per concept: melds.c, gen.c,
game.c, random.c, heuristic.c, view.c, envs.c and the module glue module.c, with native.h, the types they share)
holds a whole hand in C; it serves ``Game.legal_actions``/``apply`` and the search player, simulations and playouts
(burraco/native.py). Optional: without it (no C compiler, or a build that fails) the package installs all the same
and runs its pure-Python engine, the reference.

(The mypyc-compiled build of the engine's modules that ``BURRACO_COMPILE=1`` made until December 2026 is retired,
and so is ``burraco._speedups`` (src/burraco/_speedups.c, the research environments' observation encoder and action
indices, until 2026-12-05): the native core serves what they sped up, and one native implementation beside the
Python reference is kept.)
"""

from __future__ import annotations

from glob import glob

from setuptools import Extension, setup

#: the native core (src/native/*.c, one extension module): one hand in compact C form with the engine's legal
#: actions, apply, clone, scoring and random playouts that release the GIL (burraco/native.py wraps it); optional:
#: where it does not compile the engine runs on its pure-Python code (``BURRACO_PURE=1`` turns it off too).
#: ``-ffp-contract=off``: the heuristic's scores are the Python engine's doubles, operation for operation (no fused
#: multiply-add); ``-fvisibility=hidden``: the units' shared functions stay inside the module.
NATIVE = Extension(
    "burraco._native",
    sorted(glob("src/native/*.c")),
    depends=sorted(glob("src/native/*.h")),
    optional=True,
    extra_compile_args=["-O2", "-ffp-contract=off", "-fvisibility=hidden"],
)

setup(ext_modules=[NATIVE])
