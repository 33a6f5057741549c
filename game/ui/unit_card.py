"""The unit card: the selected (or hovered) unit's profile, special rules in words, state and the modifiers in
force, in a pygame_gui text box.

The rules' summaries and the modifiers come from the engine (``game.engine.special_rules.describe`` and
``modifiers_in_force``; ``shooting.to_hit_modifiers`` / ``defense_modifiers`` against the other unit under the
mouse), so the card says what the dice will use.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

import pygame
import pygame_gui
from pygame_gui.elements import UILabel, UIPanel, UITextBox

from game.engine.profiles import Weapon
from game.engine.state import GameState, Unit
from game.ui.describe import morale_word, ruleset_of
from game.ui.palette import PLAYER_HTML

GREY = "#9aa4ac"
RULE = "#ffe08a"
MOD = "#a8d8ff"
WARN = "#ffaa28"


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
    """The unit's state in words: removed, Shaken, fleeing, engaged, where it stands in the round's activations and
    what it did this turn (the ruleset's words: ``Ruleset.activation_words``, ``activation_status``)."""
    out: list[str] = []
    if unit.removed is not None:
        out.append(f"Removed ({unit.removed.value})")
        return out
    if unit.pose is None:
        out.append("Not deployed yet")
    if unit.fleeing:
        out.append("<font color='#ff7ad0'>Fleeing</font>")
    if unit.shaken:
        out.append(f"<font color='#ffaa28'>{html.escape(morale_word(state))}</font>")
    if unit.engaged:
        parts = []
        for e in sorted(unit.engaged_with):
            other = state.units.get(e)
            name = other.profile.name if other is not None else e
            arc = unit.contact_arcs.get(e)
            parts.append(name + (f" (in its {arc.value})" if arc is not None and arc.value != "front" else ""))
        out.append(f"Engaged with {html.escape(', '.join(parts))}")
    rules = ruleset_of(state)
    when = getattr(rules, "activation_words", ("this turn", "turn"))[0]   # AoWFBR: "this turn"
    status = rules.activation_status(state, unit) if rules is not None else None
    did = []
    if unit.move_action is not None:
        did.append(_DID.get(unit.move_action.value, unit.move_action.value))
    if unit.shot_targets:
        names = ", ".join(state.units[t].profile.name if t in state.units else t for t in unit.shot_targets)
        did.append(f"shot at {html.escape(names)}")
    if status:        # an activation ruleset: "Activated this round: Held, shot at Orcs"
        out.append(status + (": " + ", ".join(did) if did else ""))
    elif did:
        out.append(f"{'; '.join(d[0].upper() + d[1:] for d in did)} {when}")
    if unit.embarked_in:
        transport = state.units.get(unit.embarked_in)
        name = transport.profile.name if transport is not None else unit.embarked_in
        out.append(f"Inside {unit_link(unit.embarked_in, name)} (sees nothing outside; may charge out)")
    riders = state.passengers(unit.id)
    if riders:
        out.append("Carrying " + ", ".join(unit_link(r.id, r.profile.name) for r in riders))
    if not out:
        out.append("Ready")
    return out


def unit_link(uid: str, name: str) -> str:
    """A link on the card that selects unit ``uid`` when clicked (``UnitCard.clicked_unit``)."""
    return f"<a href='unit:{html.escape(uid, quote=True)}'>{html.escape(name)}</a>"


def rule_lines(unit: Unit, texts: Mapping[str, str] | None = None) -> list[tuple[str, str]]:
    """The unit's special rules, weapon rules, hero and command group as (label, summary in our words); ``texts``:
    the ruleset's own summaries of rules its book changes (``Ruleset.rule_texts``), by rule name."""
    try:
        from game.engine.special_rules import describe
        lines = describe(unit)
    except (ImportError, AttributeError, KeyError):
        return [(r, "") for r in unit.profile.rules]
    if not texts:
        return lines
    # labels are "Tough(3)", "Bow: Poison" (a weapon's rule) or "Hero Name": the rule's name is the last part
    return [(label, texts.get(label.split(": ")[-1].split("(")[0].strip(), summary)) for label, summary in lines]


def magic_words(unit: Unit) -> list[str]:
    """Spell tokens and the spell effects on the unit, in words."""
    out = []
    if unit.spell_tokens or unit.dispel_tokens:
        out.append(f"{unit.spell_tokens} spell token{'s' if unit.spell_tokens != 1 else ''}, "
                   f"{unit.dispel_tokens} dispel token{'s' if unit.dispel_tokens != 1 else ''}")
    for e in unit.effects:
        stat = str(getattr(e, "stat", "")).replace("_", " ")
        value = getattr(e, "value", 0)
        spell = getattr(e, "spell", "spell")
        duration = str(getattr(e, "duration", "")).replace("_", " ")
        out.append(f"{value:+d} {stat} ({spell}" + (f", for a {duration})" if duration else ")"))
    return out


def modifiers_words(state: GameState, unit: Unit) -> list[str]:
    """What changes the unit's rolls and moves right now (``special_rules.modifiers_in_force``)."""
    rules = ruleset_of(state)
    try:
        if rules is not None:
            words = list(rules.in_force_words(state, unit))      # the ruleset's words (AoF:R: its own meanings)
        else:
            from game.engine.special_rules import modifiers_in_force
            words = list(modifiers_in_force(state, unit))
    except (ImportError, AttributeError):
        return []
    own = getattr(ruleset_of(state), "shaken_text", None)     # the ruleset's words for its Shaken (Wavering)
    if own and unit.shaken:
        words = [own if w.startswith("Shaken:") else w for w in words]
    return words


def against_words(state: GameState, unit: Unit, other: Unit) -> list[str]:
    """The modifiers shooting between ``unit`` and the enemy ``other`` would get now, in words ("Shooting at
    Orcs: -1 to hit (Stealth at 12.0"); their Defense +1 Cover")."""
    from game.engine import shooting
    from game.engine.special_rules import indirect
    out: list[str] = []
    if not (unit.on_table and other.on_table) or unit.player == other.player:
        return out
    scene = state.scene
    d = scene.distance(unit.id, other.id)
    out.append(f"{d:.1f}\" away (closest points)")
    try:
        sees, seen = scene.unit_has_sight(unit.id, other.id), scene.unit_has_sight(other.id, unit.id)
    except Exception:  # noqa: BLE001 - the card must never break the window
        sees = seen = False
    out.append(("Sees it" if sees else "Does not see it") + " · " + ("is seen by it" if seen else "is not seen by it")
               + " (front arcs, sight lines)")
    for a, b, verb, can in ((unit, other, "Shooting at it", sees), (other, unit, "Shot by it", seen)):
        arms = [arm for arm in shooting.ranged_arms(a) if can or indirect(arm.profile, arm.weapon)]
        if not arms:
            continue
        arm = arms[0]
        try:
            rows = shooting.ALL_ROWS if getattr(ruleset_of(state), "all_models_shoot", False) else 2
            models = scene.models_with_sight(a.id, b.id, rows, None) or list(range(min(a.models, 5)))
            rs = ruleset_of(state)
            hit, block = shooting.volley_modifiers(state, a, b, arm, models,
                                                   cover_to_hit=getattr(rs, "cover_to_hit", False),
                                                   rules=getattr(rs, "shot_rules", shooting.AOWFBR_SHOTS))
        except Exception:  # noqa: BLE001 - the card must never break the window
            continue
        words = [f"{m.value:+d} to hit ({m.reason})" for m in hit]
        words += [f"{b.profile.name} {m.value:+d} Defense ({m.reason})" for m in block]
        out.append(f"{verb} ({arm.name}): " + ("; ".join(words) if words else "no modifiers"))
    return out


def card_html(state: GameState, unit: Unit, other: Unit | None = None) -> str:
    """The card's HTML (pygame_gui subset). ``other``: a unit under the mouse to compare with."""
    p = unit.profile
    colour = PLAYER_HTML.get(unit.player, "#ffffff")
    lines = [
        f"<font size=5><b>{html.escape(p.name)}</b></font>  <font color='{colour}'>Player {unit.player}</font>",
        f"<font color='{GREY}'>{html.escape(unit.id)} · {unit.cost} pts</font>",
        f"<b>Quality</b> {p.quality}+   <b>Defense</b> {p.defense}+   "
        f"<b>Models</b> {unit.models}/{unit.starting_models}"
        + (f"   <b>Wounds</b> {unit.wounds} (Tough {p.tough})" if p.tough > 1 else ""),
    ]
    if p.weapons:
        lines.append("<b>Weapons</b> " + "; ".join(html.escape(weapon_text(w)) for w in p.weapons))
    if unit.upgrades:
        lines.append("<b>Command</b> " + html.escape(", ".join(sorted(u.capitalize() for u in unit.upgrades))))
    lines.append("<b>State</b> " + "; ".join(unit_state_words(state, unit)))
    magic = magic_words(unit)
    if magic:
        lines.append("<b>Magic</b> " + html.escape("; ".join(magic)))
    mods = modifiers_words(state, unit)
    if mods:
        lines.append("<b>In force</b>")
        lines += [f"<font color='{MOD}'>  · {html.escape(m)}</font>" for m in mods]
    if other is not None and other.id != unit.id:
        vs = against_words(state, unit, other)
        if vs:
            lines.append(f"<b>Against {html.escape(other.profile.name)}</b>")
            lines += [f"<font color='{MOD}'>  · {html.escape(m)}</font>" for m in vs]
    rules = rule_lines(unit, getattr(ruleset_of(state), "rule_texts", None))
    if rules:
        lines.append("<b>Special rules</b>")
        for label, summary in rules:
            lines.append(f"<font color='{RULE}'>{html.escape(label)}</font>"
                         + (f" <font color='#cfd6dc'>— {html.escape(summary)}</font>" if summary else ""))
    if unit.pose is not None and unit.embarked_in is None and loose_models(state, unit) is not None:
        markers = loose_models(state, unit) or 0
        lines.append(f"<font color='{GREY}'>loose models around ({unit.pose.x:.1f}, {unit.pose.y:.1f})"
                     + (f"; {markers} wound marker{'s' if markers != 1 else ''} on the last model" if markers else "")
                     + "</font>")
    elif unit.pose is not None and unit.embarked_in is None:
        lines.append(f"<font color='{GREY}'>at ({unit.pose.x:.1f}, {unit.pose.y:.1f}) facing "
                     f"{unit.pose.facing:.0f}°, {unit.per_row} per row</font>")
    return "<br>".join(lines)


def card_key(unit: Unit | None, other: Unit | None, stamp: Any = None) -> object:
    """What the card shows depends on (rebuilt only when it changes)."""
    if unit is None:
        return None
    return (unit.id, unit.models, unit.wounds, unit.shaken, unit.fleeing, frozenset(unit.engaged_with),
            unit.move_action, unit.removed, unit.pose, unit.embarked_in, tuple(unit.shot_targets), unit.spell_tokens,
            unit.dispel_tokens, len(unit.effects), other.id if other is not None else None,
            other.pose if other is not None else None, stamp)


class UnitCard:
    """Panel showing one unit's profile and state; rebuilt only when something shown changes."""

    def __init__(self, manager: pygame_gui.UIManager, rect: pygame.Rect) -> None:
        self.panel = UIPanel(rect, starting_height=1, manager=manager)
        self.title = UILabel(pygame.Rect(8, 2, rect.w - 16, 22), "UNIT", manager, container=self.panel,
                             object_id="#section_title")
        self.box = UITextBox(f"<font color='{GREY}'>Click a unit to see its profile.</font>",
                             pygame.Rect(4, 24, rect.w - 10, rect.h - 30), manager, container=self.panel)
        self._key: object = None
        self.html = ""
        """The HTML shown (tests read it)."""

    def show(self, state: GameState, unit_id: str | None, other_id: str | None = None, stamp: Any = None) -> None:
        """Show ``unit_id`` (or a hint when None); ``other_id``: an enemy under the mouse to compare with."""
        unit = state.units.get(unit_id) if unit_id else None
        other = state.units.get(other_id) if other_id and unit is not None else None
        if other is not None and unit is not None and other.player == unit.player:
            other = None
        key = card_key(unit, other, stamp)
        if key == self._key:
            return
        self._key = key
        if unit is None:
            self.html = f"<font color='{GREY}'>Click a unit to see its profile.</font>"
        else:
            self.html = card_html(state, unit, other)
        self.box.set_text(self.html)

    def clicked_unit(self, event: pygame.event.Event) -> str | None:
        """The unit id of a unit link on the card clicked by ``event`` (a Transport's passengers, a passenger's
        Transport), or None."""
        if event.type != pygame_gui.UI_TEXT_BOX_LINK_CLICKED or getattr(event, "ui_element", None) is not self.box:
            return None
        target = str(getattr(event, "link_target", ""))
        return target.split(":", 1)[1] if target.startswith("unit:") else None

    def kill(self) -> None:
        """Remove the widgets."""
        self.panel.kill()


def loose_models(state: GameState, unit: Unit) -> int | None:
    """AoF: Skirmish: the wound markers of the unit's most wounded model (0 without any); None for a unit in
    formation."""
    from game.engine.skirmish.loose import Warband

    w = state.activation
    if not isinstance(w, Warband):
        return None
    return max((m.wounds for m in w.models.get(unit.id, [])), default=0)
