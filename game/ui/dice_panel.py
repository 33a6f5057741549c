"""The dice panel: the last rolls as die faces, with the score needed; successes in colour.

A roll event's data is ``{purpose, dice, need, modifier, successes, details}`` (game/engine/events.py). A die
succeeds when it scores ``need`` or more after ``modifier`` (a 1 always fails, a 6 always succeeds); rolls without
a ``need`` (e.g. dangerous terrain, 2D6 distances) are drawn in white.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

import pygame
import pygame_gui
from pygame_gui.elements import UIImage, UILabel, UIPanel

from game.engine.events import Event
from game.ui.assets import text_cache

HIT = (72, 190, 96)
"""Face of a successful die."""
MISS = (92, 96, 100)
"""Face of a failed die."""
PLAIN = (236, 236, 236)
"""Face of a die without a target score."""

PIPS = {
    1: [(0.5, 0.5)],
    2: [(0.27, 0.27), (0.73, 0.73)],
    3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
    4: [(0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)],
    5: [(0.26, 0.26), (0.74, 0.26), (0.5, 0.5), (0.26, 0.74), (0.74, 0.74)],
    6: [(0.27, 0.23), (0.73, 0.23), (0.27, 0.5), (0.73, 0.5), (0.27, 0.77), (0.73, 0.77)],
}

_ID_RE = re.compile(r" \([a-z0-9][a-z0-9_-]*\)")
_faces: dict[tuple[int, tuple[int, int, int], int], pygame.Surface] = {}


def die_face(value: int, colour: tuple[int, int, int], size: int) -> pygame.Surface:
    """A die face with pips (cached)."""
    key = (value, colour, size)
    surf = _faces.get(key)
    if surf is None:
        surf = pygame.Surface((size, size), pygame.SRCALPHA)
        pygame.draw.rect(surf, colour, (0, 0, size, size), border_radius=max(2, size // 5))
        pygame.draw.rect(surf, (20, 20, 20), (0, 0, size, size), 1, border_radius=max(2, size // 5))
        pip = (255, 255, 255) if colour in (HIT, MISS) else (20, 20, 20)
        r = max(1.5, size * 0.09)
        for px, py in PIPS.get(value, []):
            pygame.draw.circle(surf, pip, (px * size, py * size), r)
        _faces[key] = surf
    return surf


def die_succeeds(value: int, need: int | None, modifier: int) -> bool | None:
    """True/False against ``need`` (1 fails, 6 succeeds), None when there is no score to reach."""
    if need is None:
        return None
    if value == 1:
        return False
    if value == 6:
        return True
    return value + modifier >= need


def roll_result(data: dict[str, Any]) -> str:
    """What a roll came to, in a few words: "→ 3", "→ 2 wounds", "passed", "failed"."""
    purpose = str(data.get("purpose", ""))
    succ = data.get("successes")
    if "wounds" in data or (purpose.startswith("Dangerous terrain") and succ is not None):
        w = data.get("wounds", succ)
        return f"→ {w} wound{'' if w == 1 else 's'}"
    if succ is None:
        if "scatter_hit" in data:                   # Random Scatter for Artillery: the special dice from D6
            return "hit" if data["scatter_hit"] else "arrow"
        if "artillery" in data:
            return "misfire" if data["artillery"] is None else f"= {data['artillery']}\""
        if isinstance(data.get("bearing"), (int, float)):
            return f"= {data['bearing']:g}°"
        if isinstance(data.get("misfire"), str):
            return str(data["misfire"])
        if isinstance(data.get("total"), (int, float)) and "made" in data:   # a random charge distance
            return f"= {data['total']:g}\" {'made' if data['made'] else 'failed'}"
        if isinstance(data.get("range"), (int, float)):
            return f"= {data['range']:g}\""
        if isinstance(data.get("distance"), (int, float)):
            return f"= {data['distance']:g}\""
        return ""
    if purpose.startswith(("Morale test", "Fearless roll")):
        return "passed" if succ else "failed"
    return f"→ {succ}"


def short_purpose(purpose: str) -> str:
    """The purpose without unit ids in brackets: "Spearmen (spearmen-1) hit rolls" -> "Spearmen hit rolls"."""
    return _ID_RE.sub("", purpose)


def render_rolls(rolls: Sequence[dict[str, Any]], size: tuple[int, int], die: int = 24) -> pygame.Surface:
    """Draw ``rolls`` (roll event data, newest first) into a surface of ``size``.

    Each roll: its purpose (wrapped, up to two lines), then the dice with the score needed and the result at the
    right, then the modifiers that applied (the roll's ``details``, up to two lines) in small print.
    """
    w, h = size
    surf = pygame.Surface((w, h), pygame.SRCALPHA)
    if not rolls:
        hint = text_cache.get("No dice rolled yet.", 13, (150, 158, 164))
        surf.blit(hint, (6, 4))
        return surf
    y = 2
    gap = 3
    for data in rolls:
        dice = list(data.get("dice", []))
        need = data.get("need")
        mod = int(data.get("modifier") or 0)
        tags = []
        if need is not None:
            tags.append(f"{need}+" + (f" ({mod:+d})" if mod else ""))
        result = roll_result(data)
        if result:
            tags.append(result)
        tag = text_cache.get("  ".join(tags), 13, (255, 230, 140), True) if tags else None
        tag_w = tag.get_width() + 10 if tag else 0
        per_row = max(1, (w - 12 - tag_w) // (die + gap))
        titles = [text_cache.get(t, 12, (225, 230, 235))
                  for t in _wrap(short_purpose(str(data.get("purpose", "roll"))), w - 12, 12, 2)]
        title_h = sum(t.get_height() for t in titles)
        shown = dice[: per_row * 3]
        rows = max(1, (len(shown) + per_row - 1) // per_row)
        why = details_line(data)
        notes = [text_cache.get(t, 11, (150, 190, 220)) for t in _wrap(why, w - 12, 11, 2)] if why else []
        extra = sum(n.get_height() + 1 for n in notes)
        if y + title_h + 2 + rows * (die + gap) + extra > h:
            break
        for t in titles:
            surf.blit(t, (6, y))
            y += t.get_height()
        y += 2
        for i, value in enumerate(shown):
            ok = die_succeeds(value, need, mod)
            colour = PLAIN if ok is None else HIT if ok else MISS
            x = 6 + (i % per_row) * (die + gap)
            surf.blit(die_face(value, colour, die), (x, y + (i // per_row) * (die + gap)))
        if tag is not None:
            surf.blit(tag, (w - tag.get_width() - 6, y + (die - tag.get_height()) // 2))
        if len(dice) > len(shown):
            more = text_cache.get(f"+{len(dice) - len(shown)} more", 11, (180, 186, 190))
            surf.blit(more, (w - more.get_width() - 6, y + rows * (die + gap) - more.get_height()))
        y += rows * (die + gap)
        for n in notes:
            surf.blit(n, (8, y - 1))
            y += n.get_height() + 1
        y += 5
    return surf


def details_line(data: dict[str, Any]) -> str:
    """The modifiers of a roll on one line ("Quality 4+ · -1 Stealth at 12.0\" · +1 Sergeant"), or ""."""
    details = [str(d) for d in data.get("details") or []]
    return " · ".join(details)


def _wrap(text: str, width: int, size: int, max_lines: int) -> list[str]:
    """``text`` broken at spaces into lines of at most ``width`` pixels; at most ``max_lines``, the last shortened
    with an ellipsis if the text goes on."""
    from game.ui.assets import font
    f = font(size)
    lines: list[str] = []
    words = text.split(" ")
    while words and len(lines) < max_lines:
        line = words.pop(0)
        while words and f.size(line + " " + words[0])[0] <= width:
            line += " " + words.pop(0)
        lines.append(line)
    if words:
        lines[-1] = _fit(lines[-1] + " " + " ".join(words), width, size)
    return [_fit(line, width, size) for line in lines]


def _fit(text: str, width: int, size: int) -> str:
    """``text`` shortened with an ellipsis to fit ``width`` pixels."""
    from game.ui.assets import font
    f = font(size)
    if f.size(text)[0] <= width:
        return text
    while text and f.size(text + "…")[0] > width:
        text = text[:-1]
    return text + "…"


class DicePanel:
    """Panel with the rolls of the last action, newest first."""

    def __init__(self, manager: pygame_gui.UIManager, rect: pygame.Rect) -> None:
        self.panel = UIPanel(rect, starting_height=1, manager=manager)
        UILabel(pygame.Rect(8, 2, rect.w - 16, 22), "DICE", manager, container=self.panel,
                object_id="#section_title")
        self.image_rect = pygame.Rect(4, 24, rect.w - 10, rect.h - 30)
        self.image = UIImage(self.image_rect, render_rolls([], self.image_rect.size), manager, container=self.panel)
        self.rolls: list[dict[str, Any]] = []

    def show_events(self, events: Iterable[Event]) -> None:
        """Show the rolls among ``events`` (keeps the previous rolls if there are none)."""
        rolls = [e.data for e in events if e.kind == "roll"]
        if not rolls:
            return
        self.rolls = list(reversed(rolls))
        self.image.set_image(render_rolls(self.rolls, self.image_rect.size))

    def kill(self) -> None:
        """Remove the widgets."""
        self.panel.kill()
