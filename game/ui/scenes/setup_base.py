"""The frame every battle set-up screen shares: the step bar at the top, Back / Next and a message line below.

The set-up is four steps, each a scene over one ``SetupState``: 1 Player 1's army, 2 Player 2's army, 3 Table,
4 Start (``STEPS``). ``Window.open_setup()`` opens it; ``SetupScene.go(step)`` moves between steps keeping the
state. The steps are scenes built on this one, so this module names none of them: the window makes them.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UILabel, UIPanel, UITextBox

from game.ui import palette
from game.ui.scenes.setup_state import SetupState
from game.ui.window import Scene

if TYPE_CHECKING:
    from game.ui.window import Window

HEADER = 56
"""Height of the step bar."""
FOOTER = 58
"""Height of the Back / Next bar."""
STEPS: tuple[str, ...] = ("Player 1's army", "Player 2's army", "Table", "Start")
"""The set-up steps, in order (step numbers are 1-based)."""
LIST_ID = "#setup_list"
"""Object id of the set-up's selection lists (rows aligned left)."""
THEME: dict[str, dict[str, dict[str, str]]] = {
    f"{LIST_ID}.@selection_list_item": {"misc": {"text_horiz_alignment": "left",
                                                 "text_horiz_alignment_padding": "8"}},
}
"""Theme additions for the set-up's own object ids (loaded into the window's theme once)."""

_themed: set[int] = set()


def ensure_theme(manager: pygame_gui.UIManager) -> None:
    """Add ``THEME`` to ``manager``'s theme (once per manager)."""
    if id(manager) in _themed:
        return
    _themed.add(id(manager))
    manager.get_theme().load_theme(THEME)


class SetupScene(Scene):
    """One set-up step: builds the step bar and footer, and its own body in ``build_body``."""

    step = 1
    """This scene's step number (1-based, ``STEPS``)."""

    def __init__(self, app: Window, state: SetupState) -> None:
        super().__init__(app)
        self.state = state
        self.widgets: list[pygame_gui.core.UIElement] = []
        self.step_buttons: list[UIButton] = []
        self.menu_button: UIButton | None = None
        self.reset_button: UIButton | None = None
        self.back_button: UIButton | None = None
        self.next_button: UIButton | None = None
        self.message_box: UITextBox | None = None
        self.message = ""
        """Feedback shown in the footer (saved, loaded, why something was refused)."""
        self.message_bad = False

    # --- widgets --------------------------------------------------------------------------------------------
    @property
    def body(self) -> pygame.Rect:
        """The part of the window between the step bar and the footer."""
        w, h = self.app.size
        return pygame.Rect(0, HEADER, w, h - HEADER - FOOTER)

    def build_ui(self) -> None:
        """Step bar, footer, then the step's own widgets."""
        m = self.app.manager
        ensure_theme(m)
        w, h = self.app.size
        top = UIPanel(pygame.Rect(0, 0, w, HEADER), starting_height=1, manager=m)
        self.widgets = [top]
        UILabel(pygame.Rect(14, 12, 170, 30), "New battle", m, container=top, object_id="#hud_title")
        self.reset_button = UIButton(pygame.Rect(w - 254, 10, 112, 34), "Start over", m, container=top,
                                     tool_tip_text="Forget this set-up: empty lists, a new table")
        self.menu_button = UIButton(pygame.Rect(w - 134, 10, 124, 34), "Main menu", m, container=top,
                                    tool_tip_text="Back to the main menu (the set-up is kept until the window closes)")
        x = 176
        bw = max(120, min(200, (w - 176 - 270) // len(STEPS) - 8))
        self.step_buttons = []
        for i, name in enumerate(STEPS, start=1):
            b = UIButton(pygame.Rect(x, 10, bw, 34), f"{i} · {name}", m, container=top,
                         object_id="#toggle_on" if i == self.step else None)
            self.step_buttons.append(b)
            x += bw + 8
        bottom = UIPanel(pygame.Rect(0, h - FOOTER, w, FOOTER), starting_height=1, manager=m)
        self.widgets.append(bottom)
        self.back_button = UIButton(pygame.Rect(w - 400, 10, 130, 38), "◀ Back", m, container=bottom)
        if self.step == 1:
            self.back_button.disable()
        label = f"Next: {STEPS[self.step]} ▶" if self.step < len(STEPS) else ""
        self.next_button = UIButton(pygame.Rect(w - 260, 10, 250, 38), label, m, container=bottom,
                                    object_id="#primary_button")
        if self.step == len(STEPS):
            self.next_button.hide()
        self.message_box = UITextBox("", pygame.Rect(8, 6, w - 420, FOOTER - 12), m, container=bottom)
        self._show_message()
        self.build_body(self.body)

    def build_body(self, rect: pygame.Rect) -> None:
        """Create the step's widgets inside ``rect``; add them to ``self.widgets``."""

    def kill_ui(self) -> None:
        """Remove every widget."""
        for wdg in self.widgets:
            wdg.kill()
        self.widgets = []
        self.step_buttons = []

    def resize(self) -> None:
        """The window changed size: keep what was typed, build the widgets again."""
        self.leave_step()
        self.kill_ui()
        self.build_ui()

    def say(self, text: str, bad: bool = False) -> None:
        """Show ``text`` in the footer (red when ``bad``)."""
        self.message, self.message_bad = text, bad
        self._show_message()

    def _show_message(self) -> None:
        if self.message_box is None:
            return
        colour = "#ff8a80" if self.message_bad else "#cfe8d4"
        self.message_box.set_text(f"<font color='{colour}'>{html.escape(self.message)}</font>")

    # --- navigation -----------------------------------------------------------------------------------------
    def go(self, step: int) -> None:
        """Go to set-up step ``step`` (the state is kept)."""
        self.leave_step()
        self.app.open_setup(self.state, step)

    def leave_step(self) -> None:
        """Called before moving to another step: store what the widgets hold (text fields) in the state."""

    def handle_event(self, event: pygame.event.Event, consumed: bool) -> None:
        """Step bar, Back, Next and Main menu; everything else goes to ``handle_body_event``."""
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            el = event.ui_element
            if el is self.menu_button:
                self.leave_step()
                self.app.show_menu()
                return
            if el is self.reset_button:
                self.app.open_setup(SetupState(), 1)
                return
            if el is self.back_button and self.step > 1:
                self.go(self.step - 1)
                return
            if el is self.next_button and self.step < len(STEPS):
                self.go(self.step + 1)
                return
            for i, b in enumerate(self.step_buttons, start=1):
                if el is b:
                    if i != self.step:
                        self.go(i)
                    return
        self.handle_body_event(event, consumed)

    def handle_body_event(self, event: pygame.event.Event, consumed: bool) -> None:
        """The step's own input."""

    def draw(self, screen: pygame.Surface) -> None:
        """Background with the players' colours at the edges (widgets are drawn on top)."""
        screen.fill(palette.BACKGROUND)
        w, h = screen.get_size()
        pygame.draw.rect(screen, palette.PLAYER[2], (0, HEADER, w, 3))
        pygame.draw.rect(screen, palette.PLAYER[1], (0, h - FOOTER - 3, w, 3))
