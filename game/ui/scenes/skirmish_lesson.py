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
from game.ui.layout import BattleLayout
from game.ui.lesson_panel import GOAL, HIGHLIGHT, LessonPanel, lesson_text, notes_after
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
        self.next_lesson = next_lesson
        """Opens the lesson after this one (``game.ui.scenes.lesson.next_lesson``: it knows every lesson scene)."""
        self.results_shown = True          # the lesson panel says when the game is over
        self.lesson_panel: LessonPanel | None = None
        self.notes: list[tuple[str, str]] = [("note", run.lesson.intro)] if run.lesson.intro else []
        """What the lesson said since the last step began: (kind, text)."""

    def build_ui(self) -> None:
        """The skirmish battle's widgets, with the lesson panel where the log was."""
        super().build_ui()
        if self.log is not None:
            self.log.kill()
            self.log = None
        self.lesson_panel = LessonPanel(self.app.manager, BattleLayout.for_size(self.app.size).log)
        self._show_lesson()

    def kill_ui(self) -> None:
        """Remove the widgets."""
        super().kill_ui()
        if self.lesson_panel is not None:
            self.lesson_panel.kill()
            self.lesson_panel = None

    def _show_lesson(self) -> None:
        if self.lesson_panel is not None:
            self.lesson_panel.show(*lesson_text(self.run, self.notes))

    # --- acting ---------------------------------------------------------------------------------------------------
    def act(self, action: Action) -> bool:
        """The player's action, through the lesson. True if it stands."""
        try:
            out = self.run.try_action(action)
        except Exception as e:  # noqa: BLE001 - a bug must not close the lesson
            self.last_exception = e
            self.show_banner(f"Engine error: {e}", palette.ILLEGAL)
            return False
        self.notes = notes_after(self.run, self.notes, out)
        self._show_lesson()
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
        self.log_lines.extend(events)
        rolls = [e for e in events if e.kind == "roll"]
        if rolls:
            self.rolls = rolls
            if self.dice is not None:
                self.dice.show_events(rolls)
        news = [e for e in events if e.kind not in ("roll", "phase", "info")]
        if news:
            self.show_banner(news[-1].text, (140, 200, 255), 3.5)
        self._pending_key = None
        self._sync()
        self._show_lesson()

    def undo_refusal(self) -> str | None:
        """No Undo in a lesson: a wrong try is taken back by the lesson; Restart plays it again."""
        return "A lesson takes back a wrong try itself; Restart plays the lesson again from the start."

    def lesson_command(self, key: str) -> None:
        """Hint, Skip step (Next lesson once done), Restart or Lessons."""
        if key == "hint":
            self.run.hint_visible = True
            self._show_lesson()
        elif key == "skip":
            if self.run.finished:
                self.next_lesson(self.app, self.run)
                return
            out = self.run.skip()
            self.notes = notes_after(self.run, self.notes, out)
            if out.accepted:
                self._adopt(out.events)
            self._show_lesson()
        elif key == "restart":
            self.run.restart()
            self.notes = [("note", self.run.lesson.intro)] if self.run.lesson.intro else []
            self._adopt([])
        elif key == "lessons":
            self.app.show_menu()

    def handle_event(self, event: pygame.event.Event, consumed: bool) -> None:
        """The lesson panel's buttons; everything else as in a skirmish battle."""
        if self.lesson_panel is not None:
            key = self.lesson_panel.pressed(event)
            if key is not None:
                self.lesson_command(key)
                return
        super().handle_event(event, consumed)

    def update(self, dt: float) -> None:
        """As in a battle; the Skip button reads Next lesson once the lesson is done."""
        super().update(dt)
        panel = self.lesson_panel
        if panel is not None and "skip" in panel.buttons:
            label = "Next lesson" if self.run.finished else "Skip step"
            if panel.buttons["skip"].text != label:
                panel.buttons["skip"].set_text(label)

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
