"""The accounts' rows: accounts, the keys of their names, sessions, held seats.

Synchronous, like :class:`~rummykit.web.store.Store`, on its engine; the server calls
it from the store's worker threads.  The rules (what a name may be, how a password is
checked, when a session is made) are web/accounts.py's; here is only what is kept.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sqlalchemy import case, delete, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError

from . import ratings
from .limits import backoff_delay
from .shared_rows import AddressLimitRow, SeatAddressRow, SigninFailureRow
from .store import (
    AccountKeyRow,
    AccountRow,
    AccountSeatRow,
    ChatRow,
    RatedMatchRow,
    RatingRow,
    SessionRow,
    Store,
    TableRow,
)


@dataclass(frozen=True, slots=True)
class Account:
    id: str
    username: str
    created: float


@dataclass(frozen=True, slots=True)
class SignedIn:
    """A valid session: its account and the token its unsafe requests must carry."""

    account: Account
    csrf: str


@dataclass(frozen=True, slots=True)
class Rated:
    """One seat of a rated match: its place and its ``(mu, sigma)`` before and after."""

    place: int
    before: tuple[float, float]
    after: tuple[float, float]


@dataclass(frozen=True, slots=True)
class Anonymised:
    """A seat of a deleted account, renamed in the database."""

    table_id: str
    seat: int
    name: str


class AccountStore:
    def __init__(self, store: Store) -> None:
        self.session = store.session
        self.upsert = (
            postgresql.insert if store.engine.dialect.name == "postgresql" else sqlite.insert
        )
        """``INSERT ... ON CONFLICT`` in the database's own words (the server runs on
        PostgreSQL or SQLite, which both have it)."""

    # -- accounts ---------------------------------------------------------------------------
    def create(
        self, account: Account, keys: Iterable[str], lookup: str, password_hash: str
    ) -> bool:
        """Insert the account and its name's keys in one transaction; False (nothing
        inserted) when the name, or a name sharing a key, is taken."""
        try:
            with self.session.begin() as s:
                s.add(
                    AccountRow(
                        id=account.id,
                        username=account.username,
                        lookup=lookup,
                        password=password_hash,
                        created=account.created,
                    )
                )
                s.add_all(AccountKeyRow(key=k, account_id=account.id) for k in sorted(keys))
        except IntegrityError:
            return False
        return True

    def find(self, lookup: str) -> tuple[Account, str] | None:
        """The account whose case-folded name is ``lookup``, and its password hash."""
        with self.session() as s:
            row = s.scalar(select(AccountRow).where(AccountRow.lookup == lookup))
            if row is None:
                return None
            return Account(row.id, row.username, row.created), row.password

    def password_hash(self, account_id: str) -> str | None:
        with self.session() as s:
            return s.scalar(select(AccountRow.password).where(AccountRow.id == account_id))

    def set_password(self, account_id: str, password_hash: str) -> None:
        with self.session.begin() as s:
            s.execute(
                update(AccountRow).where(AccountRow.id == account_id).values(password=password_hash)
            )

    def delete(self, account_id: str, anonymous: str) -> list[Anonymised]:
        """Remove the account, its keys, sessions, ratings and seat links in one
        transaction.

        Its games stay: each seat it held is renamed ``anonymous`` with the seat's
        number (``Anonymous 2``) in the table's seats, the saved state's names and the
        chat lines of that seat, and loses its ``account``.  The renamed seats are
        returned, for the tables in memory."""
        out: list[Anonymised] = []
        with self.session.begin() as s:
            held = s.execute(
                select(AccountSeatRow.table_id, AccountSeatRow.seat).where(
                    AccountSeatRow.account_id == account_id
                )
            ).all()
            by_table: dict[str, list[int]] = {}
            for table_id, seat in held:
                by_table.setdefault(table_id, []).append(seat)
                s.execute(
                    delete(SeatAddressRow).where(
                        SeatAddressRow.table_id == table_id, SeatAddressRow.seat == seat
                    )
                )
            for table_id, seats in sorted(by_table.items()):
                row = s.get(TableRow, table_id)
                if row is None:
                    continue
                stored = json.loads(row.seats)
                state = json.loads(row.state)
                for seat in seats:
                    if seat >= len(stored) or stored[seat].get("account") != account_id:
                        continue
                    name = f"{anonymous} {seat + 1}"
                    stored[seat]["name"] = name
                    del stored[seat]["account"]
                    names = state.get("names")
                    if isinstance(names, list) and seat < len(names):
                        names[seat] = name
                    s.execute(
                        update(ChatRow)
                        .where(ChatRow.table_id == table_id, ChatRow.seat == seat)
                        .values(name=name)
                    )
                    out.append(Anonymised(table_id, seat, name))
                row.seats = json.dumps(stored)
                row.state = json.dumps(state, separators=(",", ":"))
            for model, column in (
                (RatingRow, RatingRow.account_id),
                (AccountSeatRow, AccountSeatRow.account_id),
                (SessionRow, SessionRow.account_id),
                (AccountKeyRow, AccountKeyRow.account_id),
                (AccountRow, AccountRow.id),
            ):
                s.execute(delete(model).where(column == account_id))
        return out

    # -- sessions ---------------------------------------------------------------------------
    def open_session(
        self, digest: str, account_id: str, csrf: str, lifetime: float, replaces: str | None
    ) -> None:
        """A new session (``digest`` of its id); the one it ``replaces`` (the
        digest of the id the client came with, whoever's it was) ends in the same
        transaction, and so do the account's expired ones."""
        now = time.time()
        with self.session.begin() as s:
            if replaces is not None:
                s.execute(delete(SessionRow).where(SessionRow.id == replaces))
            s.execute(
                delete(SessionRow).where(
                    SessionRow.account_id == account_id, SessionRow.expires <= now
                )
            )
            s.add(
                SessionRow(
                    id=digest, account_id=account_id, csrf=csrf, created=now, expires=now + lifetime
                )
            )

    def signed_in(self, digest: str) -> SignedIn | None:
        """The account of an unexpired session, or None."""
        with self.session() as s:
            row = s.execute(
                select(SessionRow.csrf, AccountRow.id, AccountRow.username, AccountRow.created)
                .join(AccountRow, AccountRow.id == SessionRow.account_id)
                .where(SessionRow.id == digest, SessionRow.expires > time.time())
            ).first()
            if row is None:
                return None
            csrf, account_id, username, created = row
            return SignedIn(Account(account_id, username, created), csrf)

    def close_session(self, digest: str) -> None:
        with self.session.begin() as s:
            s.execute(delete(SessionRow).where(SessionRow.id == digest))

    def close_expired(self, now: float, limit: int) -> int:
        """Delete up to ``limit`` sessions expired by ``now``; how many went."""
        with self.session.begin() as s:
            ids = s.scalars(
                select(SessionRow.id).where(SessionRow.expires <= now).limit(limit)
            ).all()
            if ids:
                s.execute(delete(SessionRow).where(SessionRow.id.in_(ids)))
            return len(ids)

    def close_sessions(self, account_id: str) -> None:
        """End every session of the account (a new password)."""
        with self.session.begin() as s:
            s.execute(delete(SessionRow).where(SessionRow.account_id == account_id))

    # -- wrong passwords --------------------------------------------------------------------
    def signin_until(self, key: str) -> float:
        """When the name of digest ``key`` may try again (0: it has no wrong password)."""
        with self.session() as s:
            until = s.scalar(select(SigninFailureRow.until).where(SigninFailureRow.key == key))
            return 0.0 if until is None else until

    def signin_failed(
        self, key: str, now: float, free: int, base: float, cap: float, forget: float
    ) -> float:
        """Count one wrong password for the name of digest ``key``; the seconds it must
        now wait (:func:`~.limits.backoff_delay`).  A count whose last failure is
        ``forget`` seconds old starts again.  The count goes up in one UPDATE, which
        holds the row until the commit, so failures on several processes at once are
        all counted."""
        for _attempt in range(3):
            try:
                with self.session.begin() as s:
                    s.execute(
                        delete(SigninFailureRow).where(
                            SigninFailureRow.key == key, SigninFailureRow.at < now - forget
                        )
                    )
                    bumped = s.execute(
                        update(SigninFailureRow)
                        .where(SigninFailureRow.key == key)
                        .values(failures=SigninFailureRow.failures + 1, at=now)
                    )
                    if not bumped.rowcount:  # type: ignore[attr-defined]
                        s.add(SigninFailureRow(key=key, failures=1, until=now, at=now))
                        s.flush()
                    failures = s.scalar(
                        select(SigninFailureRow.failures).where(SigninFailureRow.key == key)
                    )
                    delay = backoff_delay(failures or 1, free, base, cap)
                    s.execute(
                        update(SigninFailureRow)
                        .where(SigninFailureRow.key == key)
                        .values(until=now + delay)
                    )
                return delay
            except IntegrityError:  # another process made the row first: count on it
                continue
        raise RuntimeError("the wrong password could not be counted")

    def signin_reset(self, key: str) -> None:
        """A right password: the name's count goes."""
        with self.session.begin() as s:
            s.execute(delete(SigninFailureRow).where(SigninFailureRow.key == key))

    # -- sign-ins, sign-ups and seeks per address (or account) ---------------------------
    def address_take(self, kind: str, address: str, now: float, per_minute: float) -> float:
        """Spend one of the ``per_minute`` events of ``kind`` a minute that the address
        (or, for an account's kind, the account) of digest ``address`` may have
        (``per_minute > 0``; web/accounts.py, ``AddressAllowance``): 0 if it had one,
        else the seconds until it has.

        The allowance is :class:`~.limits.TokenBucket`'s, ``per_minute`` tokens (at
        least one) refilled over a minute, kept as a single time, ``full_at``, when
        the bucket is full again: at ``now`` it holds ``capacity - (full_at - now) /
        interval`` tokens, where ``interval`` is the time one token takes to come
        back.  So there is a token while ``full_at <= now + (capacity - 1) *
        interval``, and taking it moves ``full_at`` one interval on from the later of
        itself and ``now``; no row is a full bucket.  Check and count are one
        ``INSERT ... ON CONFLICT DO UPDATE ... WHERE``: the row is locked while it
        runs, so takes on several processes at once are each counted against what
        the others left.  A refused take changes nothing and reads ``full_at`` back
        in the same transaction, for the wait."""
        interval = 60.0 / per_minute
        slack = (max(1.0, per_minute) - 1.0) * interval
        row = AddressLimitRow
        take = (
            self.upsert(row)
            .values(kind=kind, address=address, full_at=now + interval)
            .on_conflict_do_update(
                index_elements=[row.kind, row.address],
                set_={"full_at": case((row.full_at > now, row.full_at), else_=now) + interval},
                where=row.full_at <= now + slack,
            )
            .returning(row.full_at)
        )
        with self.session.begin() as s:
            if s.execute(take).first() is not None:
                return 0.0
            full_at = s.scalar(select(row.full_at).where(row.kind == kind, row.address == address))
        return 0.0 if full_at is None else max(0.0, full_at - slack - now)

    def forget_address_limits(self, now: float) -> int:
        """Delete the addresses' rows whose buckets are full by ``now`` (they allow what
        no row allows); how many went.  All at once: a bucket is full a minute after
        its last take (``per_minute`` of at least one), so the table holds only the
        addresses (and accounts) that signed in or up or sought within a minute and a
        sweep."""
        with self.session.begin() as s:
            gone = s.execute(delete(AddressLimitRow).where(AddressLimitRow.full_at < now))
            return int(gone.rowcount)  # type: ignore[attr-defined]

    # -- addresses of rated seats -----------------------------------------------------------
    def seat_seen(self, table_id: str, seat: int, address: str, now: float) -> None:
        """The seat was taken from ``address`` (its digest) at ``now``."""
        for _attempt in range(3):
            try:
                with self.session.begin() as s:
                    row = s.get(SeatAddressRow, (table_id, seat, address))
                    if row is None:
                        s.add(SeatAddressRow(table_id=table_id, seat=seat, address=address, at=now))
                    else:
                        row.at = now
                return
            except IntegrityError:  # the same seat and address, on another process
                continue

    def seat_addresses(self, table_id: str) -> dict[int, set[str]]:
        """The address digests each seat of the table was taken from."""
        with self.session() as s:
            rows = s.execute(
                select(SeatAddressRow.seat, SeatAddressRow.address).where(
                    SeatAddressRow.table_id == table_id
                )
            )
            out: dict[int, set[str]] = {}
            for seat, address in rows:
                out.setdefault(seat, set()).add(address)
            return out

    def forget_old(self, failures_before: float, addresses_before: float, limit: int) -> int:
        """Delete up to ``limit`` of each: names' counts whose last wrong password is
        older than ``failures_before`` and whose wait is over, and seats' addresses
        last seen before ``addresses_before``; how many went."""
        with self.session.begin() as s:
            keys = s.scalars(
                select(SigninFailureRow.key)
                .where(
                    SigninFailureRow.at < failures_before,
                    SigninFailureRow.until < failures_before,
                )
                .limit(limit)
            ).all()
            if keys:
                s.execute(delete(SigninFailureRow).where(SigninFailureRow.key.in_(keys)))
            seen = s.execute(
                select(SeatAddressRow.table_id, SeatAddressRow.seat, SeatAddressRow.address)
                .where(SeatAddressRow.at < addresses_before)
                .limit(limit)
            ).all()
            for table_id, seat, address in seen:
                s.execute(
                    delete(SeatAddressRow).where(
                        SeatAddressRow.table_id == table_id,
                        SeatAddressRow.seat == seat,
                        SeatAddressRow.address == address,
                    )
                )
            return len(keys) + len(seen)

    # -- ratings ----------------------------------------------------------------------------
    def rate(
        self,
        table_id: str,
        version: int,
        game: str,
        accounts: list[str],
        places: list[int],
        flags: Sequence[str] = (),
    ) -> list[Rated] | None:
        """Apply a rated match's result (the seats' accounts and places) to their
        ratings at ``game``, once: None if the match (table and version) was applied
        already, by this process or another.  ``flags`` (web/ratings.py) are kept
        with the result."""
        for _attempt in range(3):
            try:
                return self._rate(table_id, version, game, accounts, places, flags)
            except IntegrityError:
                # the match applied by another writer, or a newcomer's rating row
                # made by another match at the same moment: look, and try again
                with self.session() as s:
                    if s.get(RatedMatchRow, (table_id, version)) is not None:
                        return None
        raise RuntimeError(f"table {table_id} v{version}: the rating could not be stored")

    def _rate(
        self,
        table_id: str,
        version: int,
        game: str,
        accounts: list[str],
        places: list[int],
        flags: Sequence[str],
    ) -> list[Rated]:
        now = time.time()
        with self.session.begin() as s:
            # the match's row first: a second writer of it waits here, then fails
            s.add(RatedMatchRow(table_id=table_id, version=version, game=game, result="", at=now))
            s.flush()
            held = {
                r.account_id: r
                for r in s.scalars(
                    select(RatingRow)
                    .where(RatingRow.game == game, RatingRow.account_id.in_(accounts))
                    .order_by(RatingRow.account_id)  # one locking order: no deadlock
                    .with_for_update()
                )
            }
            before = [
                (held[a].mu, held[a].sigma) if a in held else ratings.fresh() for a in accounts
            ]
            after = ratings.updated(before, places)
            out: list[Rated] = []
            for a, place, old, new in zip(accounts, places, before, after, strict=True):
                row = held.get(a)
                if row is None:
                    row = RatingRow(account_id=a, game=game, mu=0.0, sigma=0.0, games=0)
                    s.add(row)
                    held[a] = row
                row.mu, row.sigma = new
                row.games += 1
                row.updated = now
                out.append(Rated(place, old, new))
            match = s.get(RatedMatchRow, (table_id, version))
            assert match is not None
            seats = [{"place": r.place, "before": r.before, "after": r.after} for r in out]
            match.result = json.dumps({"seats": seats, "flags": list(flags)})
        return out

    def ratings_of(self, account_id: str) -> list[tuple[str, float, float, int]]:
        """The account's ``(game, mu, sigma, games)``, by game."""
        with self.session() as s:
            rows = s.execute(
                select(RatingRow.game, RatingRow.mu, RatingRow.sigma, RatingRow.games)
                .where(RatingRow.account_id == account_id)
                .order_by(RatingRow.game)
            )
            return [(g, mu, sigma, n) for g, mu, sigma, n in rows]
