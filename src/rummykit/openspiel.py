"""Every preset as an OpenSpiel game: ``rummykit.openspiel.register()``.

OpenSpiel (the ``open_spiel`` package, imported as ``pyspiel``) is a peer, not a
dependency: this module imports it only when :func:`register` is called, so the rest of
rummykit never needs it.  After ``register()``, each preset of
:data:`rummykit.rules.PRESETS` is a game named ``rummykit_<preset>``::

    import pyspiel
    from rummykit.openspiel import register
    register()
    game = pyspiel.load_game("rummykit_rami51", {"players": 3, "rules": "opening_minimum=40"})

Parameters: ``players`` (default 2, or the rules' fewest when that is more),
``rules`` (house-rule options applied to the preset, as inside the parentheses of a
spec string; default none) and ``seed`` (the deals; -1, the default, seeds from the
operating system).  OpenSpiel's game-string syntax cannot carry the ``=`` inside
``rules``: pass the parameters as a dict.

**One episode is one round** (one deal).  The engine plays the rules with
``max_deals=1``, so the match ends when the round does, and without the match-end
bonuses (Gin's game, line and shutout bonuses), as the environments of
:mod:`rummykit.env` play a round episode.
Playing whole matches as one episode is not offered: a match has no useful bound on
its length or its scores.

**Utility.**  Let a player's round score be what the round adds to their match score,
negated under penalty scoring (where less is better).  A player's utility is their
round score minus the mean of the others': for two players, the margin, as OpenSpiel's
own ``gin_rummy`` returns it.  The utilities always sum to zero, so every game is
registered ``ZERO_SUM``; ``min_utility`` and ``max_utility`` are bounds derived from
the rules (the whole deck's card values, doubled when going rummy doubles, plus every
bonus and penalty), not the worst and best case actually reachable.

**Chance is sampled** (``SAMPLED_STOCHASTIC``).  The engine shuffles the whole pack
with the random generator each state owns and turns over or shuffles the discard pile
when the stock runs out; it never exposes a deal as a sequence of card choices.
Explicit chance nodes would mean one node per card dealt (21 to 66 per deal, each with
up to 108 outcomes) plus one per card of every reshuffle, and a second dealing path in
the core.  Instead a new state takes a fresh seed from the game's own generator (the
``seed`` parameter makes the sequence of deals reproducible), ``clone()`` copies the
generator so a clone's future is the original's, and ``resample_from_infostate`` deals
the cards a player cannot see anew with :func:`rummykit.view.determinize`, which is
what information-set search (e.g. OpenSpiel's ISMCTS) needs.

**Observations.**  Only ``state.view(player)`` feeds a player's tensors and strings.
The observation tensor is :mod:`rummykit.env.observation`'s encoding of that view,
the same tensor the Gymnasium and PettingZoo environments give; the observer's
``dict`` names its sections.  The information-state tensor is the same tensor.  It is
a summary (the hand, the top discard and the pile's contents, the table, the cards
known to be in each hand, counts and flags), not a perfect-recall history: the order
of the pile and who passed on which upcard are not in it.  It is what deep RL
algorithms take as input, and a fixed-size encoding of a whole round's moves would be
far longer than the summary (a round may run to thousands of actions).  The
information-state *string* has exact perfect recall: the player's dealt hand, every
move of the round in order with the card the player drew whenever they drew from the
stock, then the observation; OpenSpiel's ISMCTS keys its tree on it.
"""

from __future__ import annotations

import importlib
import random
from dataclasses import dataclass
from typing import Any

from .cards import face_of, format_cards, format_face
from .errors import NotationError, RulesError
from .moves import DRAW_STOCK
from .notation import move_to_text
from .position import position_to_text
from .rules import PRESETS, Family, Rules, RummyBonus, Scoring
from .scoring import card_value, margins
from .serialize import state_from_json, state_to_json
from .state import Game, GameState, Phase, new_game
from .variants.rummikub import tile_value
from .view import PlayerView, determinize

PREFIX = "rummykit_"
"""Game names are this followed by the preset's name."""

DEFAULT_PLAYERS = 2


def default_players(rules: Rules) -> int:
    """Two players, or the fewest the rules allow when that is more (``rum500_big``)."""
    return max(DEFAULT_PLAYERS, rules.min_players)


@dataclass(frozen=True)
class Setup:
    """What every state of one registered game shares (never copied with a state)."""

    preset: str
    rules: Rules
    """The rules played (:func:`episode_rules`): one episode is one round."""
    players: int

    def __deepcopy__(self, memo: dict[int, Any]) -> Setup:
        return self


def episode_rules(preset: str, options: str = "") -> Rules:
    """The rules of one episode of ``rummykit_<preset>``: the preset with ``options``
    (``"opening_minimum=40, multiple_melds=true"``), ended after one deal and without
    the match-end bonuses, exactly as the Gymnasium and PettingZoo environments play a
    round episode (so the tensors agree with theirs).

    >>> episode_rules("rami51", "opening_minimum=40").spec()
    'rami51(opening_minimum=40, max_deals=1)'
    """
    text = options.strip()
    rules = Rules.parse(f"{preset}({text})" if text else preset)
    return rules.one_round()


def utility_bounds(rules: Rules, players: int) -> tuple[float, float]:
    """Bounds on every player's utility (see the module's docstring).

    >>> utility_bounds(Rules.preset("gin"), 2), utility_bounds(Rules.preset("classic"), 3)
    ((-365.0, 365.0), (-340.0, 340.0))
    >>> utility_bounds(Rules.preset("rami51"), 4), utility_bounds(Rules.preset("cg101"), 2)
    ((-1140.0, 1140.0), (-680.0, 680.0))
    >>> utility_bounds(Rules.preset("rummikub"), 4)
    (-1576.0, 1576.0)
    """
    from .cards import deck

    deck_value = sum(card_value(rules, c) for c in deck(rules.decks, rules.jokers))
    if rules.family is Family.RUMMIKUB:
        # A rack counts its tiles' numbers (a joker ``joker_points``): a loser loses at
        # most every tile, the winner collects at most every tile.
        tiles = sum(
            tile_value(face_of(c), rules.joker_points) for c in deck(rules.decks, rules.jokers)
        )
        low, high = -tiles, tiles
    elif rules.family is Family.GIN:
        low, high = 0, deck_value + max(rules.gin_bonus, rules.undercut_bonus)
    else:
        factor = 2 if rules.rummy_bonus is RummyBonus.DOUBLE else 1
        plus = 10 if rules.rummy_bonus is RummyBonus.PLUS_TEN else 0
        collected = factor * deck_value + plus
        if rules.scoring is Scoring.WINNER_COLLECTS:
            low, high = 0, collected
        else:
            bonus = rules.one_turn_out_bonus
            worst = collected + rules.never_melded_penalty + max(0, bonus)
            low, high = -worst, max(0, -bonus)
    del players  # the bound on the others' mean does not depend on how many there are
    return float(low - high), float(high - low)


def max_game_length(rules: Rules, players: int) -> int:
    """A bound on the player actions of one round.

    A turn is a draw, at most three moves per card the hand can hold (melds and
    lay-offs shed cards; a swap or take is followed by a meld), and a discard; rounds
    end by ``max_turns`` at the latest, and Gin's by the wall or the upcard limit.
    """
    hand = rules.cards_per_player(players) + 2
    per_turn = 2 + 3 * hand + 8
    turns = rules.max_turns + players
    if rules.family is Family.GIN and rules.wall and rules.max_upcard_draws is not None:
        stock = rules.deck_size - players * rules.cards_per_player(players) - 1
        turns = min(turns, stock + rules.max_upcard_draws + players)
    # The first-upcard passes and Gin's knock, lay-off and wall phases.
    endgame = 4 * hand + 4 * players + 10
    return turns * per_turn + endgame


def utilities(state: GameState) -> list[float]:
    """Each player's utility for the round ``state`` has finished."""
    n = state.num_players
    if not state.results:
        return [0.0] * n
    return margins(state.rules, state.results[0].deltas)


class Episode:
    """The engine state of one OpenSpiel state, with the record perfect recall needs.

    It is the only attribute of a state, so OpenSpiel's ``clone()`` (a deep copy of
    the state's attributes) costs one :meth:`GameState.clone`, not a copy of the
    shared rules and meld tables.  A state is built before it is dealt: OpenSpiel
    makes a new initial state for every clone and then overwrites it.

    >>> import copy, pickle
    >>> e = Episode(Setup("gin", episode_rules("gin"), 2), seed=3)
    >>> while not e.engine.is_over():
    ...     e.apply(min(e.engine.legal_actions()))   # draw from the stock, throw the ace...
    >>> copy.deepcopy(e).engine.history == pickle.loads(pickle.dumps(e)).engine.history
    True
    >>> utilities(e.engine), e.engine.results[0].reason     # a void hand scores nothing
    ([0.0, 0.0], <RoundEnd.WALL: 'wall'>)
    >>> lo, hi = utility_bounds(e.setup.rules, 2)
    >>> len(e.log) <= max_game_length(e.setup.rules, 2), lo < 0 < hi
    (True, True)
    >>> info = information_text(e, 0)
    >>> "0:0+" in info and "1:0+" not in info   # only player 0's own draws are named
    True
    """

    __slots__ = ("_engine", "dealt", "log", "seed", "setup")

    def __init__(self, setup: Setup, seed: int, engine: GameState | None = None) -> None:
        self.setup = setup
        self.seed = seed
        self._engine = engine
        self.log: list[tuple[int, int, int]] = []
        """(player, action, face drawn from the stock or -1) per move of the round."""
        self.dealt: tuple[int, ...] = ()
        """Each player's hand as dealt."""

    @property
    def engine(self) -> GameState:
        s = self._engine
        if s is None:
            s = self._engine = new_game(self.setup.rules, self.setup.players, self.seed)
            self.dealt = tuple(s.hands)
        return s

    def apply(self, action: int) -> None:
        s = self.engine
        p = s.current
        before = s.hands[p]
        listed = s.game.agent_actions
        if listed is None:
            s.apply_action(action)
        else:  # Rummikub: the numbered listed moves (the draw is 0 there too)
            s.apply(listed.move(s, action))
        drawn = -1
        if action == DRAW_STOCK:
            new = s.hands[p] & ~before
            if new.bit_count() == 1:
                drawn = face_of(new.bit_length() - 1)
        self.log.append((p, action, drawn))

    def __deepcopy__(self, memo: dict[int, Any]) -> Episode:
        e = Episode(self.setup, self.seed, None if self._engine is None else self._engine.clone())
        e.log = list(self.log)
        e.dealt = self.dealt
        return e

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (OpenSpiel's ``serialize``) through :mod:`rummykit.serialize`."""
        saved = None if self._engine is None else state_to_json(self._engine)
        setup = (self.setup.preset, self.setup.rules.spec(), self.setup.players)
        return (_restore, (setup, self.seed, saved, self.log, self.dealt))


def _restore(
    setup: tuple[str, str, int],
    seed: int,
    saved: str | None,
    log: list[tuple[int, int, int]],
    dealt: tuple[int, ...],
) -> Episode:
    preset, spec, players = setup
    engine = None if saved is None else state_from_json(saved)
    e = Episode(Setup(preset, Rules.parse(spec), players), seed, engine)
    e.log = list(log)
    e.dealt = tuple(dealt)
    return e


def observation_text(view: PlayerView) -> str:
    """What ``view`` shows, as one line: the round, whose turn, the hand, the pile."""
    n = len(view.hand_sizes)
    turn = "over" if view.phase is Phase.OVER else f"p{view.current} {view.phase.name.lower()}"
    top = format_face(face_of(view.discard[-1])) if view.discard else "-"
    table = ";".join(view.game.melds.describe(tm.shape).replace(" ", "") for tm in view.table)
    known = ",".join(
        format_cards(sorted(_bits(view.known[q]))) or "-" for q in range(n) if q != view.player
    )
    return (
        f"p{view.player} turn {view.turn} {turn} | hand {format_cards(sorted(_bits(view.hand)))}"
        f" | sizes {','.join(map(str, view.hand_sizes))} | stock {view.stock_size}"
        f" | pile {len(view.discard)} top {top} | table {table or '-'} | known {known}"
    )


def information_text(episode: Episode, player: int) -> str:
    """``player``'s perfect-recall information state (see the module's docstring)."""
    s = episode.engine
    moves = " ".join(
        f"{p}:{a}" + (f"+{format_face(d)}" if p == player and d >= 0 else "")
        for p, a, d in episode.log
    )
    dealt = format_cards(sorted(_bits(episode.dealt[player])))
    return f"dealt {dealt} | moves {moves or '-'} | {observation_text(s.view(player))}"


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _encoder() -> Any:  # pragma: no cover - as register()
    return importlib.import_module("rummykit.env.observation")


_REGISTERED: dict[str, Any] = {}


def register() -> list[str]:  # pragma: no cover - needs OpenSpiel: make peers tests it
    """Register every preset with OpenSpiel (once; later calls do nothing) and return
    the game names.  Needs ``pyspiel`` and ``numpy``."""
    if not _REGISTERED:
        pyspiel = importlib.import_module("pyspiel")
        classes = _classes(pyspiel, importlib.import_module("numpy"))
        known = set(pyspiel.registered_names())
        for preset, rules in PRESETS.items():
            name = PREFIX + preset
            game_type = _game_type(pyspiel, name, rules)
            cls = classes(preset, game_type)
            if name not in known:
                pyspiel.register_game(game_type, cls)
            _REGISTERED[name] = cls
    return list(_REGISTERED)


def _game_type(pyspiel: Any, name: str, rules: Rules) -> Any:  # pragma: no cover
    gt = pyspiel.GameType
    return gt(
        short_name=name,
        long_name=f"rummykit {name.removeprefix(PREFIX)}",
        dynamics=gt.Dynamics.SEQUENTIAL,
        chance_mode=gt.ChanceMode.SAMPLED_STOCHASTIC,
        information=gt.Information.IMPERFECT_INFORMATION,
        utility=gt.Utility.ZERO_SUM,
        reward_model=gt.RewardModel.TERMINAL,
        max_num_players=rules.max_players,
        min_num_players=rules.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": default_players(rules), "rules": "", "seed": -1},
    )


def _classes(pyspiel: Any, np: Any) -> Any:  # pragma: no cover - as register()
    """The game, state and observer classes, built on the imported ``pyspiel``."""

    class RummyState(pyspiel.State):  # type: ignore[misc]
        """One round in progress (see the module's docstring)."""

        def __init__(self, game: Any, episode: Episode) -> None:
            super().__init__(game)
            self.episode = episode

        @property
        def engine(self) -> GameState:
            """The full engine state (every hand: for tests and debugging only)."""
            return self.episode.engine

        def view(self, player: int) -> PlayerView:
            return self.episode.engine.view(player)

        def current_player(self) -> int:
            s = self.episode.engine
            return int(pyspiel.PlayerId.TERMINAL) if s.is_over() else s.current

        def _legal_actions(self, player: int) -> list[int]:
            s = self.episode.engine
            if s.is_over() or player != s.current:
                return []
            listed = s.game.agent_actions
            return sorted(s.legal_actions() if listed is None else listed.legal(s))

        def _apply_action(self, action: int) -> None:
            self.episode.apply(int(action))

        def _action_to_string(self, player: int, action: int) -> str:
            s = self.episode.engine
            listed = s.game.agent_actions
            try:
                if listed is None:
                    text = move_to_text(s, s.game.actions.decode(int(action)))
                else:  # a number's meaning, the same in every position
                    text = listed.describe(int(action))
            except (NotationError, ValueError):
                text = f"action {action}"
            return f"p{player} {text}"

        def is_terminal(self) -> bool:
            return self.episode.engine.is_over()

        def returns(self) -> list[float]:
            s = self.episode.engine
            return utilities(s) if s.is_over() else [0.0] * s.num_players

        def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
            """A state ``player_id`` cannot tell from this one: the cards they cannot
            see dealt anew (their hand, the table, the pile and known cards kept).
            Its OpenSpiel ``history()`` is empty: the new deal has no such history."""
            rng = random.Random(int(probability_sampler() * 2**53))
            e = self.episode
            sample = determinize(e.engine.view(player_id), rng)
            out = Episode(e.setup, e.seed, sample)
            out.log = list(e.log)
            out.dealt = e.dealt
            clone = self.get_game().new_initial_state()
            clone.episode = out
            return clone

        def __str__(self) -> str:
            return position_to_text(self.episode.engine)

    class RummyObserver:
        """OpenSpiel's Python observer protocol: ``tensor``, ``dict``, ``set_from``
        and ``string_from``, from the player's view only."""

        def __init__(self, setup: Setup, perfect_recall: bool) -> None:
            enc = _encoder()
            lay = enc.layout(setup.rules, setup.players)
            self.tensor = np.zeros(lay.size, np.float32)
            self.dict = {s.name: self.tensor[s.slice] for s in lay}
            """The tensor's sections by name (views into it), as the encoder lays it out."""
            self.perfect_recall = perfect_recall
            self._encode = enc.encode

        def set_from(self, state: Any, player: int) -> None:
            self._encode(state.episode.engine.view(player), out=self.tensor)

        def string_from(self, state: Any, player: int) -> str:
            if self.perfect_recall:
                return information_text(state.episode, player)
            return observation_text(state.episode.engine.view(player))

    def make(preset: str, game_type: Any) -> Any:
        class RummyGame(pyspiel.Game):  # type: ignore[misc]
            def __init__(self, given: dict[str, Any], setup: Setup) -> None:
                rules, players = setup.rules, setup.players
                low, high = utility_bounds(rules, players)
                game = Game.shared(rules, players)
                listed = game.agent_actions
                info = pyspiel.GameInfo(
                    num_distinct_actions=game.actions.size if listed is None else listed.size,
                    max_chance_outcomes=0,
                    num_players=players,
                    min_utility=low,
                    max_utility=high,
                    utility_sum=0.0,
                    max_game_length=max_game_length(rules, players),
                )
                super().__init__(game_type, info, given)
                self.setup = setup
                seed = int(given["seed"])
                self._seeds = random.Random(seed if seed >= 0 else None)

            def new_initial_state(self) -> Any:
                """A new round, dealt from the next seed of the game's generator."""
                return RummyState(self, Episode(self.setup, self._seeds.getrandbits(63)))

            def state_from_engine(self, engine: GameState) -> Any:
                """An OpenSpiel state around a rummykit state of this game's rules
                (a test's hand-made position); its ``history()`` is empty."""
                e = Episode(self.setup, -1, engine)
                e.dealt = tuple(engine.hands)
                st = RummyState(self, e)
                return st

            def make_py_observer(
                self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
            ) -> RummyObserver:
                if params:
                    raise ValueError(f"observation parameters are not supported: {params}")
                recall = iig_obs_type is not None and bool(iig_obs_type.perfect_recall)
                return RummyObserver(self.setup, recall)

        def create(params: dict[str, Any] | None = None) -> Any:
            """The game for ``params``, checked before any OpenSpiel object exists (an
            exception out of a half-built OpenSpiel game can crash the interpreter)."""
            given = {"rules": "", "seed": -1, **(params or {})}
            try:
                rules = episode_rules(preset, str(given["rules"]))
                players = int(given.get("players", default_players(rules)))
                rules.check_players(players)
            except RulesError as exc:
                raise ValueError(str(exc)) from None
            return RummyGame({**given, "players": players}, Setup(preset, rules, players))

        RummyGame.__name__ = RummyGame.__qualname__ = f"RummyGame_{preset}"
        return create

    return make
