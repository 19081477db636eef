"""The order the suite runs in (tests/conftest.py, issue 45): the slowest test files first, so that pytest-xdist's
workers share the short tests at the end instead of one waiting for the other's long test."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import conftest

HERE = Path(__file__).resolve().parent


class FakeItem:
    """What the ordering hook reads of a collected test: its file, and the markers it is given."""

    def __init__(self, path: Path, index: int) -> None:
        self.path = path
        self.index = index  # its place in the collection
        self.markers: list[Any] = []

    def add_marker(self, marker: Any) -> None:
        self.markers.append(marker)


def test_every_file_named_slow_is_a_test_file_here_once() -> None:
    assert len(set(conftest.SLOW_FIRST)) == len(conftest.SLOW_FIRST)
    missing = [name for name in conftest.SLOW_FIRST if not (HERE / name).is_file()]
    assert missing == [], f"tests/conftest.py's SLOW_FIRST names files that are not in tests/: {missing}"


def test_the_slow_files_run_first_in_their_order_and_each_file_keeps_its_own_order() -> None:
    slow = conftest.SLOW_FIRST
    names = ("test_a.py", slow[1], "test_b.py", slow[0], slow[1], "test_a.py")
    items: list[Any] = [FakeItem(HERE / name, i) for i, name in enumerate(names)]
    conftest.pytest_collection_modifyitems(None, items)  # type: ignore[arg-type]
    assert [(item.path.name, item.index) for item in items] == [
        (slow[0], 3), (slow[1], 1), (slow[1], 4), ("test_a.py", 0), ("test_b.py", 2), ("test_a.py", 5)]
