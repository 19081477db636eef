"""Build hook for the compiled parts (the project's metadata lives in pyproject.toml).

**C speed-ups, always tried.** ``burraco._speedups`` (src/burraco/_speedups.c, plain CPython C API, no other
dependency) holds C versions of the research environments' inner loop (the observation, the action indices and the mask). Every install builds it
where a C compiler and the Python headers are present, editable installs included; where it does not compile the
install goes on without it (``optional=True``) and the package runs its pure-Python code, which is the reference
(tests/test_speedups.py compares both on every state of random hands; ``BURRACO_PURE=1`` turns the C code off).

**Native core, always tried.** ``burraco._native`` (src/native/native.c) holds a whole hand in C; it serves
``Game.legal_actions``/``apply`` and the search player, simulations and playouts (burraco/native.py). Optional like
the speed-ups: without it the package runs its pure-Python engine, the reference.

(The mypyc-compiled build of the engine's modules that ``BURRACO_COMPILE=1`` made until December 2026 is retired:
the native core serves what it sped up, and one native implementation beside the Python reference is kept.)
"""

from __future__ import annotations

from setuptools import Extension, setup

#: C versions of the research environments' inner loop (burraco/_speedups.c);
#: optional: where it does not compile (no C compiler, no Python headers) the install goes on without it and the
#: package uses its pure-Python code
SPEEDUPS = Extension("burraco._speedups", ["src/burraco/_speedups.c"], optional=True)

#: the native core (src/native/native.c): one hand in compact C form with the engine's legal actions, apply, clone,
#: scoring and random playouts that release the GIL (burraco/native.py wraps it); optional like the speed-ups: where
#: it does not compile the engine runs on its pure-Python code (``BURRACO_PURE=1`` turns it off too)
NATIVE = Extension("burraco._native", ["src/native/native.c"], optional=True, extra_compile_args=["-O2", "-ffp-contract=off"])

setup(ext_modules=[SPEEDUPS, NATIVE])
