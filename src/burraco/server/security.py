"""Security of the pages and the websocket: the headers every HTTP answer carries (a Content-Security-Policy
without inline script, no framing, no referrer) and the websocket's Origin check (docs/protocol.md "Security")."""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: the Content-Security-Policy of every answer: scripts, styles and connections from this server only, no inline
#: script or style, no plugin, never inside another site's frame
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)

#: the policy of a printable document (the desk's printouts): one HTML file with its own inline style, no script at
#: all, nothing fetched from anywhere, never framed
PRINT_CSP = (
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'none'"
)

#: the headers added to every HTTP answer (an answer that sets its own Content-Security-Policy keeps it)
HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (b"cross-origin-opener-policy", b"same-origin"),
)


class SecurityHeaders:
    """ASGI middleware: every HTTP answer (pages, static files, the API, errors) carries :data:`HEADERS`."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                have = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = list(message.get("headers", [])) + [h for h in HEADERS if h[0] not in have]
            await send(message)

        await self.app(scope, receive, send_with_headers)


def origin_allowed(origin: str | None, host: str | None, allowed: Iterable[str] = ()) -> bool:
    """Whether a websocket handshake's ``Origin`` may play here: none at all (a program, not a browser page), a
    page of this very server (the origin's host and port are the request's ``Host``), or one of ``allowed``
    (``BURRACO_ORIGINS``: origins such as ``https://burraco.example``)."""
    if origin is None:
        return True
    origin = origin.strip().lower().rstrip("/")
    if origin in {a.strip().lower().rstrip("/") for a in allowed if a.strip()}:
        return True
    if not host or origin == "null":
        return False
    parts = urlsplit(origin)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return False
    return parts.netloc == host.strip().lower()
