"""Gin's knock-game helpers under a short name: the code lives in
:mod:`rummykit.variants.gin`, since each variant is a module of hooks; bots, front
ends and examples that read deadwood import it from here or from there."""

from __future__ import annotations

from .variants.gin import (
    best_ten_deadwood,
    can_knock,
    deadwood_shown,
    hand_points,
    knock_limit_for,
)

__all__ = ["best_ten_deadwood", "can_knock", "deadwood_shown", "hand_points", "knock_limit_for"]
