"""Players' pages, leaderboards and abandoned rated games (issue #32).

The pages' API in process against a real SQLite file (like test_web_ratings); the
abandonment on a real server on loopback, whose sockets really close."""

from __future__ import annotations

import json
import re
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from openskill.models import PlackettLuce
from sqlalchemy import create_engine, text

from rummykit.i18n import game_title
from rummykit.web import Settings
from rummykit.web.account_routes import CSRF_HEADER, SESSION_COOKIE
from rummykit.web.ratings import bot_ratings
from rummykit.web.store import normalize_url
from test_web_accounts import CHEAP, PASSWORD, accounts_client, plant, rows, sign_up
from test_web_api import hello, until
from test_web_ratings import play_out, rated_table
from web_helpers import Client, ServerThread, postgres_cluster


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "web.db"


def rated_match(c: TestClient, host: str, guest: str, host_csrf: str) -> dict[str, Any]:
    """A rated Gin hand between the accounts of the two sessions, played to its end by
    first legal moves; its last state."""
    plant(c, host)
    t = rated_table(c, host_csrf).json()
    with c.websocket_connect(f"/ws/{t['id']}") as a:
        a.send_text(json.dumps({"type": "hello", "seat": 0}))
        first = {0: until(a, lambda m: m["type"] == "state")}
        plant(c, guest)
        with c.websocket_connect(f"/ws/{t['id']}") as b:
            hello_msg = {"type": "hello", "seat": 1, "secret": t["seats"][1]["secret"]}
            b.send_text(json.dumps(hello_msg))
            first[1] = until(b, lambda m: m["type"] == "state")
            end = play_out({0: a, 1: b}, first)
    end["id"] = t["id"]
    return end


def two_players(c: TestClient) -> tuple[str, str, str]:
    """Ann's session and CSRF token, Bob's session."""
    ann_csrf = sign_up(c, "Ann")["csrf"]
    ann = c.cookies[SESSION_COOKIE]
    c.cookies.clear()
    sign_up(c, "Bob")
    bob = c.cookies[SESSION_COOKIE]
    return ann, ann_csrf, bob


FR_GIN = game_title("gin", "fr")
SECRETISH = re.compile(r'"(hand|hands|stock|seed|secret|digest|rng|account_id|csrf)"')


def test_a_player_s_page_shows_ratings_games_and_opponents(db: Path) -> None:
    with accounts_client(db) as c:
        ann, ann_csrf, bob = two_players(c)
        ends = [rated_match(c, ann, bob, ann_csrf) for _ in range(2)]
        # a table of Ann's in play: never listed, nothing of it shown
        plant(c, ann)
        body = {"rules": "basic", "deals": 1, "seats": [{}, {"kind": "bot"}]}
        live = c.post("/api/tables", json=body, headers={CSRF_HEADER: ann_csrf}).json()
        with c.websocket_connect(f"/ws/{live['id']}") as ws:
            hello(ws, live, 0)

        c.cookies.clear()  # a stranger reads Ann's page
        r = c.get("/api/players/ann")  # names are looked up case-folded
        assert r.status_code == 200, r.text
        page = r.json()
        assert page["username"] == "Ann" and page["me"] is False
        assert not SECRETISH.search(r.text)
        ids = [i for (i,) in rows(db, "SELECT id FROM accounts")]
        assert not any(i in r.text for i in ids)  # no account id
        (gin,) = page["ratings"]
        assert gin["game"] == "gin" and gin["games"] == 2
        assert len(gin["history"]) == 2 and gin["history"][-1]["rating"] == gin["rating"]
        assert gin["history"][0]["at"] <= gin["history"][1]["at"]
        listed = [g["table"] for g in page["games"]]
        assert live["id"] not in listed
        assert set(listed) == {e["id"] for e in ends}
        for g in page["games"]:
            end = next(e for e in ends if e["id"] == g["table"])
            assert [p["score"] for p in g["players"]] == end["game"]["scores"]
            assert [p["username"] for p in g["players"]] == ["Ann", "Bob"]
            assert g["rated"] is True and g["rating_change"] is not None
            assert g["links"] == {"replay": f"/play/{g['table']}",
                                  "record": f"/api/tables/{g['table']}/record"}  # fmt: skip
            assert c.get(g["links"]["record"]).status_code == 200
        (bob_row,) = page["opponents"]
        assert bob_row["username"] == "Bob" and bob_row["games"] == 2
        assert bob_row["wins"] + bob_row["losses"] + bob_row["draws"] == 2
        # the player's own page links each game's review (of their own seat)
        plant(c, ann)
        mine = c.get("/api/players/Ann").json()
        assert mine["me"] is True
        assert all(g["links"]["review"] == f"/play/{g['table']}#seat=0&review=1"
                   for g in mine["games"])  # fmt: skip
        # Bob's page counts the same games the other way round
        theirs = c.get("/api/players/Bob?lang=fr").json()
        (ann_row,) = theirs["opponents"]
        assert (ann_row["wins"], ann_row["losses"]) == (bob_row["losses"], bob_row["wins"])
        assert theirs["ratings"][0]["title"] == FR_GIN
        assert c.get("/api/players/Nobody").json()["code"] == "no_player"
        assert c.get("/api/players/" + "x" * 500).status_code == 404


def test_leaderboards_rank_the_shown_ratings(db: Path) -> None:
    with accounts_client(db) as c:
        ann, ann_csrf, bob = two_players(c)
        end = rated_match(c, ann, bob, ann_csrf)
        r = c.get("/api/leaderboard/gin")
        assert r.status_code == 200
        board = r.json()
        assert [p["rank"] for p in board["players"]] == [1, 2]
        ratings = [p["rating"] for p in board["players"]]
        assert ratings == sorted(ratings, reverse=True)
        assert {p["username"] for p in board["players"]} == {"Ann", "Bob"}
        assert not SECRETISH.search(r.text)
        scores = end["game"]["scores"]
        if scores[0] != scores[1]:  # the winner of the hand is first
            winner = "Ann" if scores[0] > scores[1] else "Bob"
            assert board["players"][0]["username"] == winner
        # the bots' fixed ratings at the game, as measured (web/bot_ratings.json)
        assert board["bots"] == bot_ratings("gin")
        assert [b["difficulty"] for b in board["bots"]] == ["easy", "medium", "hard"]
        assert all(b["low"] <= b["rating"] <= b["high"] for b in board["bots"])
        assert c.get("/api/bot-ratings").json()["gin"] == board["bots"]
        assert c.get("/api/leaderboard/rami51").json()["players"] == []
        assert c.get("/api/leaderboard/nope").json()["code"] == "no_game"
        games = c.get("/api/leaderboard?lang=fr").json()
        assert {"game": "gin", "title": FR_GIN} in games
        for path in ("/players/Ann", "/leaderboard", "/leaderboard/gin"):
            page = c.get(path)
            assert page.status_code == 200 and "app.js" in page.text


def test_a_bot_opponent_shows_its_fixed_rating_at_the_game(db: Path) -> None:
    """A finished Gin hand against the easy bot: the player's page counts it against
    "the easy bot", with that level's fixed rating at Gin; the game is not rated."""
    with accounts_client(db) as c:
        csrf = sign_up(c, "Ann")["csrf"]
        body = {"rules": "gin", "seats": [{}, {"kind": "bot", "difficulty": "easy"}]}
        t = c.post("/api/tables", json=body, headers={CSRF_HEADER: csrf}).json()
        with c.websocket_connect(f"/ws/{t['id']}") as ws:
            m = hello(ws, t, 0)
            for _ in range(500):
                if m["game"]["phase"] == "over":
                    break
                if m["game"]["current"] == 0 and m["game"]["legal"]:
                    move = {"kind": "text", "text": m["game"]["legal"][0]["text"]}
                    ws.send_text(
                        json.dumps({"type": "move", "version": m["version"], "move": move})
                    )
                m = until(ws, lambda x, v=m["version"]: x["type"] == "state" and x["version"] > v)
            assert m["game"]["phase"] == "over"
        page = c.get("/api/players/Ann").json()
        (bot,) = page["opponents"]
        easy = next(b for b in bot_ratings("gin") if b["difficulty"] == "easy")
        assert bot["kind"] == "bot" and bot["difficulty"] == "easy" and bot["games"] == 1
        title = game_title("gin", "en")
        assert bot["ratings"] == [{"game": "gin", "title": title, "rating": easy["rating"]}]
        assert page["ratings"] == [] and rows(db, "SELECT * FROM rated_matches") == []


def test_a_deleted_account_s_games_show_an_anonymous_name(db: Path) -> None:
    with accounts_client(db) as c:
        ann, ann_csrf, bob = two_players(c)
        end = rated_match(c, ann, bob, ann_csrf)
        plant(c, bob)
        bob_csrf = c.get("/api/account").json()["csrf"]
        r = c.post("/api/account/delete", json={"password": PASSWORD},
                   headers={CSRF_HEADER: bob_csrf})  # fmt: skip
        assert r.status_code == 200, r.text
        c.cookies.clear()
        page = c.get("/api/players/Ann").json()
        (g,) = page["games"]
        assert g["table"] == end["id"]
        assert [(p["name"], p["username"]) for p in g["players"]] == [
            ("Ann", "Ann"), ("Anonymous 2", None),
        ]  # fmt: skip
        assert page["opponents"] == []  # nobody left to keep a score against
        assert "Bob" not in json.dumps(page)
        assert c.get("/api/players/Bob").status_code == 404
        assert [p["username"] for p in c.get("/api/leaderboard/gin").json()["players"]] == ["Ann"]


def test_an_account_s_finished_games_stay_to_be_replayed(db: Path) -> None:
    """A finished table expires after ``finished_after``, unless an account held a seat:
    then it is that account's archive, and its record and replay stay."""
    with accounts_client(db, sweep_every=0.05, finished_after=0.2, idle_unload=0.1) as c:
        ann, ann_csrf, bob = two_players(c)
        end = rated_match(c, ann, bob, ann_csrf)
        c.cookies.clear()
        time.sleep(1.0)  # many sweeps past finished_after, the table idle and unloaded
        assert c.get(f"/api/tables/{end['id']}/record").status_code == 200
        assert c.get(f"/api/tables/{end['id']}").json()["over"] is True
        expired = rows(db, f"SELECT 1 FROM moves WHERE table_id = '{end['id']}' AND action = -3")
        assert expired == []


# -- abandoning a rated game, on a real server ----------------------------------------------
def sql_rows(url: str, query: str) -> list[Any]:
    engine = create_engine(normalize_url(url))
    try:
        with engine.connect() as conn:
            return list(conn.execute(text(query)).all())
    finally:
        engine.dispose()


def server_settings(db: Path, **kw: Any) -> Settings:
    return Settings(
        database_url=f"sqlite:///{db}", bot_delay=0.0, tables_per_minute=0,
        sockets_per_minute=0, bot_workers=0, **{**CHEAP, **kw},
    )  # fmt: skip


def signed_up(base: str, name: str) -> tuple[httpx.Client, str]:
    web = httpx.Client(base_url=base)
    r = web.post("/api/account/signup", json={"username": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return web, r.json()["csrf"]


def seated(base: str, web: httpx.Client, table: str, seat: int, secret: str | None) -> Client:
    sock = Client(base, table, {SESSION_COOKIE: web.cookies[SESSION_COOKIE]})
    sock.send({"type": "hello", "seat": seat, **({"secret": secret} if secret else {})})
    sock.until(lambda m: m["type"] == "state")
    return sock


def rated_pair(
    base: str, timer: float | None, names: tuple[str, str] = ("Ann", "Bob")
) -> tuple[list[httpx.Client], list[Client], str]:
    """Two new accounts seated at a rated Gin table, each by its own socket."""
    ann, csrf = signed_up(base, names[0])
    bob, _ = signed_up(base, names[1])
    body: dict[str, Any] = {"rules": "gin", "seats": [{}, {}], "rated": True}
    if timer:
        body["timer"] = timer
    r = ann.post("/api/tables", json=body, headers={CSRF_HEADER: csrf})
    assert r.status_code == 200, r.text
    t = r.json()
    socks = [seated(base, ann, t["id"], 0, None),
             seated(base, bob, t["id"], 1, t["seats"][1]["secret"])]  # fmt: skip
    return [ann, bob], socks, t["id"]


def test_a_rated_game_abandoned_past_the_grace_is_its_player_s_loss(db: Path) -> None:
    with ServerThread(server_settings(db, abandon_grace=0.5)) as srv:
        webs, socks, table = rated_pair(srv.base, timer=1.0)
        state = socks[0].state
        assert state is not None
        gone = state["game"]["current"]
        stays = 1 - gone
        left = time.monotonic()
        socks[gone].close()
        end = socks[stays].until(
            lambda m: m["type"] == "state" and m["table"]["abandoned"] is not None, timeout=15
        )
        # not before the turn's second and the half-second grace
        assert time.monotonic() - left >= 1.0
        assert end["table"]["abandoned"] == gone
        assert "abandoned the match" in end["log"][-1]["text"]
        ((result,),) = rows(db, "SELECT result FROM rated_matches")
        places = [s["place"] for s in json.loads(result)["seats"]]
        assert places[gone] == 2 and places[stays] == 1
        model = PlackettLuce()
        expected = model.rate([[model.rating()], [model.rating()]], ranks=places)
        for seat, web in enumerate(webs):
            got = web.get("/api/account").json()["account"]["ratings"]["gin"]
            assert got["games"] == 1
            assert got["mu"] == pytest.approx(expected[seat][0].mu)
        assert expected[stays][0].mu > 25 > expected[gone][0].mu
        # the match is over: no more moves, and it is the loser's loss on their page
        assert end["game"]["legal"] == [] and end["game"]["seat"] == stays
        move = {"kind": "draw_stock"}
        socks[stays].send({"type": "move", "version": end["version"], "move": move})
        err = socks[stays].until(lambda m: m["type"] == "error")
        assert err["code"] == "match_over"
        loser = ["Ann", "Bob"][gone]
        (g,) = webs[0].get(f"/api/players/{loser}").json()["games"]
        assert (g["table"], g["abandoned"], g["result"]) == (table, gone, "loss")
        assert webs[0].get(f"/api/tables/{table}/record").status_code == 200
        assert webs[0].get(f"/api/tables/{table}").json()["over"] is True
        socks[stays].close()
    # a restart reads the table as abandoned still
    with ServerThread(server_settings(db, abandon_grace=0.5)) as srv:
        info = httpx.get(f"{srv.base}/api/tables/{table}").json()
        assert info["abandoned"] == gone and info["over"] is True
        assert len(rows(db, "SELECT 1 FROM rated_matches")) == 1


def test_coming_back_within_the_grace_keeps_the_rated_game(db: Path) -> None:
    with ServerThread(server_settings(db, abandon_grace=1.5)) as srv:
        webs, socks, table = rated_pair(srv.base, timer=None)
        state = socks[0].state
        assert state is not None
        gone = state["game"]["current"]
        socks[gone].close()
        time.sleep(0.5)
        back = seated(srv.base, webs[gone], table, gone, None)  # their account's seat
        time.sleep(2.0)  # past the grace counted from the leaving
        info = webs[0].get(f"/api/tables/{table}").json()
        assert info["abandoned"] is None and info["over"] is False
        assert rows(db, "SELECT 1 FROM rated_matches") == []
        # still their turn (an absent rated player's turns are not played for them)
        assert back.state is not None
        now = back.state
        assert now["game"]["current"] == gone and now["version"] == state["version"]
        move = {"kind": "text", "text": now["game"]["legal"][0]["text"]}
        back.send({"type": "move", "version": now["version"], "move": move})
        back.until(lambda m: m["type"] == "state" and m["version"] > now["version"])
        back.close()
        socks[1 - gone].close()


def test_a_rated_player_who_never_comes_abandons_the_match(db: Path) -> None:
    """The creator's seat is theirs from the start: never opened, it is away, and
    the match is their loss once it is their turn and the grace has run out."""
    with ServerThread(server_settings(db, abandon_grace=0.5)) as srv:
        ann, csrf = signed_up(srv.base, "Ann")
        bob, _ = signed_up(srv.base, "Bob")
        body = {"rules": "gin", "seats": [{}, {}], "rated": True}
        t = ann.post("/api/tables", json=body, headers={CSRF_HEADER: csrf}).json()
        sock = seated(srv.base, bob, t["id"], 1, t["seats"][1]["secret"])
        state = sock.state
        assert state is not None
        if state["game"]["current"] == 1:  # Bob's turn first: he plays it
            while state["game"]["current"] == 1:
                move = {"kind": "text", "text": state["game"]["legal"][0]["text"]}
                sock.send({"type": "move", "version": state["version"], "move": move})
                state = sock.until(
                    lambda m, v=state["version"]: m["type"] == "state" and m["version"] > v
                )
        end = sock.until(
            lambda m: m["type"] == "state" and m["table"]["abandoned"] is not None, timeout=15
        )
        assert end["table"]["abandoned"] == 0
        ((result,),) = rows(db, "SELECT result FROM rated_matches")
        assert [s["place"] for s in json.loads(result)["seats"]] == [2, 1]
        sock.close()


@pytest.mark.web_slow
@pytest.mark.parametrize("leaver_on_owner", [True, False])
def test_abandoning_across_two_processes_on_postgresql(leaver_on_owner: bool) -> None:
    """Two server processes on one PostgreSQL database: the table's owner (where it was
    made) and another.  The player whose turn it is leaves from the owner (which then
    hands the table to the process that still has a player) or from the other (the
    owner hears of it); either way the match ends once, as that player's loss."""
    with postgres_cluster() as url:
        common = server_settings(Path("unused"), abandon_grace=0.5, lease_seconds=3.0)
        common.database_url = url
        owner = ServerThread(replace(common, node_id="owner"))
        other = ServerThread(replace(common, node_id="other"))
        with owner, other:
            ann, csrf = signed_up(owner.base, "Ann")
            bob, _ = signed_up(owner.base, "Bob")
            body = {"rules": "gin", "seats": [{}, {}], "rated": True}
            t = ann.post("/api/tables", json=body, headers={CSRF_HEADER: csrf}).json()
            first = seated(owner.base, ann, t["id"], 0, None)
            assert first.state is not None
            current = first.state["game"]["current"]
            first.close()  # back at once, through the process the case wants
            webs = [ann, bob]
            secrets = [None, t["seats"][1]["secret"]]
            near, far = (owner.base, other.base) if leaver_on_owner else (other.base, owner.base)
            socks = {
                seat: seated(near if seat == current else far, webs[seat], t["id"], seat,
                             secrets[seat])
                for seat in (0, 1)
            }  # fmt: skip
            stays = 1 - current
            socks[current].close()
            end = socks[stays].until(
                lambda m: m["type"] == "state" and m["table"]["abandoned"] is not None,
                timeout=30,
            )
            assert end["table"]["abandoned"] == current
            results = sql_rows(url, "SELECT result FROM rated_matches")
            assert len(results) == 1
            places = [s["place"] for s in json.loads(results[0][0])["seats"]]
            assert places[current] == 2 and places[stays] == 1
            socks[stays].close()
