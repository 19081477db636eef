"""Guests: a browser's identity without an account, a signed cookie the server sets (docs/protocol.md "One person,
one seat").

The cookie ``burraco_guest`` is ``g1.<guest id>.<signature>``: a random 128-bit id (22 URL-safe characters) and the
HMAC-SHA256 of ``g1.<guest id>`` under the server's key (kept in the store: every process and every restart signs
alike), so nobody can make up another browser's id. It is ``HttpOnly`` (no script of the page reads it),
``SameSite=Lax`` (sent with the page's own requests and its websocket, and when a player arrives by an invitation
link from another site, never with another site's requests), ``Secure`` over HTTPS, and lasts two years.

The tables remember which guests held each seat (the ``seat_guests`` table): a browser that holds a seat cannot
take or open another at the same table, and an account (a later addition) takes over a guest's games by its id
(:meth:`Store.guest_seats <burraco.server.store.Store.guest_seats>`): signing in from a browser that carries the
cookie links every game that browser played as a guest.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets

#: the cookie's name
COOKIE = "burraco_guest"
#: the cookie's format version (a later format gets a new prefix; older cookies are then replaced)
VERSION = "g1"
#: two years, in seconds
MAX_AGE = 2 * 365 * 24 * 3600

_ID = re.compile(r"[A-Za-z0-9_-]{22}")


def _sign(key: bytes, guest: str) -> str:
    mac = hmac.digest(key, f"{VERSION}.{guest}".encode("ascii"), hashlib.sha256)
    return base64.urlsafe_b64encode(mac).rstrip(b"=").decode("ascii")


def new_guest(key: bytes) -> tuple[str, str]:
    """A new guest: its id and the cookie's value."""
    guest = secrets.token_urlsafe(16)
    return guest, f"{VERSION}.{guest}.{_sign(key, guest)}"


def guest_of(value: str | None, key: bytes) -> str | None:
    """The guest id of a cookie's value, or None when there is none or its signature is not the server's."""
    if not value:
        return None
    parts = value.split(".")
    if len(parts) != 3 or parts[0] != VERSION or not _ID.fullmatch(parts[1]):
        return None
    if not hmac.compare_digest(parts[2], _sign(key, parts[1])):
        return None
    return parts[1]


__all__ = ["COOKIE", "MAX_AGE", "VERSION", "guest_of", "new_guest"]
