"""The round review on the web (issue #16, part 2): the ``review`` message, its limits
and refusals, and that it sends no card the player did not see.

Real server (FastAPI's TestClient over the real app), real SQLite, real bot thinkers;
the review's budget is cut to a few samples a decision to keep the tests fast.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from rummykit.bots.review import LABELS, review_round
from rummykit.cards import JOKER, face_of
from rummykit.serialize import state_from_json
from rummykit.web import Settings, create_app
from rummykit.web import reviews as web_reviews
from rummykit.web.config import add_serve_arguments, given_flags, server_settings
from rummykit.web.reviews import review_payload
from rummykit.web.store import Store
from test_web_api import FORBIDDEN_KEYS, card_values, create, hello, latest_state, make_client
from web_helpers import Client, ServerThread

WS = Any
BUDGET = 3
RULES = "basic(max_restocks=1)"
"""The table's rules: a round always ends (seed 001's house rule stops a round once
the discard pile has been turned over), and two deals leave a finished round to review
while the next one is played."""
REVIEW_KEYS = FORBIDDEN_KEYS | {"samples", "candidates", "determinizations", "names"}
"""Fields a review message must never have: the match's hidden state, the engine's
samples and the comparison it made on them."""


def setup_reviewer(c: TestClient) -> Any:
    reviewer = c.app.state.manager.reviewer  # type: ignore[attr-defined]
    reviewer.budget = BUDGET
    return reviewer


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "web.db"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with make_client(db) as c:
        setup_reviewer(c)
        yield c


def play_first_round(ws: WS, s: dict[str, Any], log: list[dict[str, Any]]) -> dict[str, Any]:
    """Play seat 0's moves (random legal ones, seeded) until round 1 is scored; every
    message received is appended to ``log``.  Returns the last state."""
    rng = random.Random(16)
    log.append(s)
    while not s["game"]["results"]:
        g = s["game"]
        if g["current"] == 0 and g["legal"] and g["phase"] != "over":
            choice = rng.choice(g["legal"])
            ws.send_text(
                json.dumps(
                    {
                        "type": "move",
                        "version": s["version"],
                        "move": {"kind": "text", "text": choice["text"]},
                    }
                )
            )
        while True:
            m: dict[str, Any] = ws.receive_json()
            log.append(m)
            if m["type"] == "state":
                s = m
                break
    return s


def ask(ws: WS, **fields: Any) -> None:
    ws.send_text(json.dumps({"type": "review", **fields}))


def answer(ws: WS, log: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The next message about a review (progress messages go to ``log``)."""
    while True:
        m: dict[str, Any] = ws.receive_json()
        if m["type"] in ("review", "error"):
            return m
        if log is not None and m["type"] == "review_progress":
            log.append(m)


_CARD_TEXT = re.compile(r"(?<![=\w])(10|[2-9TAJQK])([CDHS♣♦♥♠])|🃏|\bJK\b")
_SUIT = {"C": 0, "D": 1, "H": 2, "S": 3, "♣": 0, "♦": 1, "♥": 2, "♠": 3}


def faces_in_strings(msg: Any) -> Iterator[int]:
    """Every face any string of a message spells, the jokers included; but not the face
    a joker stands for (``🃏=7♥``, ``JK=7H``), which is the joker's place in a meld of
    the player's, not a card of anyone's."""
    if isinstance(msg, str):
        for m in _CARD_TEXT.finditer(msg):
            if m.group(1) is None:
                yield JOKER
            else:
                rank = "A23456789TJQK".index("T" if m.group(1) == "10" else m.group(1))
                yield _SUIT[m.group(2)] * 13 + rank
    elif isinstance(msg, dict):
        for v in msg.values():
            yield from faces_in_strings(v)
    elif isinstance(msg, list):
        for v in msg:
            yield from faces_in_strings(v)


def seen_in_messages(log: list[dict[str, Any]]) -> set[int]:
    """The faces of every card the player was sent during the round: its hand, the
    discard pile, the melds, the cards known to be in hands, the scored hands."""
    seen: set[int] = set()
    for m in log:
        if m["type"] != "state":
            continue
        g = m["game"]
        # a state of round 2 shows round 1 only in its scoring: the rest is the new deal
        shown = g if g["round"] == 1 and g["phase"] != "over" else g["results"][0]
        seen.update(min(face_of(c), JOKER) for c in card_values(shown))
    return seen


# -- the review, and what it may say ------------------------------------------------------------
@pytest.mark.parametrize("rules", [RULES, "gin", "rami51"])
def test_review_of_a_finished_round_sends_no_card_the_player_did_not_see(
    client: TestClient, db: Path, rules: str
) -> None:
    """Issue #16: "the web review sends no hidden card of another player that the
    player did not see during play".  Round 1 is reviewed while round 2 is played:
    every review message names only faces the seat was sent during round 1, has none of
    the forbidden fields, and equals what ``review_round`` gives for the stored match
    with the same seed and budget (reproducible from the record).  In Gin the hands are
    shown when the hand is scored, the rest of the stock never."""
    # A table's seed is random: a long round can show every card, which would leave
    # nothing to leak.  Play tables until one round keeps some cards hidden (with two
    # decks a long round may show a copy of every face, so Rami takes the first).
    for _attempt in range(8):
        t = create(
            client, [{"kind": "human"}, {"kind": "bot", "difficulty": "easy"}], rules=rules, deals=2
        )
        log: list[dict[str, Any]] = []
        with client.websocket_connect(f"/ws/{t['id']}") as ws:
            s = play_first_round(ws, hello(ws, t, 0), log)
            assert len(s["game"]["results"]) == 1 and s["game"]["phase"] != "over"
            if rules != "rami51" and not set(range(52)) - seen_in_messages(log):
                continue
            ask(ws, round=1)
            progress: list[dict[str, Any]] = []
            rv = answer(ws, progress)
        if rv.get("type") == "review" and not rv["decisions"]:
            continue  # the round ended before seat 0 had a choice to make
        break
    else:
        pytest.fail("eight tables in a row showed every card or gave seat 0 no choice")
    assert rv["type"] == "review", rv
    assert rv["round"] == 1 and rv["seat"] == 0 and rv["budget"] == BUDGET
    decisions = rv["decisions"]
    assert decisions and 0 <= rv["accuracy"] <= 100
    assert {d["label"] for d in decisions} <= {name for name, _ in LABELS}
    assert len(rv["series"]) == len(decisions) + 1  # and the round's real result
    assert rv["series"][-1][1] == rv["result"]
    assert len(rv["key_moments"]) <= 3
    assert [k["lost"] for k in rv["key_moments"]] == sorted(
        (k["lost"] for k in rv["key_moments"]), reverse=True
    )
    assert all(k["better"] != k["played"] and k["reason"] for k in rv["key_moments"])
    # progress: from 0 to every decision, in order
    assert [p["done"] for p in progress] == list(range(len(decisions) + 1))
    assert {p["total"] for p in progress} == {len(decisions)}
    # no hidden card: only faces the seat saw during round 1, no forbidden field
    seen = seen_in_messages(log)
    for m in [*progress, rv]:
        named = set(faces_in_strings(m)) | set(card_values(m))
        assert named <= seen, f"the review named unseen faces {named - seen}"
        assert not REVIEW_KEYS & set(_keys(m)), m
    # reproducible: the engine on the stored match, same seed and budget
    store = Store(f"sqlite:///{db}")
    stored = store.load_table(t["id"])
    store.close()
    assert stored is not None
    final = state_from_json(stored.state)
    # A round of more decisions than the server's cap is graded on a spread of them.
    cap = client.app.state.manager.reviewer.max_decisions  # type: ignore[attr-defined]
    expected = review_round(final, 0, 1, seed=web_reviews.REVIEW_SEED, budget=BUDGET, limit=cap)
    assert review_payload(expected, 0, rv["total"]) == rv
    assert rv["graded"] == min(rv["total"], cap)


def _keys(msg: Any) -> Iterator[str]:
    if isinstance(msg, dict):
        for k, v in msg.items():
            yield k
            yield from _keys(v)
    elif isinstance(msg, list):
        for v in msg:
            yield from _keys(v)


def test_the_servers_own_check_knows_what_the_player_saw(client: TestClient, db: Path) -> None:
    """The last check before a review is sent (``seen_faces``) agrees with what the
    seat was actually sent during the round, so it refuses exactly the unseen."""
    t = create(
        client, [{"kind": "human"}, {"kind": "bot", "difficulty": "easy"}], rules=RULES, deals=2
    )
    log: list[dict[str, Any]] = []
    with client.websocket_connect(f"/ws/{t['id']}") as ws:
        play_first_round(ws, hello(ws, t, 0), log)
    store = Store(f"sqlite:///{db}")
    stored = store.load_table(t["id"])
    store.close()
    assert stored is not None
    final = state_from_json(stored.state)
    assert web_reviews.seen_faces(final, 0, 1) == seen_in_messages(log)


# -- refusals ------------------------------------------------------------------------------------
def test_reviews_of_unfinished_rounds_other_seats_and_spectators_are_refused(
    client: TestClient,
) -> None:
    """Forged or early requests get a clear error code, change nothing and leave the
    connection open: a round not finished (``not_finished``), another seat
    (``not_your_seat``), a spectator (``spectator``), a round 0 (``invalid_message``)."""
    t = create(client, [{"kind": "human"}, {"kind": "human"}], rules=RULES, deals=2)
    with (
        client.websocket_connect(f"/ws/{t['id']}") as ws,
        client.websocket_connect(f"/ws/{t['id']}") as spec,
    ):
        s = hello(ws, t, 0)
        hello(spec)
        for fields, code in (
            ({"round": 1}, "not_finished"),
            ({"round": 7}, "not_finished"),
            ({"round": 1, "seat": 1}, "not_your_seat"),
            ({"round": 0}, "invalid_message"),
            ({"round": "1"}, "invalid_message"),
            ({"round": 1, "samples": 5}, "invalid_message"),
        ):
            ask(ws, **fields)
            m = answer(ws)
            assert m["type"] == "error" and m["code"] == code, (fields, m)
        ask(spec, round=1)
        m = spec.receive_json()
        assert m["type"] == "error" and m["code"] == "spectator", m
        ws.send_text(json.dumps({"type": "ping"}))
        pong = ws.receive_json()
        assert pong == {"type": "pong", "version": s["version"]}


def test_reviews_are_limited_per_connection_and_per_server(db: Path) -> None:
    """Reviews are expensive: one at a time per connection (``busy``), a few a minute
    (``rate_limited``, a repeated one counts though it comes from the cache), and at
    most ``max_running`` on the server (``busy``); a refused request loses nothing and
    the review asked for first still arrives."""
    with make_client(db) as c:
        reviewer = setup_reviewer(c)
        reviewer.burst = 2  # the busy refusal takes none
        t = create(
            c, [{"kind": "human"}, {"kind": "bot", "difficulty": "easy"}], rules=RULES, deals=2
        )
        with c.websocket_connect(f"/ws/{t['id']}") as ws:
            play_first_round(ws, hello(ws, t, 0), [])
            ask(ws, round=1)
            ask(ws, round=1)  # while the first is worked out
            busy = answer(ws)
            assert busy["type"] == "error" and busy["code"] == "busy" and busy["round"] == 1
            first = answer(ws)
            assert first["type"] == "review"
            ask(ws, round=1)  # the second review: from the cache, the same answer
            assert answer(ws) == first
            ask(ws, round=1)
            limited = answer(ws)
            assert limited["type"] == "error" and limited["code"] == "rate_limited"
            assert "try again in" in limited["message"]
        # a new connection has its own allowance; the server-wide cap still holds
        reviewer.max_running = 0
        reviewer.cache.clear()
        with c.websocket_connect(f"/ws/{t['id']}") as ws:
            hello(ws, t, 0)
            ask(ws, round=1)
            full = answer(ws)
            assert full["type"] == "error" and full["code"] == "busy"
            assert "other rounds" in full["message"]
            reviewer.max_running = 4
            ask(ws, round=1)
            assert answer(ws)["decisions"] == first["decisions"]


def test_the_review_limits_are_settings_of_rummy_serve(db: Path) -> None:
    """``rummy serve``'s flags (and ``RUMMYKIT_*``) set the review limits the server
    applies: here a budget of 2 samples, an allowance of one review and one more every
    two minutes, one review at a time on the server and a cache of one."""
    parser = argparse.ArgumentParser()
    add_serve_arguments(parser)
    flags = ["--review-budget", "2", "--review-burst", "1", "--review-per-minute", "0.5"]
    args = parser.parse_args([*flags, "--max-reviews", "1"])
    env = {"RUMMYKIT_REVIEW_CACHE": "1", "RUMMYKIT_MAX_REVIEWS": "3"}  # the flag wins
    settings = server_settings(f"sqlite:///{db}", env, **given_flags(args, Settings))
    assert (settings.review_budget, settings.review_burst, settings.review_per_minute) == (
        2,
        1.0,
        0.5,
    )
    assert (settings.max_reviews, settings.review_cache) == (1, 1)
    # the other limits as make_client sets them: the test plays fast
    settings.tables_per_minute = settings.sockets_per_minute = 0
    settings.rate = settings.burst = 10_000
    settings.bot_delay = 0.0
    settings.allowed_hosts = ("testserver",)
    app: Any = create_app(settings)
    with TestClient(app) as c:
        reviewer = app.state.manager.reviewer
        assert (reviewer.budget, reviewer.burst, reviewer.per_minute) == (2, 1.0, 0.5)
        assert (reviewer.max_running, reviewer.cache_size) == (1, 1)
        seats = [{"kind": "human"}, {"kind": "bot", "difficulty": "easy"}]
        t = create(c, seats, rules=RULES, deals=2)
        with c.websocket_connect(f"/ws/{t['id']}") as ws:
            play_first_round(ws, hello(ws, t, 0), [])
            ask(ws, round=1)
            first = answer(ws)
            assert first["type"] == "review" and first["budget"] == 2, first
            ask(ws, round=1)  # the allowance of one is spent; the next in two minutes
            limited = answer(ws)
            assert limited["type"] == "error" and limited["code"] == "rate_limited"
            wait = re.search(r"try again in (\d+) s", limited["message"])
            assert wait and 60 < int(wait.group(1)) <= 120, limited  # 2 minutes, not 1


def test_no_review_limit_per_connection_at_zero_per_minute() -> None:
    """0 turns the per-connection limit off, as for the other per-minute limits."""
    thinker: Any = None
    off = web_reviews.Reviewer.from_settings(thinker, Settings(review_per_minute=0))
    bucket = off.bucket(0.0)
    assert all(bucket.take(0.0) for _ in range(1000))
    on = web_reviews.Reviewer.from_settings(thinker, Settings(review_burst=2))
    bucket = on.bucket(0.0)
    assert [bucket.take(0.0) for _ in range(3)] == [True, True, False]
    assert on.budget is None and on.max_running == Settings.max_reviews == 4


def test_a_review_naming_an_unseen_card_is_not_sent(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server's last check: if the engine's result named a card the seat did not
    see (here: the check is told the seat saw nothing), the review is refused with
    ``review_failed`` and nothing of it is sent."""
    monkeypatch.setattr(web_reviews, "seen_faces", lambda *a: set())
    with make_client(db, bot_workers=0) as c:  # the thinker in this process
        setup_reviewer(c)
        t = create(
            c, [{"kind": "human"}, {"kind": "bot", "difficulty": "easy"}], rules=RULES, deals=2
        )
        with c.websocket_connect(f"/ws/{t['id']}") as ws:
            play_first_round(ws, hello(ws, t, 0), [])
            ask(ws, round=1)
            m = answer(ws)
            assert m["type"] == "error" and m["code"] == "review_failed", m
            assert not set(faces_in_strings(m))
            ws.send_text(json.dumps({"type": "ping"}))
            assert until_type(ws, "pong")["type"] == "pong"


def until_type(ws: WS, kind: str) -> dict[str, Any]:
    while True:
        m: dict[str, Any] = ws.receive_json()
        if m["type"] == kind:
            return m


def test_the_player_keeps_playing_while_a_review_is_worked_out(client: TestClient) -> None:
    """The review runs beside the connection: a ping is answered and a move of round 2
    accepted before the review of round 1 arrives."""
    t = create(client, [{"kind": "human"}, {"kind": "human"}], rules=RULES, deals=2)
    with (
        client.websocket_connect(f"/ws/{t['id']}") as w0,
        client.websocket_connect(f"/ws/{t['id']}") as w1,
    ):
        socks = {0: w0, 1: w1}
        s = {0: hello(w0, t, 0), 1: hello(w1, t, 1)}
        rng = random.Random(3)
        while not s[0]["game"]["results"]:
            seat = s[0]["game"]["current"]
            choice = rng.choice(s[seat]["game"]["legal"])
            socks[seat].send_text(
                json.dumps(
                    {
                        "type": "move",
                        "version": s[seat]["version"],
                        "move": {"kind": "text", "text": choice["text"]},
                    }
                )
            )
            s = {p: latest_state(w) for p, w in socks.items()}
        seat = s[0]["game"]["current"]
        ask(socks[seat], round=1)
        first = s[seat]["game"]["legal"][0]["text"]
        socks[seat].send_text(
            json.dumps(
                {
                    "type": "move",
                    "version": s[seat]["version"],
                    "move": {"kind": "text", "text": first},
                }
            )
        )
        got = []
        while True:
            m = socks[seat].receive_json()
            got.append(m["type"])
            if m["type"] == "review":
                break
        assert "state" in got and got.index("state") < got.index("review"), got


def test_a_review_takes_turns_with_other_tables_bots(tmp_path: Path) -> None:
    """A review cannot starve other tables: with a single worker process, a table of
    bots keeps playing while a round is reviewed, since the review asks the pool for
    one decision at a time and waits its turn behind the bots' moves.  (Graded as one
    request, the review held the only worker and the bots' table stood still.)"""
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'web.db'}", bot_delay=0.0, bot_workers=1,
        tables_per_minute=0, sockets_per_minute=0, rate=10_000, burst=10_000,
    )  # fmt: skip
    with ServerThread(settings) as server:
        manager = server.server.config.app.state.manager  # type: ignore[attr-defined]
        manager.reviewer.budget = 16
        seats = [{"kind": "human"}, {"kind": "bot", "difficulty": "easy"}]
        a = httpx.post(
            server.base + "/api/tables", json={"rules": RULES, "deals": 2, "seats": seats}
        ).json()
        player = Client(server.base, a["id"])
        player.send({"type": "hello", "seat": 0, "secret": a["seats"][0]["secret"]})
        s = player.until(lambda m: m["type"] == "state")
        rng = random.Random(5)
        while not s["game"]["results"]:
            g = s["game"]
            if g["current"] == 0 and g["legal"]:
                text = rng.choice(g["legal"])["text"]
                player.send(
                    {
                        "type": "move",
                        "version": s["version"],
                        "move": {"kind": "text", "text": text},
                    }
                )
            s = player.until(lambda m: m["type"] == "state")
        bots = [{"kind": "bot", "difficulty": "easy"}] * 2
        b = httpx.post(
            server.base + "/api/tables", json={"rules": RULES, "deals": 50, "seats": bots}
        ).json()
        watcher = Client(server.base, b["id"])
        watcher.send({"type": "hello"})
        watcher.until(lambda m: m["type"] == "state")
        player.send({"type": "review", "round": 1})
        reviewing = False
        moves_meanwhile = 0
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            with contextlib.suppress(TimeoutError):
                m = player.recv(timeout=0.02)
                if m["type"] == "review":
                    break
                if m["type"] == "review_progress" and m["done"] >= 1:
                    reviewing = True
            with contextlib.suppress(TimeoutError):
                if watcher.recv(timeout=0.02)["type"] == "state" and reviewing:
                    moves_meanwhile += 1
        else:
            raise AssertionError("the review did not arrive")
        player.close()
        watcher.close()
    assert moves_meanwhile >= 5, moves_meanwhile


def test_a_review_stops_when_its_connection_closes(db: Path) -> None:
    """Nobody is left to read it: the review is withdrawn from the pool once the
    connection closes, and frees its place among the server's running reviews."""
    with make_client(db) as c:
        reviewer = setup_reviewer(c)
        reviewer.budget = 64
        seats = [{"kind": "human"}, {"kind": "bot", "difficulty": "easy"}]
        t = create(c, seats, rules=RULES, deals=2)
        with c.websocket_connect(f"/ws/{t['id']}") as ws:
            play_first_round(ws, hello(ws, t, 0), [])
            ask(ws, round=1)
            first = until_type(ws, "review_progress")
            assert first["done"] == 0 and reviewer.running == 1
        deadline = time.monotonic() + 30
        while reviewer.running and time.monotonic() < deadline:
            time.sleep(0.05)
        assert reviewer.running == 0
        assert not reviewer.cache  # nothing was finished


def test_the_last_round_of_a_finished_match_is_reviewed(client: TestClient) -> None:
    """The summary of a finished match has its Review too: the last round is reviewed
    once the match is over, and a round the match never reached is ``not_finished``."""
    seats = [{"kind": "human"}, {"kind": "bot", "difficulty": "easy"}]
    t = create(client, seats, rules="gin", deals=1)
    with client.websocket_connect(f"/ws/{t['id']}") as ws:
        s = play_first_round(ws, hello(ws, t, 0), [])
        assert s["game"]["phase"] == "over"
        ask(ws, round=2)
        assert answer(ws)["code"] == "not_finished"
        ask(ws, round=1)
        rv = answer(ws)
        assert rv["type"] == "review" and rv["decisions"], rv
