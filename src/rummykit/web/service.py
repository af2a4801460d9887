"""The table service: every change to a table goes through here.

A client's move, rematch, join or seat claim, and a bot's move from the driver, is a
request (web/forwarded.py).  The host (web/host.py) decides where it is done: here if
this process owns the table, else by the owner, whose answer or refusal comes back as
if it were this process's own.  Where it is done, it is checked under the table's
lock, committed to the database (:meth:`TableService.commit_move` for moves and
rematches, :meth:`TableService.store_seats` for seats), and only then told to everyone.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Executor
from typing import Any

from fastapi import HTTPException

from ..errors import IllegalMoveError, RummyError
from ..i18n import rules_error_text
from ..melds import Shape
from ..moves import Move
from ..rules import PRESETS, Rules
from ..serialize import state_from_json, state_to_json
from ..solver import solver_for
from ..state import GameState, new_game
from . import ratings
from .account_store import Account, AccountStore, Anonymised
from .accounts import AccountError
from .collector import out_of_sight
from .commits import GroupCommit
from .fanout import Fanout
from .forwarded import ClaimRequest, JoinRequest, MoveRequest, RematchRequest
from .host import Host
from .live import LiveTable, Seat, bots_only, log_entry, seats_from, seats_to
from .lobby import CreateTable
from .policy import NewRuleSets, PolicyError, check_rules
from .protocol import (
    MAX_NAME,
    MoveIntent,
    ProtocolError,
    arrange_solver,
    clean_text,
    log_text,
    resolve,
)
from .residency import Residency, monotonic_clock, server_full
from .settings import Settings
from .store import (
    ABANDONED,
    ARRANGED,
    FAILED,
    MoveCommit,
    StaleWriteError,
    Store,
    StoredTable,
    digest,
)

log = logging.getLogger("rummykit.web")
Db = Callable[..., Awaitable[Any]]


BUILD_SWITCH_INTERVAL = 0.0005
"""Seconds the event loop's thread waits for the interpreter while a rule set is built
(:func:`warm_rule_set`); CPython's default is 0.005."""


def warm_rule_set(rules: Rules) -> None:
    """Build what the first moves of a new rule set need: its meld catalogue (up to
    half a second for three decks), the engine's solver and the page's arrangement
    solver (tens of milliseconds each).

    It runs in the builder thread, which shares the interpreter with the event loop's.
    After each system call the loop's thread must wait for the interpreter, by
    default up to 5 ms, and a move makes several (its read, the database's thread,
    its writes), so a build added tens of milliseconds to the moves of every table.
    While it runs the switch interval is :data:`BUILD_SWITCH_INTERVAL`; only the
    builder, one thread, sets it.  The collector is off meanwhile
    (:func:`~rummykit.web.collector.out_of_sight`): a catalogue's objects set off
    collections that hold the interpreter longer still."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(BUILD_SWITCH_INTERVAL)
    try:
        with out_of_sight(immutable=(tuple, Shape)):
            solver_for(rules)
            arrange_solver(rules)
    finally:
        sys.setswitchinterval(before)


def link(table_id: str, seat: int, secret: str | None) -> str | None:
    return None if secret is None else f"/play/{table_id}#seat={seat}&key={secret}"


class TableService:
    """Creates tables and applies every change to them, wherever they are hosted."""

    def __init__(
        self,
        settings: Settings,
        store: Store,
        db: Db,
        commits: GroupCommit,
        builder: Executor,
        host: Host,
        fanout: Fanout,
        residency: Residency,
        tables: dict[str, LiveTable],
    ) -> None:
        self.settings = settings
        self.store = store
        self.db = db
        self.commits = commits
        self.builder = builder
        self.host = host
        self.fanout = fanout
        self.residency = residency
        self.tables = tables
        self.new_rule_sets = NewRuleSets(settings.new_rule_sets_per_minute)
        self.rows = AccountStore(store)

    async def build(self, rules: Rules) -> None:
        """Build a rule set's tables in the builder thread (:func:`warm_rule_set`), one
        rule set at a time, so that the event loop goes on answering meanwhile."""
        await asyncio.get_running_loop().run_in_executor(self.builder, warm_rule_set, rules)

    def live(self, stored: StoredTable) -> LiveTable:
        """A stored table put in memory (its state read, its seats as :class:`Seat`)."""
        live = LiveTable(
            id=stored.id,
            seats=seats_from(stored.seats),
            public=stored.public,
            timer=stored.timer,
            version=stored.version,
            state=state_from_json(stored.state),
            options=stored.options,
        )
        if stored.status == "failed":
            live.failed = stored.note
        if stored.status == "abandoned":
            live.abandoned = stored.ended_by
        if stored.updated:
            live.last_seen = min(live.last_seen, monotonic_clock(stored.updated))
        live.touch_turn()
        self.tables[live.id] = live
        return live

    # -- creating and joining ------------------------------------------------------------
    async def create(
        self,
        req: CreateTable,
        lang: str = "en",
        address: str = "",
        account: Account | None = None,
        holders: Sequence[Account | None] | None = None,
    ) -> dict[str, Any]:
        """Make a table for the client at ``address`` (as the limits count it); a
        refusal (400) says why in ``lang`` where the catalog can.  A signed-in
        creator's seat is their ``account``'s, under its username.

        ``holders`` (quick pairing, web/seeks.py) gives every human seat its player
        at once, each claimed by its name, a signed-in one's under their account;
        ``account`` is then the first seat's."""
        try:
            rules = Rules.parse(req.rules)
            if req.deals is not None:
                rules = rules.with_options(deals=req.deals)
            elif req.target is not None:
                rules = rules.with_options(target_score=req.target)
        except RummyError as exc:
            raise HTTPException(400, rules_error_text(str(exc), lang)) from None
        if req.rated:
            self._rated_table(req, account)
        try:
            check_rules(rules, len(req.seats), self.settings)
        except PolicyError as exc:
            raise HTTPException(400, str(exc)) from None
        if not self.new_rule_sets.allow(rules):
            raise HTTPException(
                429,
                "this server builds only a few new kinds of meld table a minute; "
                "try again in a minute, or play a preset's decks and runs",
                headers={"Retry-After": "60"},
            )
        await self.build(rules)
        seats: list[Seat] = []
        links: list[str | None] = []
        creator: int | None = None
        for i, spec in enumerate(req.seats):
            name = clean_text(spec.name or "", MAX_NAME)
            if spec.kind == "bot":
                seats.append(Seat.bot(name or f"Bot {i + 1} ({spec.difficulty})", spec.difficulty))
                links.append(None)
            else:
                # The first human seat not opened to the public is the creator's, claimed
                # at creation: a blank name must not leave it for ``join`` to give away.
                # An open seat has no secret, hence no link, until a join.
                if creator is None and not spec.open:
                    creator = i
                    if account is not None:
                        name = account.username
                held = account if creator == i else None
                if holders is not None:
                    held = holders[i]
                    name = held.username if held is not None else name
                secret = None if spec.open else secrets.token_urlsafe(24)
                seats.append(
                    Seat(
                        "human",
                        name or f"Player {i + 1}",
                        digest=None if secret is None else digest(secret),
                        claimed=creator == i or (bool(name) and not spec.open),
                        open=spec.open,
                        account=None if held is None else held.id,
                    )
                )
                links.append(secret)
        try:
            state = new_game(rules, [s.name for s in seats], seed=secrets.randbits(63))
        except RummyError as exc:
            raise HTTPException(400, rules_error_text(str(exc), lang)) from None
        only_bots = bots_only(seats)
        if only_bots:
            self._room_for_bots(address)
        table_id = secrets.token_urlsafe(9)
        stored = StoredTable(
            table_id,
            rules.spec(),
            seats_to(seats),
            req.public,
            req.timer or 0.0,
            0,
            state_to_json(state),
            False,
            options={
                "spectator_chat": req.spectator_chat,
                **({"rated": True} if req.rated else {}),
            },
        )
        await self.residency.make_room(only_bots)  # before the row: a refused table leaves none
        await self.db(self.store.create_table, stored)
        live = self.live(stored)
        live.creator = address
        if req.rated:
            # a rated seat given at creation (the creator's, a paired player's) is
            # away until its player comes: one who never does abandons the match
            now = time.monotonic()
            live.away_since.update((i, now) for i, s in enumerate(seats) if s.claimed)
        live.lease = await self.host.acquire(table_id)
        await self.host.loaded(live)

        def seat_link(i: int) -> dict[str, Any]:
            return {"seat": i, "secret": links[i], "link": link(table_id, i, links[i])}

        return {
            "id": table_id,
            "watch": f"/play/{table_id}",
            "creator": None if creator is None else seat_link(creator),
            "seats": [
                {**seat_link(i), "name": s.name, "kind": s.kind, "open": bool(s.open)}
                for i, s in enumerate(seats)
            ],
        }

    @staticmethod
    def _rated_table(req: CreateTable, account: Account | None) -> None:
        """Refuse (400) a rated table that could not be rated: one made as a guest, of
        house rules or a changed end (its rating would not be the game's), or with a
        bot (bots' ratings are not players')."""
        if account is None:
            raise AccountError(400, "rated_signed_out", "a rated table is made signed in")
        if req.rules.strip().lower() not in PRESETS or req.deals or req.target:
            raise AccountError(
                400, "rated_preset", "a rated table plays a game as it is, without house rules"
            )
        if any(s.kind != "human" for s in req.seats):
            raise AccountError(400, "rated_people", "a rated table is for people only")

    def _room_for_bots(self, address: str) -> None:
        """Refuse a table of bots only past ``bot_tables_per_address`` in play from
        ``address`` (429) or ``max_bot_tables`` in play on the server (503): such a
        table is never idle while it plays, so it would hold its place in memory and
        its share of the pool for as long as its match lasts."""
        s = self.settings
        playing = [t for t in self.tables.values() if t.bots_only and not t.over and not t.failed]
        if sum(1 for t in playing if t.creator == address) >= s.bot_tables_per_address:
            raise HTTPException(
                429,
                f"your address already has {s.bot_tables_per_address} tables of bots only "
                "in play; wait until one is over",
            )
        if len(playing) >= s.max_bot_tables:
            raise server_full(s.max_bot_tables)

    async def store_seats(self, live: LiveTable) -> None:
        """Store the table's seats and names; the caller holds its lock."""
        await self.db(
            self.store.save_seats, live.id, seats_to(live.seats), state_to_json(live.state)
        )

    async def join(
        self, live: LiveTable, name: str | None, account: str | None = None
    ) -> dict[str, Any]:
        """Give the first seat opened to the public to whoever asks (the owner does,
        so two processes never give the same seat away); a signed-in player's
        ``account`` holds it, and ``name`` is then its username."""
        done = await self.host.submit(live, JoinRequest(name=name, account=account))
        if done is not None:
            return done
        async with live.lock:
            for i, s in enumerate(live.seats):
                if s.joinable:
                    if live.options.get("rated") and account is None:
                        raise AccountError(
                            403, "rated_needs_account", "sign in to play at a rated table"
                        )
                    secret = secrets.token_urlsafe(24)
                    s.digest = digest(secret)
                    s.claimed = True
                    s.account = account
                    clean = clean_text(name or "", MAX_NAME)
                    if clean:
                        s.name = clean
                        live.state.names[i] = clean
                    await self.store_seats(live)
                    live.cache.clear()
                    break
            else:
                raise HTTPException(409, "no open seat at this table")
        await self.host.seats_changed(live)
        await self.fanout.presence(live)
        return {"seat": i, "secret": secret, "link": link(live.id, i, secret)}

    async def seen(self, live: LiveTable, seat: int, address: str) -> None:
        """Keep that ``seat`` of a rated table was taken from ``address`` (as the
        limits count it), for the ``same_address`` flag at the match's end
        (:meth:`_rate`), whichever process ends it; as a digest, for
        ``seat_address_keep`` seconds.  A failed write is logged, not raised: the
        seat is taken all the same."""
        if not live.options.get("rated"):
            return
        try:
            await self.db(self.rows.seat_seen, live.id, seat, digest(address), time.time())
        except Exception:
            log.exception("table %s: seat %d's address could not be kept", live.id, seat)

    async def claim(
        self, live: LiveTable, seat: int, name: str, account: str | None = None
    ) -> bool:
        """Mark a seat whose link was used as claimed, with the name its holder gave
        (until the first move); whether anything changed.  The owner stores it.

        A signed-in holder's ``account`` takes a seat nobody claimed yet, and
        ``name`` is then its username; a seat an account holds keeps its name."""
        info = live.seats[seat]
        if info.account is not None:
            return False
        binds = account is not None and not info.claimed and info.account is None
        if info.claimed and not (name and name != info.name and live.version == 0):
            return False
        request = ClaimRequest(seat=seat, name=name, account=account if binds else None)
        done = await self.host.submit(live, request)
        if done is not None:
            return bool(done.get("changed"))
        async with live.lock:
            info.claimed = True
            if binds:
                info.account = account
            renamed = bool(name) and name != info.name
            if renamed:
                info.name = name
                live.state.names[seat] = name
                live.cache.clear()
            await self.store_seats(live)
        await self.host.seats_changed(live)
        return renamed

    async def anonymise(self, renamed: list[Anonymised]) -> None:
        """Give the tables in memory the names a deleted account's seats got in the
        database (web/account_store.py), and tell their players."""
        touched: set[str] = set()
        for r in renamed:
            live = self.tables.get(r.table_id)
            if live is None or r.seat >= len(live.seats):
                continue
            async with live.lock:
                live.seats[r.seat].name = r.name
                live.seats[r.seat].account = None
                live.state.names[r.seat] = r.name
                for i, entry in enumerate(live.chat):
                    if entry.get("seat") == r.seat:
                        live.chat[i] = {**entry, "name": r.name}
                live.cache.clear()
                live.record = None
            touched.add(r.table_id)
        for table_id in sorted(touched):
            await self.fanout.broadcast(self.tables[table_id])

    async def follow(self, live: LiveTable, stored: StoredTable, rows: list[Any]) -> bool:
        """Bring a replica up to the stored table (web/cluster.py): its state, seats,
        the end of its log; whether anything changed."""
        seats = seats_from(stored.seats)
        async with live.lock:
            if stored.version < live.version:
                return False
            changed = stored.version > live.version or seats != live.seats
            if changed:
                live.state = state_from_json(stored.state)
                live.version = stored.version
                live.seats = seats
                live.abandoned = stored.ended_by if stored.status == "abandoned" else None
                for row in rows:
                    live.log.append(log_entry(row.seq, row.seat, row.text, row.auto))
                live.cache.clear()
                live.touch_turn()
            if stored.status == "failed" and live.failed is None:
                live.failed = stored.note
                live.cache.clear()
                changed = True
        if changed:
            live.changed.set()
        return changed

    # -- playing ------------------------------------------------------------------------------
    async def play(
        self,
        live: LiveTable,
        seat: int,
        intent: MoveIntent | Move,
        version: int | None,
        *,
        auto: bool = False,
    ) -> None:
        """Validate and apply one move, commit it, then tell everyone.

        Raises :class:`ProtocolError` (stale version, not your turn, the table failed)
        or the engine's :class:`IllegalMoveError` / :class:`NotationError`; the state is
        then unchanged.  A replica (web/cluster.py) has the table's owner play it.
        """
        if isinstance(intent, Move):  # a bot's move: only on a table this process plays
            if not self.host.owns(live):
                raise ProtocolError("stale", "another process plays this table now")
        elif (
            await self.host.submit(live, MoveRequest(seat=seat, move=intent, version=version))
            is not None
        ):
            return
        async with live.lock:
            if live.failed is not None:
                raise ProtocolError("table_failed", live.failed)
            if version is not None and version != live.version:
                raise ProtocolError(
                    "stale",
                    f"that move was based on version {version}; the game is at {live.version}",
                )
            state = live.state
            if live.over:
                raise IllegalMoveError("match_over", "the match is over")
            if state.current != seat:
                raise ProtocolError("not_your_turn", "it is not your turn")
            move = intent if isinstance(intent, Move) else resolve(intent, state.view(seat))
            new = state.clone()
            try:
                new.apply(move)
            except RummyError:
                raise
            except Exception as exc:  # an engine bug: the table stops
                await self._mark_failed(live, f"the engine failed on {move}: {exc!r}", exc)
                raise ProtocolError("table_failed", live.failed or "") from None
            actions = new.game.actions
            action = actions.encode(move) if actions.listable else ARRANGED
            await self.commit_move(live, seat, action, log_text(state, move), new, auto)
        await self._moved(live)

    async def rematch(self, live: LiveTable, seat: int, version: int) -> None:
        if await self.host.submit(live, RematchRequest(seat=seat, version=version)) is not None:
            return
        async with live.lock:
            if version != live.version:
                raise ProtocolError("stale", f"the game is at version {live.version}")
            if not live.over:
                raise ProtocolError("not_over", "a rematch starts once the match is over")
            old = live.state
            new = new_game(old.rules, list(old.names), seed=secrets.randbits(63))
            await self.commit_move(live, seat, -1, "rematch", new, False)
        await self._moved(live)

    async def commit_move(
        self, live: LiveTable, seat: int, action: int, text: str, new: GameState, auto: bool
    ) -> None:
        """Store one move (``action`` -1: a rematch) and make ``new`` the table's state;
        the caller holds the lock.  With many processes, a write refused for a lost
        lease turns the table into a replica and tells the client to try again."""
        seq = live.version + 1
        commit = MoveCommit(
            table_id=live.id,
            seq=seq,
            seat=seat,
            action=action,
            text=text,
            state=state_to_json(new),
            over=new.is_over(),
            auto=auto,
            lease=live.lease,
        )
        try:
            await self.commits.commit(commit)
        except StaleWriteError:
            if commit.lease is None:
                raise
            self.host.lost(live)
            raise ProtocolError("stale", "the table moved on; try again") from None
        live.state = new
        live.version = seq
        live.abandoned = None
        live.cache.clear()
        live.log.append(log_entry(seq, seat, text, auto))
        live.touch_turn()
        if new.is_over() and live.options.get("rated"):
            await self._rate(live)

    async def _rate(self, live: LiveTable) -> None:
        """Apply the rated match that just ended to its players' ratings (once: the
        store keeps which matches were applied).  A seat not held by an account, or
        one account at two seats, leaves the match unrated, as logged."""
        accounts = [s.account for s in live.seats]
        held = [a for a in accounts if a is not None]
        if len(held) != len(accounts) or len(set(held)) != len(held):
            log.warning("table %s v%d: not rated (a seat without its own account)",
                        live.id, live.version)  # fmt: skip
            return
        state = live.state
        game = state.rules.name
        if live.abandoned is not None:
            places = ratings.abandoned_places(state.rules, state.scores, live.abandoned)
        else:
            places = ratings.places(state.rules, state.scores)
        try:  # every process's sockets wrote theirs (:meth:`seen`)
            addresses = await self.db(self.rows.seat_addresses, live.id)
        except Exception:
            log.exception("table %s: its seats' addresses could not be read", live.id)
            addresses = {}
        for c in live.conns:  # this process's, should a write have failed
            if c.seat >= 0:
                addresses.setdefault(c.seat, set()).add(digest(c.address))
        flags = ratings.flags(addresses)
        if flags:
            log.warning("table %s v%d: rated, flagged %s", live.id, live.version, flags)
        try:
            await self.db(self.rows.rate, live.id, live.version, game, held, places, flags)
        except Exception:  # the move stands; the rating can be applied again by hand
            log.exception("table %s v%d: the rating could not be stored", live.id, live.version)

    async def abandon(self, live: LiveTable, seat: int, version: int) -> None:
        """End the rated match at ``version`` as ``seat``'s loss: its player stayed
        away past their turn's time and the grace (web/driver.py ``abandoned_at``).

        The store gets a log row (:data:`~rummykit.web.store.ABANDONED`, the seat's)
        and the table is marked over with it, the state kept as it was; the match is
        rated with that seat last (:func:`~rummykit.web.ratings.abandoned_places`).
        Nothing happens if the table moved on meanwhile (the player came back and
        played, or another process did)."""
        async with live.lock:
            if live.version != version or live.over or live.failed is not None:
                return
            note = f"{live.seats[seat].name} abandoned the match"
            if not await self.db(self.store.mark, live.id, version, ABANDONED, seat, note):
                return
            live.version = version + 1
            live.log.append(log_entry(live.version, seat, note, True))
            live.abandoned = seat
            live.cache.clear()
            log.info("table %s v%d: seat %d abandoned the rated match", live.id, version, seat)
            await self._rate(live)
        with contextlib.suppress(Exception):
            await self.host.moved(live)
        await self._moved(live)

    async def _moved(self, live: LiveTable) -> None:
        """After a commit, outside the lock: wake the driver and tell everyone."""
        live.changed.set()
        await self.fanout.broadcast(live)

    async def fail(self, live: LiveTable, reason: str, exc: BaseException | None = None) -> None:
        async with live.lock:
            await self._mark_failed(live, reason, exc)

    async def _mark_failed(self, live: LiveTable, reason: str, exc: BaseException | None) -> None:
        """Stop a table the engine cannot go on with; the caller holds its lock.

        The error is logged once, with its traceback.  The store gets a log row
        (:data:`~rummykit.web.store.FAILED`) and the table is marked over with it, so a
        restart does not drive it again; its players get a ``table_failed`` error and
        a state whose ``table.failed`` says why.  The reason told to players names no
        card: an exception's text could.
        """
        if live.failed is not None:
            return
        log.error("table %s v%d stopped: %s", live.id, live.version, reason, exc_info=exc)
        note = f"this table stopped because of an error in the game engine: {reason}"
        seat = -1 if live.over else live.state.current
        try:
            marked = await self.db(self.store.mark, live.id, live.version, FAILED, seat, note)
        except Exception:  # the store is down: the table stops here anyway
            log.exception("table %s: the store could not mark it failed", live.id)
            marked = False
        if marked:
            live.version += 1
            live.log.append(log_entry(live.version, seat, note, True))
        live.failed = note
        live.cache.clear()
        live.changed.set()
        if marked:
            with contextlib.suppress(Exception):
                await self.host.moved(live)
        await self.fanout.broadcast(live)
        await self.fanout.error_all(live, "table_failed", note)
