"""The unit card: the selected (or hovered) unit's profile and state, in a pygame_gui text box."""

from __future__ import annotations

import html

import pygame
import pygame_gui
from pygame_gui.elements import UILabel, UIPanel, UITextBox

from game.engine.profiles import Weapon
from game.engine.state import GameState, Unit
from game.ui.palette import PLAYER_HTML


def weapon_text(w: Weapon) -> str:
    """A weapon as the rulebook writes it: ``Bow (24", A1, AP(1))``."""
    parts = []
    if w.range is not None:
        parts.append(f'{w.range:g}"')
    parts.append(f"A{w.attacks}")
    parts.extend(w.rules)
    return f"{w.name} ({', '.join(parts)})"


_DID = {"hold": "Held", "advance": "Advanced", "rush": "Rushed", "charge": "Charged"}


def unit_state_words(state: GameState, unit: Unit) -> list[str]:
    """The unit's state in words: removed, Shaken, fleeing, engaged, what it did this turn."""
    out: list[str] = []
    if unit.removed is not None:
        out.append(f"Removed ({unit.removed.value})")
        return out
    if unit.pose is None:
        out.append("Not deployed yet")
    if unit.fleeing:
        out.append("<font color='#ff7ad0'>Fleeing</font>")
    if unit.shaken:
        out.append("<font color='#ffaa28'>Shaken</font>")
    if unit.engaged:
        names = ", ".join(state.units[e].profile.name if e in state.units else e for e in sorted(unit.engaged_with))
        out.append(f"Engaged with {html.escape(names)}")
    if unit.move_action is not None:
        out.append(_DID.get(unit.move_action.value, unit.move_action.value) + " this turn")
    if unit.shot_targets:
        out.append("Has shot this turn")
    if not out:
        out.append("Ready")
    return out


def card_html(state: GameState, unit: Unit) -> str:
    """The card's HTML (pygame_gui subset)."""
    p = unit.profile
    colour = PLAYER_HTML.get(unit.player, "#ffffff")
    lines = [
        f"<font size=5><b>{html.escape(p.name)}</b></font>  <font color='{colour}'>Player {unit.player}</font>",
        f"<font color='#9aa4ac'>{html.escape(unit.id)} · {unit.cost} pts</font>",
        f"<b>Quality</b> {p.quality}+   <b>Defense</b> {p.defense}+",
        f"<b>Models</b> {unit.models}/{unit.starting_models}   {unit.per_row} per row"
        + (f"   <b>Wounds</b> {unit.wounds}/{p.tough}" if p.tough > 1 else ""),
    ]
    if p.weapons:
        lines.append("<b>Weapons</b> " + "; ".join(html.escape(weapon_text(w)) for w in p.weapons))
    if p.rules:
        lines.append("<b>Rules</b> " + html.escape(", ".join(p.rules)))
    if unit.upgrades:
        lines.append("<b>Command</b> " + html.escape(", ".join(sorted(unit.upgrades))))
    if unit.pose is not None:
        lines.append(f"<font color='#9aa4ac'>at ({unit.pose.x:.1f}, {unit.pose.y:.1f}) facing "
                     f"{unit.pose.facing:.0f}°</font>")
    lines.append("<b>State</b> " + "; ".join(unit_state_words(state, unit)))
    return "<br>".join(lines)


class UnitCard:
    """Panel showing one unit's profile and state; rebuilt only when something shown changes."""

    def __init__(self, manager: pygame_gui.UIManager, rect: pygame.Rect) -> None:
        self.panel = UIPanel(rect, starting_height=1, manager=manager)
        self.title = UILabel(pygame.Rect(8, 2, rect.w - 16, 22), "UNIT", manager, container=self.panel,
                             object_id="#section_title")
        self.box = UITextBox("<font color='#9aa4ac'>Click a unit to see its profile.</font>",
                             pygame.Rect(4, 24, rect.w - 10, rect.h - 30), manager, container=self.panel)
        self._key: object = None

    def show(self, state: GameState, unit_id: str | None) -> None:
        """Show ``unit_id`` (or a hint when None)."""
        unit = state.units.get(unit_id) if unit_id else None
        if unit is None:
            key: object = None
        else:
            key = (unit.id, unit.models, unit.wounds, unit.shaken, unit.fleeing, frozenset(unit.engaged_with),
                   unit.move_action, unit.removed, unit.pose, tuple(unit.shot_targets))
        if key == self._key:
            return
        self._key = key
        if unit is None:
            self.box.set_text("<font color='#9aa4ac'>Click a unit to see its profile.</font>")
        else:
            self.box.set_text(card_html(state, unit))

    def kill(self) -> None:
        """Remove the widgets."""
        self.panel.kill()
