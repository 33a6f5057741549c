"""The results screen: victory points of both players and where they come from."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UILabel, UIPanel, UITextBox

from game.ui import palette
from game.ui.scenes.base import Scene

if TYPE_CHECKING:
    from game.ui.app import App


def verdict(vp: dict[int, int]) -> str:
    """"Player 1 wins", "Player 2 wins" or "Draw"."""
    a, b = vp.get(1, 0), vp.get(2, 0)
    if a == b:
        return "Draw"
    return f"Player {1 if a > b else 2} wins"


def breakdown_html(player: int, vp: int, lines: list[tuple[str, int]]) -> str:
    """One player's column: total and each line of the breakdown."""
    colour = palette.PLAYER_HTML[player]
    out = [f"<font size=5 color='{colour}'><b>Player {player}: {vp} VP</b></font>"]
    if not lines:
        out.append("<font color='#9aa4ac'>No victory points scored.</font>")
    for text, points in lines:
        out.append(f"{html.escape(str(text))}: <b>{points}</b>")
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
    """Victory points and breakdown; back to the menu or quit."""

    def __init__(self, app: App, game: Any, back: Scene | None = None) -> None:
        super().__init__(app)
        self.game = game
        self.back = back
        self.vp: dict[int, int] = dict(game.victory_points())
        self.breakdown: dict[int, list[tuple[str, int]]] = dict(game.victory_breakdown())
        self.widgets: list[pygame_gui.core.UIElement] = []
        self.menu: UIButton | None = None
        self.table: UIButton | None = None
        self.quit_button: UIButton | None = None

    def build_ui(self) -> None:
        """Title, two breakdown columns, buttons."""
        m = self.app.manager
        w, h = self.app.size
        pw, ph = min(900, w - 60), min(620, h - 60)
        panel = UIPanel(pygame.Rect((w - pw) // 2, (h - ph) // 2, pw, ph), starting_height=1, manager=m)
        self.widgets = [panel]
        s = self.game.state
        UILabel(pygame.Rect(0, 18, pw, 56), verdict(self.vp), m, container=panel, object_id="#big_title")
        UILabel(pygame.Rect(0, 76, pw, 28),
                f"{s.name} · after round {s.round} of {s.rounds} · {self.vp.get(1, 0)} to {self.vp.get(2, 0)} "
                "victory points", m, container=panel, object_id="#subtitle")
        col = (pw - 90) // 2
        for i, p in enumerate((1, 2)):
            UITextBox(breakdown_html(p, self.vp.get(p, 0), self.breakdown.get(p, [])) + side_missions_html(s, p),
                      pygame.Rect(30 + i * (col + 30), 118, col, ph - 210), m, container=panel)
        bw = (pw - 100) // 3
        self.menu = UIButton(pygame.Rect(30, ph - 76, bw, 50), "Main menu", m, container=panel,
                             object_id="#primary_button")
        self.table = UIButton(pygame.Rect(50 + bw, ph - 76, bw, 50), "Look at the table", m, container=panel)
        if self.back is None:
            self.table.disable()
        self.quit_button = UIButton(pygame.Rect(70 + 2 * bw, ph - 76, bw, 50), "Quit", m, container=panel)

    def kill_ui(self) -> None:
        """Remove the widgets."""
        for wdg in self.widgets:
            wdg.kill()
        self.widgets = []

    def handle_event(self, event: pygame.event.Event, consumed: bool) -> None:
        """Menu, table, quit."""
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            if event.ui_element is self.menu:
                self.app.show_menu()
            elif event.ui_element is self.table and self.back is not None:
                self.app.switch(self.back)
            elif event.ui_element is self.quit_button:
                self.app.quit()
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.app.show_menu()

    def draw(self, screen: pygame.Surface) -> None:
        """Background split in the players' colours."""
        screen.fill(palette.BACKGROUND)
        w, h = screen.get_size()
        pygame.draw.rect(screen, palette.PLAYER[1], (0, h - 10, w // 2, 10))
        pygame.draw.rect(screen, palette.PLAYER[2], (w // 2, h - 10, w - w // 2, 10))
