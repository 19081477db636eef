"""The progress of a long command-line run (``simulate``, ``arena``, ``ladder``, ``analyse``, ``tournament
simulate``): rich's bar on a terminal, plain lines where standard error is no terminal (a log file, a pipe, CI), so
that a run of minutes never looks dead.

>>> import io
>>> from rich.console import Console
>>> out = io.StringIO()
>>> with progress(Console(file=out), quiet=False) as bar:
...     task = bar.add_task("italian: hands", total=4)
...     for _ in range(4):
...         bar.advance(task)
>>> print(out.getvalue().strip())
italian: hands 1/4
italian: hands 2/4
italian: hands 3/4
italian: hands 4/4
"""

from __future__ import annotations

import time
from types import TracebackType
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

__all__ = ["ProgressLines", "progress"]


class ProgressLines:
    """Progress as lines (``italian: hands 40/100``): at each tenth of the way, and at least every ``every``
    seconds while a step takes long, and the last step; the calls of rich's :class:`~rich.progress.Progress`
    that the commands use (``add_task``, ``advance``, ``update``)."""

    def __init__(self, console: Console, every: float = 10.0) -> None:
        self.console = console
        self.every = every
        self.tasks: list[dict[str, Any]] = []

    def __enter__(self) -> ProgressLines:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None
    ) -> None:
        return None

    def add_task(self, description: str, total: float | None = None, **_: Any) -> int:
        self.tasks.append({"description": description, "total": total, "completed": 0.0, "said": -1, "at": 0.0})
        return len(self.tasks) - 1

    def advance(self, task: int, advance: float = 1) -> None:
        self.update(task, advance=advance)

    def update(
        self,
        task: int,
        *,
        completed: float | None = None,
        total: float | None = None,
        advance: float | None = None,
        description: str | None = None,
        **_: Any,
    ) -> None:
        t = self.tasks[task]
        if total is not None:
            t["total"] = total
        if description is not None:
            t["description"] = description
        if completed is not None:
            t["completed"] = completed
        if advance is not None:
            t["completed"] += advance
        done, whole = t["completed"], t["total"]
        tenth = int(10 * done / whole) if whole else -1
        now = time.monotonic()
        if tenth != t["said"] or (whole and done >= whole) or now - t["at"] >= self.every:
            if (whole and done >= whole) and t.get("ended"):
                return
            t["said"], t["at"] = tenth, now
            t["ended"] = bool(whole and done >= whole)
            figures = f"{done:g}/{whole:g}" if whole else f"{done:g}"
            self.console.print(f"{t['description']} {figures}", highlight=False, markup=False, soft_wrap=True)


def progress(console: Console, quiet: bool) -> Any:
    """The progress display of a long run on ``console`` (standard error): rich's bar on a terminal; lines
    elsewhere (:class:`ProgressLines`), or nothing there when ``quiet`` (a ``--json`` run, whose output is read by a
    program)."""
    if not console.is_terminal and not quiet:
        return ProgressLines(console)
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        disable=quiet and not console.is_terminal,
    )
