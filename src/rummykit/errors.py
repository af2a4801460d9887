"""Typed errors.  Every error the engine raises on bad input is a ValueError."""

from __future__ import annotations


class RummyError(ValueError):
    """Base class for every error rummykit raises on bad input."""


class RulesError(RummyError):
    """A rules specification that is malformed or describes an impossible game."""


class IllegalMoveError(RummyError):
    """A move the rules forbid in this state.

    ``rule`` names the rule the move breaks (a stable identifier such as
    ``"one_meld_per_turn"``); the state the move was tried on is unchanged.
    """

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{message} [rule: {rule}]")
        self.rule = rule
        self.reason = message


class NotationError(RummyError):
    """A malformed game record; ``line`` and ``column`` are 1-based."""

    def __init__(self, message: str, line: int = 0, column: int = 0) -> None:
        where = f"line {line}, column {column}: " if line else ""
        super().__init__(where + message)
        self.line = line
        self.column = column
        self.reason = message
