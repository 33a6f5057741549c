"""Asset paths, fonts and a cache of rendered text.

Every piece of text the window draws itself (unit labels, terrain names, rulers) goes through ``TextCache`` so
that a frame never renders the same string twice.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from pathlib import Path
from typing import Any

import pygame

ASSETS = Path(__file__).resolve().parents[2] / "assets"
"""The project's assets folder."""
FONT_REGULAR = ASSETS / "fonts" / "DejaVuSans.ttf"
"""DejaVu Sans, the window's font (Bitstream Vera licence, see assets/fonts/LICENSE-DejaVu.txt)."""
FONT_BOLD = ASSETS / "fonts" / "DejaVuSans-Bold.ttf"
"""DejaVu Sans Bold."""
THEME = ASSETS / "theme.json"
"""pygame_gui theme."""
FONT_NAME = "dejavu"
"""Name the theme and the HTML text boxes use for DejaVu Sans."""


def load_theme() -> dict[str, Any]:
    """The pygame_gui theme as a dict, with the font paths made absolute (so the working folder does not matter)."""
    with THEME.open(encoding="utf-8") as f:
        theme: dict[str, Any] = json.load(f)
    for block in theme.values():
        font = block.get("font") if isinstance(block, dict) else None
        if isinstance(font, dict):
            font.setdefault("name", FONT_NAME)
            font["regular_path"] = str(FONT_REGULAR)
            font["bold_path"] = str(FONT_BOLD)
            font["italic_path"] = str(FONT_REGULAR)
            font["bold_italic_path"] = str(FONT_BOLD)
    return theme


_fonts: dict[tuple[int, bool], pygame.font.Font] = {}


def font(size: int, bold: bool = False) -> pygame.font.Font:
    """DejaVu Sans at ``size`` pixels (loaded once per size)."""
    key = (size, bold)
    f = _fonts.get(key)
    if f is None:
        if not pygame.font.get_init():
            pygame.font.init()
        f = pygame.font.Font(str(FONT_BOLD if bold else FONT_REGULAR), size)
        _fonts[key] = f
    return f


Colour = tuple[int, int, int] | tuple[int, int, int, int]


class TextCache:
    """Rendered text surfaces by (text, size, colour, bold, background); least recently used dropped first."""

    def __init__(self, capacity: int = 3000) -> None:
        self.capacity = capacity
        self._cache: OrderedDict[tuple[Any, ...], pygame.Surface] = OrderedDict()

    def get(self, text: str, size: int, colour: Colour = (240, 240, 240), bold: bool = False,
            background: Colour | None = None, pad: int = 0) -> pygame.Surface:
        """The text rendered antialiased; with ``background`` it sits on a (translucent) box with ``pad`` px."""
        key = (text, size, colour, bold, background, pad)
        surf = self._cache.get(key)
        if surf is not None:
            self._cache.move_to_end(key)
            return surf
        rendered = font(size, bold).render(text, True, colour)
        if background is not None:
            box = pygame.Surface((rendered.get_width() + 2 * pad, rendered.get_height() + 2 * pad), pygame.SRCALPHA)
            box.fill(background)
            box.blit(rendered, (pad, pad))
            rendered = box
        self._cache[key] = rendered
        if len(self._cache) > self.capacity:
            self._cache.popitem(last=False)
        return rendered


text_cache = TextCache()
"""The window's shared text cache."""
