"""A browser's cookies and forms over real HTTP for the account tests: a tiny client that keeps the cookies the
server sets (and drops those it deletes), follows no redirect, and reads each form's CSRF token off the page."""

from __future__ import annotations

import http.client
import json
import re
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

from burraco.server.accounts import Account, Accounts, Limits
from burraco.server.store import Store, accounts_t
from server_support import WAIT, sqlite_url

_CSRF = re.compile(r'name="csrf" value="([^"]*)"')

#: the password every test account signs up with
PASSWORD = "correct horse battery"


class Browser:
    """One browser: its cookie jar (name -> value) and the Set-Cookie headers of its last answer."""

    def __init__(self, base: str) -> None:
        parts = urlsplit(base)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.cookies: dict[str, str] = {}
        self.set_cookies: list[str] = []

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], str]:
        conn = http.client.HTTPConnection(self.host, self.port, timeout=WAIT)
        h = dict(headers or {})
        if self.cookies:
            h["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        conn.request(method, path, body=body, headers=h)
        r = conn.getresponse()
        text = r.read().decode("utf-8")
        self.set_cookies = r.headers.get_all("set-cookie") or []
        for header in self.set_cookies:
            c = SimpleCookie()
            c.load(header)
            for name, morsel in c.items():
                if morsel["max-age"] == "0" or morsel.value in ("", '""'):
                    self.cookies.pop(name, None)
                else:
                    self.cookies[name] = morsel.value
        conn.close()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, text

    def get(self, path: str) -> tuple[int, str]:
        status, _, text = self.request("GET", path)
        return status, text

    def csrf(self) -> str:
        """The CSRF token of the account page's forms, as this browser sees them."""
        status, text = self.get("/account")
        assert status == 200, text
        m = _CSRF.search(text)
        assert m is not None and m.group(1), text
        return m.group(1)

    def post(self, action: str, fields: dict[str, str], csrf: str | None = "page",
             headers: dict[str, str] | None = None) -> tuple[int, str]:
        """Send an account form; ``csrf``: ``"page"`` (the token of this browser's page), None (none) or a
        token."""
        data = dict(fields)
        if csrf == "page":
            data["csrf"] = self.csrf()
        elif csrf is not None:
            data["csrf"] = csrf
        status, _, text = self.request("POST", f"/account/{action}", urlencode(data).encode(),
                                       {"Content-Type": "application/x-www-form-urlencoded", **(headers or {})})
        return status, text

    def me(self) -> tuple[int, Any]:
        status, text = self.get("/api/account")
        return status, json.loads(text)


def refusal(text: str) -> str | None:
    """The code of the refusal an account page shows, or None."""
    m = re.search(r'class="error" role="alert" data-code="([a-z_]+)"', text)
    return m.group(1) if m else None


def visitor(base: str) -> Browser:
    """A browser that opened the card room once (it holds its guest cookie)."""
    b = Browser(base)
    assert b.get("/")[0] == 200 and "burraco_guest" in b.cookies
    return b


def account(base: str, name: str) -> Browser:
    """A browser signed up to a new account (with :data:`PASSWORD`)."""
    b = visitor(base)
    status, _ = b.post("signup", {"name": name, "password": PASSWORD})
    assert status == 303
    return b


async def passkey_account(folder: Path) -> tuple[Store, Accounts, Account]:
    """A new SQLite store in ``folder`` holding one account as a passkey sign-up stores it (no password), the
    store's accounts and that account (Ann Rossi)."""
    store = Store(sqlite_url(folder / "pk.sqlite3"))
    await store.migrate()
    async with store.engine.begin() as conn:
        await conn.execute(accounts_t.insert().values(id="pk1", name="Ann Rossi", name_key="ann rossi",
                                                      password=None, created=0.0))
    return store, Accounts(store, Limits(5, 30, 900.0)), Account("pk1", "Ann Rossi", 0.0)
