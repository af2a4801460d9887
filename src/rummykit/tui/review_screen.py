"""The review of a round in the terminal game: the person's decisions
graded against the hard engine (:mod:`rummykit.bots.review`), with a progress bar while
it runs, then the accuracy, the key moments with the better move and why, a sparkline
of the expected score over the round and every decision's label.

The review runs in a worker thread on a copy of the match, so the table behind it is
untouched; closing the screen early stops it at the next graded decision.
"""

from __future__ import annotations

import sys
from multiprocessing import resource_tracker
from typing import Any, ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label, ProgressBar, Sparkline, Static
from textual.worker import Worker, WorkerState

from ..bots.review import RoundReview, count_decisions, review_round
from ..i18n import hint_text, localize_cards
from ..state import GameState
from .lang import N_, LocalBindings, _, lang
from .screens import DIALOG_CSS

N_("best"), N_("good"), N_("inaccuracy"), N_("mistake"), N_("blunder")  # the labels
LABEL_STYLES = {
    "best": "bold green",
    "good": "green",
    "inaccuracy": "yellow",
    "mistake": "dark_orange",
    "blunder": "bold red",
}
"""How each label is coloured."""


def start_resource_tracker() -> None:
    """Start multiprocessing's resource tracker with the real standard error.

    A spawned worker needs the tracker, and starting it passes ``sys.stderr``'s file
    descriptor on; inside a Textual app ``sys.stderr`` is the app's print capture,
    whose descriptor is -1, and the review's pool then fails with "bad value(s) in
    fds_to_keep".  Started once here, from the app's thread, the tracker is reused.
    """
    saved = sys.stderr
    sys.stderr = sys.__stderr__
    try:
        resource_tracker.ensure_running()
    finally:
        sys.stderr = saved


class ReviewCancelled(Exception):
    """Raised from the progress callback to stop a review the person closed."""


def review_body(rv: RoundReview) -> Table:
    """The review as a table of text: accuracy, key moments, then every decision."""
    t = Table.grid(padding=(0, 1))
    t.add_column()
    counts = ", ".join(f"{n} {_(label)}" for label, n in rv.counts.items() if n)
    t.add_row(
        Text(
            _(
                "Accuracy {accuracy}% over {n} decisions: {counts}",
                accuracy=f"{rv.accuracy:.0f}",
                n=len(rv.decisions),
                counts=counts,
            )
        )
    )
    if rv.key_moments:
        t.add_row(Text(_("Key moments"), style="bold"))
        for k in rv.key_moments:
            t.add_row(
                Text.assemble(
                    _("turn {n}: {played} ", n=k.turn, played=localize_cards(k.played, lang())),
                    (_(k.label), LABEL_STYLES.get(k.label, "")),
                    _(
                        ", {lost} points; better {reason}",
                        lost=f"{k.lost:.1f}",
                        reason=hint_text(k.reason, lang()),
                    ),
                )
            )
    moves = Table(padding=(0, 1), expand=False)
    for col in (N_("turn"), N_("played"), N_("best"), N_("lost"), N_("label")):
        moves.add_column(_(col), justify="right" if col in ("turn", "lost") else "left")
    for d in rv.decisions:
        moves.add_row(
            str(d.turn),
            localize_cards(d.played, lang()),  # 10♣, not the notation's T♣
            "" if d.best == d.played else localize_cards(d.best, lang()),
            "" if d.label == "best" else f"{d.shown:.1f}",  # the loss its label goes by
            Text(_(d.label), style=LABEL_STYLES.get(d.label, "")),
        )
    t.add_row(moves)
    return t


class ReviewScreen(LocalBindings, ModalScreen[None]):
    """The review of ``player``'s round ``round_no`` in ``state`` (copied)."""

    DEFAULT_CSS = (
        "ReviewScreen {" + DIALOG_CSS + "} ReviewScreen #dialog { width: 90%; }"
        " ReviewScreen Sparkline { height: 3; margin: 1 0 0 0; }"
        " ReviewScreen #dialog > VerticalScroll { max-height: 12; }"
    )
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,r", "close", N_("Close"))]

    def __init__(
        self,
        state: GameState,
        player: int,
        round_no: int,
        *,
        budget: int | None = None,
        workers: int = 2,
    ) -> None:
        super().__init__()
        self.state = state.clone()
        self.player = player
        self.round_no = round_no
        self.budget = budget
        self.processes = workers
        self.total = count_decisions(self.state, player, round_no)
        self.review: RoundReview | None = None
        """The finished review (tests read it)."""
        self.failed: str | None = None
        """Why the review failed, if it did."""
        self.closed = False

    def compose(self) -> ComposeResult:
        name = self.state.names[self.player]
        with Vertical(id="dialog"):
            yield Label(
                _("Review of round {n}: {name}", n=self.round_no, name=name), id="dialog-title"
            )
            yield Label(
                _("Grading {n} decisions against the hard engine…", n=self.total),
                id="review-status",
            )
            yield ProgressBar(total=max(1, self.total), show_eta=False, id="review-progress")
            yield Sparkline([], id="review-chart")
            yield Label("", id="review-range", classes="hint")
            with VerticalScroll():
                yield Static("", id="review-body")
            yield Label(_("Esc: close"), classes="hint")

    def on_mount(self) -> None:
        self.query_one("#review-chart").display = False
        if self.processes > 1:
            start_resource_tracker()
        self.run_worker(self._run, name="review", group="review", thread=True, exit_on_error=False)

    def _run(self) -> RoundReview:
        return review_round(
            self.state,
            self.player,
            self.round_no,
            seed=0,
            budget=self.budget,
            workers=self.processes,
            progress=self._progress,
        )

    def _progress(self, done: int, _total: int) -> None:
        if self.closed:
            raise ReviewCancelled
        self.app.call_from_thread(self._advance, done)

    def _advance(self, done: int) -> None:
        if not self.closed:
            self.query_one("#review-progress", ProgressBar).update(progress=done)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        w: Worker[Any] = event.worker
        if w.group != "review" or self.closed:
            return
        if event.state is WorkerState.SUCCESS and isinstance(w.result, RoundReview):
            self.show(w.result)
        elif event.state is WorkerState.ERROR:
            self.failed = _("The review failed: {error}", error=w.error)
            self.query_one("#review-status", Label).update(self.failed)

    def show(self, rv: RoundReview) -> None:
        """Replace the progress bar by the review."""
        self.review = rv
        self.query_one("#review-progress").display = False
        result = "" if rv.result is None else _(" (the round: {n})", n=f"{rv.result:+.0f}")
        self.query_one("#review-status", Label).update(
            _("Expected points after each decision{result}:", result=result)
        )
        points = [p for _i, p in rv.series]
        chart = self.query_one("#review-chart", Sparkline)
        chart.data = points
        chart.display = bool(points)
        if points:
            self.query_one("#review-range", Label).update(
                _(
                    "from {low} to {high} points",
                    low=f"{min(points):+.1f}",
                    high=f"{max(points):+.1f}",
                )
            )
        self.query_one("#review-body", Static).update(review_body(rv))

    def action_close(self) -> None:
        self.closed = True
        self.dismiss(None)
