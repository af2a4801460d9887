"""The quick-pairing queue's rows (``seeks``): synchronous, on the store's engine,
called from the store's worker threads like web/account_store.py.

Every process pairs from the same rows.  :meth:`SeekStore.take` locks the waiting
seeks it reads (``FOR UPDATE SKIP LOCKED`` on PostgreSQL: two processes never read
the same ones; SQLite has one writer and one process) and marks the groups it forms
``pairing`` under a claim of their own; :meth:`SeekStore.seat` then gives each seek
its link only if its claim still holds, all of a group or none of it.  A claim that
lapses (its process died while making the table) leaves its seeks waiting again.
So nobody is given two seats, and nobody waiting is lost.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sqlalchemy import and_, delete, or_, select, update
from sqlalchemy.exc import IntegrityError

from .pairing import Group, Waiting, match
from .settings import Settings
from .store import SeekRow, Store

WAITING, PAIRING, PAIRED = "waiting", "pairing", "paired"


@dataclass(frozen=True, slots=True)
class NewSeek:
    id: str
    holder: str
    account_id: str | None
    name: str
    game: str
    players: int
    timer: float
    rated: bool
    bot: bool
    rating: float


@dataclass(frozen=True, slots=True)
class SeekView:
    """What a seek's player may know of it."""

    status: str
    game: str
    players: int
    timer: float
    rated: bool
    bot: bool
    created: float
    link: str | None
    table_id: str | None


@dataclass(frozen=True, slots=True)
class Taken:
    """A group taken for a table: its claim, and each seek's account and name."""

    claim: str
    group: Group
    game: str
    timer: float
    rated: bool
    seats: tuple[tuple[str, str | None, str], ...]
    """``(seek id, account id, name)`` in the group's order."""


class SeekStore:
    def __init__(self, store: Store) -> None:
        self.session = store.session

    def add(self, seek: NewSeek, now: float, ttl: float) -> bool:
        """Queue a seek; False (nothing queued) when its holder already has one
        waiting or being paired.  The holder's lapsed seek is dropped first."""
        try:
            with self.session.begin() as s:
                s.execute(
                    delete(SeekRow).where(
                        SeekRow.holder == seek.holder,
                        SeekRow.expires <= now,
                        SeekRow.claim_until <= now,
                    )
                )
                s.add(
                    SeekRow(
                        id=seek.id,
                        holder=seek.holder,
                        account_id=seek.account_id,
                        name=seek.name,
                        game=seek.game,
                        players=seek.players,
                        timer=seek.timer,
                        rated=seek.rated,
                        bot=seek.bot,
                        rating=seek.rating,
                        created=now,
                        expires=now + ttl,
                        status=WAITING,
                        claim=None,
                        claim_until=0.0,
                    )
                )
        except IntegrityError:
            return False
        return True

    def view(self, seek_id: str, now: float, ttl: float) -> SeekView | None:
        """The seek (None if there is none, or it expired).  A waiting seek asked
        after lives ``ttl`` seconds more (written when a quarter of it has passed)."""
        with self.session.begin() as s:
            row = s.get(SeekRow, seek_id)
            if row is None or (row.expires <= now and row.claim_until <= now):
                return None
            status = row.status
            if status == PAIRING and row.claim_until <= now:
                status = WAITING  # its pairer died: any process pairs it again
            if status == WAITING and row.expires < now + 0.75 * ttl:
                row.expires = now + ttl
            return SeekView(
                status, row.game, row.players, row.timer, row.rated, row.bot, row.created,
                row.link, row.table_id,
            )  # fmt: skip

    def cancel(self, seek_id: str, now: float) -> str | None:
        """Withdraw a waiting seek: ``"cancelled"``; else its status (``pairing``:
        its table is being made, ``paired``), or None if there is no such seek."""
        with self.session.begin() as s:
            row = s.get(SeekRow, seek_id, with_for_update=True)
            if row is None:
                return None
            if row.status == WAITING or (row.status == PAIRING and row.claim_until <= now):
                s.delete(row)
                return "cancelled"
            return row.status

    def take(self, settings: Settings, now: float) -> list[Taken]:
        """Lock up to ``pair_batch`` pairable seeks (waiting, or left by a pairer
        that died), match them (web/pairing.py) and claim each group formed."""
        with self.session.begin() as s:
            rows = s.scalars(
                select(SeekRow)
                .where(
                    or_(
                        and_(SeekRow.status == WAITING, SeekRow.expires > now),
                        and_(SeekRow.status == PAIRING, SeekRow.claim_until <= now),
                    )
                )
                .order_by(SeekRow.created, SeekRow.id)
                .limit(settings.pair_batch)
                .with_for_update(skip_locked=True)
            ).all()
            by_id = {r.id: r for r in rows}
            waiting = [
                Waiting(r.id, r.game, r.players, r.timer, r.rated, r.rating, r.created, r.bot)
                for r in rows
            ]
            out: list[Taken] = []
            for group in match(settings, waiting, now):
                claim = secrets.token_hex(16)
                members = [by_id[i] for i in group.seeks]
                for r in members:
                    r.status = PAIRING
                    r.claim = claim
                    r.claim_until = now + settings.pair_claim
                    r.expires = max(r.expires, now + settings.seek_ttl)
                first = members[0]
                out.append(
                    Taken(
                        claim, group, first.game, first.timer, first.rated,
                        tuple((r.id, r.account_id, r.name) for r in members),
                    )
                )  # fmt: skip
            return out

    def seat(
        self, claim: str, links: Mapping[str, str], table_id: str, now: float, keep: float
    ) -> bool:
        """Give each seek of the claim its link, if the claim still holds every one
        of them; else change nothing and say False (the claim lapsed and another
        process took some of them again)."""
        with self.session.begin() as s:
            rows = s.scalars(
                select(SeekRow)
                .where(SeekRow.id.in_(list(links)), SeekRow.claim == claim)
                .where(SeekRow.status == PAIRING)
                .with_for_update()
            ).all()
            if len(rows) != len(links):
                return False
            for r in rows:
                r.status = PAIRED
                r.holder = None
                r.link = links[r.id]
                r.table_id = table_id
                r.expires = now + keep
                r.claim_until = 0.0
            return True

    def release(self, claim: str, ids: Sequence[str]) -> None:
        """Put a claim's seeks back in the queue (their table could not be made)."""
        with self.session.begin() as s:
            s.execute(
                update(SeekRow)
                .where(SeekRow.id.in_(list(ids)), SeekRow.claim == claim)
                .where(SeekRow.status == PAIRING)
                .values(status=WAITING, claim=None, claim_until=0.0)
            )

    def sweep(self, now: float) -> int:
        """Delete the seeks expired by ``now`` (waiting ones nobody asked after, paired
        ones whose link was kept long enough); how many went."""
        with self.session.begin() as s:
            result = s.execute(
                delete(SeekRow).where(SeekRow.expires <= now, SeekRow.claim_until <= now)
            )
            return int(getattr(result, "rowcount", 0) or 0)
