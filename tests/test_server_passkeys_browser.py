"""Passkeys in Debian's Chromium (docs/accounts.md "Passkeys", server/passkeys.py, static/account.js), with
Chromium's virtual authenticator (CDP ``WebAuthn.addVirtualAuthenticator``): sign up with a passkey, sign out,
sign in with it again; the store keeps its public key and no password; a browser whose authenticator does not hold
it cannot sign in; the page runs under the server's Content-Security-Policy (not bypassed); the passkey requests
refuse a missing CSRF token."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from browser_support import launch, new_page
from burraco.server.store import Store, accounts_t, passkeys_t
from server_support import WAIT, fast_config, in_thread, sqlite_url, thread_server

TIMEOUT_MS = 60_000  # a ceiling: a loaded 2-core machine (CI, two workers and their browsers) can be slow


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


def authenticator(page: Any) -> Any:
    """A platform authenticator that holds resident keys and verifies its user, in the page's browser context."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True, "hasUserVerification": True,
        "isUserVerified": True, "automaticPresenceSimulation": True}})
    return cdp


def test_sign_up_and_sign_in_with_a_passkey(browser: Any, tmp_path: Path) -> None:
    db = sqlite_url(tmp_path / "passkeys.sqlite3")
    with thread_server(fast_config(db)) as server:
        base = f"http://localhost:{server.port}"  # a relying party is a domain, never an IP address
        page = new_page(browser, 900, 800, timeout_ms=TIMEOUT_MS, bypass_csp=False)
        authenticator(page)
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" and "404" not in m.text else None)
        page.on("response", lambda r: errors.append(r.url) if r.status >= 400 and "favicon" not in r.url else None)
        page.goto(base + "/")
        page.goto(base + "/account")
        page.fill("#passkey-name", "Ann Rossi")
        page.click("#passkey-signup")
        page.wait_for_selector("#account-name")
        assert page.text_content("#account-name") == "Ann Rossi"
        assert "Passkeys (1)" in page.content()
        page.click("#signout button")
        page.wait_for_selector("#passkey-signin")
        page.click("#passkey-signin")
        page.wait_for_selector("#account-name")
        assert page.text_content("#account-name") == "Ann Rossi"
        assert not errors, errors

        # a made-up answer to a real challenge (a passkey this server never saw): refused
        page.click("#signout button")
        page.wait_for_selector("#passkey-signin")
        status, answer = page.evaluate("""async () => {
          const csrf = document.querySelector('input[name="csrf"]').value;
          const h = {"Content-Type": "application/json", "X-CSRF-Token": csrf};
          const o = await (await fetch("/account/passkey/signin-options", {method: "POST", headers: h,
                                                                           body: "{}"})).json();
          const client = btoa(JSON.stringify({type: "webauthn.get", challenge: o.challenge,
                                              origin: location.origin})).replace(/=+$/, "");
          const credential = {id: "AAAA", rawId: "AAAA", type: "public-key", clientExtensionResults: {},
                              response: {clientDataJSON: client, authenticatorData: "AAAA", signature: "AAAA"}};
          const r = await fetch("/account/passkey/signin", {method: "POST", headers: h,
                                                             body: JSON.stringify({credential})});
          return [r.status, await r.json()];
        }""")
        assert status == 403 and answer["error"] == "signin" and "belongs to no account" in answer["message"]

        # no CSRF token: refused before any ceremony
        req = urllib.request.Request(base + "/account/passkey/signin-options", data=b"{}", method="POST",
                                     headers={"Content-Type": "application/json"})
        try:
            urllib.request.urlopen(req, timeout=WAIT)
            raise AssertionError("a passkey request without its CSRF token was answered")
        except urllib.error.HTTPError as e:
            assert e.code == 403 and json.loads(e.read())["error"] == "csrf"

    async def stored() -> tuple[list[Any], list[Any]]:
        store = Store(db)
        try:
            async with store.engine.connect() as conn:
                accounts = list((await conn.execute(sa.select(accounts_t.c.name, accounts_t.c.password))).all())
                keys = list((await conn.execute(sa.select(passkeys_t))).all())
                return accounts, keys
        finally:
            await store.close()

    accounts, keys = in_thread(stored())
    assert [(a.name, a.password) for a in accounts] == [("Ann Rossi", None)]
    assert len(keys) == 1 and keys[0].public_key
