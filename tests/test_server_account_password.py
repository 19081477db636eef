"""A signed-in player's own change of password over real HTTP (docs/accounts.md, ``POST /account/password``), on
SQLite and PostgreSQL: the old password is required (a wrong one changes nothing and counts as a failed sign-in to
the account, up to the rate limit), the new one obeys the sign-up's rules, every other session of the account ends
while the browser that asked stays signed in, the form refuses a foreign CSRF token, and a passkey account has no
password to change."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from account_support import passkey_account, refusal, visitor
from burraco.server.accounts import AccountError
from burraco.server.store import accounts_t
from server_support import database, fast_config, run, sqlite_url, thread_server

OLD, NEW = "correct horse battery", "a brand new secret"


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with database(request.param, tmp_path / "store.sqlite3") as url:
        yield url




def test_changing_the_password_needs_the_old_one_and_ends_the_other_sessions(db_url: str) -> None:
    with thread_server(fast_config(db_url)) as server:
        ann, phone, laptop = (visitor(server.url) for _ in range(3))
        assert ann.post("signup", {"name": "Ann Rossi", "password": OLD})[0] == 303
        assert phone.post("signin", {"name": "Ann Rossi", "password": OLD})[0] == 303
        assert laptop.post("signin", {"name": "Ann Rossi", "password": OLD})[0] == 303
        assert 'action="/account/password"' in ann.get("/account")[1]

        status, text = ann.post("password", {"old": "not the password", "new": NEW})
        assert status == 403 and refusal(text) == "signin" and "old password" in text
        status, text = ann.post("password", {"old": OLD, "new": "short"})
        assert status == 400 and refusal(text) == "bad_password"
        status, text = ann.post("password", {"old": OLD, "new": NEW}, csrf=phone.csrf())
        assert status == 403 and refusal(text) == "csrf"
        assert phone.me()[0] == 200 and laptop.me()[0] == 200  # nothing was changed so far

        status, text = ann.post("password", {"old": OLD, "new": NEW})
        assert status == 200 and "2 other sessions ended" in text, text
        assert ann.me()[0] == 200  # the browser that asked stays signed in
        assert phone.me()[0] == 401 and laptop.me()[0] == 401
        assert phone.post("signin", {"name": "Ann Rossi", "password": OLD})[0] == 403
        assert phone.post("signin", {"name": "Ann Rossi", "password": NEW})[0] == 303

        # a guest has no password to change
        status, text = visitor(server.url).post("password", {"old": NEW, "new": OLD})
        assert status == 401 and refusal(text) == "signin"


def test_guessing_the_old_password_meets_the_accounts_sign_in_limit(tmp_path: Path) -> None:
    cfg = fast_config(sqlite_url(tmp_path / "limit.sqlite3"), signin_account_failures=3)
    with thread_server(cfg) as server:
        ann = visitor(server.url)
        assert ann.post("signup", {"name": "Ann Rossi", "password": OLD})[0] == 303
        for _ in range(3):
            assert ann.post("password", {"old": "a wrong guess!", "new": NEW})[0] == 403
        status, text = ann.post("password", {"old": OLD, "new": NEW})  # the right one too, past the limit
        assert status == 429 and refusal(text) == "rate_limited"
        assert visitor(server.url).post("signin", {"name": "Ann Rossi", "password": OLD})[0] == 429


def test_a_passkey_account_has_no_password_to_change(tmp_path: Path) -> None:
    async def go() -> None:
        store, accounts, acc = await passkey_account(tmp_path)
        with pytest.raises(AccountError, match="signs in with a passkey") as e:
            await accounts.change_password(acc, "", NEW)
        assert e.value.status == 409
        async with store.engine.connect() as conn:
            assert (await conn.execute(sa.select(accounts_t.c.password))).scalar() is None
        await store.close()

    run(go())
