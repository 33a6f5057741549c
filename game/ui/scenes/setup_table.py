"""Set-up step 3: the table, seen from above (rulebook "Terrain Setup Guidelines", "Terrain Placement").

Generate a whole table (a style from ``game.setup.terrain_gen.STYLES`` and a seed: the same seed and style give the
same table), or place pieces one by one: pick a kind in the palette, click the table. Click a piece to select it,
drag it to move it, Q/E or the mouse wheel turn it (5°, 15° with Shift, as units pivot in the battle), Delete
removes it. The panel shows live how the table measures against the guidelines (pieces, blocking, cover, difficult,
dangerous, gaps).
"""

from __future__ import annotations

import html
import random
from typing import TYPE_CHECKING

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIDropDownMenu, UIImage, UILabel, UIPanel, UITextBox, UITextEntryLine

from game.setup.ruleset_offer import offer
from game.setup.terrain_gen import MIN_GAP, STYLE_NAMES, STYLES, TerrainPieceSpec, piece_size
from game.ui import palette
from game.ui.assets import text_cache
from game.ui.draw_terrain import TRAIT_WORDS, StaticLayer
from game.ui.scenes.setup_base import SetupScene
from game.ui.scenes.setup_state import (
    KIND_WORDS,
    PALETTE,
    TABLE_SIZE,
    SetupState,
    guideline_report,
    make_piece,
    moved,
    next_name,
    piece_at,
    rotated,
)
from game.ui.table_view import TableView
from game.ui.tip_drop_down import TipDropDown
from geometry.pose import Point

if TYPE_CHECKING:
    from game.ui.window import Window

SIDE = 390
"""Width of the panel right of the table."""
TURN_STEP = 5.0
"""Degrees per Q/E press or wheel notch (as units pivot in the battle)."""
TURN_STEP_COARSE = 15.0
"""Degrees per press with Shift held (coarser, as in the battle)."""
DEPLOY_DEPTH = 12.0
"""Deployment zones drawn along the long edges (rulebook "Deploying Armies")."""
HINT = ("Click a piece to select it · drag to move · Q/E or wheel: turn 5° (Shift: 15°) · Delete: remove · "
        "dashed lines: the 12\" deployment zones")
"""The controls, drawn under the table."""


def report_html(pieces: list[TerrainPieceSpec]) -> str:
    """The guideline report as HTML: a green tick, a red cross or a grey dot per line."""
    rows = []
    for line in guideline_report(pieces):
        if line.ok is True:
            mark, colour = "✓", "#8fd6a0"
        elif line.ok is False:
            mark, colour = "✗", "#ff8a80"
        else:
            mark, colour = "·", "#aab4bc"
        rows.append(f"<font color='{colour}'>{mark} <b>{html.escape(line.label)}</b>: {html.escape(line.value)}"
                    f"</font> <font color='#9aa4ac'>({html.escape(line.target)})</font>")
    return "<br>".join(rows)


def piece_html(piece: TerrainPieceSpec) -> str:
    """A terrain piece in words: name, kind, size and rules."""
    short, long_ = piece_size(piece)
    traits = ", ".join(TRAIT_WORDS.get(t, t) for t in sorted(piece.traits)) or "no rules (open ground)"
    return (f"<b>{html.escape(piece.name)}</b> <font color='#9aa4ac'>({KIND_WORDS.get(piece.kind, piece.kind)}, "
            f"{long_:.1f}\" × {short:.1f}\")</font><br>{html.escape(traits)}")


def too_close(pieces: list[TerrainPieceSpec], index: int) -> str:
    """Words about the pieces that piece ``index`` overlaps or comes within 6" of ("" if none): AoWFBR "Terrain
    Placement" recommends gaps of at least 6" so that large units fit through."""
    shape = pieces[index].shape()
    over, near = [], []
    for i, other in enumerate(pieces):
        if i == index:
            continue
        d = float(shape.distance(other.shape()))
        if d <= 1e-9:
            over.append(other.name)
        elif d < MIN_GAP:
            near.append(other.name)
    parts = []
    if over:
        parts.append("overlaps " + ", ".join(over))
    if near:
        parts.append(f"under {MIN_GAP:g}\" from " + ", ".join(near))
    return "; ".join(parts)


class TableScene(SetupScene):
    """Set-up step 3: generate or edit the terrain."""

    step = 3

    def __init__(self, app: Window, state: SetupState) -> None:
        super().__init__(app, state)
        state.ensure_table()
        self.view = TableView(pygame.Rect(0, 0, 800, 600), *TABLE_SIZE)
        self.static: StaticLayer | None = None
        self._static_key: object = None
        self.armed: str | None = None
        """The kind the next click on the table places, or None."""
        self.selected: int | None = None
        """Index of the selected piece."""
        self.hover: int | None = None
        self.drag: tuple[int, Point, TerrainPieceSpec] | None = None
        """(piece index, table point grabbed, the piece before the drag) while dragging."""
        self.mouse: tuple[int, int] = (0, 0)
        self.style_labels = {STYLE_NAMES[s]: s for s in STYLES}
        self.style_menu: UIDropDownMenu | None = None
        self.seed_entry: UITextEntryLine | None = None
        self.generate_button: UIButton | None = None
        self.reroll_button: UIButton | None = None
        self.kind_buttons: dict[UIButton, str] = {}
        self._kind_ids: dict[UIButton, str | None] = {}
        self.piece_box: UITextBox | None = None
        self.turn_left: UIButton | None = None
        self.turn_right: UIButton | None = None
        self.delete_button: UIButton | None = None
        self.clear_button: UIButton | None = None
        self.report_box: UITextBox | None = None
        self._report_key: object = None

    # --- layout ---------------------------------------------------------------------------------------------
    def build_body(self, rect: pygame.Rect) -> None:
        """The table view on the left, the panel on the right."""
        m = self.app.manager
        w = rect.w - SIDE - 10
        two = text_cache.get(HINT, 13, (200, 210, 218)).get_width() > w - 20      # the hint under it on two lines
        table = pygame.Rect(rect.x, rect.y, w, rect.h - (36 if two else 28))
        self.view.rect = pygame.Rect(table)
        self.view.fit()
        r = pygame.Rect(rect.right - SIDE - 6, rect.y + 8, SIDE, rect.h - 16)
        panel = UIPanel(r, starting_height=1, manager=m)
        self.widgets.append(panel)
        w = r.w - 24
        UILabel(pygame.Rect(10, 8, w, 22), "GENERATE A TABLE", m, container=panel, object_id="#section_title")
        current = STYLE_NAMES.get(self.state.style, STYLE_NAMES["guidelines"])
        self.style_menu = TipDropDown(list(self.style_labels), current, pygame.Rect(10, 32, w, 32), m,
                                         container=panel, expansion_height_limit=260)
        UILabel(pygame.Rect(10, 70, 48, 32), "Seed", m, container=panel)
        self.seed_entry = UITextEntryLine(pygame.Rect(58, 70, 110, 32), m, container=panel)
        self.seed_entry.set_allowed_characters("numbers")
        self.seed_entry.set_text_length_limit(9)
        self.seed_entry.set_text(str(self.state.seed))
        self.generate_button = UIButton(pygame.Rect(176, 70, w - 166, 32), "Generate", m, container=panel,
                                        object_id="#primary_button",
                                        tool_tip_text="A new table from this style and seed (replaces the terrain)"
                                                      "; the same seed gives the same table")
        self.reroll_button = UIButton(pygame.Rect(10, 108, w, 30), "⚄ Roll a new seed and generate", m,
                                      container=panel)
        UILabel(pygame.Rect(10, 148, w, 22), "PLACE A PIECE — PICK A KIND, CLICK THE TABLE", m, container=panel,
                object_id="#section_title")
        self.kind_buttons = {}
        self._kind_ids = {}
        cols = 3
        bw = (w - 8) // cols
        played = offer(self.state.ruleset).kinds     # only the kinds the battle's ruleset plays
        for i, kind in enumerate(k for k in PALETTE if k in played):
            cx, cy = 10 + (i % cols) * (bw + 4), 172 + (i // cols) * 34
            traits = ", ".join(TRAIT_WORDS.get(t, t) for t in sorted(make_piece(kind, 0, 0, "x").traits))
            b = UIButton(pygame.Rect(cx + 16, cy, bw - 18, 30), KIND_WORDS[kind], m, container=panel,
                         tool_tip_text=f"{KIND_WORDS[kind]}: {traits}. Click, then click the table.")
            self.kind_buttons[b] = kind
            self._kind_ids[b] = None
            swatch = pygame.Surface((12, 16))
            swatch.fill(palette.TERRAIN.get(kind, palette.TERRAIN["open"]))
            pygame.draw.rect(swatch, (15, 15, 15), swatch.get_rect(), 1)
            UIImage(pygame.Rect(cx, cy + 7, 12, 16), swatch, m, container=panel)
        y = 172 + 4 * 34 + 8
        UILabel(pygame.Rect(10, y, w, 22), "SELECTED PIECE", m, container=panel, object_id="#section_title")
        self.piece_box = UITextBox("", pygame.Rect(10, y + 24, w, 62), m, container=panel)
        y += 92
        bw2 = (w - 8) // 3
        self.turn_left = UIButton(pygame.Rect(10, y, bw2, 30), "↺ Turn (Q)", m, container=panel)
        self.turn_right = UIButton(pygame.Rect(14 + bw2, y, bw2, 30), "↻ Turn (E)", m, container=panel)
        self.delete_button = UIButton(pygame.Rect(18 + 2 * bw2, y, bw2, 30), "Delete", m, container=panel)
        y += 42
        UILabel(pygame.Rect(10, y, w, 22), "GUIDELINES (AoWFBR TERRAIN PLACEMENT)", m, container=panel,
                object_id="#section_title")
        self.report_box = UITextBox("", pygame.Rect(10, y + 24, w, max(40, r.h - y - 72)), m, container=panel)
        self.clear_button = UIButton(pygame.Rect(10, r.h - 42, w, 30), "Clear the table", m, container=panel,
                                     tool_tip_text="Remove every piece (then place your own)")
        self._report_key = None
        self.refresh()

    def refresh(self) -> None:
        """Update the selected piece's box, its buttons and the guideline report."""
        terrain = self.state.terrain
        if self.selected is not None and self.selected >= len(terrain):
            self.selected = None
        if self.piece_box is not None:
            if self.selected is None:
                self.piece_box.set_text("<font color='#9aa4ac'>Click a piece on the table to select it.</font>")
            else:
                text = piece_html(terrain[self.selected])
                near = too_close(terrain, self.selected)
                if near:
                    text += f"<br><font color='#ffcc80'>⚠ {html.escape(near)}</font>"
                self.piece_box.set_text(text)
        for b in (self.turn_left, self.turn_right, self.delete_button):
            if b is not None:
                b.enable() if self.selected is not None else b.disable()
        key = tuple(terrain)
        if self.report_box is not None and key != self._report_key:
            self._report_key = key
            self.report_box.set_text(report_html(terrain))
        for b, kind in self.kind_buttons.items():
            wanted = "#toggle_on" if kind == self.armed else None
            if self._kind_ids.get(b, "-") != wanted:
                self._kind_ids[b] = wanted
                b.change_object_id(wanted)

    # --- editing --------------------------------------------------------------------------------------------
    def generate(self, seed: int | None = None) -> None:
        """Generate a table from the style chosen and ``seed`` (else the seed typed, else a new one)."""
        if seed is None:
            text = self.seed_entry.get_text().strip() if self.seed_entry is not None else ""
            seed = int(text) if text.isdigit() else random.SystemRandom().randrange(1, 100000)
        style = self.style_labels.get(self.style_menu.selected_option[0], "guidelines") \
            if self.style_menu is not None else self.state.style
        self.state.generate(seed, style)
        if self.seed_entry is not None:
            self.seed_entry.set_text(str(seed))
        self.selected = None
        notes = " · ".join(self.state.notes[:4])
        self.say(f"Generated {len(self.state.terrain)} pieces ({STYLE_NAMES[style]}, seed {seed}; the same seed and "
                 f"style give the same table)." + (f" {notes}" if notes else ""))
        self.refresh()

    def place(self, kind: str, point: Point) -> int:
        """Put a piece of ``kind`` centred on ``point``; returns its index (it becomes the selected piece)."""
        x = min(max(point[0], 0.0), TABLE_SIZE[0])
        y = min(max(point[1], 0.0), TABLE_SIZE[1])
        piece = make_piece(kind, x, y, next_name(self.state.terrain, kind))
        self.state.terrain.append(piece)
        self.selected = len(self.state.terrain) - 1
        self.say(f"Placed {piece.name}. Drag it to move it, Q/E to turn it, Delete to remove it.")
        self.refresh()
        return self.selected

    def turn(self, index: int, degrees: float) -> None:
        """Turn piece ``index`` clockwise by ``degrees``."""
        self.state.terrain[index] = rotated(self.state.terrain[index], degrees)
        self.refresh()

    def delete(self, index: int) -> None:
        """Remove piece ``index``."""
        piece = self.state.terrain.pop(index)
        self.selected = None
        self.say(f"Removed {piece.name}.")
        self.refresh()

    # --- input ----------------------------------------------------------------------------------------------
    def handle_body_event(self, event: pygame.event.Event, consumed: bool) -> None:
        """Panel buttons, then the mouse and keys on the table."""
        t = event.type
        if t == pygame_gui.UI_BUTTON_PRESSED:
            el = event.ui_element
            if el is self.generate_button:
                self.generate()
            elif el is self.reroll_button:
                self.generate(random.SystemRandom().randrange(1, 100000))
            elif el in self.kind_buttons:
                kind = self.kind_buttons[el]
                self.armed = None if self.armed == kind else kind
                if self.armed:
                    self.say(f"Click the table to place a {KIND_WORDS[kind].lower()} (hold Shift to place several; "
                             f"Esc or right click to stop).")
                self.refresh()
            elif el is self.turn_left and self.selected is not None:
                self.turn(self.selected, -TURN_STEP)
            elif el is self.turn_right and self.selected is not None:
                self.turn(self.selected, TURN_STEP)
            elif el is self.delete_button and self.selected is not None:
                self.delete(self.selected)
            elif el is self.clear_button:
                self.state.terrain.clear()
                self.selected = None
                self.say("The table is empty: pick a kind on the right and click the table to place terrain.")
                self.refresh()
            return
        if t == pygame_gui.UI_TEXT_ENTRY_FINISHED and event.ui_element is self.seed_entry:
            self.generate()
            return
        if t == pygame.MOUSEMOTION:
            self.mouse = event.pos
            self._motion(event.pos)
        elif t == pygame.MOUSEBUTTONDOWN and not consumed and self.view.rect.collidepoint(event.pos):
            self.mouse = event.pos
            if event.button == 1:
                self._press(event.pos)
            elif event.button == 3:
                self.armed = None
                self.selected = None
                self.refresh()
        elif t == pygame.MOUSEBUTTONUP and event.button == 1 and self.drag is not None:
            index, _, before = self.drag
            self.drag = None
            if index < len(self.state.terrain) and self.state.terrain[index] != before:
                self.refresh()
        elif t == pygame.MOUSEWHEEL and not consumed and self.view.rect.collidepoint(self.mouse):
            target = self.hover if self.hover is not None else self.selected
            if target is not None and event.y:
                coarse = pygame.key.get_mods() & pygame.KMOD_SHIFT
                step = TURN_STEP_COARSE if coarse else TURN_STEP
                self.selected = target
                self.turn(target, step if event.y < 0 else -step)
        elif t == pygame.KEYDOWN and not consumed:
            self._key(event)

    def _press(self, pos: tuple[int, int]) -> None:
        point = self.view.to_table(pos)
        if self.armed is not None:
            kind = self.armed
            self.place(kind, point)
            if not pygame.key.get_mods() & pygame.KMOD_SHIFT:
                self.armed = None
                self.refresh()
            return
        index = piece_at(self.state.terrain, point, reach=0.4)
        self.selected = index
        if index is not None:
            self.drag = (index, point, self.state.terrain[index])
        self.refresh()

    def _motion(self, pos: tuple[int, int]) -> None:
        point = self.view.to_table(pos)
        if self.drag is not None:
            index, start, before = self.drag
            if index < len(self.state.terrain):
                self.state.terrain[index] = moved(before, point[0] - start[0], point[1] - start[1])
            return
        self.hover = piece_at(self.state.terrain, point) if self.view.rect.collidepoint(pos) else None

    def _key(self, event: pygame.event.Event) -> None:
        coarse = event.mod & pygame.KMOD_SHIFT
        step = TURN_STEP_COARSE if coarse else TURN_STEP
        if event.key == pygame.K_q and self.selected is not None:
            self.turn(self.selected, -step)
        elif event.key == pygame.K_e and self.selected is not None:
            self.turn(self.selected, step)
        elif event.key in (pygame.K_DELETE, pygame.K_BACKSPACE) and self.selected is not None:
            self.delete(self.selected)
        elif event.key == pygame.K_ESCAPE:
            self.armed = None
            self.selected = None
            self.refresh()

    # --- drawing --------------------------------------------------------------------------------------------
    def draw(self, screen: pygame.Surface) -> None:
        """The table and terrain, deployment zones, the selection, the piece about to be placed, the hints."""
        super().draw(screen)
        terrain = self.state.terrain
        dragging = self.drag[0] if self.drag is not None else None
        shown = [p for i, p in enumerate(terrain) if i != dragging]
        key = (tuple(shown), dragging)
        if key != self._static_key or self.static is None:
            self.static = StaticLayer(TABLE_SIZE[0], TABLE_SIZE[1], [p.to_shape(i) for i, p in enumerate(shown)],
                                      [p.kind for p in shown])
            self._static_key = key
        self.static.draw(screen, self.view)
        clip = screen.get_clip()
        screen.set_clip(self.view.rect)
        self._draw_zones(screen)
        if dragging is not None and dragging < len(terrain):
            self._draw_piece(screen, terrain[dragging], 255)
        if self.hover is not None and self.hover < len(terrain) and self.hover != self.selected:
            pygame.draw.polygon(screen, (220, 230, 240), self._pts(terrain[self.hover]), 1)
        if self.selected is not None and self.selected < len(terrain):
            pygame.draw.polygon(screen, palette.SELECT, self._pts(terrain[self.selected]), 3)
        if self.armed is not None and self.view.rect.collidepoint(self.mouse) and self.drag is None:
            ghost = make_piece(self.armed, *self.view.to_table(self.mouse), KIND_WORDS[self.armed])
            self._draw_piece(screen, ghost, 150)
        screen.set_clip(clip)
        hint = text_cache.get(HINT, 13, (200, 210, 218))
        if hint.get_width() > self.view.rect.w - 20:      # narrow window: two lines
            first, second = HINT.split(" · Delete")
            for i, line in enumerate((first, "Delete" + second)):
                screen.blit(text_cache.get(line, 12, (200, 210, 218)),
                            (self.view.rect.x + 10, self.view.rect.bottom + 2 + 15 * i))
        else:
            screen.blit(hint, (self.view.rect.x + 10, self.view.rect.bottom + 6))

    def _pts(self, piece: TerrainPieceSpec) -> list[tuple[float, float]]:
        return [self.view.to_screen(p) for p in piece.outline()]

    def _draw_piece(self, screen: pygame.Surface, piece: TerrainPieceSpec, alpha: int) -> None:
        """A piece drawn plainly (while dragged, or as the ghost of the piece about to be placed)."""
        pts = self._pts(piece)
        colour = palette.TERRAIN.get(piece.kind, palette.TERRAIN["open"])
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        box = pygame.Rect(int(min(xs)) - 2, int(min(ys)) - 2, int(max(xs) - min(xs)) + 5, int(max(ys) - min(ys)) + 5)
        surf = pygame.Surface(box.size, pygame.SRCALPHA)
        local = [(x - box.x, y - box.y) for x, y in pts]
        pygame.draw.polygon(surf, (*colour, alpha), local)
        pygame.draw.polygon(surf, (255, 255, 255, 220), local, 2)
        screen.blit(surf, box.topleft)
        label = text_cache.get(piece.name, 13, (255, 255, 255), True, (0, 0, 0, 130), 2)
        cx, cy = sum(xs) / len(xs), sum(ys) / len(ys)
        screen.blit(label, (cx - label.get_width() / 2, cy - label.get_height() / 2))

    def _draw_zones(self, screen: pygame.Surface) -> None:
        """The 12" deployment strips along both long edges, faintly, with a dashed inner edge."""
        w, d = TABLE_SIZE
        for y0, y1, colour in ((0.0, DEPLOY_DEPTH, palette.PLAYER[1]), (d - DEPLOY_DEPTH, d, palette.PLAYER[2])):
            a = self.view.to_screen((0, y0))
            b = self.view.to_screen((w, y1))
            rect = pygame.Rect(min(a[0], b[0]), min(a[1], b[1]), abs(b[0] - a[0]), abs(b[1] - a[1]))
            strip = pygame.Surface(rect.size, pygame.SRCALPHA)
            strip.fill((*colour, 16))
            screen.blit(strip, rect.topleft)
            inner_y = rect.top if y0 == 0 else rect.bottom
            for x in range(rect.left, rect.right, 14):        # dashed inner edge of the zone
                pygame.draw.line(screen, colour, (x, inner_y), (min(x + 7, rect.right), inner_y), 2)
