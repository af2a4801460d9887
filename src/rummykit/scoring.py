"""Scoring a round and deciding a match.

Two schemes cover the seeds:

* **winner collects** (seed 001, seed 002): the player who goes out scores the total
  of the cards left in the other hands; the highest total wins the match;
* **penalty** (seed 000, seed 003): every other player adds their own hand to their
  score, plus seed 003's +100 for never melding, and the lowest total wins.

A round that ends with nobody out (the restock limit of seed 001's house rule, or the
turn guard) is *blocked*.  Under penalty scoring every player adds their hand.  Under
winner-collects scoring the seed says "the players add up their points": the player
with the lowest hand, if unique, scores the difference to each other hand, as in a
Gin knock; on a tie nobody scores.

>>> from rummykit.rules import Rules
>>> from rummykit.cards import parse_cards
>>> hand_value(Rules.preset("rami51"), parse_cards("AS KD JK 7C"))
48
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .cards import JOKER, bits, face_of
from .results import RoundEnd
from .rules import Family, Rules, RummyBonus, Scoring


def card_value(rules: Rules, card: int) -> int:
    """A card's value left in hand: ace ``rules.ace_points``, faces 10, joker
    ``rules.joker_points``, others their number."""
    face = face_of(card)
    if face == JOKER:
        return rules.joker_points
    rank = face % 13
    if rank == 0:
        return rules.ace_points
    return 10 if rank >= 9 else rank + 1


def hand_value(rules: Rules, cards: Iterable[int]) -> int:
    return sum(card_value(rules, c) for c in cards)


@dataclass(frozen=True)
class PlayerScore:
    """One player's part of a round's scoring, itemised for display."""

    cards: tuple[int, ...]
    """Cards left in hand."""
    hand_points: int
    """Their value."""
    delta: int
    """What the round adds to this player's match score."""
    notes: tuple[str, ...] = ()
    """Bonuses and penalties, in words."""
    bonus: int = 0
    """The part of ``delta`` that is the match's end, not the round's play (Gin's game,
    line and shutout bonuses, in the last round's result): a front end shows it as a
    row of its own.  The rounds' deltas, bonuses included, add up to the scores."""


@dataclass(frozen=True)
class RoundResult:
    round_no: int
    dealer: int
    winner: int | None
    """The player who went out, or the low hand of a blocked round, or None."""
    went_out: bool
    """True when someone went out; False for a blocked round."""
    reason: RoundEnd
    """How the round ended."""
    rummy: bool
    """The winner went out in one turn having laid down nothing before."""
    players: tuple[PlayerScore, ...] = field(default=())
    wild: int = -1
    """Declaration games: the deal's wild cut (what its hands counted with), else -1."""

    @property
    def deltas(self) -> tuple[int, ...]:
        return tuple(p.delta for p in self.players)


def score_round(
    rules: Rules,
    round_no: int,
    dealer: int,
    hands: list[list[int]],
    winner: int | None,
    reason: RoundEnd,
    rummy: bool,
    melded: list[bool],
) -> RoundResult:
    """Score a finished round.  ``winner`` is the player who went out, or None if blocked.

    ``rummy`` says the winner went out in one turn without having laid down any card
    before; ``melded`` says which players laid down at least one meld this round.
    """
    n = len(hands)
    values = [hand_value(rules, h) for h in hands]
    notes: list[list[str]] = [[] for _ in range(n)]
    deltas = [0] * n
    went_out = winner is not None
    if rules.family is Family.GIN:
        pass  # a Gin hand that ends without a knock is void: nobody scores
    elif rules.scoring is Scoring.WINNER_COLLECTS:
        if winner is None:
            low = min(values)
            if values.count(low) == 1:
                winner = values.index(low)
                deltas[winner] = sum(v - low for v in values)
                notes[winner].append("lowest hand of a blocked round")
        else:
            total = sum(values)
            if rummy and rules.rummy_bonus is RummyBonus.DOUBLE:
                total *= 2
                notes[winner].append("rummy: score doubled")
            elif rummy and rules.rummy_bonus is RummyBonus.PLUS_TEN:
                total += 10
                notes[winner].append("rummy: +10")
            deltas[winner] = total
    else:
        for p in range(n):
            if p == winner:
                continue
            d = values[p]
            if rummy and rules.rummy_bonus is RummyBonus.DOUBLE:
                d *= 2
                notes[p].append("opponent went rummy: doubled")
            elif rummy and rules.rummy_bonus is RummyBonus.PLUS_TEN:
                d += 10
                notes[p].append("opponent went rummy: +10")
            if rules.never_melded_penalty and not melded[p]:
                d += rules.never_melded_penalty
                notes[p].append(f"never melded: +{rules.never_melded_penalty}")
            deltas[p] = d
        if (
            winner is not None
            and rules.one_turn_out_bonus
            and rummy
            and not any(melded[p] for p in range(n) if p != winner)
        ):
            deltas[winner] += rules.one_turn_out_bonus
            notes[winner].append(
                f"out in one turn before anyone melded: {rules.one_turn_out_bonus:+d}"
            )
    players = tuple(
        PlayerScore(tuple(hands[p]), values[p], deltas[p], tuple(notes[p])) for p in range(n)
    )
    return RoundResult(round_no, dealer, winner, went_out, reason, rummy and went_out, players)


def match_winners(rules: Rules, scores: list[int]) -> tuple[int, ...]:
    """The seats with the best total: highest when the winner collects, else lowest."""
    best = max(scores) if rules.scoring is Scoring.WINNER_COLLECTS else min(scores)
    return tuple(p for p, s in enumerate(scores) if s == best)


def margins(rules: Rules, points: Sequence[int]) -> list[float]:
    """Per seat, its points minus the mean of the others', signed so that more is better
    under either scoring (a penalty round charges a player their own hand).

    The one definition of "how well a seat did" that the search bot's playouts, the
    learning environments and the OpenSpiel games all score by: it sums to zero over
    the table, so nobody gains when everyone scores, and for two players it is the
    difference of the two scores.

    >>> from rummykit.rules import Rules
    >>> margins(Rules.parse("gin"), [25, 0])
    [25.0, -25.0]
    >>> margins(Rules.parse("rami51"), [0, 40, 140, 60])   # penalty: the 0 is best
    [80.0, 26.66..., -106.66..., -0.0]
    """
    n = len(points)
    sign = 1.0 if rules.scoring is Scoring.WINNER_COLLECTS else -1.0
    total = sum(points)
    return [sign * (p - (total - p) / (n - 1)) for p in points]


def standings(rules: Rules, scores: list[int]) -> tuple[int, ...]:
    """Seats from first place to last."""
    sign = -1 if rules.scoring is Scoring.WINNER_COLLECTS else 1
    return tuple(sorted(range(len(scores)), key=lambda p: (sign * scores[p], p)))


def score_knock(
    rules: Rules, round_no: int, dealer: int, hands: list[int], knocker: int
) -> RoundResult:
    """Score a knocked Gin hand (OpenSpiel ``Returns``; GRA rules).

    The knocker scores the defender's deadwood minus their own, plus the gin bonus at
    zero; if that is negative the defender scores its size plus the undercut bonus.
    """
    defender = 1 - knocker
    cards = [list(bits(h)) for h in hands]
    values = [hand_value(rules, c) for c in cards]
    margin = values[defender] - values[knocker]
    notes: list[list[str]] = [[], []]
    gin = values[knocker] == 0
    if gin:
        margin += rules.gin_bonus
        notes[knocker].append(f"gin: +{rules.gin_bonus}")
    if margin < 0:
        margin -= rules.undercut_bonus
        notes[defender].append(f"undercut: +{rules.undercut_bonus}")
    deltas = [0, 0]
    winner: int | None = None
    if margin > 0:
        deltas[knocker] = margin
        winner = knocker
    elif margin < 0:
        deltas[defender] = -margin
        winner = defender
    players = tuple(
        PlayerScore(tuple(cards[p]), values[p], deltas[p], tuple(notes[p])) for p in range(2)
    )
    reason = RoundEnd.GIN if gin else RoundEnd.KNOCK
    return RoundResult(round_no, dealer, winner, winner is not None, reason, False, players)


def describe_round(result: RoundResult, names: Sequence[str]) -> str:
    """One line, for people, on how a round ended (the games and the web client show it).

    >>> r = RoundResult(1, 0, 1, True, RoundEnd.OUT, True)
    >>> describe_round(r, ["Ann", "Bob"])
    'Bob went out (rummy!)'
    """
    w = result.winner
    match result.reason:
        case RoundEnd.GIN if w is not None:
            return f"{names[w]} went gin"
        case RoundEnd.KNOCK:
            if w is None:
                return "a knock with equal deadwood: no score"
            if any(n.startswith("undercut") for n in result.players[w].notes):
                return f"{names[w]} undercut the knocker"
            return f"{names[w]} knocked and won the hand"
        case RoundEnd.DECLARE if w is not None:
            return f"{names[w]} declared"
        case RoundEnd.DROP if w is not None:
            return f"the others dropped: {names[w]} wins the deal"
        case RoundEnd.WRONG_SHOW if w is not None:
            return f"a wrong show: {names[w]} wins the deal"
        case RoundEnd.WALL:
            return "two cards left in the stock: the hand is void"
    if result.went_out and w is not None:
        extra = " (rummy!)" if result.rummy else ""
        return f"{names[w]} went out{extra}"
    why = BLOCKED_TEXT.get(result.reason, result.reason.replace("_", " "))
    return f"the round was blocked: {why}"


BLOCKED_TEXT: dict[RoundEnd, str] = {
    RoundEnd.RESTOCK_LIMIT: "the stock ran out too often",
    RoundEnd.TURN_LIMIT: "the turn limit was reached",
    RoundEnd.NO_DRAW: "nobody could draw",
}
"""A blocked round's cause in words (the others read as their name)."""
