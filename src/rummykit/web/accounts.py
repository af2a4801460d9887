"""Accounts: signing up, in and out, passwords, sessions (docs/accounts.md).

Accounts are optional: a guest plays as before, and an account only puts a name,
checked against look-alikes (web/usernames.py), on the seats its player takes.

* **Passwords** are hashed with argon2id through ``argon2-cffi`` (the Argon2
  reference implementation's bindings, maintained by the hynek/argon2-cffi project),
  with its default parameters (RFC 9106's second recommended profile) unless the
  settings say otherwise.  Hashing runs in a thread, at most ``max_hashing`` at once,
  so the event loop goes on serving the tables meanwhile.
* **Sessions** are rows (``sessions``): the cookie carries a random id, the database
  its SHA-256 only.  Every sign-in and password change makes a new id and ends the
  one the client came with, so an id planted before signing in is worthless after
  (no fixation).
* **Sign-in** is limited per client address (``signin_per_minute``) and backs off
  per account name after ``signin_free_failures`` wrong passwords
  (:class:`SigninBackoff`); both are counted in the database, so an address and a
  name have one allowance over every server process.  An unknown name is checked
  against a dummy hash, so the answer's time does not tell whether it exists.
  Sign-ups are limited per address alike (``signups_per_minute``).
"""

from __future__ import annotations

import asyncio
import secrets
import time
import unicodedata
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from .account_store import Account, AccountStore, Anonymised, SignedIn
from .limits import Clock
from .settings import Settings
from .store import Store, digest
from .usernames import MAX_USERNAME, UsernameError, clean_username, username_keys

MAX_PASSWORD = 256
"""Characters a password may hold (argon2 takes any length; this bounds the work)."""
ANONYMOUS = "Anonymous"
"""A deleted account's seats are named this and the seat's number (the page shows it
in the reader's language)."""
Db = Callable[..., Awaitable[Any]]


class AccountError(Exception):
    """A refused account request: the HTTP status, a stable code (docs/accounts.md;
    the page words it in its language) and the message in English."""

    def __init__(self, status: int, code: str, message: str, retry_after: float = 0) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.retry_after = retry_after


@dataclass(frozen=True, slots=True)
class NewSession:
    """What signing in gives the client: the cookie's id and the CSRF token."""

    account: Account
    session_id: str
    csrf: str


def lookup_key(typed: str) -> str:
    """What a typed username is looked up by: NFKC, trimmed, case-folded."""
    return unicodedata.normalize("NFKC", typed).strip().casefold()[: MAX_USERNAME * 4]


class SigninBackoff:
    """The back-off of account names after wrong passwords (docs/accounts.md,
    "Brute force"), counted in the database (``signin_failures``): a name typed
    wrong on one server process waits on every other too.  Names are kept as
    digests.  ``clock`` is the wall clock, the one the processes share."""

    def __init__(self, settings: Settings, rows: AccountStore, db: Db) -> None:
        self.settings = settings
        self.rows = rows
        self.db = db
        self.clock: Clock = time.time

    async def wait(self, name: str) -> float:
        """Seconds the name must wait before it may try again (0: it may now)."""
        until: float = await self.db(self.rows.signin_until, digest(name))
        return max(0.0, until - self.clock())

    async def fail(self, name: str) -> float:
        """Count one wrong password; the seconds the name must now wait."""
        s = self.settings
        delay: float = await self.db(
            self.rows.signin_failed,
            digest(name),
            self.clock(),
            s.signin_free_failures,
            s.signin_backoff,
            s.signin_backoff_max,
            s.signin_forget,
        )
        return delay

    async def reset(self, name: str) -> None:
        await self.db(self.rows.signin_reset, digest(name))


class AddressAllowance:
    """The events of one ``kind`` one client address may make a minute, sign-ins
    (``signin``), sign-ups (``signup``) or seeks (``seek``), or one account the
    seeks of ``seekacct`` (web/seeks.py): ``per_minute`` (bursts as large; 0: no
    limit), counted in the database (``address_limits``,
    :meth:`~.account_store.AccountStore.address_take`) so that the address or
    account has one allowance over every server process on it.  Addresses are kept
    as digests, of the key the limits count them by (an IPv6 address by its /64),
    like the rated seats' (docs/accounts.md, "Two accounts of one player"), and
    accounts as digests of their ids; the kinds keep the two apart.

    On SQLite as on PostgreSQL: one process serves a SQLite file, where a bucket in
    memory (:class:`~.limits.AddressLimiter`) would be as right, but one way for
    both databases is less to get wrong, and costs one small write beside the
    session's that a sign-in makes anyway.  ``clock`` is the wall clock, the one
    the processes share."""

    def __init__(self, kind: str, per_minute: float, rows: AccountStore, db: Db) -> None:
        self.kind = kind
        self.per_minute = per_minute
        self.rows = rows
        self.db = db
        self.clock: Clock = time.time

    async def take(self, key: str) -> float:
        """Count one for ``key`` (an :func:`~.limits.address_key`, or an account's
        id): 0 if it was allowed, else the seconds until it may try again (nothing
        counted).  The statement runs on ``db``'s threads, off the event loop."""
        if self.per_minute <= 0:
            return 0.0
        wait: float = await self.db(
            self.rows.address_take, self.kind, digest(key), self.clock(), self.per_minute
        )
        return wait


class Accounts:
    """The accounts of one server process."""

    def __init__(self, settings: Settings, store: Store, db: Db) -> None:
        s = settings
        self.settings = settings
        self.rows = AccountStore(store)
        self.db = db
        self.hasher = PasswordHasher(
            time_cost=s.password_time_cost,
            memory_cost=s.password_memory_kib,
            parallelism=s.password_parallelism,
        )
        self.dummy: str | None = None
        """Verified against for unknown names, so they take as long as known ones
        (made at the first such sign-in)."""
        self.hashing = asyncio.Semaphore(max(1, s.max_hashing))
        self.signins = AddressAllowance("signin", s.signin_per_minute, self.rows, db)
        self.signups = AddressAllowance("signup", s.signups_per_minute, self.rows, db)
        self.backoff = SigninBackoff(s, self.rows, db)

    # -- passwords --------------------------------------------------------------------------
    def _password(self, password: str) -> str:
        if not self.settings.password_min <= len(password) <= MAX_PASSWORD:
            raise AccountError(
                400,
                "password_length",
                f"a password has {self.settings.password_min} to {MAX_PASSWORD} characters",
            )
        return password

    async def _hash(self, password: str) -> str:
        async with self.hashing:
            return await asyncio.to_thread(self.hasher.hash, password)

    async def _verify(self, password_hash: str, password: str) -> bool:
        async with self.hashing:
            try:
                return await asyncio.to_thread(self.hasher.verify, password_hash, password)
            except (VerificationError, InvalidHashError):
                return False

    # -- sessions ---------------------------------------------------------------------------
    async def _open(self, account: Account, replaces: str | None) -> NewSession:
        session_id = secrets.token_urlsafe(32)
        csrf = secrets.token_urlsafe(32)
        await self.db(
            self.rows.open_session,
            digest(session_id),
            account.id,
            csrf,
            self.settings.session_days * 86400.0,
            None if replaces is None else digest(replaces),
        )
        return NewSession(account, session_id, csrf)

    async def signed_in(self, session_id: str | None) -> SignedIn | None:
        """The account of the cookie's session id, or None (no id, unknown, expired)."""
        if not session_id or len(session_id) > 128:
            return None
        found: SignedIn | None = await self.db(self.rows.signed_in, digest(session_id))
        return found

    async def sign_out(self, session_id: str) -> None:
        await self.db(self.rows.close_session, digest(session_id))

    # -- the requests -----------------------------------------------------------------------
    async def sign_up(
        self, username: str, password: str, address: str, replaces: str | None
    ) -> NewSession:
        wait = await self.signups.take(address)
        if wait > 0:
            raise AccountError(
                429, "rate_limited", "too many accounts made from your address", max(1.0, wait)
            )
        try:
            name = clean_username(username)
        except UsernameError as exc:
            raise AccountError(400, exc.code, str(exc)) from None
        password_hash = await self._hash(self._password(password))
        account = Account(secrets.token_hex(16), name, time.time())
        made = await self.db(
            self.rows.create, account, username_keys(name), lookup_key(name), password_hash
        )
        if not made:
            raise AccountError(
                409, "username_taken", "that username, or one that looks like it, is taken"
            )
        return await self._open(account, replaces)

    async def sign_in(
        self, username: str, password: str, address: str, replaces: str | None
    ) -> NewSession:
        wait = await self.signins.take(address)
        if wait > 0:
            raise AccountError(
                429, "rate_limited", "too many sign-ins from your address", max(1.0, wait)
            )
        key = lookup_key(username)
        await self._not_backed_off(key)
        found: tuple[Account, str] | None = await self.db(self.rows.find, key)
        if found is None and self.dummy is None:
            self.dummy = await self._hash(secrets.token_urlsafe(16))
        stored = self.dummy if found is None else found[1]
        ok = await self._verify(stored or "", password[:MAX_PASSWORD])
        if found is None or not ok:
            await self.backoff.fail(key)
            raise AccountError(401, "bad_credentials", "wrong username or password")
        await self.backoff.reset(key)
        account, current = found
        if self.hasher.check_needs_rehash(current):
            await self.db(self.rows.set_password, account.id, await self._hash(password))
        return await self._open(account, replaces)

    async def _not_backed_off(self, key: str) -> None:
        """Refuse (429) while the account waits out its wrong passwords' back-off."""
        wait = await self.backoff.wait(key)
        if wait > 0:
            raise AccountError(
                429,
                "signin_backoff",
                "too many wrong passwords for this account; wait before trying again",
                wait,
            )

    async def _check_password(self, account: Account, password: str) -> None:
        """Refuse (403) a wrong current password; counted like a sign-in's."""
        key = lookup_key(account.username)
        await self._not_backed_off(key)
        stored = await self.db(self.rows.password_hash, account.id)
        if stored is None or not await self._verify(stored, password[:MAX_PASSWORD]):
            await self.backoff.fail(key)
            raise AccountError(403, "bad_password", "that is not the account's password")
        await self.backoff.reset(key)

    async def change_password(
        self, signed: SignedIn, old: str, new: str, session_id: str
    ) -> NewSession:
        """Set a new password: every session of the account ends, and this client gets
        a new one."""
        await self._check_password(signed.account, old)
        password_hash = await self._hash(self._password(new))
        await self.db(self.rows.set_password, signed.account.id, password_hash)
        await self.db(self.rows.close_sessions, signed.account.id)
        return await self._open(signed.account, session_id)

    async def delete(self, signed: SignedIn, password: str) -> list[Anonymised]:
        """Delete the account (its password confirms it); the seats it held, renamed."""
        await self._check_password(signed.account, password)
        renamed: list[Anonymised] = await self.db(self.rows.delete, signed.account.id, ANONYMOUS)
        return renamed
