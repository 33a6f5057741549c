"""Errors of the rules engine."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TypeVar

from geometry.pose import Point

_S = TypeVar("_S")
_A = TypeVar("_A")


class IllegalAction(ValueError):
    """An action the rules do not allow now. ``rule`` names the rule it breaks, as the rulebook names it.

    ``where`` is a table point where it breaks, when there is one (for the window); it may be given as a function
    that works the point out, called when ``where`` is first read (a refused move's point costs more than the
    verdict, and players trying moves never read it).
    """

    def __init__(self, rule: str, message: str, where: Point | Callable[[], Point | None] | None = None) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message
        self._where = where

    @property
    def where(self) -> Point | None:
        """The table point (inches) where the action breaks the rule, or None."""
        where = self._where
        if callable(where):
            where = self._where = where()
        return where

    @where.setter
    def where(self, value: Point | None) -> None:
        self._where = value


def reports_illegal(check: Callable[[_S, _A], object]) -> Callable[[_S, _A], IllegalAction | None]:
    """Decorator for the ``check_*`` queries (``Ruleset.check_move``...): the method runs ``check``, whose body
    raises ``IllegalAction`` like the action's handler would (changing nothing), and returns that ``IllegalAction``
    instead of raising it, or None when the action may be made now."""
    @functools.wraps(check)
    def query(self: _S, action: _A) -> IllegalAction | None:
        try:
            check(self, action)
        except IllegalAction as e:
            return e
        return None

    return query
