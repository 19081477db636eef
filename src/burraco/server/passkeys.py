"""Passkeys (docs/accounts.md "Passkeys"): sign-up and sign-in with WebAuthn, through the ``webauthn`` package.

* The relying party is the host the page was served from (its ``Host``, without the port), the expected origin
  the page's own (``<scheme>://<Host>``): a passkey made for one site never signs in to another.
* Every ceremony starts with a challenge of 32 random bytes kept in the store (``webauthn_challenges``: every
  process of the server knows it), used once (deleted as it is checked) and valid for five minutes.
* A passkey is kept as its credential id, its public key (COSE, base64url) and its signature counter; a counter
  that goes backwards is refused by ``webauthn`` (a cloned authenticator). User verification is required.
* A passkey account has no password (it may add one later only through the operator: docs/accounts.md).
"""

from __future__ import annotations

import json
import secrets
import time
from typing import Any

import sqlalchemy as sa
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.exceptions import InvalidAuthenticationResponse, InvalidRegistrationResponse
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from ..messages import msg
from .accounts import Account, AccountError, Accounts, check_name, name_key
from .store import accounts_t, passkeys_t, signin_failures_t, webauthn_challenges_t

#: seconds a challenge stays valid
CHALLENGE_AGE = 300.0
#: the name the authenticator shows for this site
RP_NAME = "Burraco"


class Passkeys:
    """The passkeys of a store's accounts."""

    def __init__(self, accounts: Accounts) -> None:
        self.accounts = accounts
        self.store = accounts.store

    async def _challenge(self, purpose: str, account_id: str | None, name: str | None) -> bytes:
        challenge = secrets.token_bytes(32)
        now = time.time()
        async with self.store.engine.begin() as conn:
            await conn.execute(webauthn_challenges_t.delete().where(webauthn_challenges_t.c.expires < now))
            await conn.execute(webauthn_challenges_t.insert().values(
                challenge=bytes_to_base64url(challenge), purpose=purpose, account_id=account_id, name=name,
                expires=now + CHALLENGE_AGE))
        return challenge

    async def _take_challenge(self, credential: dict[str, Any], purpose: str) -> tuple[bytes, Any]:
        """The challenge the credential answers (from its client data), deleted: (its bytes, its row)."""
        try:
            client = json.loads(base64url_to_bytes(str(credential["response"]["clientDataJSON"])))
            challenge = str(client["challenge"])
        except (KeyError, TypeError, ValueError):
            raise AccountError("passkey", msg("acc_e_passkey_unread")) from None
        async with self.store.engine.begin() as conn:
            row = (await conn.execute(sa.select(webauthn_challenges_t).where(
                webauthn_challenges_t.c.challenge == challenge))).first()
            await conn.execute(webauthn_challenges_t.delete().where(webauthn_challenges_t.c.challenge == challenge))
        if row is None or row.purpose != purpose or row.expires < time.time():
            raise AccountError("passkey", msg("acc_e_passkey_stale"), 403)
        return base64url_to_bytes(challenge), row

    # ----- registration -------------------------------------------------------------------------------------------
    async def register_options(self, rp_id: str, name: str | None, account: Account | None) -> str:
        """The options of ``navigator.credentials.create`` (JSON): a new account named ``name`` (sign-up), or a
        passkey more for the signed-in ``account``."""
        if account is None:
            name = check_name(name or "")
            async with self.store.engine.connect() as conn:
                taken = (await conn.execute(sa.select(accounts_t.c.id)
                                            .where(accounts_t.c.name_key == name_key(name)))).first()
            if taken is not None:
                raise AccountError("name_taken", msg("acc_e_name_taken", name=name),
                                   409)
            user_id, user_name, exclude = secrets.token_urlsafe(12), name, []
        else:
            user_id, user_name = account.id, account.name
            async with self.store.engine.connect() as conn:
                exclude = [PublicKeyCredentialDescriptor(id=base64url_to_bytes(r[0])) for r in (await conn.execute(
                    sa.select(passkeys_t.c.credential_id).where(passkeys_t.c.account_id == account.id))).all()]
        challenge = await self._challenge("register", user_id, user_name)
        options = generate_registration_options(
            rp_id=rp_id, rp_name=RP_NAME, user_name=user_name, user_id=user_id.encode("ascii"),
            challenge=challenge, exclude_credentials=exclude,
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED,
                user_verification=UserVerificationRequirement.REQUIRED))
        return options_to_json(options)

    async def register(self, rp_id: str, origin: str, credential: dict[str, Any],
                       account: Account | None) -> Account:
        """Check a new passkey; keep it, for a new account (made now) or the signed-in ``account``."""
        challenge, row = await self._take_challenge(credential, "register")
        if account is not None and row.account_id != account.id:  # (a sign-up's is a new id: made below)
            raise AccountError("passkey", msg("acc_e_passkey_other"), 403)
        try:
            verified = verify_registration_response(credential=credential, expected_challenge=challenge,
                                                    expected_rp_id=rp_id, expected_origin=origin,
                                                    require_user_verification=True)
        except InvalidRegistrationResponse as e:
            raise AccountError("passkey", msg("acc_e_passkey_refused", error=str(e)), 403) from None
        now = time.time()
        try:
            async with self.store.engine.begin() as conn:
                if account is None:  # the first account administers the site
                    first = not (await conn.execute(sa.select(accounts_t.c.id).limit(1))).first()
                    account = Account(str(row.account_id), str(row.name), now, None, first)
                    await conn.execute(accounts_t.insert().values(
                        id=account.id, name=account.name, name_key=name_key(account.name), password=None,
                        created=now, admin=first))
                await conn.execute(passkeys_t.insert().values(
                    credential_id=bytes_to_base64url(verified.credential_id), account_id=account.id,
                    public_key=bytes_to_base64url(verified.credential_public_key),
                    sign_count=verified.sign_count, created=now))
        except sa.exc.IntegrityError:
            raise AccountError("name_taken", msg("acc_e_passkey_taken"),
                               409) from None
        return account

    # ----- sign-in ------------------------------------------------------------------------------------------------
    async def signin_options(self, rp_id: str) -> str:
        """The options of ``navigator.credentials.get`` (JSON): any passkey of this site (discoverable)."""
        challenge = await self._challenge("signin", None, None)
        return options_to_json(generate_authentication_options(
            rp_id=rp_id, challenge=challenge, user_verification=UserVerificationRequirement.REQUIRED))

    async def sign_in(self, rp_id: str, origin: str, credential: dict[str, Any], address: str) -> Account:
        """The account of a passkey's signed answer; a failure counts against the address's sign-in limit."""
        limits = self.accounts.limits
        now = time.time()
        async with self.store.engine.connect() as conn:
            failed = (await conn.execute(sa.select(sa.func.count()).select_from(signin_failures_t).where(
                signin_failures_t.c.key == f"ip:{address}", signin_failures_t.c.at > now - limits.window))).scalar()
        if (failed or 0) >= limits.per_address:
            raise AccountError("rate_limited", msg("acc_e_fails_address", minutes=int(limits.window // 60)), 429)
        try:
            challenge, _ = await self._take_challenge(credential, "signin")
            async with self.store.engine.connect() as conn:
                row = (await conn.execute(
                    sa.select(passkeys_t.c.public_key, passkeys_t.c.sign_count, accounts_t.c.id, accounts_t.c.name,
                              accounts_t.c.created, accounts_t.c.owner, accounts_t.c.admin, accounts_t.c.disabled)
                    .join(accounts_t, accounts_t.c.id == passkeys_t.c.account_id)
                    .where(passkeys_t.c.credential_id == str(credential.get("id", ""))))).first()
            if row is None:
                raise AccountError("signin", msg("acc_e_passkey_unknown"),
                                   403)
            if row.disabled:
                raise AccountError("disabled", msg("acc_e_disabled"), 403)
            try:
                verified = verify_authentication_response(
                    credential=credential, expected_challenge=challenge, expected_rp_id=rp_id,
                    expected_origin=origin, credential_public_key=base64url_to_bytes(row.public_key),
                    credential_current_sign_count=int(row.sign_count), require_user_verification=True)
            except InvalidAuthenticationResponse as e:
                raise AccountError("signin", msg("acc_e_passkey_answer", error=str(e)), 403) from None
        except AccountError:
            async with self.store.engine.begin() as conn:
                await conn.execute(signin_failures_t.insert().values(key=f"ip:{address}", at=now))
            raise
        async with self.store.engine.begin() as conn:
            await conn.execute(passkeys_t.update().where(passkeys_t.c.credential_id == str(credential["id"]))
                               .values(sign_count=verified.new_sign_count))
        return Account(row.id, row.name, row.created, row.owner, bool(row.admin))

    async def count(self, account: Account) -> int:
        async with self.store.engine.connect() as conn:
            return int((await conn.execute(sa.select(sa.func.count()).select_from(passkeys_t)
                                           .where(passkeys_t.c.account_id == account.id))).scalar() or 0)


__all__ = ["CHALLENGE_AGE", "Passkeys"]
