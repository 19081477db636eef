"""Test configuration: make ``helpers`` importable from every test module, fixed hypothesis profile."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

sys.path.insert(0, str(Path(__file__).resolve().parent))
# every legal-action list the native core serves to a Game is compared with the Python engine's, and the state with
# it (burraco._accel.check_native): the whole suite is a differential test of the two engines; the subprocesses the
# tests start (servers, CLI) inherit it
os.environ.setdefault("BURRACO_CHECK_NATIVE", "1")

settings.register_profile(
    "burraco",
    deadline=None,
    derandomize=True,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile("burraco")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium through Playwright, one per test module (tests/browser_support.py)."""
    from browser_support import launch

    yield from launch()
