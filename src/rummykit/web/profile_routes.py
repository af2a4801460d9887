"""The players' pages and leaderboards: their JSON API and their pages' address.

``GET /api/players/{username}`` and ``GET /api/leaderboard/{game}`` (docs/accounts.md
"Players' pages and leaderboards", docs/protocol.md); the pages ``/players/{username}``
and ``/leaderboard/{game}`` are the one page (static/index.html) that draws them
(static/players.js).  Reading them is limited per client address
(``pages_per_minute``): a page reads up to ``profile_games`` saved games.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse

from ..i18n import game_title, normalize
from ..rules import PRESETS
from .account_routes import signed_in
from .accounts import AccountError, lookup_key
from .limits import AddressLimiter
from .live import peer
from .profiles import FinishedGame, ProfileStore, opponents
from .ratings import all_bot_ratings, bot_ratings, shown
from .usernames import MAX_USERNAME

if TYPE_CHECKING:
    from pathlib import Path

    from .manager import Manager


def game_json(g: FinishedGame, me: bool, lang: str) -> dict[str, Any]:
    """One finished game for the page: who sat where, totals, places, the links.
    The Review link is the player's own (a review is of one's own seat only)."""
    base = f"/play/{g.table_id}"
    links = {"replay": base, "record": f"/api/tables/{g.table_id}/record"}
    if me:
        links["review"] = f"{base}#seat={g.seat}&review=1"
    place = g.places[g.seat]
    best = sum(1 for p in g.places if p == 1)
    result = "loss" if place != 1 else "win" if best == 1 else "draw"
    return {
        "table": g.table_id,
        "game": g.game,
        "title": game_title(g.game, lang),
        "house_rules": g.spec.strip() != g.game,
        "seat": g.seat,
        "at": g.at,
        "rated": g.rated,
        "abandoned": g.abandoned,
        "result": result,
        "place": place,
        "rating_change": g.change,
        "players": [
            {
                "name": p.name,
                "kind": p.kind,
                "username": p.username,
                "difficulty": p.difficulty,
                "score": g.scores[i],
                "place": g.places[i],
            }
            for i, p in enumerate(g.players)
        ],
        "links": links,
    }


def titled(opponent: dict[str, Any], lang: str) -> dict[str, Any]:
    """An opponents row for the page: a bot's fixed ratings as a list, each game by
    its title in ``lang``."""
    if opponent["kind"] != "bot":
        return opponent
    fixed = sorted(opponent["ratings"].items())
    return {
        **opponent,
        "ratings": [{"game": g, "title": game_title(g, lang), "rating": r} for g, r in fixed],
    }


def profile_routes(mgr: Callable[[], Manager], page: Path, limit: AddressLimiter) -> APIRouter:
    """The routes; ``page`` is the page's HTML (static/index.html), ``limit`` counts
    the API's answers per client address (``pages_per_minute``)."""
    router = APIRouter()

    def rows() -> ProfileStore:
        return ProfileStore(mgr().store)

    def counted(request: Request) -> None:
        """Spend the client address's allowance, or refuse (429 ``rate_limited``)."""
        address = peer(request)
        if not limit.allow(address):
            wait = max(1.0, limit.retry_after(address))
            raise AccountError(
                429, "rate_limited", "too many pages asked for from your address", wait
            )

    @router.get("/players/{username}", include_in_schema=False)
    async def player_page(username: str) -> FileResponse:
        return FileResponse(page)

    @router.get("/leaderboard", include_in_schema=False)
    @router.get("/leaderboard/{game}", include_in_schema=False)
    async def leaderboard_page(game: str = "") -> FileResponse:
        return FileResponse(page)

    @router.get("/api/players/{username}")
    async def player(username: str, request: Request, lang: str | None = None) -> dict[str, Any]:
        """A player's page: ratings with their history, recent finished games and
        results against each opponent; 404 ``no_player`` for no such account."""
        counted(request)
        m = mgr()
        lg = normalize(lang) or "en"
        account = None
        if len(username) <= MAX_USERNAME * 4:
            account = await m.db(rows().account, lookup_key(username))
        if account is None:
            raise AccountError(404, "no_player", "no player has that username")
        viewer = await signed_in(m, request)
        me = viewer is not None and viewer.account.id == account.id
        s = m.settings
        current = await m.db(m.service.rows.ratings_of, account.id)
        history = await m.db(rows().history, account.id, s.profile_history)
        games = await m.db(rows().games, account.id, s.profile_games)
        by_game: dict[str, list[dict[str, Any]]] = {}
        for game, at, rating, table_id in history:
            by_game.setdefault(game, []).append({"at": at, "rating": rating, "table": table_id})
        return {
            "username": account.username,
            "created": account.created,
            "me": me,
            "ratings": [
                {
                    "game": game,
                    "title": game_title(game, lg),
                    "rating": shown(mu, sigma),
                    "games": n,
                    "history": by_game.get(game, []),
                }
                for game, mu, sigma, n in current
            ],
            "games": [game_json(g, me, lg) for g in games],
            "opponents": [titled(o, lg) for o in opponents(games)],
        }

    @router.get("/api/leaderboard")
    async def games(lang: str | None = None) -> list[dict[str, Any]]:
        """The games a leaderboard can be asked for: the presets, by title."""
        lg = normalize(lang) or "en"
        return [{"game": name, "title": game_title(name, lg)} for name in PRESETS]

    @router.get("/api/leaderboard/{game}")
    async def leaderboard(game: str, request: Request, lang: str | None = None) -> dict[str, Any]:
        """The best ``leaderboard_size`` shown ratings at ``game``; 404 ``no_game``
        for a game that is not a preset (only presets are rated)."""
        counted(request)
        if game not in PRESETS:
            raise AccountError(404, "no_game", "there is no rated game of that name")
        m = mgr()
        board = await m.db(rows().leaderboard, game, m.settings.leaderboard_size)
        return {
            "game": game,
            "title": game_title(game, normalize(lang) or "en"),
            "players": [
                {"rank": i + 1, "username": name, "rating": rating, "games": n}
                for i, (name, rating, n) in enumerate(board)
            ],
            "bots": bot_ratings(game),
        }

    @router.get("/api/bot-ratings")
    async def bots() -> dict[str, list[dict[str, Any]]]:
        """The bots' fixed ratings at each game measured (web/ratings.py): fixed
        figures, read by the pairing panel; not counted against the address."""
        return all_bot_ratings()

    return router
