"""The screens around the table: new game, choosers, help, round and match results,
and the replay viewer."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen, Screen
from textual.widgets import (
    Button,
    Checkbox,
    Footer,
    Input,
    Label,
    OptionList,
    Select,
    Static,
)

from ..cards import bits, face_of
from ..errors import RummyError
from ..i18n import game_description, game_title, rules_summary
from ..i18n.shows import code_text
from ..rules import Ace, Rules, RummyBonus, Scoring
from ..scoring import RoundResult
from ..state import GameState, Phase
from ..table import TableMeld
from ..variants import variant_for
from .lang import N_, LocalBindings, _, _n, error_words, lang
from .results import history_block, round_details
from .session import (
    DEFAULT_BOT,
    DIFFICULTIES,
    HOUSE_RULE_TOGGLES,
    TUI_PRESETS,
    GameSettings,
    ReplayStep,
    cells_text,
    coming_lines,
    face_text,
    goal_text,
    round_line,
    sort_cards,
    table_cells,
    toggle_option,
    toggle_value,
)

DIALOG_CSS = """
    align: center middle;
    & > #dialog {
        width: auto;
        min-width: 40;
        max-width: 90%;
        height: auto;
        max-height: 90%;
        border: thick $primary;
        background: $surface;
        padding: 0 1;
    }
    & #dialog-title { text-style: bold; width: 1fr; }
    & .hint { color: $text-muted; }
    & #dialog > VerticalScroll { height: auto; max-height: 16; }
"""


def _about(preset: str) -> str:
    """The game a preset plays, in one plain line in the app's language (where its
    rules come from is for ``rummy rules``)."""
    return game_description(preset, lang())


def _cards_text(cards: Sequence[int]) -> Text:
    out = Text()
    for k, c in enumerate(sort_cards(cards)):
        if k:
            out.append(" ")
        out.append(face_text(face_of(c)))
    return out


class ChoiceScreen(LocalBindings, ModalScreen[int | None]):
    """Pick one of several options: number keys, arrows and Enter, or a click."""

    DEFAULT_CSS = "ChoiceScreen {" + DIALOG_CSS + "} ChoiceScreen OptionList { height: auto; }"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", N_("Cancel")),
        *(Binding(str(k), f"pick({k - 1})", show=False) for k in range(1, 10)),
    ]

    def __init__(self, title: str, options: Sequence[str]) -> None:
        super().__init__()
        self.title_text = title
        self.options = list(options)

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(self.title_text, id="dialog-title")
            yield OptionList(*(f"{k + 1}. {o}" for k, o in enumerate(self.options)))
            yield Label(_("1-9 or Enter: choose · Esc: cancel"), classes="hint")

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option_index)

    def action_pick(self, index: int) -> None:
        if 0 <= index < len(self.options):
            self.dismiss(index)

    def action_cancel(self) -> None:
        self.dismiss(None)


KEYS_HELP: tuple[tuple[str, str], ...] = (
    (N_("s / click Stock"), N_("draw from the stock")),
    (
        N_("p / click Discard"),
        N_("take the top card of the discard pile (500 Rum: or a deeper one)"),
    ),
    ("1-9 0 a b e f …", N_("select or unselect a card: the key shown above it (or click it)")),
    (N_("← → space"), N_("move the card cursor, select the card under it")),
    (N_("c / Esc"), N_("clear the selection")),
    ("m", N_("meld the selected cards")),
    (N_("l / click a meld"), N_("lay off the selected card on a meld")),
    ("j", N_("swap the selected card for the joker standing for it")),
    ("t", N_("take a card from a table meld (rami51)")),
    ("d", N_("discard the selected card (ends your turn)")),
    ("h", N_("hint: what the hard bot would play, and why")),
    ("r", N_("show the hand by suit, by rank, or arranged into melds with the deadwood apart")),
    ("v", N_("show the whole discard pile")),
    ("i", N_("bots play instantly / at a readable pace")),
    ("? / F1", N_("this help")),
    ("q", N_("save the game and quit (rummy play --resume continues it)")),
)

SYMBOLS_HELP = N_(
    "▶ the player to act · D the dealer · ✓ has opened (met the opening minimum)\n"
    "🃏(7♥) a joker standing for 7♥ · 2* the card you just drew · "
    "a highlighted meld number: the selected card fits there"
)


class HelpScreen(LocalBindings, ModalScreen[None]):
    DEFAULT_CSS = (
        "HelpScreen {"
        + DIALOG_CSS
        + "} HelpScreen VerticalScroll { height: auto; max-height: 20; }"
    )
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark,f1", "close", N_("Close")),
    ]

    def __init__(self, rules: Rules, keys_help: Sequence[tuple[str, str]] = KEYS_HELP) -> None:
        super().__init__()
        self.rules = rules
        self.keys_help = keys_help
        """The screen's keys and what each does (Rummikub's table screen has its own)."""

    def compose(self) -> ComposeResult:
        keys = Table.grid(padding=(0, 2))
        keys.add_column(style=Style(bold=True), no_wrap=True, max_width=20)
        keys.add_column()
        for key, what in self.keys_help:
            keys.add_row(_(key), _(what))
        for action in variant_for(self.rules).actions():
            keys.add_row(action.key, code_text(action.help, {}, lang()))
        rules = Text()
        for k, line in enumerate(rules_summary(self.rules, lang())):
            if k:
                rules.append("\n")
            rules.append("• " + line)
        with Vertical(id="dialog"):
            yield Label(_("Help · {spec}", spec=self.rules.spec()), id="dialog-title")
            with VerticalScroll():
                yield Static(keys)
                yield Static(Text("\n" + _("On the screen"), style=Style(bold=True)))
                yield Static(_(SYMBOLS_HELP))
                yield Static(Text("\n" + _("Rules of this game"), style=Style(bold=True)))
                yield Static(rules)
            yield Label(_("Esc: close"), classes="hint")

    def action_close(self) -> None:
        self.dismiss(None)


class PileScreen(LocalBindings, ModalScreen[None]):
    """The whole discard pile (every player saw it being built)."""

    DEFAULT_CSS = "PileScreen {" + DIALOG_CSS + "}"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,v", "close", N_("Close"))]

    def __init__(self, pile: Sequence[int]) -> None:
        super().__init__()
        self.pile = list(pile)

    def compose(self) -> ComposeResult:
        body = Text()
        for k, c in enumerate(reversed(self.pile)):
            if k:
                body.append(" ")
            body.append(face_text(face_of(c)), Style(bold=k == 0))
        with Vertical(id="dialog"):
            cards = _n("{n} card", "{n} cards", len(self.pile))
            title = _("Discard pile, top first ({cards})", cards=cards)
            yield Label(title, id="dialog-title")
            yield Static(body if self.pile else Text(_("empty")))
            yield Label(_("Esc: close"), classes="hint")

    def action_close(self) -> None:
        self.dismiss(None)


SCROLL_BINDINGS: list[BindingType] = [
    Binding("up", "scroll('up')", show=False),
    Binding("down", "scroll('down')", show=False),
    Binding("pageup", "scroll('page_up')", show=False),
    Binding("pagedown", "scroll('page_down')", show=False),
]
"""Keys that scroll a result dialog's body (it may not fit 80x24)."""
RESULT_CSS = """
    & #body { max-height: 15; }
    & Horizontal { height: auto; margin: 1 0 0 0; }
    & Button { margin: 0 1 0 0; }
"""
"""A result dialog at 80x24: the body scrolls, one-line buttons stay in view."""


def scroll_body(screen: Screen[Any], how: str) -> None:
    """Scroll the ``#body`` of a result dialog: ``up``, ``down``, ``page_up``..."""
    getattr(screen.query_one("#body", VerticalScroll), f"scroll_{how}")()


class RoundSummaryScreen(LocalBindings, ModalScreen[None]):
    """A round's scoring: each hand laid out as melds and deadwood with every card's
    points, the melds laid in a knock game, the score of every round so far and a
    chart of the running totals.  With ``review`` (a factory of the review screen), a
    Review button and key ``r`` open the review of the round for the person.
    """

    DEFAULT_CSS = "RoundSummaryScreen {" + DIALOG_CSS + RESULT_CSS + "}"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space,n", "close", N_("Continue")),
        Binding("r", "review", N_("Review")),
        *SCROLL_BINDINGS,
    ]

    def __init__(
        self,
        state: GameState,
        result: RoundResult,
        totals: Sequence[int],
        last: bool,
        review: Callable[[], Screen[None]] | None = None,
        laid: Sequence[TableMeld] = (),
    ) -> None:
        super().__init__()
        self.state = state
        self.result = result
        self.names = list(state.names)
        self.totals = list(totals)
        self.last = last
        self.review = review
        self.laid = list(laid)
        """A knock game's melds on the table when the hand ended."""

    def compose(self) -> ComposeResult:
        r = self.result
        done = [x for x in self.state.results if x.round_no <= r.round_no]
        with Vertical(id="dialog"):
            yield Label(round_line(r, self.names).rstrip("."), id="dialog-title")
            with VerticalScroll(id="body"):
                yield Static(round_details(self.state, r, self.names, self.totals, self.laid))
                yield Static(Text(""))
                yield Static(history_block(done, self.names))
            for code, text in [] if self.last else coming_lines(self.state):
                yield Label(text, id=f"next-{code}")
            label = _("Final standings") if self.last else _("Next deal")
            with Horizontal():
                yield Button(
                    _("{label} (Enter)", label=label),
                    id="continue",
                    variant="primary",
                    compact=True,
                )
                if self.review is not None:
                    yield Button(_("Review (r)"), id="review", compact=True)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "review":
            self.action_review()
            return
        self.dismiss(None)

    def action_review(self) -> None:
        if self.review is not None:
            self.app.push_screen(self.review())

    def action_scroll(self, how: str) -> None:
        scroll_body(self, how)

    def action_close(self) -> None:
        self.dismiss(None)


class MatchEndScreen(LocalBindings, ModalScreen[str]):
    """Final standings; play again with the same or new settings, or quit."""

    DEFAULT_CSS = "MatchEndScreen {" + DIALOG_CSS + RESULT_CSS + "}"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a,enter", "choose('again')", N_("Play again")),
        Binding("n", "choose('new')", N_("New settings")),
        Binding("q,escape", "choose('quit')", N_("Quit")),
        *SCROLL_BINDINGS,
    ]

    def __init__(self, state: GameState, me: int) -> None:
        super().__init__()
        self.state = state
        self.me = me

    def compose(self) -> ComposeResult:
        res = self.state.result()
        names = self.state.names
        t = Table(padding=(0, 1))
        t.add_column(_("place"), justify="right")
        t.add_column(_("player"))
        t.add_column(_("score"), justify="right")
        place = 0
        last_score: int | None = None
        for k, p in enumerate(res.standings):
            if res.scores[p] != last_score:
                place = k + 1
                last_score = res.scores[p]
            name = names[p] + (_(" (you)") if p == self.me else "")
            t.add_row(str(place), name, str(res.scores[p]))
        won = _(" and ").join(names[p] for p in res.winners)
        if self.me in res.winners:
            verdict = _("You win!")
        elif len(res.winners) > 1:
            verdict = _("{who} won together.", who=won)
        else:
            verdict = _("{who} won.", who=won)
        rule = (
            _("highest score wins")
            if self.state.rules.scoring is Scoring.WINNER_COLLECTS
            else _("lowest score wins")
        )
        with Vertical(id="dialog"):
            rounds = _n("{n} round", "{n} rounds", res.rounds)
            yield Label(
                _("Match over after {rounds}. {verdict}", rounds=rounds, verdict=verdict),
                id="dialog-title",
            )
            with VerticalScroll(id="body"):
                yield Static(Text(rule, style=Style(italic=True)))
                yield Static(t)
                yield Static(Text(""))
                yield Static(history_block(self.state.results, names, self.state.scores))
            with Horizontal():
                yield Button(_("Play again (a)"), id="again", variant="primary", compact=True)
                yield Button(_("New settings (n)"), id="new", compact=True)
                yield Button(_("Quit (q)"), id="quit", compact=True)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or "quit")

    def action_choose(self, what: str) -> None:
        self.dismiss(what)

    def action_scroll(self, how: str) -> None:
        scroll_body(self, how)


# -- new game ----------------------------------------------------------------------------
KNOCK_NUMBERS: tuple[tuple[str, str], ...] = (
    ("knock_card", N_("Knock at")),
    ("gin_bonus", N_("Gin bonus")),
    ("undercut_bonus", N_("Undercut bonus")),
)
"""The number options of knock games (Gin) on the new-game screen."""

HOUSE_RULE_GROUPS = ("knock", "rummy")
"""The new-game screen's groups of house rules (:attr:`Variant.house_rules`), each a
section of the form (``#knock-rules``) that its method reads (``_knock_options``)."""


class OnOffBox(Checkbox):
    """A checkbox whose mark says on or off without colour: ✓ when on, blank when off
    (Textual's draws the same X either way, the two told apart by colour alone)."""

    def render(self) -> Content:
        self.BUTTON_INNER = "✓" if self.value else " "
        return super().render()


class NewGameScreen(LocalBindings, Screen[GameSettings | str | None]):
    """Choose the preset, house rules, players, bots, goal and name.

    Dismisses with the settings, ``"resume"`` to continue the saved game, or None to quit.
    """

    DEFAULT_CSS = """
    NewGameScreen { align: center top; }
    NewGameScreen > VerticalScroll { width: 78; max-width: 100%; height: 1fr; padding: 0 1; }
    NewGameScreen .row { height: auto; margin: 0 0 0 0; }
    NewGameScreen .row > Label { width: 16; padding: 0 1 0 0; }
    NewGameScreen .row > Select { width: 1fr; }
    NewGameScreen .row > Input { width: 1fr; }
    NewGameScreen #preset-about { color: $text-muted; padding: 0 0 0 16; }
    NewGameScreen #title { text-style: bold; color: $text-primary; }
    NewGameScreen #error { color: $text-error; height: auto; width: 78; max-width: 100%; }
    NewGameScreen .section { text-style: bold; margin: 1 0 0 0; }
    NewGameScreen #buttons { height: auto; width: 78; max-width: 100%; padding: 0 1; }
    NewGameScreen #buttons > Button { margin: 0 1 0 0; }
    NewGameScreen Checkbox { width: 1fr; }
    NewGameScreen #bots > Select { width: 1fr; }
    NewGameScreen .options { height: auto; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "start", N_("Start")),
        Binding("ctrl+r", "resume", N_("Resume"), show=False),
        Binding("escape", "quit_app", N_("Quit")),
    ]

    def __init__(
        self,
        *,
        initial: GameSettings | None = None,
        can_resume: bool = False,
        instant: bool = False,
    ) -> None:
        super().__init__()
        self.initial = initial or GameSettings(Rules.preset("basic"))
        self.can_resume = can_resume
        self.instant = instant

    def compose(self) -> ComposeResult:
        init = self.initial
        rules = init.rules
        preset = rules.name if rules.name in TUI_PRESETS else "basic"
        with VerticalScroll():
            yield Label(_("rummykit · new game"), id="title")
            with Horizontal(classes="row"):
                yield Label(_("Preset"))
                yield Select(
                    [(game_title(p, lang()), p) for p in TUI_PRESETS],
                    value=preset,
                    allow_blank=False,
                    compact=True,
                    id="preset",
                )
            yield Static(_about(preset), id="preset-about")
            with Horizontal(classes="row"):
                yield Label(_("Your name"))
                yield Input(init.name, compact=True, id="name", max_length=20)
            with Horizontal(classes="row"):
                yield Label(_("Players"))
                yield Select(
                    self._player_options(rules),
                    value=init.players,
                    allow_blank=False,
                    compact=True,
                    id="players",
                )
            with Horizontal(classes="row", id="bots"):
                yield Label(_("Bots"))
                for k in range(5):
                    value = init.bots[k] if k < len(init.bots) else DEFAULT_BOT
                    yield Select(
                        [(_(d), d) for d in DIFFICULTIES],
                        value=value,
                        allow_blank=False,
                        compact=True,
                        id=f"bot{k}",
                    )
            with Horizontal(classes="row"):
                yield Label(_("Match"))
                yield Select(
                    [(_("to a target score"), "target"), (_("a number of deals"), "deals")],
                    value="deals" if rules.deals is not None else "target",
                    allow_blank=False,
                    compact=True,
                    id="goal-kind",
                )
                yield Input(
                    str(rules.deals if rules.deals is not None else rules.target_score),
                    compact=True,
                    id="goal",
                    type="integer",
                )
            yield Label(_("House rules"), classes="section")
            with Vertical(id="knock-rules", classes="options"):
                for key, label in KNOCK_NUMBERS:
                    with Horizontal(classes="row"):
                        yield Label(_(label))
                        yield Input(str(getattr(rules, key)), compact=True, id=key, type="integer")
                yield OnOffBox(
                    _("Oklahoma: the first upcard's value sets the knock limit"),
                    rules.oklahoma,
                    compact=True,
                    id="opt-oklahoma",
                )
            with Vertical(id="rummy-rules", classes="options"):
                with Horizontal(classes="row"):
                    yield Label(_("Ace"))
                    yield Select(
                        [
                            (_("low only (A-2-3)"), "low"),
                            (_("high or low (Q-K-A too)"), "high_or_low"),
                            (_("high only (Q-K-A, not A-2-3)"), "high"),
                        ],
                        value=rules.ace.value,
                        allow_blank=False,
                        compact=True,
                        id="ace",
                    )
                with Horizontal(classes="row"):
                    yield Label(_("Rummy bonus"))
                    yield Select(
                        [
                            (_("bonus|none"), "none"),
                            (_("double"), "double"),
                            (_("plus ten"), "plus_ten"),
                        ],
                        value=rules.rummy_bonus.value,
                        allow_blank=False,
                        compact=True,
                        id="rummy-bonus",
                    )
                with Horizontal(classes="row"):
                    yield Label(_("Opening minimum"))
                    yield Input(
                        str(rules.opening_minimum), compact=True, id="opening", type="integer"
                    )
                for key, label in HOUSE_RULE_TOGGLES:
                    yield OnOffBox(
                        _(label), toggle_value(rules, key), compact=True, id=f"opt-{key}"
                    )
            yield Label(_("Play"), classes="section")
            with Horizontal(classes="row"):
                yield Label(_("Seed (optional)"))
                yield Input(
                    "" if init.seed is None else str(init.seed),
                    compact=True,
                    id="seed",
                    type="integer",
                )
            yield OnOffBox(_("bots play instantly"), self.instant, compact=True, id="instant")
        yield Static("", id="error")
        with Horizontal(id="buttons"):
            yield Button(_("Start (ctrl+s)"), id="start", variant="primary")
            if self.can_resume:
                yield Button(_("Resume saved game (ctrl+r)"), id="resume")
            yield Button(_("Quit (esc)"), id="quit")
        yield Footer()

    def on_mount(self) -> None:
        self._show_bots()
        self._show_options(self.initial.rules)

    def _show_options(self, rules: Rules) -> None:
        """The house rules of the game's family (:attr:`Variant.house_rules`): a knock
        game's options, or the rummy house rules."""
        group = variant_for(rules).house_rules
        for name in HOUSE_RULE_GROUPS:
            self.query_one(f"#{name}-rules").display = name == group

    @staticmethod
    def _player_options(rules: Rules) -> list[tuple[str, int]]:
        return [(str(n), n) for n in range(rules.min_players, rules.max_players + 1)]

    def _show_bots(self) -> None:
        n = self._players()
        for k in range(5):
            self.query_one(f"#bot{k}", Select).display = k < n - 1

    def _players(self) -> int:
        value = self.query_one("#players", Select).value
        return value if isinstance(value, int) else 2

    def _preset(self) -> str:
        value = self.query_one("#preset", Select).value
        return value if isinstance(value, str) else "basic"

    @on(Select.Changed, "#preset")
    def _preset_changed(self) -> None:
        rules = Rules.preset(self._preset())
        self.query_one("#preset-about", Static).update(_about(rules.name))
        players = self.query_one("#players", Select)
        keep = self._players()
        players.set_options(self._player_options(rules))
        players.value = min(max(keep, rules.min_players), rules.max_players)
        self.query_one("#goal-kind", Select).value = "deals" if rules.deals else "target"
        self.query_one("#goal", Input).value = str(rules.deals or rules.target_score)
        self.query_one("#ace", Select).value = rules.ace.value
        self.query_one("#rummy-bonus", Select).value = rules.rummy_bonus.value
        for key, _label in HOUSE_RULE_TOGGLES:
            self.query_one(f"#opt-{key}", Checkbox).value = toggle_value(rules, key)
        self.query_one("#opening", Input).value = str(rules.opening_minimum)
        for key, _label in KNOCK_NUMBERS:
            self.query_one(f"#{key}", Input).value = str(getattr(rules, key))
        self.query_one("#opt-oklahoma", Checkbox).value = rules.oklahoma
        self._show_bots()
        self._show_options(rules)

    @on(Select.Changed, "#players")
    def _players_changed(self) -> None:
        self._show_bots()

    def settings(self) -> GameSettings:
        """The settings on the form (ValueError/RummyError with a message if invalid)."""
        rules = Rules.preset(self._preset())
        readers = {"knock": self._knock_options, "rummy": self._rummy_options}
        options = readers[variant_for(rules).house_rules](rules)
        goal_text_value = self.query_one("#goal", Input).value.strip()
        if not goal_text_value.isdigit() or int(goal_text_value) < 1:
            raise ValueError(_("the match length must be a positive whole number"))
        goal = int(goal_text_value)
        if self.query_one("#goal-kind", Select).value == "deals":
            options["deals"] = goal
            options["target_score"] = None
        else:
            options["target_score"] = goal
            options["deals"] = None
        rules = rules.with_options(**options)
        n = self._players()
        bots = tuple(str(self.query_one(f"#bot{k}", Select).value) for k in range(n - 1))
        seed_text = self.query_one("#seed", Input).value.strip()
        seed = int(seed_text) if seed_text.lstrip("-").isdigit() else None
        name = self.query_one("#name", Input).value.strip() or _("You")
        s = GameSettings(rules, name=name, bots=bots, seed=seed)
        s.check()
        return s

    def _knock_options(self, rules: Rules) -> dict[str, object]:
        options: dict[str, object] = {}
        for key, label in KNOCK_NUMBERS:
            text = self.query_one(f"#{key}", Input).value.strip()
            if not text.isdigit():
                raise ValueError(_("{what} must be a whole number", what=_(label).lower()))
            options[key] = int(text)
        options["oklahoma"] = self.query_one("#opt-oklahoma", Checkbox).value
        return options

    def _rummy_options(self, rules: Rules) -> dict[str, object]:
        options: dict[str, object] = {}
        for key, _label in HOUSE_RULE_TOGGLES:
            options[key] = toggle_option(key, self.query_one(f"#opt-{key}", Checkbox).value)
        opening = self.query_one("#opening", Input).value.strip() or "0"
        if not opening.isdigit():
            raise ValueError(_("the opening minimum must be a whole number (0 for none)"))
        options["opening_minimum"] = int(opening)
        ace = self.query_one("#ace", Select).value
        options["ace"] = Ace(str(ace))
        if options["ace"] is not rules.ace:
            options["ace_points"] = 15 if options["ace"] is Ace.HIGH_OR_LOW else 1
            if rules.ace_points not in (1, 15):
                options["ace_points"] = rules.ace_points
        options["rummy_bonus"] = RummyBonus(str(self.query_one("#rummy-bonus", Select).value))
        return options

    @property
    def instant_chosen(self) -> bool:
        return self.query_one("#instant", Checkbox).value

    def action_start(self) -> None:
        try:
            settings = self.settings()
        except (ValueError, RummyError) as exc:
            error = error_words(exc)
            self.query_one("#error", Static).update(_("Cannot start: {error}", error=error))
            return
        self.dismiss(settings)

    def action_quit_app(self) -> None:
        self.dismiss(None)

    def action_resume(self) -> None:
        if self.can_resume:
            self.dismiss("resume")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.action_start()
        elif event.button.id == "resume":
            self.dismiss("resume")
        else:
            self.dismiss(None)

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self.action_start()


# -- replay ---------------------------------------------------------------------------------
class ReplayScreen(LocalBindings, Screen[None]):
    """Step through a record, forward and back, with every hand face up."""

    DEFAULT_CSS = """
    ReplayScreen #replay-head { height: auto; background: $boost; padding: 0 1; }
    ReplayScreen #replay-body { height: 1fr; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,l", "step(1)", N_("Next")),
        Binding("left,h", "step(-1)", N_("Back")),
        Binding("down,pagedown", "turn(1)", N_("Next turn")),
        Binding("up,pageup", "turn(-1)", N_("Turn back")),
        Binding("home", "jump(0)", N_("replay|Start")),
        Binding("end", "jump(-1)", N_("replay|End")),
        Binding("q,escape", "app.quit", N_("Quit")),
    ]

    def __init__(self, steps: Sequence[ReplayStep], title: str = "") -> None:
        super().__init__()
        self.steps = list(steps)
        self.index = 0
        self.title_text = title

    def compose(self) -> ComposeResult:
        yield Static(id="replay-head")
        with VerticalScroll(id="replay-body"):
            yield Static(id="replay-state")
        yield Footer()

    def on_mount(self) -> None:
        self.render_step()

    def action_step(self, delta: int) -> None:
        self.index = max(0, min(len(self.steps) - 1, self.index + delta))
        self.render_step()

    def action_turn(self, delta: int) -> None:
        """Jump to the start of the next (or previous) turn."""
        i = self.index
        last = len(self.steps) - 1
        while 0 <= i + delta <= last:
            i += delta
            s = self.steps[i].state
            if s.phase is not Phase.PLAY:
                break
        self.index = i
        self.render_step()

    def action_jump(self, where: int) -> None:
        self.index = where if where >= 0 else len(self.steps) - 1
        self.render_step()

    def render_step(self) -> None:
        step = self.steps[self.index]
        s = step.state
        head = Text()
        head.append(_("Replay {title} ", title=self.title_text), Style(bold=True))
        head.append(
            _(
                "step {i}/{last} · round {n}",
                i=self.index,
                last=len(self.steps) - 1,
                n=s.round_no,
            )
            + "\n"
        )
        head.append(step.text)
        self.query_one("#replay-head", Static).update(head)
        self.query_one("#replay-state", Static).update(state_text(s))


def state_text(s: GameState) -> Text:
    """Everything about a state, every hand face up (for replays)."""
    out = Text()
    bold = Style(bold=True)
    for p, name in enumerate(s.names):
        mark = "▶ " if p == s.current else "  "
        out.append(f"{mark}{name}", bold)
        cards = _n("{n} card", "{n} cards", s.hand_size(p))
        out.append(_("  score {n}  ({cards})", n=s.scores[p], cards=cards) + "\n")
        out.append("    ")
        out.append_text(_cards_text(list(bits(s.hands[p]))))
        out.append("\n")
    out.append("\n" + _("Table"), bold)
    if not s.table:
        out.append("  " + _("none"))
    for slot, tm in enumerate(s.table):
        out.append(f"\n  {slot + 1}: {cells_text(table_cells(s, tm))}  ({s.names[tm.owner]})")
    out.append("\n\n" + _("pile|Stock") + " ", bold)
    out.append(f"{len(s.stock)}   ")
    out.append(_("pile|Discard") + " ", bold)
    out.append(" ".join(face_text(face_of(c)) for c in reversed(s.discard)) or _("empty"))
    out.append("\n\n" + _("Match: {goal}; scores ", goal=goal_text(s.rules)))
    out.append(", ".join(f"{n} {v}" for n, v in zip(s.names, s.scores, strict=True)))
    if s.phase is Phase.OVER:
        out.append("\n" + _("The match is over."), bold)
    return out
