"""A guided lesson of AoF: Skirmish (issue 18) in the window: the skirmish battle screen with the lesson panel.

As ``game.ui.scenes.lesson.LessonScene`` does for regiments: every action goes to
``game.tutorial.runner.LessonRun.try_action`` (illegal: the rule; wrong: taken back with the hint; accepted: the
computer answers), the log's place holds the lesson panel (Hint, Skip step, Restart, Lessons), and the step's
highlights are drawn over the table (units ringed model by model, areas, points, the goal circle of a move).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from game.engine.actions import Action
from game.engine.skirmish.loose import base_radius, warband_of
from game.tutorial import LessonRun
from game.ui import palette
from game.ui.acting import announce
from game.ui.layout import BattleLayout
from game.ui.lesson_panel import GOAL, HIGHLIGHT, NO_UNDO, NOT_SAVED, LessonDesk
from game.ui.overlays import pulse
from game.ui.scenes.skirmish_battle import SkirmishBattleScene

if TYPE_CHECKING:
    from game.ui.window import Window


class SkirmishLessonScene(SkirmishBattleScene):
    """A lesson of loose models being played (see the module docstring)."""

    def __init__(self, app: Window, run: LessonRun, next_lesson: Callable[[Window, LessonRun], None]) -> None:
        super().__init__(app, run.game, None, list(run.lesson.scenario.terrain_kinds))
        self.run = run
        """The lesson: the only way the game changes."""
        self._next_lesson = next_lesson
        """Opens the lesson after this one (``game.ui.scenes.lesson.next_lesson``: it knows every lesson scene)."""
        self.results_shown = True          # the lesson panel says when the game is over
        self.desk = LessonDesk(run)
        """The lesson panel and what the lesson said since the step began (``game.ui.lesson_panel``)."""

    def build_ui(self) -> None:
        """The skirmish battle's widgets, with the lesson panel where the log was."""
        super().build_ui()
        if self.log is not None:
            self.log.kill()
            self.log = None
        self.desk.build(self.app.manager, BattleLayout.for_size(self.app.size).log)

    def kill_ui(self) -> None:
        """Remove the widgets."""
        super().kill_ui()
        self.desk.kill()

    # --- acting ---------------------------------------------------------------------------------------------------
    def act(self, action: Action) -> bool:
        """The player's action, through the lesson. True if it stands."""
        try:
            out = self.run.try_action(action)
        except Exception as e:  # noqa: BLE001 - a bug must not close the lesson
            self.last_exception = e
            self.show_banner(f"Engine error: {e}", palette.ILLEGAL)
            return False
        self.desk.note(out)
        if out.illegal:
            self.show_banner(out.messages[0] if out.messages else "Not allowed now", palette.ILLEGAL, 6.0)
            return False
        if out.wrong:
            if self.tool is not None:
                self.tool.reset()
            self.show_banner(out.messages[0], palette.SHAKEN, 6.0)
            return False
        self._adopt(out.events)
        return True

    def _adopt(self, events: list) -> None:  # type: ignore[type-arg]
        """An accepted outcome: the lesson's game is now the game shown."""
        self.game = self.run.game
        self._add_events(events)
        announce(self, events)
        self._pending_key = None
        self._sync()
        self.desk.show()

    def undo_refusal(self) -> str | None:
        """No Undo in a lesson: a wrong try is taken back by the lesson; Restart plays it again."""
        return NO_UNDO

    def save(self) -> bool:
        """Ctrl+S: lessons are not saved (Restart plays one again from the start)."""
        self.show_banner(NOT_SAVED, palette.SHAKEN)
        return False

    def skip(self) -> None:
        """Skip step: the lesson plays the step for the player."""
        out = self.run.skip()
        self.desk.note(out)
        if out.accepted:
            self._adopt(out.events)

    def restart(self) -> None:
        """Restart: the lesson from its first step; the log and the dice start again with it."""
        self.run.restart()
        self.game = self.run.game
        self._reset_view_of_game()
        self.desk.restart()
        self._pending_key = None
        self._sync()

    def next_lesson(self) -> None:
        """Open the lesson after this one (the menu after the last)."""
        self._next_lesson(self.app, self.run)

    def handle_event(self, event: pygame.event.Event, consumed: bool) -> None:
        """The lesson panel's buttons; everything else as in a skirmish battle."""
        if not self.desk.handle(event, self):
            super().handle_event(event, consumed)

    def update(self, dt: float) -> None:
        """As in a battle; the Skip button reads Next lesson once the lesson is done."""
        super().update(dt)
        self.desk.update()

    # --- drawing ----------------------------------------------------------------------------------------------------
    def draw(self, screen: pygame.Surface) -> None:
        """The skirmish battle, then the step's highlights: its units ringed model by model, its areas (the goal
        of a move in green) and points."""
        super().draw(screen)
        h = self.run.highlights
        k = 0.6 + 0.4 * pulse(self.time)
        colour = (int(HIGHLIGHT[0] * k), int(HIGHLIGHT[1] * k), int(HIGHLIGHT[2] * k))
        view = self.view
        clip = screen.get_clip()
        screen.set_clip(view.rect)
        s = self.game.state
        models = warband_of(s).models
        for uid in h.units:
            unit = s.units.get(uid)
            if unit is None or not unit.on_table:
                continue
            r = max(6.0, view.length(base_radius(unit.profile))) + 4
            for m in models.get(uid, []):
                pygame.draw.circle(screen, colour, view.to_screen(m.xy), r, 2)
        for area in h.areas:
            c = GOAL if area.goal else colour
            if area.shape == "circle":
                centre = view.to_screen(area.points[0])
                radius = max(12.0, view.length(area.radius))
                pygame.draw.circle(screen, c, centre, radius, 2)
                pygame.draw.circle(screen, c, centre, 3)
            else:
                pygame.draw.polygon(screen, c, [view.to_screen(p) for p in area.points], 2)
        for point in h.points:
            at = view.to_screen((point.x, point.y))
            pygame.draw.circle(screen, colour, at, 10, 2)
        screen.set_clip(clip)
