"""A drop-down menu whose tooltip is shown (pygame_gui 0.6's ``UIDropDownMenu`` never shows its own)."""

from __future__ import annotations

from pygame_gui.elements import UIDropDownMenu


class TipDropDown(UIDropDownMenu):
    """``UIDropDownMenu`` whose ``set_tooltip`` text shows while the mouse rests on it.

    pygame_gui gives the hover to the buttons of the closed menu (the chosen option and the arrow), never to the
    drop-down itself, so the text set on the drop-down is passed on to those buttons; they are built anew each
    time the menu closes, hence the check on every update (a string comparison per frame). The open list of
    options gets no tooltip: it would cover the options."""

    def update(self, time_delta: float) -> None:
        """pygame_gui's update, then the tooltip passed on to the closed menu's buttons when they lack it."""
        super().update(time_delta)
        closed = self.menu_states.get("closed")
        if closed is None or self.current_state is not closed:
            return
        text = self.tool_tip_text
        for button in getattr(closed, "active_buttons", ()):
            if button.tool_tip_text != text:
                button.set_tooltip(text, delay=self.tool_tip_delay, wrap_width=self.tool_tip_wrap_width)


__all__ = ["TipDropDown"]
