"""The bot pool shared fairly, and reviews bounded (issue 27, findings 2, 3, 5 and 9).

* Finding 2: hints were "urgent" in a strict priority queue, so three tabs asking for
  hints over and over starved every bot on the server.  Each client now has its own
  queue and the clients are served in turn; a seat's tabs share one hint; hints are
  limited per address.
* Finding 3: identical reviews were computed once per request, every decision carried
  the whole match, a round's every decision was graded, and one address could hold
  every running review.
* Finding 5: strangers' tables of bots only took the people's bots' turns and the
  table cap.
* Finding 9: a killed server left its worker processes running.

Real servers on loopback (uvicorn in a thread of this process, or ``rummy serve`` as a
child process), real SQLite, real worker processes.  A second client address is a
second loopback address (127.0.0.2): Linux routes all of 127.0.0.0/8 to loopback.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import threading
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

from rummykit.bots import make_bot, play_match
from rummykit.bots.review import decision_indices, spread
from rummykit.serialize import state_from_json, state_to_json
from rummykit.web import Settings
from rummykit.web.reviews import plan_review
from rummykit.web.thinking import BOTS, BOTS_TURN, NORMAL, PEOPLE, FairQueue, Thinker, _Request
from web_helpers import Client, ServerProcess, ServerThread, wait_for

STRANGER = "127.0.0.2"
"""Another client's address (the tests' own is 127.0.0.1)."""
RULES = "basic(max_restocks=1)"
"""A round always ends (the discard pile is turned over once at most)."""


def settings(tmp_path: Path, **kw: Any) -> Settings:
    opts: dict[str, Any] = {
        "database_url": f"sqlite:///{tmp_path / 'web.db'}",
        "bot_delay": 0.0,
        "bot_workers": 0,
        "rate": 10_000,
        "burst": 10_000,
        "tables_per_minute": 0,
        "sockets_per_minute": 0,
    }
    opts.update(kw)
    return Settings(**opts)


def manager(server: ServerThread) -> Any:
    app: Any = server.server.config.app
    return app.state.manager


class ClientFrom(Client):
    """A WebSocket client whose connection comes from ``source`` (a loopback address)."""

    def __init__(self, base: str, table_id: str, source: str) -> None:
        url = base.replace("http://", "ws://") + f"/ws/{table_id}"
        self.ws = connect(
            url, max_size=2**22, open_timeout=10, source_address=(source, 0), legacy=True
        )
        self.messages: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None


def http_from(source: str) -> httpx.Client:
    return httpx.Client(transport=httpx.HTTPTransport(local_address=source), timeout=10)


def create(http: httpx.Client, base: str, seats: list[dict[str, Any]], **kw: Any) -> httpx.Response:
    body = {"rules": RULES, "deals": 1, "seats": seats, **kw}
    return http.post(base + "/api/tables", json=body)


def seated(base: str, t: dict[str, Any], seat: int, source: str = "127.0.0.1") -> Client:
    c = ClientFrom(base, t["id"], source)
    c.send({"type": "hello", "seat": seat, "secret": t["seats"][seat]["secret"]})
    c.until(lambda m: m["type"] == "state")
    return c


def to_act_at(base: str, t: dict[str, Any]) -> int:
    """The seat to act at table ``t`` (the dealer, hence the first to act, is drawn)."""
    watcher = ClientFrom(base, t["id"], "127.0.0.1")
    watcher.send({"type": "hello"})
    current: int = watcher.until(lambda m: m["type"] == "state")["game"]["current"]
    watcher.close()
    return current


def play(c: Client, rng: random.Random) -> None:
    """Play one random legal move for ``c``'s seat (it must be its turn)."""
    s = c.state
    assert s is not None
    text = rng.choice(s["game"]["legal"])["text"]
    c.send({"type": "move", "version": s["version"], "move": {"kind": "text", "text": text}})


# -- the queue ----------------------------------------------------------------------------
def test_the_pool_serves_clients_in_turn_and_people_before_tables_of_bots() -> None:
    """One client's many requests take one turn in as many as there are clients; a
    table of bots only waits while any person's work waits; a move for an absent
    person goes first among its client's own."""

    async def main() -> list[str]:
        thinker = Thinker(0)
        gate = threading.Event()
        order: list[str] = []
        busy = asyncio.create_task(thinker.run(gate.wait, 30, client="x"))
        while thinker.queue:
            await asyncio.sleep(0.01)
        jobs = [
            thinker.run(order.append, "bots 1", client="stranger", tier=BOTS),
            thinker.run(order.append, "hint 1", client="flooder"),
            thinker.run(order.append, "hint 2", client="flooder"),
            thinker.run(order.append, "hint 3", client="flooder"),
            thinker.run(order.append, "bots 2", client="other", tier=BOTS),
            thinker.run(order.append, "Ann's opponent", client="ann", tier=PEOPLE),
            thinker.run(order.append, "Bob away", client="flooder", urgent=True),
        ]
        tasks = [asyncio.create_task(j) for j in jobs]
        await asyncio.sleep(0.05)
        gate.set()
        await asyncio.gather(busy, *tasks)
        await thinker.close()
        return order

    assert asyncio.run(main()) == [
        "Bob away",
        "Ann's opponent",
        "hint 1",
        "hint 2",
        "hint 3",
        "bots 1",
        "bots 2",
    ]


def test_tables_of_bots_get_a_turn_in_bots_turn_while_people_s_work_waits() -> None:
    """People's opponents come first, but a table of bots is slowed, not stopped."""
    q = FairQueue()
    loop = asyncio.new_event_loop()
    try:
        for n in range(2 * BOTS_TURN):
            q.put(PEOPLE, f"person {n}", _Request(NORMAL, n, str, False, loop.create_future()))
        q.put(BOTS, "stranger", _Request(NORMAL, 99, str, False, loop.create_future()))
        served = [q.get().order for _ in range(len(q))]
    finally:
        loop.close()
    assert served.index(99) == BOTS_TURN - 1


# -- finding 2: hints -----------------------------------------------------------------------
def test_a_hint_flood_does_not_starve_another_person_s_bot(tmp_path: Path) -> None:
    """Issue 27, finding 2: three tabs of one seat asking for hints without pause got
    309 hints in 40 s while another person's bot did not move once.  Now the bot's
    moves take their turn with the flooder's hints (hints unlimited here, so the
    fairness of the queue alone is tested)."""
    s = settings(tmp_path, bot_workers=1, hint_budget=40, hints_per_minute=0)
    with ServerThread(s) as server, http_from(STRANGER) as stranger:
        people = [{"kind": "human"}, {"kind": "human"}]
        flood_table = create(stranger, server.base, people).json()
        to_act = to_act_at(server.base, flood_table)
        tabs = [seated(server.base, flood_table, to_act, STRANGER) for _ in range(3)]
        stop = threading.Event()
        hints = [0]

        def flood(tab: Client) -> None:
            while not stop.is_set():
                assert tab.state is not None
                tab.send({"type": "hint", "version": tab.state["version"]})
                with contextlib.suppress(TimeoutError):
                    if tab.until(lambda m: m["type"] in ("hint", "error"), 5)["type"] == "hint":
                        hints[0] += 1

        threads = [threading.Thread(target=flood, args=(t,), daemon=True) for t in tabs]
        for th in threads:
            th.start()
        try:
            wait_for(lambda: hints[0] >= 3, "the flood to be under way")
            with httpx.Client(timeout=10) as me:
                mine = create(
                    me, server.base, [{"kind": "human"}, {"kind": "bot", "difficulty": "medium"}]
                ).json()
            ann = seated(server.base, mine, 0)
            rng = random.Random(2)
            answered = 0
            while answered < 3 and ann.state["game"]["phase"] != "over":  # type: ignore[index]
                v = ann.state["version"]  # type: ignore[index]
                if ann.state["game"]["current"] == 0:  # type: ignore[index]
                    play(ann, rng)
                    ann.until(lambda m, v=v: m["type"] == "state" and m["version"] > v)
                    continue
                # the bot's turn: it answers within a generous bound despite the flood
                ann.until(lambda m, v=v: m["type"] == "state" and m["version"] > v, 30)
                answered += 1
            ann.close()
        finally:
            stop.set()
            for th in threads:
                th.join(timeout=10)
            for t in tabs:
                t.close()
    assert answered == 3


def test_a_seat_s_tabs_share_one_hint_and_hints_are_limited_per_address(
    tmp_path: Path,
) -> None:
    """A request for the hint already being worked out (same seat and version) waits
    for it instead of queuing another; each new hint takes one of the address's
    ``hints_per_minute``."""
    s = settings(tmp_path, hint_budget=400, hints_per_minute=2)
    with ServerThread(s) as server, httpx.Client(timeout=10) as http:
        thinker = manager(server).thinker
        t = create(http, server.base, [{"kind": "human"}, {"kind": "human"}]).json()
        to_act = to_act_at(server.base, t)
        tabs = [seated(server.base, t, to_act) for _ in range(3)]
        v = tabs[0].state["version"]  # type: ignore[index]
        tabs[0].send({"type": "hint", "version": v})
        wait_for(lambda: bool(manager(server).hints), "the hint to be worked out")
        for tab in tabs[1:]:
            tab.send({"type": "hint", "version": v})
        got = [tab.until(lambda m: m["type"] in ("hint", "error")) for tab in tabs]
        assert [m["type"] for m in got] == ["hint"] * 3, got
        assert got[0]["move"] == got[1]["move"] == got[2]["move"]
        assert thinker.decisions == 1
        tabs[1].send({"type": "hint", "version": v})
        assert tabs[1].until(lambda m: m["type"] in ("hint", "error"))["type"] == "hint"
        tabs[2].send({"type": "hint", "version": v})
        refused = tabs[2].until(lambda m: m["type"] in ("hint", "error"))
        assert refused["code"] == "rate_limited" and "try again in" in refused["message"]
        assert thinker.decisions == 2
        for tab in tabs:
            tab.close()


# -- finding 5: tables of bots only ------------------------------------------------------------
def test_tables_of_bots_only_are_capped_apart_from_people_s_tables(tmp_path: Path) -> None:
    """Issue 27, finding 5: a stranger's tables of bots filled ``max_tables`` and a
    person's new table was refused.  Tables of bots only now have their own caps,
    per address and overall, and do not count against people's tables."""
    s = settings(tmp_path, bot_delay=0.5, max_tables=1, max_bot_tables=2, bot_tables_per_address=1)
    bots = [{"kind": "bot", "difficulty": "easy"}] * 2
    with (
        ServerThread(s) as server,
        http_from(STRANGER) as stranger,
        http_from("127.0.0.3") as third,
        http_from("127.0.0.4") as fourth,
        httpx.Client(timeout=10) as me,
    ):
        assert create(stranger, server.base, bots, deals=50).status_code == 200
        again = create(stranger, server.base, bots, deals=50)
        assert again.status_code == 429, again.text
        assert create(third, server.base, bots, deals=50).status_code == 200
        full = create(fourth, server.base, bots, deals=50)
        assert full.status_code == 503 and full.json()["code"] == "server_full"
        person = create(me, server.base, [{"kind": "human"}, {"kind": "bot"}])
        assert person.status_code == 200, person.text
        tables = manager(server).tables.values()
        assert sum(t.bots_only for t in tables) == 2 and not any(t.over for t in tables)


# -- finding 3: reviews -------------------------------------------------------------------------
def test_a_decision_to_grade_carries_its_own_round_only() -> None:
    """Issue 27, finding 3: round 2's plan carried the whole match in each decision
    (584 MB for a long match).  A decision's state holds its round's moves only, and
    grades the same."""
    final, _ = play_match("basic(deals=3)", 2, [make_bot("easy"), make_bot("easy")], seed=3)
    plan = plan_review(state_to_json(final), 0, 3)
    assert plan.points and plan.total == len(plan.points)
    for index, state_json, _action in plan.points:
        s = state_from_json(state_json)
        assert s.round_no == 3 and s.round_start == 0
        assert len(s.history) < index  # rounds 1 and 2 are not carried
        assert s.history == final.history[index - len(s.history) : index]


def test_a_review_grades_at_most_its_cap_spread_over_the_round() -> None:
    final, _ = play_match("basic(deals=1)", 2, [make_bot("easy"), make_bot("easy")], seed=4)
    every = decision_indices(final, 0, 1)
    assert len(every) > 6
    plan = plan_review(state_to_json(final), 0, 1, limit=6)
    assert plan.total == len(every)
    assert [p[0] for p in plan.points] == [every[i] for i in spread(len(every), 6)]
    assert plan.points[0][0] == every[0] and plan.points[-1][0] == every[-1]


def _finish_round_one(clients: dict[int, Client], rng: random.Random) -> None:
    """Play random legal moves for every seat until round 1 is scored."""
    c0 = next(iter(clients.values()))
    while True:
        s = c0.state
        assert s is not None
        if s["game"]["results"]:
            return
        v = s["version"]
        mover = clients[s["game"]["current"]]
        if mover.state["version"] < v:  # type: ignore[index]
            mover.until(lambda m, v=v: m["type"] == "state" and m["version"] >= v)
        play(mover, rng)
        for c in clients.values():
            c.until(lambda m, v=v: m["type"] == "state" and m["version"] > v)


def review_answer(c: Client, timeout: float = 60.0) -> dict[str, Any]:
    return c.until(lambda m: m["type"] in ("review", "error"), timeout)


def test_identical_reviews_share_one_computation_and_say_when_capped(tmp_path: Path) -> None:
    """Issue 27, finding 3: four requests for one round from four tabs were computed
    four times.  Two tabs asking at once now share one review (one plan, one grade
    per decision), and the review says it graded ``graded`` of ``total`` decisions."""
    s = settings(tmp_path, review_max_decisions=4, review_budget=40)
    with ServerThread(s) as server, httpx.Client(timeout=10) as http:
        m = manager(server)
        t = create(http, server.base, [{"kind": "human"}, {"kind": "human"}], deals=2).json()
        a, b = seated(server.base, t, 0), seated(server.base, t, 1)
        _finish_round_one({0: a, 1: b}, random.Random(7))
        tab = seated(server.base, t, 0)
        before = m.thinker.decisions
        a.send({"type": "review", "round": 1})
        a.until(lambda msg: msg["type"] == "review_progress")
        tab.send({"type": "review", "round": 1})
        first, second = review_answer(a), review_answer(tab)
        assert first["type"] == "review" and first == second
        # the second tab joined the review under way (it heard of its progress)
        assert any(msg["type"] == "review_progress" for msg in tab.messages)
        assert first["graded"] == len(first["decisions"]) == 4 < first["total"]
        assert m.thinker.decisions - before == 1 + 4  # one plan, four grades
        for c in (a, b, tab):
            c.close()


def test_one_address_cannot_hold_every_running_review(tmp_path: Path) -> None:
    """Issue 27, finding 3: reviews were limited per connection and overall only, so
    one address took every running slot and a second address got ``busy``.  An
    address runs ``reviews_per_address`` at once; another address gets its own."""
    s = settings(tmp_path, review_budget=30, reviews_per_address=1, max_reviews=4)
    with ServerThread(s) as server, httpx.Client(timeout=10) as http:
        three = [{"kind": "human"}] * 3
        t = create(http, server.base, three, deals=2).json()
        a0, a1 = seated(server.base, t, 0, STRANGER), seated(server.base, t, 1, STRANGER)
        b = seated(server.base, t, 2)
        _finish_round_one({0: a0, 1: a1, 2: b}, random.Random(9))
        a0.send({"type": "review", "round": 1})
        a0.until(lambda msg: msg["type"] == "review_progress")
        a1.send({"type": "review", "round": 1})
        busy = review_answer(a1)
        assert busy["type"] == "error" and busy["code"] == "busy", busy
        b.send({"type": "review", "round": 1})
        assert b.until(lambda msg: msg["type"] in ("review_progress", "error"))["type"] == (
            "review_progress"
        )
        a0.close()  # nobody waits for the stranger's review: it stops
        got = review_answer(b, 120)
        assert got["type"] == "review" and got["seat"] == 2
        wait_for(lambda: manager(server).reviewer.running == 0, "the reviews to stop")
        for c in (a1, b):
            c.close()


# -- finding 9: workers die with their server -----------------------------------------------------
def _children(pid: int) -> set[int]:
    out = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                stat = (entry / "stat").read_text()
                if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                    out.add(int(entry.name))
    return out


def _alive(pid: int) -> bool:
    """Running (a zombie waiting for a parent that does not reap counts as gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def test_a_killed_server_s_workers_exit(tmp_path: Path) -> None:
    """Issue 27, finding 9: after SIGKILL the server's bot workers (and the
    resource tracker) lived for hours.  Each worker watches its parent and exits."""
    server = ServerProcess(f"sqlite:///{tmp_path / 'web.db'}", args=["--bot-workers", "1"])
    server.start()
    try:
        bots = [{"kind": "bot", "difficulty": "easy"}] * 2
        with httpx.Client(timeout=10) as http:
            r = create(http, server.base, bots, deals=20)
            assert r.status_code == 200, r.text
            assert server.proc is not None
            pid = server.proc.pid
            wait_for(lambda: len(_children(pid)) >= 2, "a worker to start", 60)
            children = _children(pid)
        os.kill(pid, signal.SIGKILL)  # the server alone, as the OOM killer would
        server.proc.wait(timeout=10)
        wait_for(lambda: not any(_alive(c) for c in children), "the workers to exit", 30)
    finally:
        server.stop()
