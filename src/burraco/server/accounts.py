"""Accounts (docs/accounts.md): password sign-up and sign-in, server-side sessions in a signed cookie, the CSRF
token of the account forms, the sign-in rate limit, a guest's games claimed, and deletion.

* A password is kept only as its argon2id hash (``argon2-cffi``'s :class:`~argon2.PasswordHasher` with OWASP's
  recommended minimum, :data:`ARGON2_TIME` and the next: 19 MiB, 2 passes, 1 lane), hashed and checked on this
  module's own worker thread (the event loop never waits on it), which runs at the lowest priority (nice 19,
  Linux): a crowd signing in takes at most one core, and only what the tables leave of it (docs/accounts.md "Many
  sign-ins during play"). A hash made with other parameters (argon2-cffi's defaults, before) is made again with
  these at its account's next sign-in.
* A session is a random 256-bit token. The browser keeps it in the cookie ``burraco_session``,
  ``s1.<token>.<HMAC-SHA256 of "s1.<token>" under the server's "session" key>``: ``HttpOnly``, ``SameSite=Lax``,
  ``Secure`` over HTTPS, 30 days. The store keeps only the token's SHA-256 with its account and expiry, so every
  process of ``burraco serve --workers N`` (one store) knows every session, signing out removes it for all of
  them, and "sign out everywhere" removes every session of the account. A stolen copy of the store holds no
  usable session.
* The CSRF token of a form is the HMAC of the browser's own cookie (its session, else its guest id) under the
  server's "csrf" key: another site cannot read it, so a form it submits in the player's browser is refused; a
  request whose ``Origin`` is another site's is refused as well.
* Failed sign-ins are counted in the store (every process counts the same ones): past
  :attr:`ServerConfig.signin_account_failures <burraco.server.config.ServerConfig.signin_account_failures>` for
  one account, or :attr:`~burraco.server.config.ServerConfig.signin_ip_failures` from one address, within
  :attr:`~burraco.server.config.ServerConfig.signin_window` seconds, sign-in is refused until the oldest ages out,
  whatever the password.
* Nothing of this module logs: no password, token or session id is ever written to a log.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import os
import re
import secrets
import sys
import threading
import time
import unicodedata
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

import sqlalchemy as sa
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from ..messages import Message, msg, render, text
from ..seats import seat_names
from .store import (
    Store,
    accounts_t,
    events_t,
    seat_accounts_t,
    seat_guests_t,
    seats_t,
    sessions_t,
    signin_failures_t,
    tables_t,
)

#: the session cookie's name
COOKIE = "burraco_session"
#: the cookie's format version
VERSION = "s1"
#: a session lasts 30 days, in seconds
SESSION_AGE = 30 * 24 * 3600
#: an account's name: 3 to 32 letters, digits, spaces, ``_``, ``-``, ``.``, starting with a letter or digit
NAME = re.compile(r"[^\W_][\w .-]{2,31}")
#: a password's length, in characters
MIN_PASSWORD, MAX_PASSWORD = 10, 1024
#: the name a deleted account's seats are given in the games it played
DELETED = "Deleted player"

#: the bots one account may own
MAX_BOTS = 5
#: a bot token begins so (a session token never does): 43 random URL-safe characters follow
BOT_PREFIX = "bot_"

#: the argon2id parameters: OWASP's recommended minimum (Password Storage Cheat Sheet: 19 MiB of memory, 2 passes,
#: 1 lane). One lane is one thread: argon2 runs a hash's lanes on as many threads at once, so argon2-cffi's default
#: (RFC 9106's second set: 64 MiB, 3 passes, 4 lanes) ran each hash on 4 threads, every core of a small machine,
#: whatever :data:`HASHING` said, with about five times the work and memory traffic (docs/accounts.md "Costs")
ARGON2_TIME, ARGON2_MEMORY_KIB, ARGON2_LANES = 2, 19 * 1024, 1
#: password hashes computed at once in one process (each one thread, one core): the tables keep the other cores
HASHING = 1
#: the nice value of the threads that hash passwords: the lowest priority. On Linux a thread has its own; there a
#: sign-in's hash gets the CPU that the event loop (every table's moves) leaves. With the threads at the loop's
#: priority, 8 browsers signing in again and again on a busy 2-core machine moved the tables' median latency from
#: 11 ms to 261 ms; at nice 19, to 24-56 ms; with one lane on one thread, see docs/accounts.md "Many sign-ins
#: during play".
HASHING_NICE = 19

_T = TypeVar("_T")


def _hashing_thread() -> None:
    """The start of each hashing thread: its priority lowered to :data:`HASHING_NICE` (on Linux, where
    ``setpriority`` on a thread's id sets that thread's nice value; elsewhere the nice value is the whole
    process's, and the thread keeps it)."""
    if sys.platform.startswith("linux"):
        try:
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), HASHING_NICE)
        except OSError:  # (a sandbox that forbids it: the thread keeps the process's priority)
            pass


#: the thread(s) that hash and check passwords, at most :data:`HASHING` (more wait their turn, in order)
_HASHING_POOL = ThreadPoolExecutor(HASHING, "argon2", _hashing_thread)


async def hashing(fn: Callable[..., _T], *args: Any) -> _T:
    """``fn(*args)`` on a password-hashing thread of this process (low priority, at most :data:`HASHING` at once)."""
    return await asyncio.get_running_loop().run_in_executor(_HASHING_POOL, fn, *args)

_TOKEN = re.compile(r"[A-Za-z0-9_-]{43}")
_hasher = PasswordHasher(time_cost=ARGON2_TIME, memory_cost=ARGON2_MEMORY_KIB, parallelism=ARGON2_LANES)
#: checked when no account has the name given, so that a wrong name takes as long as a wrong password
_DUMMY = _hasher.hash(secrets.token_urlsafe(16))


class AccountError(Exception):
    """A refused account request: a code, a sentence saying which rule refused it (a message of the catalogues,
    :mod:`burraco.lang`, shown in the page's language; ``message`` is its English), an HTTP status."""

    def __init__(self, code: str, message: Message | str, status: int = 400) -> None:
        #: the refusal as a message of the catalogues (a plain string: as is, in every language)
        self.msg = message if isinstance(message, Message) else text(message)
        self.message = render(self.msg)
        super().__init__(self.message)
        self.code = code
        self.status = status


@dataclass(frozen=True)
class Account:
    id: str
    name: str
    created: float
    #: a bot account's owner (docs/accounts.md "Bots"); None for a person's account
    owner: str | None = None
    #: a site administrator (docs/accounts.md "Administrators")
    admin: bool = False

    @property
    def bot(self) -> bool:
        return self.owner is not None


@dataclass(frozen=True)
class Limits:
    """The sign-in rate limit: failures per account and per address within ``window`` seconds."""

    per_account: int
    per_address: int
    window: float


def _mac(key: bytes, text: str) -> str:
    return base64.urlsafe_b64encode(hmac.digest(key, text.encode("ascii"), hashlib.sha256)).rstrip(b"=").decode()


def session_cookie(key: bytes, token: str) -> str:
    """The cookie's value for a session token."""
    return f"{VERSION}.{token}.{_mac(key, f'{VERSION}.{token}')}"


def session_token(value: str | None, key: bytes) -> str | None:
    """The session token of a cookie's value, or None when there is none or its signature is not the server's."""
    if not value:
        return None
    parts = value.split(".")
    if len(parts) != 3 or parts[0] != VERSION or not _TOKEN.fullmatch(parts[1]):
        return None
    if not hmac.compare_digest(parts[2], _mac(key, f"{VERSION}.{parts[1]}")):
        return None
    return parts[1]


def csrf_token(key: bytes, anchor: str) -> str:
    """The CSRF token of the forms shown to the browser whose cookie is ``anchor`` (its session token, else its
    guest id)."""
    return _mac(key, f"csrf.{anchor}")


def csrf_ok(key: bytes, anchor: str | None, given: str | None) -> bool:
    return bool(anchor) and bool(given) and hmac.compare_digest(csrf_token(key, anchor or ""), given or "")


def _sha(token: str) -> str:
    return hashlib.sha256(token.encode("ascii")).hexdigest()


def name_key(name: str) -> str:
    """The form of a name that must be unique: NFKC, case-folded, inner spaces collapsed."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def check_name(name: str) -> str:
    name = " ".join(unicodedata.normalize("NFKC", name).split())
    if not NAME.fullmatch(name):
        raise AccountError("bad_name", msg("acc_e_bad_name"))
    return name


def check_password(password: str, name: str) -> None:
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise AccountError("bad_password", msg("acc_e_password_length", least=MIN_PASSWORD, most=MAX_PASSWORD))
    if name_key(password) == name_key(name):
        raise AccountError("bad_password", msg("acc_e_password_name"))


class Accounts:
    """The accounts of a store."""

    def __init__(self, store: Store, limits: Limits) -> None:
        self.store = store
        self.limits = limits

    @staticmethod
    async def _hash(password: str) -> str:
        return await hashing(_hasher.hash, password)

    @staticmethod
    async def _check(hashed: str, password: str) -> bool:
        return await hashing(_verify, hashed, password)

    # ----- sign-up, sign-in, sessions ----------------------------------------------------------------------------
    async def sign_up(self, name: str, password: str, address: str | None = None) -> Account:
        """A new account (``name_taken`` when another has the name, in any case). From an ``address``, at most
        :attr:`Limits.per_address` sign-ups within the window (``rate_limited``, 429): each attempt that passes the
        name and password checks is written to the store *before* its password is hashed, then the address's
        attempts written up to this one are counted, so sign-ups hashed at the same time (on any process) cannot all
        pass the count (they did when the count came before the hash and the record after it: 32 accepted from one
        address where the limit was 30), nor all fail it (when each counted the later ones too); an attempt over the
        limit takes its own record back. A sign-up refused for a taken name
        still counts."""
        name = check_name(name)
        check_password(password, name)
        now = time.time()
        if address is not None:
            key = f"up:{address}"
            async with self.store.engine.begin() as conn:
                made_now = await conn.execute(signin_failures_t.insert().values(key=key, at=now))
                mine = made_now.inserted_primary_key[0] if made_now.inserted_primary_key else None
            # this attempt and those written before it (the later ones count this one themselves): counting every
            # attempt, eight sent at once could all be refused where the limit was three
            ahead = [signin_failures_t.c.key == key, signin_failures_t.c.at > now - self.limits.window]
            if mine is not None:
                ahead.append(signin_failures_t.c.id <= mine)
            async with self.store.engine.connect() as conn:
                made = (await conn.execute(sa.select(sa.func.count()).select_from(signin_failures_t).where(
                    *ahead))).scalar() or 0
            if made > self.limits.per_address:
                async with self.store.engine.begin() as conn:
                    await conn.execute(signin_failures_t.delete().where(signin_failures_t.c.id == mine))
                raise AccountError("rate_limited", msg("acc_e_signups", minutes=int(self.limits.window // 60)), 429)
        hashed = await self._hash(password)
        account = Account(secrets.token_urlsafe(12), name, now)
        try:
            async with self.store.engine.begin() as conn:
                first = not (await conn.execute(sa.select(accounts_t.c.id).limit(1))).first()
                account = Account(account.id, name, now, None, first)  # the first account administers the site
                await conn.execute(accounts_t.insert().values(id=account.id, name=name, name_key=name_key(name),
                                                              password=hashed, created=account.created, admin=first))
        except sa.exc.IntegrityError:
            raise AccountError("name_taken", msg("acc_e_name_taken", name=name),
                               409) from None
        return account

    async def sign_in(self, name: str, password: str, address: str) -> Account:
        """The account whose name and password these are; ``rate_limited`` (429) past the limit of failures for
        the account or the address, ``signin`` (403) for a wrong name or password (the same answer for both)."""
        key = name_key(name)
        now = time.time()
        since = now - self.limits.window
        async with self.store.engine.connect() as conn:
            row = (await conn.execute(sa.select(accounts_t).where(accounts_t.c.name_key == key))).first()
            fails: dict[str, int] = dict((await conn.execute(
                sa.select(signin_failures_t.c.key, sa.func.count())
                .where(signin_failures_t.c.key.in_([f"a:{key}", f"ip:{address}"]), signin_failures_t.c.at > since)
                .group_by(signin_failures_t.c.key))).all())
        if fails.get(f"a:{key}", 0) >= self.limits.per_account:
            raise AccountError("rate_limited", msg("acc_e_fails_account", minutes=int(self.limits.window // 60)), 429)
        if fails.get(f"ip:{address}", 0) >= self.limits.per_address:
            raise AccountError("rate_limited", msg("acc_e_fails_address", minutes=int(self.limits.window // 60)), 429)
        hashed = row.password if row is not None and row.password else _DUMMY
        ok = await self._check(hashed, password)
        if row is None or not row.password or not ok:
            async with self.store.engine.begin() as conn:
                await conn.execute(signin_failures_t.delete().where(signin_failures_t.c.at < since))
                await conn.execute(signin_failures_t.insert(), [dict(key=f"a:{key}", at=now),
                                                                dict(key=f"ip:{address}", at=now)])
            raise AccountError("signin", msg("acc_e_signin"), 403)
        if row.disabled:
            raise AccountError("disabled", msg("acc_e_disabled"), 403)
        if _hasher.check_needs_rehash(hashed):  # made with other parameters (before): hashed again with ours
            rehashed = await self._hash(password)
            async with self.store.engine.begin() as conn:
                await conn.execute(accounts_t.update().where(accounts_t.c.id == row.id).values(password=rehashed))
        async with self.store.engine.begin() as conn:
            await conn.execute(signin_failures_t.delete().where(signin_failures_t.c.key == f"a:{key}"))
        return Account(row.id, row.name, row.created, row.owner, bool(row.admin))

    async def open_session(self, account: Account) -> str:
        """A new session of the account: its token (for the cookie; the store keeps its hash)."""
        token = secrets.token_urlsafe(32)
        now = time.time()
        async with self.store.engine.begin() as conn:
            await conn.execute(sessions_t.insert().values(id_hash=_sha(token), account_id=account.id, created=now,
                                                          expires=now + SESSION_AGE))
        return token

    async def account_of(self, token: str | None) -> Account | None:
        """The account of a session token still valid, or None."""
        if token is None:
            return None
        async with self.store.engine.connect() as conn:
            row = (await conn.execute(
                sa.select(accounts_t.c.id, accounts_t.c.name, accounts_t.c.created, accounts_t.c.owner,
                          accounts_t.c.admin)
                .join(sessions_t, sessions_t.c.account_id == accounts_t.c.id)
                .where(sessions_t.c.id_hash == _sha(token), sessions_t.c.expires > time.time(),
                       accounts_t.c.disabled.is_(False)))).first()
        return None if row is None else Account(row.id, row.name, row.created, row.owner, bool(row.admin))

    async def close_session(self, token: str) -> None:
        async with self.store.engine.begin() as conn:
            await conn.execute(sessions_t.delete().where(sessions_t.c.id_hash == _sha(token)))

    async def close_all(self, account: Account) -> int:
        """Sign out everywhere: every session of the account ends; how many there were."""
        async with self.store.engine.begin() as conn:
            res = await conn.execute(sessions_t.delete().where(sessions_t.c.account_id == account.id))
            await conn.execute(sessions_t.delete().where(sessions_t.c.expires <= time.time()))
        return int(res.rowcount or 0)

    async def set_password(self, name: str, password: str) -> Account:
        """A new password for the account named ``name`` (the operator's reset: ``burraco account-password``):
        every session of the account ends and its failed sign-ins are forgotten."""
        key = name_key(name)
        async with self.store.engine.connect() as conn:
            row = (await conn.execute(sa.select(accounts_t).where(accounts_t.c.name_key == key))).first()
        if row is None:
            raise AccountError("not_found", msg("acc_e_no_account", name=name), 404)
        check_password(password, row.name)
        hashed = await self._hash(password)
        async with self.store.engine.begin() as conn:
            await conn.execute(accounts_t.update().where(accounts_t.c.id == row.id).values(password=hashed))
            await conn.execute(sessions_t.delete().where(sessions_t.c.account_id == row.id))
            await conn.execute(signin_failures_t.delete().where(signin_failures_t.c.key == f"a:{key}"))
        return Account(row.id, row.name, row.created, row.owner, bool(row.admin))

    # ----- administrators ---------------------------------------------------------------------------------------
    async def names_of(self, ids: set[str]) -> dict[str, str]:
        """The names now of the accounts of these ids (one query; an id of no account, a deleted one, is left
        out): a tournament entrant is linked to an account by its id and shown under its present name."""
        if not ids:
            return {}
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(sa.select(accounts_t.c.id, accounts_t.c.name)
                                       .where(accounts_t.c.id.in_(sorted(ids))))).all()
        return {r.id: r.name for r in rows}

    async def named(self, name: str) -> Account | None:
        """The account named ``name`` (any case, as :func:`name_key` compares names), or None (a director links a
        tournament entrant's player to it: docs/accounts.md "Tournament entrants")."""
        async with self.store.engine.connect() as conn:
            row = (await conn.execute(
                sa.select(accounts_t.c.id, accounts_t.c.name, accounts_t.c.created, accounts_t.c.owner,
                          accounts_t.c.admin).where(accounts_t.c.name_key == name_key(name)))).first()
        return None if row is None else Account(row.id, row.name, row.created, row.owner, bool(row.admin))

    async def change_password(self, account: Account, old: str, new: str, keep: str | None = None) -> int:
        """The signed-in player's own change of password: ``old`` must be the account's password (``signin``, 403,
        otherwise; a wrong one counts as a failed sign-in to the account, and past the limit the change is refused
        as sign-in is, ``rate_limited``); ``new`` obeys the sign-up's rules. Every session of the account but
        ``keep`` (the token of the browser that asked) ends; how many ended. A passkey account has no password to
        change (``no_password``, 409)."""
        key = name_key(account.name)
        now = time.time()
        since = now - self.limits.window
        async with self.store.engine.connect() as conn:
            hashed = (await conn.execute(sa.select(accounts_t.c.password)
                                         .where(accounts_t.c.id == account.id))).scalar()
            fails = (await conn.execute(sa.select(sa.func.count()).select_from(signin_failures_t).where(
                signin_failures_t.c.key == f"a:{key}", signin_failures_t.c.at > since))).scalar() or 0
        if hashed is None:
            raise AccountError("no_password", msg("acc_e_no_password"),
                               409)
        if fails >= self.limits.per_account:
            raise AccountError("rate_limited", msg("acc_e_fails_account", minutes=int(self.limits.window // 60)), 429)
        if not await self._check(hashed, old):
            async with self.store.engine.begin() as conn:
                await conn.execute(signin_failures_t.delete().where(signin_failures_t.c.at < since))
                await conn.execute(signin_failures_t.insert().values(key=f"a:{key}", at=now))
            raise AccountError("signin", msg("acc_e_old_password"), 403)
        check_password(new, account.name)
        rehashed = await self._hash(new)
        async with self.store.engine.begin() as conn:
            await conn.execute(accounts_t.update().where(accounts_t.c.id == account.id).values(password=rehashed))
            ended = sessions_t.delete().where(sessions_t.c.account_id == account.id)
            if keep is not None:
                ended = ended.where(sessions_t.c.id_hash != _sha(keep))
            res = await conn.execute(ended)
            await conn.execute(signin_failures_t.delete().where(signin_failures_t.c.key == f"a:{key}"))
        return int(res.rowcount or 0)

    async def set_admin(self, name: str, admin: bool = True) -> Account:
        """Make the account named ``name`` a site administrator (``burraco admin NAME``), or no longer one."""
        key = name_key(name)
        async with self.store.engine.begin() as conn:
            row = (await conn.execute(sa.select(accounts_t).where(accounts_t.c.name_key == key))).first()
            if row is None:
                raise AccountError("not_found", msg("acc_e_no_account", name=name), 404)
            if row.owner is not None:
                raise AccountError("bot", msg("acc_e_bot_admin", name=row.name))
            await conn.execute(accounts_t.update().where(accounts_t.c.id == row.id).values(admin=admin))
        return Account(row.id, row.name, row.created, row.owner, admin)

    async def set_disabled(self, by: Account, name: str, disabled: bool) -> Account:
        """An administrator (``by``) disables the account named ``name`` (its sessions end, its sign-ins and its
        bot token are refused; its bots with it), or enables it again."""
        if not by.admin:
            raise AccountError("admin", msg("acc_e_admin_disable"), 403)
        key = name_key(name)
        async with self.store.engine.begin() as conn:
            row = (await conn.execute(sa.select(accounts_t).where(accounts_t.c.name_key == key))).first()
            if row is None:
                raise AccountError("not_found", msg("acc_e_no_account", name=name), 404)
            if row.id == by.id:
                raise AccountError("admin", msg("acc_e_disable_self"))
            ids = [row.id, *(await conn.execute(sa.select(accounts_t.c.id)
                                                .where(accounts_t.c.owner == row.id))).scalars()]
            await conn.execute(accounts_t.update().where(accounts_t.c.id.in_(ids)).values(disabled=disabled))
            if disabled:
                await conn.execute(sessions_t.delete().where(sessions_t.c.account_id.in_(ids)))
        return Account(row.id, row.name, row.created, row.owner, bool(row.admin))

    # ----- bots ---------------------------------------------------------------------------------------------------
    async def make_bot(self, owner: Account, name: str) -> tuple[Account, str]:
        """A bot account of ``owner`` (at most :data:`MAX_BOTS`) and its token, shown this once: an outside program
        plays as the bot by sending it (``Authorization: Bearer <token>`` at the websocket's handshake)."""
        if owner.bot:
            raise AccountError("bot", msg("acc_e_bot_bots"))
        name = check_name(name)
        async with self.store.engine.connect() as conn:
            have = (await conn.execute(sa.select(sa.func.count()).select_from(accounts_t)
                                       .where(accounts_t.c.owner == owner.id))).scalar() or 0
        if have >= MAX_BOTS:
            raise AccountError("bot", msg("acc_e_bots_max", n=MAX_BOTS))
        token = BOT_PREFIX + secrets.token_urlsafe(32)
        bot = Account(secrets.token_urlsafe(12), name, time.time(), owner.id)
        try:
            async with self.store.engine.begin() as conn:
                await conn.execute(accounts_t.insert().values(id=bot.id, name=name, name_key=name_key(name),
                                                              password=None, created=bot.created, owner=owner.id,
                                                              token_hash=_sha(token)))
        except sa.exc.IntegrityError:
            raise AccountError("name_taken", msg("acc_e_name_taken", name=name),
                               409) from None
        return bot, token

    async def new_bot_token(self, owner: Account, name: str) -> tuple[Account, str]:
        """A new token for ``owner``'s bot named ``name``, shown this once; the old one stops working at once (the
        store keeps the new token's SHA-256 in place of the old one's)."""
        token = BOT_PREFIX + secrets.token_urlsafe(32)
        async with self.store.engine.begin() as conn:
            row = (await conn.execute(sa.select(accounts_t.c.id, accounts_t.c.name, accounts_t.c.created)
                                      .where(accounts_t.c.name_key == name_key(name.strip()),
                                             accounts_t.c.owner == owner.id))).first()
            if row is None:
                raise AccountError("not_found", msg("acc_e_no_bot", name=name.strip()), 404)
            await conn.execute(accounts_t.update().where(accounts_t.c.id == row.id).values(token_hash=_sha(token)))
        return Account(row.id, row.name, row.created, owner.id), token

    async def bot_of_token(self, token: str | None) -> Account | None:
        """The bot account of a bot token, or None."""
        if not token or not token.startswith(BOT_PREFIX) or len(token) > 200:
            return None
        async with self.store.engine.connect() as conn:
            row = (await conn.execute(sa.select(accounts_t.c.id, accounts_t.c.name, accounts_t.c.created,
                                                accounts_t.c.owner)
                                      .where(accounts_t.c.token_hash == _sha(token),
                                             accounts_t.c.disabled.is_(False)))).first()
        return None if row is None else Account(row.id, row.name, row.created, row.owner)

    async def bots(self, owner: Account) -> list[Account]:
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(sa.select(accounts_t.c.id, accounts_t.c.name, accounts_t.c.created,
                                                 accounts_t.c.owner)
                                       .where(accounts_t.c.owner == owner.id).order_by(accounts_t.c.created))).all()
        return [Account(r.id, r.name, r.created, r.owner) for r in rows]

    # ----- games --------------------------------------------------------------------------------------------------
    async def claim_guest(self, account: Account, guest: str) -> int:
        """The seats a guest's browser held (server/guests.py) become the account's games; how many were new."""
        now = time.time()
        async with self.store.engine.begin() as conn:
            held = (await conn.execute(sa.select(seat_guests_t.c.table_id, seat_guests_t.c.seat)
                                       .where(seat_guests_t.c.guest == guest))).all()
            have = {(r[0], r[1]) for r in (await conn.execute(
                sa.select(seat_accounts_t.c.table_id, seat_accounts_t.c.seat)
                .where(seat_accounts_t.c.account_id == account.id))).all()}
            new = [dict(table_id=t, seat=s, account_id=account.id, at=now) for t, s in held if (t, s) not in have]
            if new:
                await conn.execute(seat_accounts_t.insert(), new)
        return len(new)

    async def games(self, account: Account) -> list[dict[str, Any]]:
        """The tables the account played at, newest first: table, seat, the name it had there, status, preset,
        whether rated, and how many games finished there (each has a replay, ``/t/<table>/replay/<game>``)."""
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(
                sa.select(seat_accounts_t.c.table_id, seat_accounts_t.c.seat, seats_t.c.name, tables_t.c.status,
                          tables_t.c.created, tables_t.c.config)
                .join(tables_t, tables_t.c.id == seat_accounts_t.c.table_id)
                .join(seats_t, sa.and_(seats_t.c.table_id == seat_accounts_t.c.table_id,
                                       seats_t.c.seat == seat_accounts_t.c.seat))
                .where(seat_accounts_t.c.account_id == account.id)
                .order_by(tables_t.c.created.desc()))).all()
        finished = await self.store.game_counts([r.table_id for r in rows])
        return [{"table": r.table_id, "seat": r.seat, "name": r.name, "status": r.status, "created": r.created,
                 "preset": _preset(dict(r.config).get("rules")), "rated": bool(dict(r.config).get("rated")),
                 "finished": finished.get(r.table_id, 0)} for r in rows]

    # ----- deletion -----------------------------------------------------------------------------------------------
    async def delete(self, account: Account, password: str) -> None:
        """Delete the account after checking its password (a passkey account's: its name): its sessions and links go;
        the games it played stay,
        its seats there renamed :data:`DELETED` (in the seat and its ``seat`` and ``chat`` events)."""
        async with self.store.engine.connect() as conn:
            hashed = (await conn.execute(sa.select(accounts_t.c.password)
                                         .where(accounts_t.c.id == account.id))).scalar()
        if hashed is None:  # a passkey account: its name, typed again, confirms (the session proves the rest)
            if name_key(password) != name_key(account.name):
                raise AccountError("signin", msg("acc_e_delete_name"), 403)
        elif not await self._check(hashed, password):
            raise AccountError("signin", msg("acc_e_delete_password"), 403)
        async with self.store.engine.begin() as conn:
            seats = (await conn.execute(sa.select(seat_accounts_t.c.table_id, seat_accounts_t.c.seat)
                                        .where(seat_accounts_t.c.account_id == account.id))).all()
            for table_id, seat in seats:
                count = (await conn.execute(sa.select(sa.func.count()).select_from(seats_t)
                                            .where(seats_t.c.table_id == table_id))).scalar() or 0
                letters = seat_names(int(count))
                await conn.execute(seats_t.update().where(seats_t.c.table_id == table_id, seats_t.c.seat == seat)
                                   .values(name=DELETED))
                evs = (await conn.execute(sa.select(events_t.c.n, events_t.c.data).where(
                    events_t.c.table_id == table_id, events_t.c.kind.in_(("seat", "chat"))))).all()
                for n, data in evs:
                    d = dict(data)
                    if _seat_index(d.get("seat"), letters) == seat and "name" in d and d["name"] != DELETED:
                        d["name"] = DELETED
                        await conn.execute(events_t.update().where(events_t.c.table_id == table_id,
                                                                   events_t.c.n == n).values(data=d))
            await conn.execute(accounts_t.delete().where(accounts_t.c.id == account.id))


def _preset(rules: Any) -> str | None:
    """The preset a table's stored rules name (``rules_to_json``: a preset's name with its overrides, or the
    whole rules with their ``name``)."""
    if isinstance(rules, str):
        return rules
    if isinstance(rules, dict):
        name = rules.get("preset", rules.get("name"))
        return name if isinstance(name, str) else None
    return None


def _seat_index(seat: Any, letters: tuple[str, ...]) -> int | None:
    """A ``seat`` event names its seat by index, a ``chat`` event by its letter (N, E, S, W at four seats)."""
    if isinstance(seat, int) and not isinstance(seat, bool):
        return seat
    return letters.index(seat) if isinstance(seat, str) and seat in letters else None


def _verify(hashed: str, password: str) -> bool:
    try:
        return _hasher.verify(hashed, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


__all__ = ["COOKIE", "DELETED", "SESSION_AGE", "Account", "AccountError", "Accounts", "Limits", "csrf_ok",
           "csrf_token", "session_cookie", "session_token"]
