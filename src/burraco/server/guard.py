"""Slow and idle HTTP clients cost nothing: uvicorn's HTTP protocol (h11) with a deadline for reading each request
and a cap on the connections open from one address (docs/deploy.md).

uvicorn closes a connection left idle after a response (``timeout_keep_alive``) but never one that sends half a
request and stops (slowloris): 1,100 of them from one address once held 1,100 descriptors for as long as they
liked. Here:

* **A request must arrive whole within** ``BURRACO_REQUEST_TIMEOUT`` seconds (10 by default) of the moment the
  connection can send it (it opened, or the previous response went out): its headers and its body. Past it the
  connection is closed; one that has not sent a byte by then too. A websocket's upgrade request is one such
  request; the websocket itself then has its own deadline for ``hello`` (server/app.py).
* **At most** ``BURRACO_IP_HTTP_CONNECTIONS`` (256 by default) HTTP connections open at once from one address (an
  IPv4 address, an IPv6 /64); one more is closed as soon as it is accepted, which costs an accept and a close. A
  connection counts until it closes or becomes a websocket (websockets have their own cap per address,
  ``BURRACO_IP_CONNECTIONS``). The addresses of trusted proxies (uvicorn's ``FORWARDED_ALLOW_IPS``, 127.0.0.1 by
  default) are not capped: a proxy in front carries every player, and limits them itself (docs/deploy.md's
  nginx sample).

A request whose body was cut off that way ends quietly (:class:`QuietDisconnects`). The protocol class is a
module-level class reading its settings from the environment once per process, so that
uvicorn's worker processes (``--workers``) can use it as they are."""

from __future__ import annotations

import asyncio
import os
from typing import Any

import h11
from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

from .ratelimit import ip_key


class Settings:
    """The guard's settings, from the environment (read once per process)."""

    def __init__(self) -> None:
        self.request_timeout = float(os.environ.get("BURRACO_REQUEST_TIMEOUT") or 10.0)
        self.ip_connections = int(float(os.environ.get("BURRACO_IP_HTTP_CONNECTIONS") or 256))
        trusted = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
        self.trusted = {x.strip() for x in trusted.split(",") if x.strip()}


class Guard:
    """This process's open HTTP connections per address, and what the guard did (for tests and figures)."""

    def __init__(self) -> None:
        self.settings: Settings | None = None
        self.open: dict[str, int] = {}
        self.refused = 0  # connections closed at once: their address had its cap open
        self.timed_out = 0  # connections closed because their request did not arrive in time

    def get(self) -> Settings:
        if self.settings is None:
            self.settings = Settings()
        return self.settings


GUARD = Guard()


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline per request and a cap per address (the module's docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._key: str | None = None  # the address this connection counts against (None: not counted)
        self._deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        s = GUARD.get()
        host = self.client[0] if self.client else ""
        if host and "*" not in s.trusted and host not in s.trusted:
            key = ip_key(host)
            n = GUARD.open.get(key, 0)
            if n >= s.ip_connections:
                GUARD.refused += 1
                transport.abort()
                return
            GUARD.open[key] = n + 1
            self._key = key
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._release()
        super().connection_lost(exc)

    def _release(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        key, self._key = self._key, None
        if key is not None:
            n = GUARD.open.get(key, 0) - 1
            if n > 0:
                GUARD.open[key] = n
            else:
                GUARD.open.pop(key, None)

    def _arm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        self._deadline = self.loop.call_later(GUARD.get().request_timeout, self._late)

    def _late(self) -> None:
        """The deadline passed: closed if its request has not arrived whole (headers or body still awaited)."""
        self._deadline = None
        if self.transport.is_closing():
            return
        if self.conn.their_state in (h11.IDLE, h11.SEND_BODY):
            GUARD.timed_out += 1
            self.transport.abort()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()  # the next request on this connection gets its own time

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self._release()  # a websocket now: the app's own limits and its hello deadline take it from here
        super().handle_websocket_upgrade(event)


class QuietDisconnects:
    """ASGI middleware: a request whose client went away while its body was read (it left, or sent it too slowly
    and was closed at the deadline) ends there, without an answer nobody would read and without a traceback."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await self.app(scope, receive, send)
        except ClientDisconnect:
            if scope["type"] != "http":
                raise
