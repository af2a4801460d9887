"""Bots, hints and tournaments (issue: meld solver, bots that play well...)."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path
from typing import Any

import pytest

from rummykit import new_game
from rummykit.bots import (
    DIFFICULTIES,
    ExpertBot,
    GreedyBot,
    ISMCTSBot,
    make_bot,
    play_match,
)
from rummykit.bots.hints import suggest
from rummykit.bots.ismcts import CHECK_EVERY, GIN_SAMPLES, MIN_ITERATIONS, settled
from rummykit.cards import FACES_PER_DECK, display_face, face_of, parse_cards
from rummykit.moves import DISCARD, DRAW_DISCARD, DRAW_STOCK, KNOCK, MELD, Move
from rummykit.rules import Rules, Scoring
from rummykit.state import GameState, Phase
from rummykit.tournament import (
    Journal,
    JournalError,
    MatchRecord,
    TournamentResult,
    elo_ratings,
    lineups,
    run_tournament,
    wilson_interval,
)
from rummykit.view import PlayerView

PRESETS = ["basic", "classic", "cg101", "rami51"]


def _walk(obj: object, seen: set[int]) -> list[object]:
    """Every object reachable from a view's fields (tuples, lists, dataclasses)."""
    if id(obj) in seen:
        return []
    seen.add(id(obj))
    out = [obj]
    if isinstance(obj, (tuple, list)):
        for x in obj:
            out += _walk(x, seen)
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            if f.name != "game":
                out += _walk(getattr(obj, f.name), seen)
    return out


@pytest.mark.parametrize("preset", PRESETS)
def test_a_view_cannot_reach_hidden_cards(preset: str) -> None:
    """A bot gets a PlayerView: nothing in it leads to the state, other hands or the stock."""
    g = new_game(preset, players=3, seed=11)
    g.apply(g.legal_moves()[0])
    v = g.view(g.current)
    reachable = _walk(v, set())
    assert not any(isinstance(x, GameState) for x in reachable)
    others = {g.hands[p] for p in range(3) if p != g.current}
    ints = {x for x in reachable if isinstance(x, int) and not isinstance(x, bool)}
    assert not (others & ints), "another hand's bitmask is in the view"
    assert all(x != g.stock for x in reachable if isinstance(x, (list, tuple)))
    # the shared game object holds only rules-derived tables, no state
    assert not any(isinstance(x, GameState) for x in vars(v.game).values())


class _Spy(GreedyBot):
    """A greedy bot that records what it is given."""

    def __init__(self) -> None:
        super().__init__()
        self.given: list[type] = []

    def choose(self, view: PlayerView, rng: random.Random):  # type: ignore[no-untyped-def]
        self.given.append(type(view))
        return super().choose(view, rng)


def test_bots_receive_only_views() -> None:
    spy = _Spy()
    play_match("basic(deals=1)", 2, [spy, GreedyBot()], seed=2)
    assert spy.given and set(spy.given) == {PlayerView}


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("bot", ["greedy", "expert"])
def test_every_bot_move_is_legal(preset: str, bot: str) -> None:
    """play_match raises on any illegal move; many single deals per preset and bot."""
    games = {"greedy": 60, "expert": 12}[bot] // (3 if preset == "rami51" else 1)
    for seed in range(games):
        n = 2 + seed % 3
        spec = f"{preset}(deals=1)"
        state, stats = play_match(spec, n, [make_bot(bot) for _ in range(n)], seed=seed)
        assert state.is_over() and stats.actions > 0


def test_ismcts_is_legal_and_deterministic() -> None:
    g = new_game("basic", players=2, seed=5)
    for _ in range(6):
        v = g.view(g.current)
        a = ISMCTSBot(seconds=None, iterations=30).choose(v, random.Random(1))
        b = ISMCTSBot(seconds=None, iterations=30).choose(v, random.Random(1))
        assert a == b and a in g.legal_moves()
        g.apply(a)


def test_ismcts_on_rami_with_obligations() -> None:
    state, _ = play_match(
        "rami51(deals=1, max_turns=40)",
        2,
        [ISMCTSBot(seconds=None, iterations=8, horizon=20), GreedyBot()],
        seed=3,
    )
    assert state.is_over()


def test_ismcts_needs_a_budget() -> None:
    with pytest.raises(ValueError):
        ISMCTSBot(seconds=None, iterations=None)


def test_make_bot_names_and_difficulties() -> None:
    assert isinstance(make_bot("easy"), GreedyBot)
    assert isinstance(make_bot("medium"), ExpertBot)
    assert isinstance(make_bot("hard"), ISMCTSBot)
    assert make_bot("ismcts:0.25").seconds == 0.25  # type: ignore[attr-defined]
    assert make_bot("ismcts:1x2").workers == 2  # type: ignore[attr-defined]
    assert set(DIFFICULTIES) == {"easy", "medium", "hard"}
    for bad in ("nope", "greedy:3", "ismcts:fast"):
        with pytest.raises(ValueError):
            make_bot(bad)


def test_greedy_takes_a_discard_that_melds_and_discards_deadwood() -> None:
    g = new_game("basic", players=2, seed=1, dealer=1)
    from rummykit.cards import mask_of, parse_cards

    g.hands[0] = mask_of(parse_cards("7H 8H 2C 2D KS QS JD 4C 9S 5D"))
    g.discard.append(parse_cards("9H")[0])
    g.hands[1] &= ~g.hands[0]
    g._legal = None
    bot = GreedyBot()
    assert bot.choose(g.view(0), random.Random(0)).kind == DRAW_DISCARD
    g.apply(g.legal_moves()[1])  # draw discard
    move = bot.choose(g.view(0), random.Random(0))
    assert move.kind == MELD
    g.apply(move)
    move = bot.choose(g.view(0), random.Random(0))
    assert move.kind == DISCARD and move.a in parse_cards("KS QS JD"), "a 10-point card goes"


def test_hint_reasons_read_well() -> None:
    g = new_game("basic", players=2, seed=4)
    hint = suggest(g.view(g.current), budget=40)
    assert hint.move in g.legal_moves()
    if hint.move.kind == DRAW_STOCK:
        assert hint.reason.startswith("draw from the stock")
    g.apply(Move_draw := g.legal_moves()[0])
    assert Move_draw.kind == DRAW_STOCK
    hint = suggest(g.view(g.current), budget=40)
    assert hint.reason.split()[0] in {"discard", "meld", "lay"}
    with pytest.raises(ValueError):
        suggest(g.view(1 - g.current))


# -- tournament statistics -------------------------------------------------------------


def test_wilson_interval_known_binomial_cases() -> None:
    """Reference values of the Wilson score interval at 95% (z = 1.96)."""
    lo, hi = wilson_interval(50, 100)
    assert (round(lo, 4), round(hi, 4)) == (0.4038, 0.5962)
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0 and round(hi, 4) == 0.2775
    lo, hi = wilson_interval(10, 10)
    assert round(lo, 4) == 0.7225 and hi == pytest.approx(1.0)
    lo, hi = wilson_interval(81, 263)
    assert (round(lo, 3), round(hi, 3)) == (0.255, 0.366)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_wilson_interval_covers_the_true_rate() -> None:
    """Coverage near 95% for a known binomial (p = 0.6, n = 200), by simulation."""
    rng = random.Random(0)
    trials = 2000
    covered = 0
    for _ in range(trials):
        wins = sum(rng.random() < 0.6 for _ in range(200))
        lo, hi = wilson_interval(wins, 200)
        covered += lo <= 0.6 <= hi
    assert 0.93 <= covered / trials <= 0.97


def test_elo_from_a_known_win_rate() -> None:
    """75% wins between two players is an Elo gap of about 191 points."""
    recs = [MatchRecord(i, ("a", "b"), (1, 0) if i % 4 else (0, 1), (0,), ()) for i in range(400)]
    elo = elo_ratings(recs, ["a", "b"], Scoring.WINNER_COLLECTS)
    assert abs((elo["a"] - elo["b"]) - 190.8) < 5
    assert abs((elo["a"] + elo["b"]) / 2 - 1500) < 1e-6


def test_lineups_rotate_seats() -> None:
    assert lineups(2, ["a", "b"]) == [("a", "b"), ("b", "a")]
    assert lineups(3, ["a", "b"]) == [("a", "b", "a"), ("b", "a", "a"), ("a", "a", "b")]


def test_tournament_duplicate_deals_and_json() -> None:
    r = run_tournament("basic(deals=1)", 2, ["greedy", "random"], games=4, seed=3)
    assert r.matches == 8
    seeds = [rec.seed for rec in r.records]
    assert all(seeds.count(s) == 2 for s in seeds), "each deal is played twice"
    js = r.to_json()
    g = js["bots"]["greedy"]
    assert g["matches"] == 8 and 0 <= g["match_win_ci95"][0] <= g["match_win_rate"]
    assert js["bots"]["greedy"]["elo"] > js["bots"]["random"]["elo"]
    seen = []
    run_tournament(
        "basic(deals=1)", 2, ["greedy", "random"], 2, 0, progress=lambda d, t: seen.append((d, t))
    )
    assert seen[-1] == (4, 4)


def test_tournament_in_processes_matches_serial() -> None:
    a = run_tournament("cg101(deals=1)", 3, ["greedy", "random"], games=2, seed=9)
    b = run_tournament("cg101(deals=1)", 3, ["greedy", "random"], games=2, seed=9, workers=2)
    assert a.records == b.records


def test_tournament_rejects_bad_input() -> None:
    with pytest.raises(ValueError):
        run_tournament("basic", 2, ["greedy", "wizard"], 1)
    with pytest.raises(ValueError):
        run_tournament("basic", 9, ["greedy"], 1)


def test_tournament_command(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from rummykit.cli import main

    assert main(["tournament", "--rules", "basic(deals=1)", "--bots", "greedy,random",
                 "--games", "3", "--json"]) == 0  # fmt: skip
    data = json.loads(capsys.readouterr().out)
    assert data["matches"] == 6 and set(data["bots"]) == {"greedy", "random"}
    assert main(["tournament", "--games", "2", "--bots", "greedy,random",
                 "--rules", "cg101(deals=1)", "--players", "3"]) == 0  # fmt: skip
    assert "Elo" in capsys.readouterr().out
    assert main(["tournament", "--bots", "wizard"]) == 2
    assert main(["tournament", "--players", "9"]) == 2
    assert main(["tournament", "--games", "0"]) == 2
    assert "unknown bot" in capsys.readouterr().err


def test_hints_for_gin_moves() -> None:
    from rummykit.bots.hints import explain
    from rummykit.moves import KNOCK, PASS, Move

    g = new_game("gin", players=2, seed=3)
    v = g.view(g.current)
    assert explain(v, Move(PASS), v.game.solver).startswith("pass")
    assert explain(v, Move(KNOCK), v.game.solver).startswith("knock")
    assert suggest(v, budget=20).move in g.legal_moves()


def test_hint_for_throwing_back_the_taken_upcard() -> None:
    """Gin lets the upcard just taken be discarded at once (OpenSpiel); explaining that
    discard shifted by the card -1 (found by the web review, issue #16)."""
    from rummykit.bots.hints import explain
    from rummykit.moves import DISCARD, DRAW_DISCARD, Move

    g = new_game("gin", players=2, seed=3)
    g.apply(Move(DRAW_DISCARD))
    v = g.view(g.current)
    upcard = v.taken
    assert Move(DISCARD, upcard) in g.legal_moves()
    assert explain(v, Move(DISCARD, upcard), v.game.solver).startswith("discard ")


def _rami_view_with(hand_text: str, opened: bool) -> PlayerView:
    """A rami51 position after the draw where seat ``current`` holds ``hand_text``."""
    from rummykit.cards import mask_of, parse_cards

    g = new_game("rami51", players=4, seed=8)
    p = g.current
    g.apply(g.legal_moves()[0])  # draw from the stock
    mine = mask_of(parse_cards(hand_text))
    spare = g.hands[p]
    for q in range(4):
        g.hands[q] &= ~mine
    g.stock = [c for c in g.stock if not mine >> c & 1]
    g.hands[p] = mine
    g.stock.extend(c for c in range(108) if spare >> c & 1 and not mine >> c & 1)
    g.opened[p] = g.melded[p] = opened
    g._legal = None
    return g.view(p)


def test_expert_keeps_opening_material_before_rami_opening() -> None:
    """003: "The first player to place a meld must have a combination that's worth at
    least 51 points" and "If a player fails to place at least one meld before a round
    ends, 100 points are automatically added".  Before opening, a pair of kings (half
    of a 30-point set) is worth more than shedding ten points; once opened, deadwood
    is what counts and the lone low card is no longer the obvious throw."""
    hand = "KH KS 4C 9D 2H 7S JD 5C AH 3S 8D 6H QC TS"
    bot = ExpertBot()
    for opened, expect_keep_kings in ((False, True), (True, False)):
        v = _rami_view_with(hand, opened)
        discards = [m for m in v.legal if m.kind == DISCARD]
        keys = {m.a: k for k, m in bot.discard_keys(v, v.game.solver, discards)}
        king, four = keys[51], keys[3]  # KS, 4C
        assert (king > four) is expect_keep_kings, (opened, king, four)


def test_ismcts_compares_the_experts_candidates() -> None:
    """The search ranks a short list headed by the expert's own move, all legal."""
    v = _rami_view_with("KH KS 4C 9D 2H 7S JD 5C AH 3S 8D 6H QC TS", opened=False)
    bot = ISMCTSBot(seconds=None, iterations=2, top_k=3)
    cands = bot.candidates(v, random.Random(0))
    assert cands[0] == ExpertBot().choose(v, random.Random(0))
    assert len(set(cands)) == len(cands) and set(cands) <= set(v.legal)
    assert 2 <= len(cands) <= 1 + 3 + 4
    sums = bot.search(v, cands, seed=1)
    # two samples of a margin in units of 100 points (a Rami margin stays under 300)
    assert set(sums) == set(cands) and all(-6.0 <= x <= 6.0 for x in sums.values())


def _gin_play_view() -> PlayerView:
    """A Gin player with a card to discard (the search's richest decision)."""
    g = new_game("gin(deals=1)", players=2, seed=4)
    while g.phase is not Phase.PLAY:
        g.apply(ExpertBot().choose(g.view(g.current), random.Random(0)))
    return g.view(g.current)


def test_a_leaf_value_that_plays_on_changes_nothing() -> None:
    """A leaf evaluation that always answers None leaves every playout as it was."""
    v = _gin_play_view()
    plain = ISMCTSBot(seconds=None, iterations=16)
    asked: list[int] = []

    def play_on(s: GameState, steps: int) -> list[float] | None:
        asked.append(steps)
        return None

    hooked = ISMCTSBot(seconds=None, iterations=16, leaf_value=play_on)
    cands = plain.candidates(v, random.Random(0))
    assert plain.search(v, cands, seed=3) == hooked.search(v, cands, seed=3)
    assert asked and asked.count(0) == 16 * len(cands)  # asked before every playout step


def test_a_leaf_value_decides_the_search() -> None:
    """Where the leaf evaluation answers, the playout stops and its rewards are what
    the search ranks: an evaluation that favours one discard gets that discard."""
    v = _gin_play_view()
    bot = ISMCTSBot(seconds=None, iterations=40)
    cands = bot.candidates(v, random.Random(0))
    wanted = [m for m in cands if m.kind == DISCARD][-1]
    assert wanted != cands[0]

    def favour(s: GameState, steps: int) -> list[float]:
        out = [0.0, 0.0]
        out[v.player] = 1.0 if s.discard[-1] == wanted.a else 0.0
        return out

    hooked = ISMCTSBot(seconds=None, iterations=40, leaf_value=favour)
    assert bot.choose(v, random.Random(0)) != wanted  # the playouts prefer another
    assert hooked.choose(v, random.Random(0)) == wanted


def test_playout_cutoff_charges_unopened_hands_in_full() -> None:
    """003: a player who never melded adds 100; until opening, nothing of the hand can
    be laid, so the cut-off estimate counts the whole hand, not its deadwood."""
    from rummykit.bots.ismcts import estimate
    from rummykit.cards import bits
    from rummykit.scoring import card_value

    g = new_game("rami51", players=4, seed=8)
    est = estimate(g, g.game.solver)
    for p in range(4):
        assert est[p] == 100 + sum(card_value(g.rules, c) for c in bits(g.hands[p]))
    g.opened[0] = g.melded[0] = True
    assert estimate(g, g.game.solver)[0] == g.game.solver.deadwood(g.hands[0])


# -- resumable tournaments (journals) -------------------------------------------------


def test_a_journaled_tournament_resumes_where_it_stopped(tmp_path: Path) -> None:
    """An interrupted tournament, run again with its journal, plays only the missing
    matches and ends with the same result as one run straight through."""
    args = ("basic(deals=1)", 2, ["greedy", "random"], 3, 4)
    whole = run_tournament(*args)
    path = tmp_path / "t.jsonl"
    calls = 0

    def stop_after_two(done: int, total: int) -> None:
        nonlocal calls
        calls += 1
        if calls == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_tournament(*args, journal=path, progress=stop_after_two)
    assert len(path.read_text().splitlines()) == 1 + 2  # header and two matches
    partial = TournamentResult.from_journal(path)
    assert partial.games == 1 and partial.matches == 2  # one whole deal so far
    seen: list[tuple[int, int]] = []
    resumed = run_tournament(*args, journal=path, progress=lambda d, t: seen.append((d, t)))
    assert seen[0] == (2, 6) and len(seen) == 1 + 4  # resumed at 2 of 6, played 4
    assert resumed.records == whole.records and resumed.to_json() == whole.to_json()
    assert TournamentResult.from_journal(path).to_json() == whole.to_json()


def test_a_journal_with_a_torn_last_line_loses_only_that_match(tmp_path: Path) -> None:
    args = ("basic(deals=1)", 2, ["greedy", "random"], 2, 1)
    path = tmp_path / "t.jsonl"
    whole = run_tournament(*args, journal=path)
    text = path.read_text()
    path.write_text(text[: text.rstrip("\n").rfind("\n") + 1] + '{"seed": 12, "lin')
    assert len(Journal(path, json.loads(text.split("\n")[0])).records) == 3
    assert run_tournament(*args, journal=path).records == whole.records
    assert path.read_text().count("\n") == 5 and '"lin\n' not in path.read_text()


def test_a_journal_of_another_tournament_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    run_tournament("basic(deals=1)", 2, ["greedy", "random"], 1, 1, journal=path)
    before = path.read_text()
    with pytest.raises(JournalError, match="seed 1, not 2"):
        run_tournament("basic(deals=1)", 2, ["greedy", "random"], 1, 2, journal=path)
    with pytest.raises(JournalError, match="bots"):
        run_tournament("basic(deals=1)", 2, ["expert", "random"], 1, 1, journal=path)
    assert path.read_text() == before  # nothing lost
    path.write_text(before + "not json\n")
    with pytest.raises(JournalError, match="line 4 is not a match record"):
        run_tournament("basic(deals=1)", 2, ["greedy", "random"], 1, 1, journal=path)
    (tmp_path / "junk").write_text("hello\n")
    with pytest.raises(JournalError, match="not a tournament journal"):
        TournamentResult.from_journal(tmp_path / "junk")


def test_tournament_command_with_a_journal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from rummykit.cli import main

    path = str(tmp_path / "j.jsonl")
    argv = ["tournament", "--rules", "basic(deals=1)", "--bots", "greedy,random",
            "--games", "2", "--json", "--journal", path]  # fmt: skip
    assert main(argv) == 0
    first = json.loads(capsys.readouterr().out)
    assert main(argv) == 0  # everything is in the journal: nothing is played again
    assert json.loads(capsys.readouterr().out) == first
    assert main([*argv[:-3], "--seed", "5", "--journal", path]) == 2
    assert "another tournament" in capsys.readouterr().err


# -- the hard bot's budget ------------------------------------------------------------


def test_settled_is_a_paired_confidence_test() -> None:
    rng = random.Random(0)
    # candidate 1 is better by 0.1 on average, with noise shared by both (paired)
    rows = []
    for _ in range(200):
        luck = rng.uniform(-1, 1)
        rows.append([luck, luck + 0.1 + rng.gauss(0, 0.05)])
    assert settled(rows, 0.01)
    # the same edge without pairing is lost in the noise of the deal at this size
    unpaired = [[rng.uniform(-1, 1), rng.uniform(-1, 1) + 0.1] for _ in range(40)]
    assert not settled(unpaired, 0.01)
    assert not settled(rows[:1], 0.01)


def test_the_hard_bot_stops_early_on_a_clear_move() -> None:
    """The budget is an upper bound: a decision the paired samples settle ends early,
    at a checkpoint, and with ``early_stop=False`` every sample is taken."""
    g = new_game("basic", players=2, seed=6)
    bot = ISMCTSBot(seconds=None, iterations=96)
    counts = []
    while len(counts) < 8:
        v = g.view(g.current)
        if len(bot.candidates(v, random.Random(1))) > 1:
            assert bot.choose(v, random.Random(1)) in v.legal
            counts.append(bot.last_iterations)
        g.apply(bot.expert.choose(v, random.Random(0)))
    assert min(counts) < 96, "some decision settles before the budget"
    assert all(c == 96 or (c >= MIN_ITERATIONS and c % CHECK_EVERY == 0) for c in counts)
    full = ISMCTSBot(seconds=None, iterations=40, early_stop=False)
    full.choose(v, random.Random(1))
    assert full.last_iterations == 40


def test_gin_s_search_stops_at_its_sample_cap_within_a_time_budget() -> None:
    """More samples made Gin's search weaker (docs/bots.md, "The search against medium
    at Gin"), so a time budget takes at most GIN_SAMPLES there; an iteration budget
    is the caller's, and other games search as long as the time allows."""
    v = _gin_play_view()
    timed = ISMCTSBot(seconds=60.0, early_stop=False)
    timed.choose(v, random.Random(1))
    assert timed.last_iterations == GIN_SAMPLES
    assert ISMCTSBot(seconds=None, iterations=GIN_SAMPLES + 8).sample_limit(v.rules) == 108
    assert timed.sample_limit(Rules.parse("basic")) is None


def test_the_hard_bot_can_count_cpu_seconds() -> None:
    bot = make_bot("ismcts:0.05cpu")
    assert isinstance(bot, ISMCTSBot) and bot.clock == "cpu" and bot.seconds == 0.05
    g = new_game("basic", players=2, seed=2)
    assert bot.choose(g.view(g.current), random.Random(0)) in g.legal_moves()
    with pytest.raises(ValueError, match="clock"):
        ISMCTSBot(clock="sundial")
    with pytest.raises(ValueError):
        make_bot("ismcts:fastcpu")


@pytest.mark.parametrize(("preset", "players"), [("rami51", 4), ("rami51", 2), ("basic", 3)])
def test_playout_policy_on_pseudo_legal_moves_is_its_choice_on_legal_moves(
    preset: str, players: int
) -> None:
    """The search's playouts rank pseudo-legal moves and vet only the choice; over
    random states this always picks what greedy picks from the exact legal list, and
    ``is_legal_pseudo`` agrees with ``legal_moves`` on every pseudo-legal move."""
    from rummykit.bots.ismcts import PLAYOUT_LINK_WEIGHT, _StateView, playout_policy
    from rummykit.bots.tactics import greedy_move

    checked = 0
    for seed in range(10):
        g = new_game(f"{preset}(deals=1)", players=players, seed=seed)
        solver = g.game.solver
        rng = random.Random(seed)
        while not g.is_over():
            legal = g.legal_moves()
            pseudo = g.pseudo_legal_moves()
            assert [m for m in pseudo if m in legal] == legal
            assert all(g.is_legal_pseudo(m) == (m in legal) for m in pseudo)
            fast = playout_policy(g, solver, random.Random(checked))
            slow = greedy_move(_StateView(g), solver, random.Random(checked), PLAYOUT_LINK_WEIGHT)
            assert fast == slow
            checked += 1
            # mostly greedy play, so melds and lay-offs happen; some random moves
            g.apply(fast if rng.random() < 0.8 else rng.choice(legal))
    assert checked > 300


def test_apply_unchecked_matches_apply() -> None:
    a = new_game("rami51(deals=1)", players=3, seed=2)
    b = a.clone()
    rng = random.Random(2)
    while not a.is_over():
        m = rng.choice(a.legal_moves())
        a.apply(m)
        b.apply_unchecked(m)
    assert a.history == b.history and a.scores == b.scores and a.hands == b.hands


def test_greedy_throws_the_taken_upcard_back_when_gin_allows_only_that() -> None:
    """Found by benchmarks/legality.py: after a Gin knock the only legal discard can be
    the upcard just taken (OpenSpiel's gin_rummy lets it go straight back), and the
    greedy discard used to skip the taken card and fail."""
    from types import SimpleNamespace

    from rummykit.bots.tactics import discard_choice
    from rummykit.cards import mask_of, parse_cards
    from rummykit.rules import Rules
    from rummykit.solver import solver_for

    rules = Rules.preset("gin")
    hand = mask_of(parse_cards("AC 8C 9C TC 8D QD QH AS 2S 4S QS"))
    eight_d = parse_cards("8D")[0]
    view = SimpleNamespace(hand=hand, legal=(Move(DISCARD, eight_d),), taken=eight_d, rules=rules)
    assert discard_choice(view, solver_for(rules)) == Move(DISCARD, eight_d)  # type: ignore[arg-type]
    for seed in (5, 84):  # whole hands where the search's playouts met that state
        play_match("gin", 2, [make_bot("ismcts:2i"), make_bot("ismcts:2i")], seed)


def test_links_count_meld_prospects_with_the_ace_where_the_rules_put_it() -> None:
    """A card's links are the hand's cards that could share a set or run with it; the
    ace touches the king and queen only where it may be high (seed 003's Q-K-A)."""
    from rummykit.bots.tactics import links
    from rummykit.cards import mask_of, parse_card, parse_cards

    hand = mask_of(parse_cards("AS KS QS 2S 9D"))
    ace = parse_card("AS")
    assert links(Rules.preset("basic"), hand, ace) == 1  # 2S only: A-2-3
    assert links(Rules.preset("rami51"), hand, ace) == 3  # also Q-K-A
    assert links(Rules.preset("rami51"), hand, parse_card("9D")) == 0
    # both copies of a card count; a joker links nothing (the playouts keep it anyway)
    two = mask_of([parse_card("5H"), parse_card("5H") + FACES_PER_DECK, parse_card("6H")])
    assert links(Rules.preset("rami51"), two, parse_card("6H")) == 2


def test_hint_reasons_name_the_card_and_why() -> None:
    """Issue 3: "a one-line reason that a person can read, such as 'discard 9♣: it
    completes nothing and the opponent passed on 9s'", for every kind of move."""
    from helpers import build
    from rummykit.bots.hints import explain
    from rummykit.moves import LAYOFF, PASS, SWAP, TAKE
    from rummykit.state import Phase

    def why(g: Any, move: Move) -> str:
        assert move in g.legal_moves()
        v = g.view(g.current)
        return explain(v, move, v.game.solver)

    g = build("basic", hands=["7H 8H 2C KS QD", "3C 4C 5C 8D"], discard="9S 9H", phase=Phase.DRAW)
    assert why(g, Move(DRAW_DISCARD)) == "take 9♥: it completes a meld (7♥ 8♥ 9♥)"
    # 9♥ would help here, so the stock draw is not said to pass over a useless card
    assert why(g, Move(DRAW_STOCK)) == (
        "draw from the stock: 1 of the 45 unseen cards would meld with your hand"
    )
    g = build("basic", hands=["9D 2C KS QS 5H", "3C 4C 5C 8D"], discard="TD", phase=Phase.DRAW)
    # issue #20: a draw names the connected card and its outs (8♦ or J♦), never "connects"
    assert why(g, Move(DRAW_DISCARD)) == (
        "take 10♦: it makes a run draw with 9♦ (2 cards can complete it)"
    )
    g = build("basic", hands=["3C 4C 5C KS 2D", "3H 4H 5H 8D"], discard="9S 4D")
    (meld,) = [m for m in g.legal_moves() if m.kind == MELD]
    assert why(g, meld) == "meld 3♣ 4♣ 5♣: 12 points off your hand, 12 left in deadwood"
    assert why(g, Move(DISCARD, parse_cards("KS")[0])) == (
        "discard K♠: it completes nothing and it fits no meld on the table"
    )
    g = build("basic", hands=["2C 5D 9H KS", "3H 4H 5H 8D"], discard="9S 4D")
    assert why(g, Move(DISCARD, parse_cards("9H")[0])) == (
        "discard 9♥: it completes nothing and nobody took the 9s thrown before"
    )
    g = build("basic", hands=["8H KS QD", "3C 4C 5C 8D"], table=[(1, "5H 6H 7H")])
    (lay,) = [m for m in g.legal_moves() if m.kind == LAYOFF]
    assert why(g, lay) == "lay off 8♥ on meld 1: lowers your deadwood from 28 to 20"
    g = build("rami51", hands=["6H 9C 9D KS", "3C 4C 5C 8D"], table=[(1, "5H JK=6H 7H 8H")],
              opened=[True, True])  # fmt: skip
    swaps = [m for m in g.legal_moves() if m.kind == SWAP]
    takes = [m for m in g.legal_moves() if m.kind == TAKE]
    assert swaps and why(g, swaps[0]) == "swap 6♥ for the joker in meld 1: a joker fits anywhere"
    assert not takes or why(g, takes[0]).startswith("take from meld 1")
    g = build("gin", hands=["2C 3C 4C 7D 7H 7S 9H 9S KD QC JH", "5C 6C 7C 8D 8H 8S TH TS JD 4H"],
              discard="AS")  # fmt: skip
    # Gin lays no melds in play, so the table is not a reason
    assert why(g, Move(DISCARD, parse_cards("KD")[0])) == "discard K♦: it completes nothing"
    g = new_game("gin", players=2, seed=3)
    assert g.phase is Phase.FIRST_UPCARD
    # A♦ would lower this hand's deadwood, so the pass is not said to skip a useless card
    assert display_face(face_of(g.discard[-1])) == "A♦"
    assert why(g, Move(PASS)) == "pass: 8 of the 41 unseen cards would meld with your hand"


# -- issue #16: the search's samples, reward and Gin playouts ------------------------------


def test_the_search_deals_its_samples_by_the_opponent_model(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every sample of the search is dealt with the weights of the opponent model,
    computed from the view; ``inference=False`` deals them uniformly."""
    from rummykit.bots import ismcts
    from rummykit.bots.inference import card_weights

    g = new_game("gin", seed=4)
    while g.turn < 6:
        g.apply(GreedyBot().choose(g.view(g.current), random.Random(0)))
    v = g.view(g.current)
    want = card_weights(v)
    assert any(want[p] for p in range(2) if p != v.player)
    from rummykit.view import determinize as real

    seen: list[object] = []

    def spy(view: PlayerView, rng: random.Random, weights: object = None) -> GameState:
        seen.append(weights)
        return real(view, rng, weights)  # type: ignore[arg-type]

    monkeypatch.setattr(ismcts, "determinize", spy)
    cands = ISMCTSBot().candidates(v, random.Random(0))
    ISMCTSBot(seconds=None, iterations=5).search(v, cands, 1)
    assert seen == [want] * 5
    seen.clear()
    ISMCTSBot(seconds=None, iterations=3, inference=False).search(v, cands, 1)
    assert seen == [None] * 3


def test_the_reward_counts_the_points_the_rules_count() -> None:
    """Issue #16: the reward is the margin in points (/100), so Rami's 100 points for
    never melding weigh what they cost; tanh(margin / 40) made a 160-point loss
    hardly worse than a 60-point one."""
    from rummykit.bots.ismcts import REWARD_SCALE, rewards

    rami = new_game("rami51", players=2, seed=1)
    ordinary, never_melded = rewards(rami, [0, 60]), rewards(rami, [0, 160])
    assert never_melded[0] - ordinary[0] == pytest.approx(100 / REWARD_SCALE)
    assert never_melded[1] == -never_melded[0]
    gin = new_game("gin", seed=1)
    knock, gin_bonus = rewards(gin, [20, 0]), rewards(gin, [45, 0])  # + 25 for gin
    assert gin_bonus[0] - knock[0] == pytest.approx(25 / REWARD_SCALE)
    four = rewards(new_game("basic", players=4, seed=1), [90, 0, 0, 0])
    assert four == pytest.approx([0.9, -0.3, -0.3, -0.3])


def test_a_gin_playout_knocker_throws_the_card_that_leaves_least_deadwood() -> None:
    """Once the knock is on nothing is drawn: the playout's knocker throws for the
    least deadwood, not to keep a pair as its usual discard does (which threw the ace
    here, keeping 3D with its partners 3H and AD, and knocked with 3 instead of 1)."""
    from rummykit.bots.ismcts import PLAYOUT_LINK_WEIGHT, _StateView, playout_policy
    from rummykit.bots.tactics import greedy_move
    from rummykit.position import position_from_text
    from rummykit.state import Phase

    g = position_from_text(
        "gin 2H3H4H7S7D7C9C9D9SAD3D/AS2S3S4S5S6S8S5HTSJS - 8H 30 1p -/- 0,0 dealer=2"
    )
    g.apply(Move(KNOCK))
    assert g.phase is Phase.KNOCK
    solver = g.game.solver
    ace, three = parse_cards("AD 3D")
    state_view: Any = _StateView(g)
    linked = greedy_move(state_view, solver, random.Random(0), PLAYOUT_LINK_WEIGHT)
    assert linked == Move(DISCARD, ace)
    assert playout_policy(g, solver, random.Random(0)) == Move(DISCARD, three)
