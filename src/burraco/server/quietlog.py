"""Repeated log records written once per interval: a fault that hits every connection (Redis down, the process out
of file descriptors) must not write one traceback per connection (a flood of them once filled 69 MB in 25 s)."""

from __future__ import annotations

import logging
import time

#: seconds during which a record of the same logger and template is written once
EVERY = 10.0
#: the loggers the server quiets (its own; asyncio's "accept out of system resource"; uvicorn's errors)
LOGGERS = ("burraco.server", "asyncio", "uvicorn.error")


class OncePerInterval(logging.Filter):
    """Lets the first record of each (logger, template) through, then none of the same for ``every`` seconds; the
    next one let through says how many were left out meanwhile (and carries no traceback when it is one of many:
    the first one had it)."""

    def __init__(self, every: float = EVERY) -> None:
        super().__init__()
        self.every = every
        self._seen: dict[tuple[str, str], tuple[float, int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, str(record.msg))
        now = time.monotonic()
        last, skipped = self._seen.get(key, (-self.every, 0))
        if now - last < self.every:
            self._seen[key] = (last, skipped + 1)
            return False
        if len(self._seen) > 1000:  # templates are few; never let the map grow without bound
            self._seen = {k: v for k, v in self._seen.items() if now - v[0] < self.every}
        self._seen[key] = (now, 0)
        if skipped:
            record.msg = f"{record.msg} ({skipped} more like this in the last {now - last:.0f} s, not logged)"
            record.exc_info = None
            record.exc_text = None
        return True


def quiet(loggers: tuple[str, ...] = LOGGERS, every: float = EVERY) -> None:
    """Install :class:`OncePerInterval` on ``loggers`` (once: a second call changes nothing)."""
    for name in loggers:
        lg = logging.getLogger(name)
        if not any(isinstance(f, OncePerInterval) for f in lg.filters):
            lg.addFilter(OncePerInterval(every))
