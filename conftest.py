"""pytest's doctest collection of the package (``src/burraco``, a testpath): the research environments' modules that
need PyTorch and Stable-Baselines3 (the ``train`` extra, not part of ``dev``) are left out where those are not
installed, instead of failing to import. It stands at the repository's root, not in the package, so that the
installed package holds no test configuration. (The tests' own configuration is tests/conftest.py.)"""

from __future__ import annotations

import importlib.util

collect_ignore: list[str] = [
    f"src/burraco/envs/{name}"
    for name, needs in (("torch_policy.py", ("torch",)), ("sb3.py", ("torch", "sb3_contrib")))
    if any(importlib.util.find_spec(m) is None for m in needs)
]
