"""Players' pages and the leaderboards: what the archive of finished games says.

A player's page (``GET /api/players/{username}``, docs/accounts.md "Players' pages")
shows their rating at each game over time, their recent finished games and their
results against each opponent; a leaderboard (``GET /api/leaderboard/{game}``) the
best shown ratings at one game.  Both are public, as on lichess, so they show only
what anyone could see of a finished game: names, totals, places and ratings.  A game
still in play is not listed at all (its totals would say how the hands go), and no
answer holds a card, a seed, a seat's secret or an account's id.

The rows are read here, synchronously on the store's engine (the server calls this
from the store's worker threads); the routes are web/profile_routes.py's.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from sqlalchemy import and_, select

from ..rules import Rules
from . import ratings
from .account_store import Account
from .store import (
    ABANDONED,
    AccountRow,
    AccountSeatRow,
    MoveRow,
    RatedMatchRow,
    RatingRow,
    Store,
    TableRow,
)


@lru_cache(maxsize=64)
def _rules(spec: str) -> Rules:
    return Rules.parse(spec, saved=True)


@dataclass(frozen=True, slots=True)
class Opponent:
    """Who sat at a seat, as anyone may see it."""

    name: str
    kind: str
    """``human`` or ``bot``."""
    username: str | None
    """The account's username when an account holds the seat (its page's address)."""
    difficulty: str | None = None


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """One finished match of the player's: the table as it ended."""

    table_id: str
    game: str
    """The preset the table plays (``gin``), house rules aside."""
    spec: str
    seat: int
    """The player's seat."""
    at: float
    rated: bool
    abandoned: int | None
    """The seat that abandoned the rated match, if it was abandoned."""
    players: list[Opponent]
    scores: list[int]
    places: list[int]
    change: float | None = None
    """The player's shown rating after the match less before (a rated match)."""


class ProfileStore:
    """The reads behind the players' pages and the leaderboards."""

    def __init__(self, store: Store) -> None:
        self.session = store.session

    def account(self, lookup: str) -> Account | None:
        """The account whose case-folded name is ``lookup``."""
        with self.session() as s:
            row = s.execute(
                select(AccountRow.id, AccountRow.username, AccountRow.created).where(
                    AccountRow.lookup == lookup
                )
            ).first()
            return None if row is None else Account(row[0], row[1], row[2])

    def history(self, account_id: str, limit: int) -> list[tuple[str, float, float, str]]:
        """The account's last ``limit`` rated results, oldest first: ``(game, at,
        shown rating after it, table id)``."""
        with self.session() as s:
            rows = s.execute(
                select(
                    RatedMatchRow.game,
                    RatedMatchRow.at,
                    RatedMatchRow.result,
                    RatedMatchRow.table_id,
                    AccountSeatRow.seat,
                )
                .join(AccountSeatRow, AccountSeatRow.table_id == RatedMatchRow.table_id)
                .where(AccountSeatRow.account_id == account_id)
                .order_by(RatedMatchRow.at.desc())
                .limit(limit)
            ).all()
        out = []
        for game, at, result, table_id, seat in reversed(rows):
            seats = json.loads(result).get("seats", [])
            if seat < len(seats):
                mu, sigma = seats[seat]["after"]
                out.append((game, at, ratings.shown(mu, sigma), table_id))
        return out

    def games(self, account_id: str, limit: int) -> list[FinishedGame]:
        """The account's last ``limit`` finished matches, the latest first: tables
        over at a match's end or abandoned, never one in play, failed or expired."""
        with self.session() as s:
            rows = s.execute(
                select(
                    TableRow.id,
                    TableRow.spec,
                    TableRow.seats,
                    TableRow.state,
                    TableRow.options,
                    TableRow.updated,
                    TableRow.version,
                    AccountSeatRow.seat,
                    MoveRow.action,
                    MoveRow.seat,
                )
                .join(AccountSeatRow, AccountSeatRow.table_id == TableRow.id)
                .outerjoin(
                    MoveRow,
                    and_(MoveRow.table_id == TableRow.id, MoveRow.seq == TableRow.version),
                )
                .where(AccountSeatRow.account_id == account_id, TableRow.over.is_(True))
                .order_by(TableRow.updated.desc())
                .limit(limit * 2)
            ).all()
            held = {
                seat.get("account")
                for row in rows
                for seat in json.loads(row[2])
                if isinstance(seat.get("account"), str)
            }
            names = dict(
                s.execute(
                    select(AccountRow.id, AccountRow.username).where(AccountRow.id.in_(held))
                ).all()
            )
            matches = {
                (t, v): json.loads(r)
                for t, v, r in s.execute(
                    select(
                        RatedMatchRow.table_id, RatedMatchRow.version, RatedMatchRow.result
                    ).where(RatedMatchRow.table_id.in_({row[0] for row in rows}))
                ).all()
            }
        out: list[FinishedGame] = []
        seen: set[str] = set()
        for table_id, spec, seats, state, options, at, version, seat, action, by in rows:
            game = _finished(table_id, spec, seats, state, options, at, seat, action, by, names)
            if game is None or table_id in seen:
                continue
            seen.add(table_id)
            result = matches.get((table_id, version))
            if result is not None and seat < len(result.get("seats", [])):
                before, after = result["seats"][seat]["before"], result["seats"][seat]["after"]
                change = ratings.shown(*after) - ratings.shown(*before)
                game = replace(game, change=round(change, 1))
            out.append(game)
            if len(out) >= limit:
                break
        return out

    def leaderboard(self, game: str, limit: int) -> list[tuple[str, float, int]]:
        """The ``limit`` best shown ratings at ``game``: ``(username, rating, games)``,
        the best first (equal ratings: the most games, then the name)."""
        shown = RatingRow.mu - 3.0 * RatingRow.sigma
        with self.session() as s:
            rows = s.execute(
                select(AccountRow.username, RatingRow.mu, RatingRow.sigma, RatingRow.games)
                .join(AccountRow, AccountRow.id == RatingRow.account_id)
                .where(RatingRow.game == game, RatingRow.games > 0)
                .order_by(shown.desc(), RatingRow.games.desc(), AccountRow.username)
                .limit(limit)
            ).all()
        return [(name, ratings.shown(mu, sigma), n) for name, mu, sigma, n in rows]


def _finished(
    table_id: str,
    spec: str,
    seats_json: str,
    state_json: str,
    options_json: str,
    at: float,
    seat: int,
    action: int | None,
    by: int | None,
    names: dict[str, str],
) -> FinishedGame | None:
    """The finished match a table row holds, or None: a table in play, failed or
    expired, or whose saved state does not say it ended."""
    state = json.loads(state_json)
    abandoned = by if action == ABANDONED else None
    if state.get("phase") != "OVER" and abandoned is None:
        return None  # in play, failed or expired (its state as it was): nothing shown
    try:
        rules = _rules(spec)
    except Exception:
        return None
    scores = [int(x) for x in state.get("scores", [])]
    stored = json.loads(seats_json)
    if len(scores) != len(stored) or seat >= len(stored):
        return None
    players = [
        Opponent(
            name=str(st.get("name", "")),
            kind="bot" if st.get("kind") == "bot" else "human",
            username=names.get(st.get("account", "")),
            difficulty=st.get("difficulty") if st.get("kind") == "bot" else None,
        )
        for st in stored
    ]
    if abandoned is not None and abandoned < len(scores):
        places = ratings.abandoned_places(rules, scores, abandoned)
    else:
        places = ratings.places(rules, scores)
    return FinishedGame(
        table_id=table_id,
        game=rules.name,
        spec=spec,
        seat=seat,
        at=at,
        rated=bool(json.loads(options_json or "{}").get("rated")),
        abandoned=abandoned,
        players=players,
        scores=scores,
        places=places,
    )


def opponents(games: list[FinishedGame]) -> list[dict[str, Any]]:
    """The player's results against each opponent over ``games``: an account by its
    username, a bot by its level (with its fixed rating at each game played against
    it that was measured, web/ratings.py); guests' and deleted accounts' seats are
    nobody to keep a score against.  A win is a better place than theirs, a loss a worse one."""
    table: dict[tuple[str, str], dict[str, Any]] = {}
    for g in games:
        mine = g.places[g.seat]
        for i, p in enumerate(g.players):
            if i == g.seat:
                continue
            if p.username is not None:
                key = ("account", p.username)
                entry: dict[str, Any] = {"username": p.username, "kind": "human"}
            elif p.kind == "bot":
                key = ("bot", p.difficulty or "easy")
                entry = {"username": None, "kind": "bot", "difficulty": p.difficulty or "easy",
                         "ratings": {}}  # fmt: skip
            else:
                continue
            row = table.setdefault(key, {**entry, "games": 0, "wins": 0, "losses": 0, "draws": 0})
            if p.kind == "bot" and p.username is None:
                fixed = {b["difficulty"]: b["rating"] for b in ratings.bot_ratings(g.game)}
                if row["difficulty"] in fixed:
                    row["ratings"][g.game] = fixed[row["difficulty"]]
            row["games"] += 1
            theirs = g.places[i]
            row["wins" if mine < theirs else "losses" if mine > theirs else "draws"] += 1
    return sorted(table.values(), key=lambda r: (-r["games"], r["kind"], r["username"] or ""))
