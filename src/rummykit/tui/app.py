"""The Textual app that strings the screens together; the table screens are in
:mod:`.table_screen` and, for Rummikub, :mod:`.tiles_screen`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from textual.app import App

from ..state import Phase
from .hand import HAND_ORDERS
from .lang import _, error_words, set_lang
from .screens import (
    ChoiceScreen,
    NewGameScreen,
    ReplayScreen,
)
from .session import (
    GameSettings,
    Match,
    ReplayStep,
    archive_match,
    discard_save,
    load_saved,
    save_match,
    saved_games,
)
from .table_screen import BOT_PACE, CARD_KEYS, HINT_BUDGET, TableScreen
from .tiles_screen import TilesScreen

__all__ = ["BOT_PACE", "CARD_KEYS", "HINT_BUDGET", "RummyApp", "TableScreen", "run_app"]


# -- the app ---------------------------------------------------------------------------------------
class RummyApp(App[int]):
    """Rummy against the computer.  Give ``settings`` (or a ready ``match``) to skip the
    new-game screen, ``resume=True`` to continue the saved game, or ``replay`` to watch
    a record."""

    TITLE = "rummykit"
    ENABLE_COMMAND_PALETTE = False
    CSS = "* { scrollbar-size-vertical: 1; }"

    def __init__(
        self,
        *,
        settings: GameSettings | None = None,
        resume: bool = False,
        replay: tuple[Sequence[ReplayStep], str] | None = None,
        instant: bool = False,
        initial: GameSettings | None = None,
        match: Match | None = None,
        lang: str = "en",
    ) -> None:
        set_lang(lang)  # before any screen is made: their words come in it
        super().__init__()
        self.start_match = match
        self.start_settings = settings
        self.initial = initial
        self.resume_requested = resume
        self.replay = replay
        self.pace = 0.0 if instant else BOT_PACE
        self.review_budget: int | None = None
        """Samples per decision of a round's review (None: the review's default)."""
        self.review_workers = 2
        self.hand_order = HAND_ORDERS[0]
        """How the person's hand is shown (:data:`~.hand.HAND_ORDERS`), kept from
        match to match while the app runs."""
        """Processes a round's review grades decisions in."""
        self.match: Match | None = None
        self.last_settings: GameSettings | None = settings
        self.saved_to: Path | None = None
        self.recorded_to: Path | None = None
        """Where the match's record was last written (``rummy replay`` reads it)."""

    def on_mount(self) -> None:
        if self.replay is not None:
            steps, title = self.replay
            self.push_screen(ReplayScreen(steps, title))
            return
        if self.start_match is not None:
            self.begin(self.start_match)
            return
        if self.resume_requested:
            if saved_games():
                self.choose_saved(lambda: self.new_game_screen(self.initial))
                return
            self.notify(_("There is no saved game to resume."), severity="warning")
        if self.start_settings is not None:
            try:
                self.begin(Match.start(self.start_settings))
                return
            except ValueError as exc:
                error = error_words(exc)
                self.notify(_("Cannot start: {error}", error=error), severity="error")
        self.new_game_screen(self.initial or self.start_settings)

    def new_game_screen(self, initial: GameSettings | None = None) -> None:
        screen = NewGameScreen(
            initial=initial, can_resume=bool(saved_games()), instant=self.pace == 0
        )

        def done(result: GameSettings | str | None) -> None:
            if result is None:
                self.exit(0)
                return
            if isinstance(result, str):
                self.choose_saved(lambda: self.new_game_screen(initial))
                return
            self.pace = 0.0 if screen.instant_chosen else BOT_PACE
            self.last_settings = result
            self.begin(Match.start(result))

        self.push_screen(screen, done)

    def choose_saved(self, otherwise: Callable[[], None]) -> None:
        """Resume a saved match: the only one at once, else the one the person picks
        (each game keeps its own save); ``otherwise`` runs if none is resumed."""
        games = saved_games()

        def resume(index: int | None) -> None:
            m = None if index is None else load_saved(games[index].path)
            if m is None:
                if index is not None:
                    self.notify(_("The saved game cannot be read."), severity="error")
                otherwise()
                return
            self.begin(m)

        if len(games) == 1:
            resume(0)
            return
        options = [g.label() for g in games[:9]]
        self.push_screen(ChoiceScreen(_("Which saved game?"), options), resume)

    def begin(self, match: Match) -> None:
        self.match = match
        screen: TableScreen = (
            TilesScreen(match) if match.state.rules.free_table else TableScreen(match)
        )
        if isinstance(self.screen, TableScreen):
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def autosave(self) -> None:
        """Save the match in progress (quietly: a failure only shows a notice)."""
        m = self.match
        if m is None or m.state.phase is Phase.OVER:
            return
        try:
            self.saved_to = save_match(m)
        except OSError as exc:
            self.notify(_("Could not save the game: {error}", error=exc), severity="error")
        self.recorded_to = archive_match(m)

    def match_finished(self, match: Match) -> None:
        discard_save(match)
        self.recorded_to = archive_match(match)
        if self.recorded_to is not None:
            self.notify(_("The game's record is kept in {path}", path=self.recorded_to))

    def after_match(self, choice: str) -> None:
        m = self.match
        if choice == "again" and m is not None:
            base = self.last_settings or m.settings()
            seed = None if base.seed is None else base.seed + 1
            settings = GameSettings(base.rules, base.name, base.bots, seed)
            self.last_settings = settings
            self.begin(Match.start(settings))
        elif choice == "new" and m is not None:
            self.match = None
            if isinstance(self.screen, TableScreen):
                self.pop_screen()
            # From the app's own queue, so the new screen's result comes back to the
            # app and not to the table screen just closed.
            self.call_later(self.new_game_screen, m.settings())
        else:
            self.exit(0)

    async def action_quit(self) -> None:
        """Quit; a match in progress is saved first (``rummy play --resume``)."""
        self.autosave()
        self.exit(0)


def run_app(app: RummyApp) -> int:
    """Run the app in the terminal; say where a game in progress was saved."""
    code = app.run()
    if app.saved_to is not None and app.match is not None and not app.match.state.is_over():
        print(_("Game saved to {path}; continue it with: rummy play --resume", path=app.saved_to))
    if app.recorded_to is not None:
        print(_("The game's record is kept in {path}", path=app.recorded_to))
    return code if isinstance(code, int) else 0
