"""A guided lesson in the window: the battle scene, a lesson panel, and the step's highlights.

``LessonScene`` is the battle scene (``game.ui.scenes.battle``) with three changes:

* every action the player makes (``act``) goes to ``game.tutorial.runner.LessonRun.try_action`` instead of straight
  to the engine: an illegal one shows the rule it breaks, a wrong one is shown and taken back with the hint, an
  accepted one stands, and the computer's answers (the step's ``auto``) are shown as they come;
* the log panel's place holds the lesson panel: the step's text, the explanation of the step just done, the hint
  after a wrong try, and the buttons Hint, Skip step, Restart and Lessons (back to the menu);
* the step's highlights are drawn over the table (units outlined, points, areas, the goal circle of a move) and the
  named buttons of the action bar pulse.

There is no hand-over screen (the computer plays the other side) and no Ctrl+Z (a wrong try is taken back by the
lesson; Restart starts again). Nothing here changes the game except through ``LessonRun``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from game.computer_seat import LEVEL_WORDS, ComputerSeat
from game.engine.actions import Action
from game.engine.errors import IllegalAction
from game.replay import action_text
from game.tutorial import LessonRun, Progress, find_lesson, list_lessons
from game.tutorial.runner import Outcome
from game.ui import battle_draw, palette
from game.ui.acting import announce
from game.ui.computer_play import legal_answer
from game.ui.label_layout import LESSON, LabelLayout
from game.ui.lesson_panel import GOAL, HIGHLIGHT, NO_UNDO, NOT_SAVED, LessonDesk
from game.ui.overlays import dashed_polyline, label_at, pulse
from game.ui.scenes.battle import BattleScene
from geometry.formation import footprint_corners

if TYPE_CHECKING:
    from game.ui.window import Scene, Window

class LessonScene(BattleScene):
    """A lesson being played (see the module docstring)."""

    def __init__(self, app: Window, run: LessonRun) -> None:
        opponent = run.lesson.opponent
        seat = None
        if opponent is not None and opponent.policy in LEVEL_WORDS:      # a thinking opponent, played at a pace
            seat = ComputerSeat(3 - run.learner, opponent.policy)
            run.paced_opponent = True
        super().__init__(app, run.game, None, list(run.lesson.scenario.terrain_kinds), seat)
        self.run = run
        """The lesson: the only way the game changes."""
        self.rewinder = None          # wrong tries are taken back by the lesson; Restart starts again
        self.turn_with_seat = False
        self._seat = run.learner      # no hand-over screen: the computer plays the other side
        self.desk = LessonDesk(run)
        """The lesson panel and what the lesson said since the step began (``game.ui.lesson_panel``)."""
        self._blinking: dict[str, Any] = {}

    # --- widgets ------------------------------------------------------------------------------------------------
    def build_ui(self) -> None:
        """The battle scene's widgets, with the lesson panel where the log was."""
        super().build_ui()
        if self.layout is None:
            return
        if self.log is not None:
            self.log.kill()
            self.log = None
        self.desk.build(self.app.manager, self.layout.log)
        self._blinking.clear()

    def kill_ui(self) -> None:
        """Remove the widgets."""
        super().kill_ui()
        self.desk.kill()

    # --- acting ---------------------------------------------------------------------------------------------------
    def act(self, action: Action) -> bool:
        """The player's action, through the lesson. True if it stands."""
        if self.computer_deciding:
            self.show_banner("Wait: the computer is deciding (N skips to your next decision).", palette.SHAKEN)
            return False
        try:
            out = self.run.try_action(action)
        except Exception as e:  # noqa: BLE001 - a bug must not close the lesson
            self.last_exception = e
            self.show_banner(f"Engine error: {e}", palette.ILLEGAL)
            return False
        self.desk.note(out)
        if out.illegal:
            text = out.messages[0] if out.messages else "not now"
            if out.rule is not None:
                self.show_error(IllegalAction(out.rule, text.partition(": ")[2] or text))
            else:
                self.show_error(IllegalAction("Lesson", text))
            return False
        if out.wrong:
            self.tool = None
            self.show_banner(out.messages[0], palette.SHAKEN, 6.0)
            return False
        self._adopt(out)
        return True

    def _computer_turn(self) -> None:
        """Free play against a thinking opponent: its decisions one at a time, through the lesson, with the reason
        of each in the lesson panel."""
        turns = self.turns
        if turns is None or not self.run.opponent_to_play:
            return
        answer = turns.poll(self.game, self.time, bool(self.anims.moves))
        if answer is None:
            return
        action, reason = answer.action, answer.reason
        text = action_text(self.game, action).partition(": ")[2]
        out = self.run.opponent_acts(action)
        if out.illegal:       # legal on its seat view, not here: a legal answer instead
            action = legal_answer(self.run.game, turns.seat, turns.seed + len(self.game.history))
            text = action_text(self.game, action).partition(": ")[2]
            reason = "the rules refused its own choice here, so it plays a legal answer at random"
            out = self.run.opponent_acts(action)
        if out.messages:
            self.desk.note(out)
        kept = [n for n in self.desk.notes if n[0] == "computer"][-1:]      # its last two decisions, the rest stays
        self.desk.notes = [n for n in self.desk.notes if n[0] != "computer" or n in kept]
        self.desk.notes.append(("computer", f"The computer: {text} — {reason}"))
        turns.applied(self.time, any(e.kind not in ("phase", "info", "roll") for e in out.events))
        self._adopt(out)

    def skip(self) -> None:
        """Skip button: the lesson plays the step for the player."""
        if self.turns is not None:
            self.turns.forget()
        out = self.run.skip()
        self.desk.note(out)
        if out.accepted:
            self._adopt(out)

    def restart(self) -> None:
        """Restart button: the lesson from its first step."""
        self.run.restart()
        if self.turns is not None:
            self.turns.forget()
        self.game = self.run.game
        self._reset_view_of_game()
        self._pending_key = None
        self._sync()
        self.desk.restart()

    def _adopt(self, out: Outcome) -> None:
        """An accepted outcome: the lesson's game is now the game shown."""
        self.game = self.run.game
        self.error = None
        self.tool = None
        self._add_events(out.events)
        self.anims.add(out.events, self.time)
        self.trails.add(self.game.state, out.events, self.time)
        announce(self, out.events)
        self._pending_key = None
        self._sync()
        self.desk.show()

    def _hand_over(self, player: int) -> None:
        self._seat = player  # no hand-over screen in a lesson

    # --- input ----------------------------------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event, consumed: bool) -> None:
        """The lesson panel's buttons; everything else as in a battle."""
        if not self.desk.handle(event, self):
            super().handle_event(event, consumed)

    def next_lesson(self) -> None:
        """Open the lesson after this one (the menu after the last)."""
        next_lesson(self.app, self.run)

    # --- drawing ----------------------------------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        """As in a battle; the Skip button reads Next lesson once the lesson is done; the buttons the step names
        blink (widgets are drawn over the scene, so they are selected and unselected rather than outlined)."""
        super().update(dt)
        if self.app.scene is not self:
            return
        self.desk.update()
        panel = self.desk.panel
        names = set(self.run.highlights.buttons)
        if panel is not None and self.run.wrong_tries and not self.run.hint_visible:
            names.add("hint")
        on = pulse(self.time) > 0.5
        buttons = dict(self.actions.buttons) if self.actions is not None else {}
        if panel is not None:
            buttons.update({k: v for k, v in panel.buttons.items() if k in ("hint", "skip", "restart")})
        for name, button in buttons.items():
            want = on and name in names
            if want != (self._blinking.get(name) is button):
                (button.select if want else button.unselect)()
                if want:
                    self._blinking[name] = button
                else:
                    self._blinking.pop(name, None)

    def undo_refusal(self, player: int | None = None) -> str | None:
        """No Undo in a lesson: a wrong try is taken back by the lesson; Restart plays it again."""
        return NO_UNDO

    def save(self) -> bool:
        """Ctrl+S: lessons are not saved (Restart plays one again from the start)."""
        self.show_banner(NOT_SAVED, palette.SHAKEN)
        return False

    def draw(self, screen: pygame.Surface) -> None:
        """The battle with the step's highlights over the table, their labels laid out with the battle's."""
        battle_draw.clear_band(self, screen)
        battle_draw.draw(self, screen, self.draw_highlights)

    def draw_highlights(self, screen: pygame.Surface, labels: LabelLayout | None = None) -> None:
        """Outline the step's units, mark its points and areas (only reads). Their labels are asked of ``labels``
        (the frame's layout, at the high ``LESSON`` priority) when given, else drawn at once."""
        h = self.run.highlights
        glow = pulse(self.time)
        k = 0.6 + 0.4 * glow
        colour = (int(HIGHLIGHT[0] * k), int(HIGHLIGHT[1] * k), int(HIGHLIGHT[2] * k))
        view = self.view
        clip = screen.get_clip()
        screen.set_clip(view.rect)
        s = self.game.state
        for uid in h.units:
            unit = s.units.get(uid)
            if unit is None or not unit.on_table or unit.pose is None:
                continue
            pts = [view.to_screen(p) for p in footprint_corners(unit.pose, unit.formation)]
            pygame.draw.polygon(screen, colour, pts, 3)
        for area in h.areas:
            c: tuple[int, int, int] = GOAL if area.goal else colour
            if area.shape == "circle":
                centre = view.to_screen(area.points[0])
                r = max(12, int(view.length(area.radius)))     # a goal is an area to aim at, never a dot
                fill = pygame.Surface((2 * r + 2, 2 * r + 2), pygame.SRCALPHA)
                pygame.draw.circle(fill, c + (60,), (r + 1, r + 1), r)
                screen.blit(fill, (centre[0] - r - 1, centre[1] - r - 1))
                pygame.draw.circle(screen, c, centre, r, 2)
                if area.goal:
                    pygame.draw.circle(screen, c, centre, 3)
                    label_at(screen, area.label or "move the unit's centre here", (centre[0], centre[1] - r - 10),
                             c, 12, layout=labels, priority=LESSON, kind="lesson goal")
                elif area.label:
                    label_at(screen, area.label, (centre[0], centre[1] - r - 10), c, 12, layout=labels,
                             priority=LESSON, kind="lesson area")
            else:
                pts = [view.to_screen(p) for p in area.points]
                pygame.draw.polygon(screen, c, pts, 2)
                if area.label:
                    top = min(pts, key=lambda q: q[1])
                    label_at(screen, area.label, (top[0], top[1] - 10), c, 12, layout=labels, priority=LESSON,
                             kind="lesson area")
        goal = self.run.goal
        if goal is not None and goal[0] in s.units and s.units[goal[0]].on_table:
            unit = s.units[goal[0]]
            pts = [view.to_screen(p) for p in footprint_corners(goal[1], unit.formation)]
            dashed_polyline(screen, GOAL, pts + pts[:1], 2)
        for point in h.points:
            at = view.to_screen((point.x, point.y))
            pygame.draw.circle(screen, colour, at, 10, 2)
            pygame.draw.circle(screen, colour, at, 3)
            if point.label:
                label_at(screen, point.label, (at[0], at[1] - 20), colour, 12, layout=labels, priority=LESSON,
                         kind="lesson point")
        screen.set_clip(clip)


def start_lesson(app: Window, lesson: str | None = None) -> bool:
    """Open ``lesson`` (number, id, name or path; default: the first one not done yet) in the window.

    A lesson that cannot be found or loaded opens the menu with the reason. True if it started."""
    try:
        if lesson is None:
            infos = list_lessons()
            pick = next((i for i in infos if not i.done), infos[0] if infos else None)
            if pick is None:
                raise LookupError("no lessons found")
            path = pick.path
        else:
            path = find_lesson(lesson)
        run = LessonRun(path, Progress.load())
    except (LookupError, ValueError, OSError) as e:
        app.show_menu(f"Cannot open the lesson: {e}")
        return False
    app.switch(lesson_scene(app, run))
    return True


def lesson_scene(app: Window, run: LessonRun) -> Scene:
    """The scene that plays ``run``: the battle's lesson scene, or AoF: Skirmish's for a lesson of loose models."""
    if run.lesson.scenario.ruleset == "aof-skirmish":
        from game.ui.scenes.skirmish_lesson import SkirmishLessonScene
        return SkirmishLessonScene(app, run, next_lesson)
    return LessonScene(app, run)


def next_lesson(app: Window, run: LessonRun) -> None:
    """Open the lesson after ``run``'s, or the menu after the last one."""
    for info in list_lessons():
        if info.id > run.lesson.id:
            app.switch(lesson_scene(app, LessonRun(info.path, run.progress)))
            return
    app.show_menu()

