"""The results screen: victory points of both players and where they come from, and the story of the battle
(``game.stats``): the Victory Points turn by turn as a chart, the per-unit table, each player's dice luck and the
turning points; clicking a turning point opens the replay viewer at it."""

from __future__ import annotations

import html
import sys
import traceback
from typing import TYPE_CHECKING, Any

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIImage, UILabel, UIPanel, UIScrollingContainer, UITextBox

from game.stats import BattleStats, PlayerStats, TurningPoint, game_stats
from game.ui import palette
from game.ui.stats_draw import fit_text, luck_html, render_unit_table, render_vp_chart
from game.ui.window import Scene

if TYPE_CHECKING:
    from game.ui.window import Window


def verdict(vp: dict[int, int]) -> str:
    """"Player 1 wins", "Player 2 wins" or "Draw"."""
    a, b = vp.get(1, 0), vp.get(2, 0)
    if a == b:
        return "Draw"
    return f"Player {1 if a > b else 2} wins"


def breakdown_html(player: int, vp: int, lines: list[tuple[str, int]], stats: PlayerStats | None = None,
                   words: tuple[str, str] = ("victory points", "VP")) -> str:
    """One player's column: total, each line of the breakdown, and (with ``stats``) their dice luck. ``words``:
    what the score counts, in full and short (the ruleset's ``score_words``)."""
    colour = palette.PLAYER_HTML[player]
    short = words[1][:-1] if vp == 1 and words[1].endswith("s") else words[1]    # "1 marker", "2 markers"
    out = [f"<font size=5 color='{colour}'><b>Player {player}: {vp} {short}</b></font>"]
    if not lines:
        out.append(f"<font color='#9aa4ac'>No {words[0]}.</font>")
    for text, points in lines:
        out.append(f"{html.escape(str(text))}: <b>{points}</b>")
    if stats is not None:
        out.append("")
        out.append(f"<b>Dice luck</b> <font color='#9aa4ac'>· {stats.units_left} of {stats.units_start} units "
                   "left</font>")
        out.append(luck_html(stats.hits, "To hit", "hits"))
        out.append(luck_html(stats.defense, "Defense", "blocks"))
    return "<br>".join(out)


def side_missions_html(state: Any, player: int) -> str:
    """The side-missions ``player`` could complete, each with ✓ or ✗ (AoF:R 2.16 "Side-Missions"; shown once
    the game is over, hidden ones included). Empty without side-missions."""
    from game.engine import side_missions
    sm = side_missions.progress(state)
    if sm is None or not state.game_over:
        return ""
    out = []
    for pick in sm.picks:
        if pick.hidden and pick.player != player:
            continue
        info = side_missions.SIDE_MISSIONS[pick.mission]
        done = side_missions.completed(state, pick.mission, player)
        mark = "<font color='#8fd6a0'>✓</font>" if done else "<font color='#ff8a80'>✗</font>"
        kind = "hidden" if pick.hidden else "shared"
        out.append(f"{mark} {html.escape(info.name)} ({kind}): <font color='#9aa4ac'>{html.escape(info.text)}"
                   "</font>")
    return "<br><br><b>Side-missions</b><br>" + "<br>".join(out) if out else ""


class ResultsScene(Scene):
    """Victory points, breakdown and the battle's statistics; back to the menu, the table, or quit.

    ``back``: the scene the results were opened from (the battle, or the replay viewer), for "Look at the table";
    its game's starting position (a replay's cursor, a battle's ``Rewinder``) gives the statistics. Without one
    the statistics are left out and the screen shows the breakdown only.
    """

    def __init__(self, app: Window, game: Any, back: Scene | None = None) -> None:
        super().__init__(app)
        self.game = game
        self.back = back
        self.vp: dict[int, int] = dict(game.victory_points())
        self.breakdown: dict[int, list[tuple[str, int]]] = dict(game.victory_breakdown())
        self.stats: BattleStats | None = self._battle_stats()
        """The statistics (None when the game's start is unknown)."""
        self.widgets: list[pygame_gui.core.UIElement] = []
        self.menu: UIButton | None = None
        self.table: UIButton | None = None
        self.quit_button: UIButton | None = None
        self.turning_buttons: dict[UIButton, TurningPoint] = {}
        """The turning point buttons, each with its turning point (none when the game cannot be replayed)."""
        self.jump_problem: str | None = None
        """Why the replay viewer cannot be opened at a turning point, if it cannot."""

    # --- the statistics ---------------------------------------------------------------------------------------
    def _battle_stats(self) -> BattleStats | None:
        """Replay the game from its start: the replay viewer's cursor, or the battle's take-back snapshots."""
        from game.replay import ReplayCursor, Rewinder

        try:
            cursor = getattr(self.back, "cursor", None)
            if isinstance(cursor, ReplayCursor):
                return game_stats(cursor.game_at(0), cursor.record.actions[:cursor.length], cursor.record.digests)
            rewinder = getattr(self.back, "rewinder", None)
            if isinstance(rewinder, Rewinder) and rewinder.base == 0:
                return game_stats(rewinder.game_at(self.game, 0), self.game.history, self.game.digests)
        except Exception:  # noqa: BLE001 - the results must show even if the statistics cannot be worked out
            traceback.print_exc(file=sys.stderr)
        return None

    def can_jump(self) -> str | None:
        """Why the turning points cannot be watched in the replay viewer, or None if they can."""
        if getattr(self.back, "cursor", None) is not None:
            return None
        if self.app.record_path(self.game) is None:
            return "This game was not recorded, so it cannot be replayed."
        return None

    def open_turning_point(self, point: TurningPoint) -> bool:
        """Open the replay viewer just after the turning point's action; True if it opened. From a replay, back to
        that viewer; from a battle, its record file is opened (refused with the reason in the window if it cannot
        be read)."""
        from game.replay import ReplayCursor
        from game.ui.replay_controls import ReplayControls
        from game.ui.scenes.replay import ReplayScene
        from game.ui.scenes.skirmish_replay import SkirmishReplayScene

        back = self.back
        if isinstance(back, ReplayControls):
            back.playing = False
            self.app.switch(back)
            back.goto(point.position)
            return True
        path = self.app.record_path(self.game)
        if path is None:
            return False
        from game.files import FileProblems
        from game.record import load_record
        from game.saves import refusal

        try:
            cursor = ReplayCursor(load_record(path))
        except FileProblems as e:
            self.app.show_menu(refusal(path, e.problems, "replay"))
            return False
        loose = cursor.scenario.ruleset == "aof-skirmish"
        scene = (SkirmishReplayScene if loose else ReplayScene)(self.app, cursor, path)
        self.app.switch(scene)
        scene.goto(point.position)
        return True

    # --- widgets ------------------------------------------------------------------------------------------------
    def build_ui(self) -> None:
        """Title; with the statistics: chart and unit table at the left, the players' breakdown and luck and the
        turning points at the right; buttons at the bottom."""
        m = self.app.manager
        w, h = self.app.size
        if self.stats is None:
            pw, ph = min(900, w - 60), min(620, h - 60)
        else:
            pw, ph = w - 40, h - 40
        panel = UIPanel(pygame.Rect((w - pw) // 2, (h - ph) // 2, pw, ph), starting_height=1, manager=m)
        self.widgets = [panel]
        s = self.game.state
        title_h = 56 if ph >= 700 else 44
        UILabel(pygame.Rect(0, 12, pw, title_h), verdict(self.vp), m, container=panel, object_id="#big_title")
        UILabel(pygame.Rect(0, 12 + title_h, pw, 28),
                f"{s.name} · after round {s.round} of {s.rounds} · {self.vp.get(1, 0)} to {self.vp.get(2, 0)} "
                f"{self.game.ruleset.score_names()[0]}", m, container=panel, object_id="#subtitle")
        top = 12 + title_h + 36
        bw = (pw - 100) // 3
        bottom = ph - 76
        self.menu = UIButton(pygame.Rect(30, bottom, bw, 50), "Main menu", m, container=panel,
                             object_id="#primary_button")
        self.table = UIButton(pygame.Rect(50 + bw, bottom, bw, 50), "Look at the table", m, container=panel)
        if self.back is None:
            self.table.disable()
        self.quit_button = UIButton(pygame.Rect(70 + 2 * bw, bottom, bw, 50), "Quit", m, container=panel)
        body = pygame.Rect(24, top, pw - 48, bottom - 14 - top)
        self.turning_buttons = {}
        if self.stats is None:
            col = (body.w - 30) // 2
            for i, p in enumerate((1, 2)):
                UITextBox(breakdown_html(p, self.vp.get(p, 0), self.breakdown.get(p, []),
                                         words=self.game.ruleset.score_names()) + side_missions_html(s, p),
                          pygame.Rect(body.x + i * (col + 30), body.y, col, body.h), m, container=panel)
            return
        self._build_stats(panel, body, self.stats)

    def _build_stats(self, panel: UIPanel, body: pygame.Rect, stats: BattleStats) -> None:
        m = self.app.manager
        gap = 16
        left_w = int((body.w - gap) * 0.57)
        right = pygame.Rect(body.x + left_w + gap, body.y, body.w - left_w - gap, body.h)
        chart_h = max(150, min(330, int(body.h * 0.42)))
        UIImage(pygame.Rect(body.x, body.y, left_w, chart_h), render_vp_chart(stats, (left_w, chart_h)), m,
                container=panel)
        table_top = body.y + chart_h + 10
        table_h = body.bottom - table_top
        scroll = UIScrollingContainer(pygame.Rect(body.x, table_top, left_w, table_h), m, container=panel,
                                      allow_scroll_x=False)
        image = render_unit_table(stats, left_w - 22)
        UIImage(pygame.Rect(0, 0, image.get_width(), image.get_height()), image, m, container=scroll)
        scroll.set_scrollable_area_dimensions((left_w - 22, image.get_height()))
        # the players' columns
        points = stats.turning_points
        tp_row = 34 if body.h >= 520 else 28
        list_h = 28 + tp_row * max(1, len(points))
        cols_h = max(110, right.h - list_h - 12)
        s = self.game.state
        columns = [breakdown_html(p, self.vp.get(p, 0), self.breakdown.get(p, []), stats.players[p],
                                  self.game.ruleset.score_names()) + side_missions_html(s, p) for p in (1, 2)]
        if right.w < 440:   # too narrow for two columns: one box, player 2 under player 1
            columns = ["<br><br>".join(columns)]
        col = (right.w - 12 * (len(columns) - 1)) // len(columns)
        for i, text in enumerate(columns):
            UITextBox(text, pygame.Rect(right.x + i * (col + 12), right.y, col, cols_h), m, container=panel)
        # the turning points
        y = right.y + cols_h + 10
        why = self.can_jump()
        self.jump_problem = why
        hint = "Turning points · click one to watch it in the replay" if why is None else \
            "Turning points · " + why
        UILabel(pygame.Rect(right.x, y, right.w, 22), fit_text(hint, 13, right.w - 10, True), m, container=panel,
                object_id="#section_title")
        y += 26
        if not points:
            UILabel(pygame.Rect(right.x, y, right.w, 24), f"None: no {stats.score_words[0]} or units changed "
                    "hands.", m, container=panel, object_id="#hud_hint")
            return
        for rank, tp in enumerate(points, start=1):
            if y + tp_row - 4 > right.bottom:
                break
            label = (f"{rank}  Round {tp.round} · P{tp.player}:  {tp.text}" if right.w >= 440
                     else f"{rank}  R{tp.round} P{tp.player}  {tp.text}")
            text = fit_text(label, 13, right.w - 24)
            tip = f"Round {tp.round}, player {tp.player}'s {stats.turn_word}, action {tp.action}: {tp.text}"
            rect = pygame.Rect(right.x, y, right.w, tp_row - 4)
            if why is None:
                b = UIButton(rect, text, m, container=panel, object_id="#turning_point",
                             tool_tip_text=html.escape(tip))
                self.turning_buttons[b] = tp
            else:   # no record to replay: told, not offered
                UILabel(rect, text, m, container=panel, object_id="#hud_hint")
            y += tp_row

    def kill_ui(self) -> None:
        """Remove the widgets."""
        for wdg in self.widgets:
            wdg.kill()
        self.widgets = []
        self.turning_buttons = {}

    def handle_event(self, event: pygame.event.Event, consumed: bool) -> None:
        """Menu, table, quit, a turning point."""
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            if event.ui_element is self.menu:
                self.app.show_menu()
            elif event.ui_element is self.table and self.back is not None:
                self.app.switch(self.back)
            elif event.ui_element is self.quit_button:
                self.app.quit()
            elif event.ui_element in self.turning_buttons:
                self.open_turning_point(self.turning_buttons[event.ui_element])
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.app.show_menu()

    def draw(self, screen: pygame.Surface) -> None:
        """Background split in the players' colours."""
        screen.fill(palette.BACKGROUND)
        w, h = screen.get_size()
        pygame.draw.rect(screen, palette.PLAYER[1], (0, h - 10, w // 2, 10))
        pygame.draw.rect(screen, palette.PLAYER[2], (w // 2, h - 10, w - w // 2, 10))

