"""Round reviews on the web: the ``review`` message's work.

A review grades every decision a player made in a finished round against the hard
engine (:mod:`rummykit.bots.review`).  At the default budget a 40-decision round costs
10 to 30 CPU-seconds (``benchmarks/web_review.py``), so three things keep it from
hurting anyone else:

* **It runs in the bot thinkers' pool, one decision per request.**  The round is
  replayed once in a worker (:func:`plan_review`), then each decision is graded as its
  own request (:func:`grade_decision`), queued behind the bots' moves like another
  table's.  A review therefore takes its turn in the pool's round robin instead of
  holding a worker for half a minute, and the player hears of each decision graded
  (``review_progress``).
* **Limits.**  A connection has one review at a time and a bucket of
  ``review_burst`` requests that refills at one every 60/``review_per_minute``
  seconds; the server runs at most ``max_reviews`` reviews at once.  A finished
  review is remembered (``review_cache`` of them), so a second tab asking for the
  same round costs nothing but the message.  These and the samples per decision
  (``review_budget``) are server settings (:class:`~rummykit.web.settings.Settings`:
  ``rummy serve --max-reviews 2``, ``RUMMYKIT_MAX_REVIEWS=2``); the search's seed
  is not (:data:`REVIEW_SEED`).
* **Bounded work.**  A review grades at most ``review_max_decisions`` decisions: a
  longer round is graded on that many, spread evenly over it, and the message says
  so (``graded`` of ``total``).  A decision travels with its own round's moves only
  (:func:`~rummykit.bots.review.round_only`), not the whole match's.  Identical
  requests (same table, seat, round and budget) from several tabs or clients while
  one is worked out share it; one client address runs at most
  ``reviews_per_address`` reviews at once, so a second address still gets its own.
* **Only what the player saw.**  The review is computed from the player's own view at
  each decision (the engine searches that view's determinizations and sends none of
  them), and the message is built field by field (:func:`review_payload`): no
  samples, no candidate list, no match seed.  As a last check, every card the
  message names must be one the player saw during the round (:func:`seen_faces`):
  a review that names any other is not sent (``review_failed``), and logged.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import re
from collections import Counter, OrderedDict
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from typing import Any, NamedTuple

from ..bots.review import (
    Decision,
    RoundReview,
    decision_indices,
    decision_points,
    default_budget,
    match_start,
    review_decision,
    round_only,
    summarise,
)
from ..cards import JOKER, UNICODE_JOKER, bits, face_of
from ..serialize import state_from_json, state_to_json
from ..state import GameState, Phase
from ..view import PlayerView
from .limits import TokenBucket
from .settings import Settings
from .thinking import Thinker

REVIEW_SEED = 0
"""The search's seed, the same as ``rummy review``'s default: a review on the web is
the one the command line gives for the downloaded record.  It seeds only the
determinizations of the player's view, never the deal."""


class ReviewBusy(Exception):
    """The server already computes as many reviews as it allows (``max_reviews``)."""


class ReviewLeak(Exception):
    """A review named a card the player did not see (a bug: never sent)."""


# -- in a worker ----------------------------------------------------------------------------
class Plan(NamedTuple):
    """A round's decisions to grade: ``(history index, state JSON, action)`` each
    (the state with its round's moves only), the history index of the round's last
    move, the faces the player saw, and how many decisions the round has (more than
    the points when the review is capped)."""

    points: list[tuple[int, str, int]]
    last: int
    seen: frozenset[int]
    total: int


def plan_review(state_json: str, seat: int, round_no: int, limit: int | None = None) -> Plan:
    """Replay the match to round ``round_no``: the seat's decision points (at most
    ``limit``, spread over the round) and what it saw (runs in a worker)."""
    final = state_from_json(state_json)
    total = len(decision_indices(final, seat, round_no))
    points, last = decision_points(final, seat, round_no, limit)
    encode = final.game.actions.encode
    return Plan(
        [(p.index, state_to_json(round_only(p.state)), encode(p.move)) for p in points],
        last,
        frozenset(seen_faces(final, seat, round_no)),
        total,
    )


def grade_decision(state_json: str, action: int, index: int, seed: int, budget: int) -> Decision:
    """One decision graded by the engine, from the acting player's view (in a worker)."""
    s = state_from_json(state_json)
    return review_decision(s, s.game.actions.decode(action), seed=seed, budget=budget, index=index)


def seen_faces(final: GameState, seat: int, round_no: int) -> set[int]:
    """Every face ``seat`` saw in round ``round_no``: its hand, the discard pile, the
    table and the cards known to be in hands, at every move of the round, and the
    hands shown when the round was scored.  Jokers count as :data:`JOKER`."""
    s = match_start(final)
    seen: set[int] = set()

    def look(v: PlayerView) -> None:
        cards = [*bits(v.hand), *v.discard]
        for k in v.known:
            cards.extend(bits(k))
        for tm in v.table:
            cards.extend(tm.cards)
        seen.update(min(face_of(c), JOKER) for c in cards)

    for action in final.history:
        if s.round_no == round_no and s.phase is not Phase.OVER:
            look(s.view(seat))
        if s.round_no > round_no or s.phase is Phase.OVER:
            break
        s.apply_action(action)
    for r in final.results:
        if r.round_no == round_no:
            for p in r.players:
                seen.update(min(face_of(c), JOKER) for c in p.cards)
    return seen


# -- the message ----------------------------------------------------------------------------
def review_payload(review: RoundReview, seat: int, total: int | None = None) -> dict[str, Any]:
    """The ``review`` message, field by field from the engine's result: what the page
    shows and nothing more (no samples, candidates, names, rules or seed: the search's
    seed is always :data:`REVIEW_SEED`).  ``graded`` of ``total`` says how many of
    the round's decisions were graded (``total``: all of them unless capped)."""
    graded = len(review.decisions)
    return {
        "type": "review",
        "round": review.round_no,
        "seat": seat,
        "budget": review.budget,
        "graded": graded,
        "total": graded if total is None else total,
        "accuracy": round(review.accuracy, 1),
        "counts": dict(review.counts),
        "result": None if review.result is None else round(review.result, 2),
        "decisions": [
            {
                "index": d.index,
                "turn": d.turn,
                "phase": d.phase,
                "played": d.played,
                "best": d.best,
                "played_points": round(d.played_points, 2),
                "best_points": round(d.best_points, 2),
                "lost": round(d.shown, 2),  # the loss its label goes by (0 when best)
                "label": d.label,
                "reason": d.reason,
            }
            for d in review.decisions
        ],
        "key_moments": [
            {
                "index": k.index,
                "turn": k.turn,
                "played": k.played,
                "better": k.better,
                "lost": round(k.lost, 2),
                "label": k.label,
                "reason": k.reason,
            }
            for k in review.key_moments
        ],
        "series": [[i, round(p, 2)] for i, p in review.series],
    }


_RANKS = "A23456789TJQK"
_SUITS = {"C": 0, "D": 1, "H": 2, "S": 3, "♣": 0, "♦": 1, "♥": 2, "♠": 3}
_CARD = re.compile(
    r"(?<![0-9A-Za-z=])(10|[2-9TAJQK])([CDHS♣♦♥♠])(?![0-9A-Za-z])"
    rf"|(?<!=)({re.escape(UNICODE_JOKER)}|\bJK\b)(?!=)"
)
"""A card in a text, as notation and the hints write it (``7H``, ``10♥``, ``🃏``), but
not a face a joker stands for (``🃏=7♥``), which names no card of anyone's."""


def faces_in_text(text: str) -> Iterator[int]:
    """The faces a text names.

    >>> sorted(faces_in_text("discard 10♥: nobody took the 9s; meld 🃏=7♥ 8♥ JK AS"))
    [33, 35, 39, 52]
    """
    for m in _CARD.finditer(text):
        if m.group(3):
            yield JOKER
        else:
            rank = "T" if m.group(1) == "10" else m.group(1)
            yield _SUITS[m.group(2)] * 13 + _RANKS.index(rank)


def faces_named(payload: Any) -> set[int]:
    """Every face named by any text of a message (its numbers are points, not cards)."""
    if isinstance(payload, str):
        return set(faces_in_text(payload))
    if isinstance(payload, dict):
        payload = list(payload.values())
    out: set[int] = set()
    if isinstance(payload, list):
        for v in payload:
            out |= faces_named(v)
    return out


# -- the server's side ----------------------------------------------------------------------
Progress = Callable[[int, int], Awaitable[None]]


@dataclass(eq=False)
class _Work:
    """A review being worked out, and the requests waiting for it."""

    listeners: list[Progress] = field(default_factory=list)
    done: int = 0
    total: int | None = None
    task: asyncio.Task[dict[str, Any]] | None = None


@dataclass
class Reviewer:
    """The server's reviews: the limits, the cache, and the computation in the pool."""

    thinker: Thinker
    budget: int | None = None
    """Samples per decision at most; None: the engine's budget for the game
    (:func:`~rummykit.bots.review.default_budget`), which ``rummy review`` uses too."""
    burst: float = Settings.review_burst
    per_minute: float = Settings.review_per_minute
    max_running: int = Settings.max_reviews
    cache_size: int = Settings.review_cache
    per_client: int = Settings.reviews_per_address
    max_decisions: int = Settings.review_max_decisions
    running: int = 0
    clients: Counter[str] = field(default_factory=Counter)
    """Reviews being worked out per client address."""
    work: dict[tuple[Any, ...], _Work] = field(default_factory=dict)
    """The reviews being worked out, by what they review."""
    cache: OrderedDict[tuple[Any, ...], dict[str, Any]] = field(default_factory=OrderedDict)

    @classmethod
    def from_settings(cls, thinker: Thinker, settings: Settings) -> Reviewer:
        """The reviews of a server with ``settings`` (its ``review_*`` limits,
        ``max_reviews`` and ``reviews_per_address``)."""
        return cls(
            thinker,
            budget=settings.review_budget if settings.review_budget > 0 else None,
            burst=settings.review_burst,
            per_minute=settings.review_per_minute,
            max_running=settings.max_reviews,
            cache_size=settings.review_cache,
            per_client=settings.reviews_per_address,
            max_decisions=settings.review_max_decisions,
        )

    def bucket(self, now: float) -> TokenBucket:
        """A new connection's allowance of reviews (unlimited if ``per_minute`` is 0,
        as the other per-minute limits)."""
        if self.per_minute <= 0:
            return TokenBucket(math.inf, 0.0, last=now)
        return TokenBucket(self.burst, self.per_minute / 60.0, last=now)

    async def review(
        self,
        table_id: str,
        state: GameState,
        seat: int,
        round_no: int,
        progress: Progress,
        client: str = "",
    ) -> dict[str, Any]:
        """The ``review`` message for ``seat``'s round ``round_no`` of ``state`` (a
        finished round), from the cache, from the same review being worked out for
        another request, or computed one decision per pool request for ``client``.

        Raises :class:`ReviewBusy` when the server, or ``client``, computes as many as
        it allows, and :class:`ReviewLeak` if the result would name a card the seat
        did not see.  Cancelling the last request waiting for a review stops it.
        """
        budget = self.budget or default_budget(state.rules, state.num_players)
        key = (table_id, state.seed, seat, round_no, budget)
        cached = self.cache.get(key)
        if cached is not None:
            self.cache.move_to_end(key)
            return cached
        work = self.work.get(key)
        if work is not None and work.task is not None and work.task.cancelling():
            work = None  # stopping: its last request went away just now
        if work is None:
            if self.running >= self.max_running or self.clients[client] >= self.per_client:
                raise ReviewBusy
            work = self.work[key] = _Work()
            work.task = asyncio.create_task(
                self._compute(key, state, seat, round_no, budget, work, client)
            )
        assert work.task is not None
        work.listeners.append(progress)
        try:
            if work.total is not None:
                await progress(work.done, work.total)
            # shielded: one request going away does not stop the others' review
            return await asyncio.shield(work.task)
        finally:
            work.listeners.remove(progress)
            if not work.listeners:
                work.task.cancel()  # nobody waits for it any more (no-op once done)

    async def _compute(
        self,
        key: tuple[Any, ...],
        state: GameState,
        seat: int,
        round_no: int,
        budget: int,
        work: _Work,
        client: str,
    ) -> dict[str, Any]:
        async def tell(done: int, total: int) -> None:
            work.done, work.total = done, total
            for listener in list(work.listeners):
                with contextlib.suppress(Exception):  # one closed tab stops nobody's review
                    await listener(done, total)

        self.running += 1
        self.clients[client] += 1
        try:
            run = partial(self.thinker.run, client=client)
            limit = self.max_decisions if self.max_decisions > 0 else None
            plan = await run(plan_review, state_to_json(state), seat, round_no, limit)
            await tell(0, len(plan.points))
            decisions: list[Decision] = []
            for index, state_json, action in plan.points:
                decisions.append(
                    await run(grade_decision, state_json, action, index, REVIEW_SEED, budget)
                )
                await tell(len(decisions), len(plan.points))
        finally:
            self.running -= 1
            self.clients[client] -= 1
            if self.clients[client] <= 0:
                del self.clients[client]
            if self.work.get(key) is work:
                del self.work[key]
        review = summarise(state, seat, round_no, REVIEW_SEED, budget, decisions, plan.last)
        payload = review_payload(review, seat, plan.total)
        unseen = faces_named(payload) - plan.seen
        if unseen:
            raise ReviewLeak(f"the review of seat {seat} names faces it never saw: {unseen}")
        self.cache[key] = payload
        while len(self.cache) > max(0, self.cache_size):
            self.cache.popitem(last=False)
        return payload
