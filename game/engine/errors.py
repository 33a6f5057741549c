"""Errors of the rules engine."""

from __future__ import annotations

from geometry.pose import Point


class IllegalAction(ValueError):
    """An action the rules do not allow now. ``rule`` names the rule it breaks, as the rulebook names it.

    ``where`` is a table point where it breaks, when there is one (for the window).
    """

    def __init__(self, rule: str, message: str, where: Point | None = None) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message
        self.where = where
