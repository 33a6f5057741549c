"""The replay viewer: watch a recorded game, play and pause, step by action, jump to any round, turn and phase.

``ReplayScene`` is a ``BattleScene`` that never acts: it shows the game of a ``ReplayCursor`` at one position
(``goto``) with the battle's own drawing (table, terrain, units, overlays, unit card, dice panel, log), and replaces
the action bar with the replay controls and a timeline of the main events (charges, combats, units destroyed,
routed or fled) whose markers are clickable. Going to any position is a snapshot clone plus a few actions
(``ReplayCursor.game_at``); stepping forward applies the next action to the viewer's own copy.

Keys: Space play/pause · ←/→ step · Shift+←/→ previous/next main event · ↑/↓ previous/next phase ·
PgUp/PgDn previous/next player turn · Home/End start/end · +/- faster/slower · Esc menu; F, T, M, A, V, C as in
the battle.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UILabel, UIPanel

from game.engine.state import Phase
from game.replay import ReplayCursor, TimelineEntry, action_text
from game.ui import palette
from game.ui.animation import Animations
from game.ui.assets import font, text_cache
from game.ui.dice_panel import DicePanel
from game.ui.draw_terrain import StaticLayer
from game.ui.event_feed import rolls_before
from game.ui.hud import Hud
from game.ui.layout import BattleLayout
from game.ui.log_panel import LogPanel
from game.ui.overlays import draw_banner, draw_note
from game.ui.scenes.battle import BattleScene
from game.ui.scenes.saves import PHASE_WORDS
from game.ui.trails import CombatTrails
from game.ui.unit_card import UnitCard
from game.ui.view_tools import ViewTools, view_below

if TYPE_CHECKING:
    from game.engine.actions import Action
    from game.ui.window import Window

SPEEDS = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0)
"""Playing speeds, actions per second."""
TIMELINE_H = 50
"""Height of the timeline strip, pixels."""
ROW_H = 44
"""Height of one row of replay controls."""
LOG_LINES = 50
"""Events shown in the replay's log (the text box is rebuilt after each jump: keep it quick)."""
LOG_DELAY = 0.15
"""Seconds the position must rest before the log is rebuilt (stepping fast does not stall the frames)..."""
LOG_EVERY = 0.6
"""...or seconds since the last rebuild while the position keeps changing (playing fast)."""
VIEW_KEYS = {"fit", "turn", "measure", "arcs", "sight", "trails"}
"""Commands of the view strip that the replay passes on to the battle's handler."""
MARKERS = {
    "charge": ("⚔", (255, 214, 100)),
    "resolution": ("✖", (255, 180, 90)),
    "destroyed": ("☠", (255, 90, 80)),
    "rout": ("⚑", (255, 90, 80)),
    "flee": ("⚑", (255, 120, 210)),
    "victory": ("★", (140, 255, 170)),
}
"""Glyph and colour of each kind of timeline marker."""
PHASE_SHORT = {
    Phase.DEPLOYMENT: ("Deploy", "Dep"), Phase.STRATEGY_1: ("1 Strategy", "1 Str"),
    Phase.MOVEMENT: ("2 Movement", "2 Mov"), Phase.STRATEGY_2: ("3 Strategy", "3 Str"),
    Phase.SHOOTING: ("4 Shooting", "4 Sho"), Phase.CLOSE_COMBAT: ("5 Combat", "5 CC"),
    Phase.RALLY: ("6 Rally", "6 Ral"),
}
"""Phase buttons: label and short label."""


def position_title(cursor: ReplayCursor, index: int) -> str:
    """"Replay — round 2, player 1, 4. Shooting — action 57/110"; "Replay (player 2: the computer (normal)) — ..."
    for a game against the computer (the record's ``computer`` key)."""
    m = cursor.marks[index]
    if index == cursor.length and cursor.final.state.game_over and cursor.problem is None:
        where = f"game over after round {m.round}"
    elif m.phase is Phase.DEPLOYMENT:
        where = f"deployment, player {m.player}"
    else:
        where = f"round {m.round}, player {m.player}, {PHASE_WORDS.get(m.phase.value, m.phase.value)}"
    seat = cursor.record.computer
    who = f" (player {seat.player}: {seat.words})" if seat is not None else ""
    return f"Replay{who} — {where} — action {index}/{cursor.length}"


@dataclass(frozen=True)
class Control:
    """One replay control: a button (or the speed label)."""

    key: str
    """Command (``ReplayScene.command``)."""
    label: str
    """Text."""
    short: str
    """Text in narrow windows."""
    tip: str
    """Hover help (with the key)."""
    object_id: str | None
    """Theme id (``#primary_button``, ``#toggle_on``)."""
    enabled: bool
    """False greys it out."""
    group: str | None = None
    """Head shown before the first button of a group (Round, Player, Phase)."""
    right: bool = False
    """At the right end of the row."""


class Timeline:
    """The strip under the table: the game as a bar of player turns, the main events as markers, the position.

    Only draws and answers "which position is under this pixel"; the scene does the jumping.
    """

    def __init__(self, cursor: ReplayCursor, rect: pygame.Rect) -> None:
        self.cursor = cursor
        self.rect = rect
        self.bar = pygame.Rect(rect.x + 14, rect.y + 24, rect.w - 28, rect.h - 30)
        """The bar of positions (markers sit above it)."""
        self.turns = self._turns()
        """(first, last, round, player) of each run of positions in one player turn."""
        self.hits: list[tuple[pygame.Rect, TimelineEntry]] = []
        self._background: pygame.Surface | None = None

    def _turns(self) -> list[tuple[int, int, int, int | None]]:
        out: list[tuple[int, int, int, int | None]] = []
        for m in self.cursor.marks:
            key = (m.round, None if m.phase is Phase.DEPLOYMENT else m.player)
            if out and (out[-1][2], out[-1][3]) == key:
                out[-1] = (out[-1][0], m.index, m.round, key[1])
            else:
                out.append((m.index, m.index, m.round, key[1]))
        return out

    def x_of(self, index: float) -> int:
        """Pixel column of a position."""
        n = max(1, self.cursor.length)
        return round(self.bar.x + self.bar.w * index / n)

    def index_at(self, x: float) -> int:
        """The position nearest to pixel column ``x``."""
        n = max(1, self.cursor.length)
        return max(0, min(self.cursor.length, round((x - self.bar.x) / max(1, self.bar.w) * n)))

    def marker_at(self, pos: tuple[int, int]) -> TimelineEntry | None:
        """The event marker under ``pos``, if any."""
        for r, entry in self.hits:
            if r.inflate(4, 4).collidepoint(pos):
                return entry
        return None

    def _render(self) -> pygame.Surface:
        surf = pygame.Surface(self.rect.size, pygame.SRCALPHA)
        surf.fill((22, 25, 28, 255))
        ox, oy = self.rect.topleft
        bar = self.bar.move(-ox, -oy)
        pygame.draw.rect(surf, (40, 44, 48), bar)
        for first, last, rnd, player in self.turns:
            x0 = self.x_of(first) - ox
            x1 = max(x0 + 1, self.x_of(last + (1 if last < self.cursor.length else 0)) - ox)
            colour = palette.PLAYER_DARK.get(player, (60, 64, 68)) if player else (60, 64, 68)
            pygame.draw.rect(surf, colour, (x0, bar.y, x1 - x0, bar.h))
            pygame.draw.line(surf, (16, 18, 20), (x0, bar.y), (x0, bar.bottom - 1))
            label = "Deploy" if player is None else f"R{rnd} P{player}"
            text = text_cache.get(label, 11, (200, 206, 212))
            if text.get_width() + 6 < x1 - x0:
                surf.blit(text, (x0 + 4, bar.y + (bar.h - text.get_height()) // 2))
        # phase ticks
        prev = None
        for m in self.cursor.marks:
            key = (m.round, m.player, m.phase)
            if prev is not None and key != prev:
                x = self.x_of(m.index) - ox
                pygame.draw.line(surf, (110, 116, 122), (x, bar.bottom - 5), (x, bar.bottom - 1))
            prev = key
        # markers
        self.hits = []
        stacks: dict[int, int] = {}
        for entry in self.cursor.timeline:
            glyph, colour = MARKERS.get(entry.kind, ("●", (230, 230, 230)))
            text = text_cache.get(glyph, 15, colour, True)
            x = self.x_of(entry.index) - ox
            col = x // 6
            level = stacks.get(col, 0)
            stacks[col] = level + 1
            if level > 1:
                continue        # at most two glyphs per spot; the note under the mouse lists them all
            r = text.get_rect(midbottom=(x, bar.y - 1 - level * 11))
            r.top = max(0, r.top)
            surf.blit(text, r)
            self.hits.append((r.move(ox, oy), entry))
        if self.cursor.problem is not None:
            x = self.x_of(self.cursor.length) - ox
            warn = text_cache.get("⚠", 14, palette.ILLEGAL, True)
            surf.blit(warn, warn.get_rect(midbottom=(min(x, self.rect.w - 8), bar.y - 1)))
        return surf

    def draw(self, screen: pygame.Surface, index: int, hover: tuple[int, int] | None) -> None:
        """The strip, the position's cursor, and a note for the marker or position under the mouse."""
        if self._background is None:
            self._background = self._render()
        screen.blit(self._background, self.rect)
        x = self.x_of(index)
        pygame.draw.rect(screen, (200, 204, 208), (self.bar.x, self.bar.y, x - self.bar.x, 2))
        pygame.draw.line(screen, (255, 255, 255), (x, self.bar.y - 3), (x, self.bar.bottom + 2), 2)
        pygame.draw.polygon(screen, (255, 255, 255), [(x - 5, self.bar.bottom + 3), (x + 5, self.bar.bottom + 3),
                                                      (x, self.bar.bottom - 3)])
        if hover is None or not self.rect.collidepoint(hover):
            return
        entries = [e for r, e in self.hits if r.inflate(4, 4).collidepoint(hover)]
        if entries:
            at = entries[0].index
            lines = [(f"Action {at}, round {entries[0].round}", (235, 235, 235))]
            lines += [(e.text, MARKERS.get(e.kind, ("", (230, 230, 230)))[1])
                      for e in self.cursor.timeline if e.index == at][:8]
        else:
            i = self.index_at(hover[0])
            lines = [(position_title(self.cursor, i).partition(" — ")[2], (235, 235, 235))]
        lines.append(("Click to go there", (170, 178, 184)))
        bounds = pygame.Rect(self.rect.x, 0, self.rect.w, self.rect.top)     # not under the side panels
        draw_note(screen, (hover[0], self.rect.top - 70), lines, bounds, 13)


class ReplayScene(BattleScene):
    """Watch a recorded game (``python main.py replay RECORD`` or Watch replay on the menu)."""

    watch_only = True

    def __init__(self, app: Window, cursor: ReplayCursor, path: Path | None = None) -> None:
        super().__init__(app, cursor.game_at(0), None, list(cursor.scenario.terrain_kinds))
        self.cursor = cursor
        """The record, replayed, with its snapshots and timeline."""
        self.path = path
        """The record file, if any."""
        self.index = 0
        """Number of actions applied at the position shown."""
        self.playing = False
        """Playing on by itself."""
        self.speed = SPEEDS.index(1.0)
        """Index in ``SPEEDS``."""
        self.turn_with_seat = False
        self.rewinder = None
        self.timeline: Timeline | None = None
        self.bars: list[UIPanel] = []
        self.buttons: dict[str, UIButton] = {}
        self.labels: list[UILabel] = []
        self._button_state: tuple[object, ...] | None = None
        self.speed_label: UILabel | None = None
        self._clock = 0.0
        self._drag = False
        self._sync_key: object = None
        self._log_stale: float | None = None
        """When the log panel fell behind the position (it is rebuilt a moment later), or None."""
        self._log_built = 0.0

    # --- widgets --------------------------------------------------------------------------------------------------
    def build_ui(self) -> None:
        """Top bar, table, timeline and two rows of controls; unit card, dice and log at the right."""
        m = self.app.manager
        w, h = self.app.size
        lay = BattleLayout.for_size(self.app.size)
        self.layout = lay
        side_x = lay.card.x
        bottom = TIMELINE_H + 2 * ROW_H
        table = pygame.Rect(0, lay.top.bottom, side_x, h - lay.top.bottom - bottom)
        self.view.set_rect(view_below(table))     # the view tools' band above it
        self.hud = Hud(m, lay.top)
        self.card = UnitCard(m, lay.card)
        self.dice = DicePanel(m, lay.dice)
        self.dice.show_events(self.feed.rolls)
        self.log = LogPanel(m, lay.log, list(self.feed.lines)[-LOG_LINES:])
        self._log_stale = None
        self.tools = ViewTools(m, table)
        self.actions = None
        self.timeline = Timeline(self.cursor, pygame.Rect(0, table.bottom, side_x, TIMELINE_H))
        self.bars = [UIPanel(pygame.Rect(0, table.bottom + TIMELINE_H + i * ROW_H, side_x, ROW_H),
                             starting_height=1, manager=m) for i in range(2)]
        self._button_state = None
        self._build_buttons()
        self._refresh_widgets()

    def kill_ui(self) -> None:
        """Remove the widgets."""
        super().kill_ui()
        for bar in self.bars:
            bar.kill()
        self.bars = []
        self.buttons = {}
        self.labels = []
        self.speed_label = None
        self.timeline = None
        self._button_state = None

    def _specs(self) -> tuple[list[Control], list[Control]]:
        """The two rows of controls for the position shown."""
        c = self.cursor
        i = self.index
        end = c.length
        sp = SPEEDS[self.speed]
        row1 = [
            Control("start", "⇤", "⇤", "Go to the start (Home)", None, i > 0),
            Control("back", "◀ Back", "◀", "One action back (←)", None, i > 0),
            Control("play", "❚❚ Pause" if self.playing else "▶ Play", "❚❚" if self.playing else "Play",
                    "Play or pause (Space)", "#primary_button", i < end or self.playing),
            Control("forward", "Step ▶", "▶", "One action forward (→)", None, i < end),
            Control("end", "⇥", "⇥", "Go to the end (End)", None, i < end),
            Control("slower", "−", "−", "Slower (-)", None, self.speed > 0),
            Control("speed", f"{sp:g} action{'s' if sp != 1 else ''}/s", f"{sp:g}/s", "Actions per second", None,
                    True),
            Control("faster", "+", "+", "Faster (+)", None, self.speed < len(SPEEDS) - 1),
            Control("prev_event", "◀ Event", "◀ Ev", "The previous main event: charge, combat, unit lost (Shift+←)",
                    None, any(e.index < i for e in c.timeline)),
            Control("next_event", "Event ▶", "Ev ▶", "The next main event (Shift+→)", None,
                    any(e.index > i for e in c.timeline)),
        ]
        if c.final.state.game_over:
            row1.append(Control("results", "Results", "Results", "Victory points of the finished game", None,
                                i == end, right=True))
        row1.append(Control("menu", "Menu (Esc)", "Menu", "Back to the main menu (Esc)", None, True, right=True))
        mark = c.marks[i]
        deploying = mark.phase is Phase.DEPLOYMENT
        rounds = sorted({m.round for m in c.marks if m.phase is not Phase.DEPLOYMENT})
        row2: list[Control] = []
        for r in rounds:
            on = mark.round == r and not deploying
            row2.append(Control(f"round:{r}", str(r), str(r), f"Go to the start of round {r}",
                                "#toggle_on" if on else None, True, group="Round"))
        for p in (1, 2):
            ok = self._find(mark.round, p, None) is not None and not deploying
            on = mark.player == p and not deploying
            row2.append(Control(f"player:{p}", str(p), str(p), f"Go to player {p}'s turn in round {mark.round}",
                                "#toggle_on" if on else None, ok, group="Player"))
        activations = any(m.phase is Phase.ACTIVATION for m in c.marks)   # AoF:R 2.16: no phases to go to
        for ph in PHASE_SHORT:
            if ph is Phase.DEPLOYMENT and not any(m.phase is Phase.DEPLOYMENT for m in c.marks):
                continue
            if activations and ph is not Phase.DEPLOYMENT:
                continue
            player = None if ph is Phase.DEPLOYMENT else mark.player
            rnd = 1 if ph is Phase.DEPLOYMENT else mark.round
            ok = self._find(rnd, player, ph) is not None
            where = "" if ph is Phase.DEPLOYMENT else f" of player {mark.player}, round {mark.round}"
            row2.append(Control(f"phase:{ph.value}", PHASE_SHORT[ph][0], PHASE_SHORT[ph][1],
                                f"Go to the {PHASE_WORDS.get(ph.value, ph.value)} phase{where}",
                                "#toggle_on" if mark.phase is ph else None, ok, group="Phase"))
        return row1, row2

    def _find(self, round: int, player: int | None, phase: Phase | None) -> int | None:
        try:
            return self.cursor.find(round, player, phase)
        except KeyError:
            return None

    def _build_buttons(self) -> None:
        """(Re)build the control buttons when what they show changes; labels shorten to fit narrow windows."""
        if not self.bars:
            return
        row1, row2 = self._specs()
        state = (tuple(row1), tuple(row2))
        if state == self._button_state:
            return
        self._button_state = state
        for b in self.buttons.values():
            b.kill()
        self.buttons = {}
        for lab in self.labels:
            lab.kill()
        self.labels = []
        for bar, row in zip(self.bars, (row1, row2), strict=True):
            self._lay_out(bar, row)

    def _lay_out(self, bar: UIPanel, row: list[Control]) -> None:
        """One row: left group from the left (group heads before their buttons), ``right`` ones at the right end.
        Too wide: short labels, then no group heads, then the right ones dropped (they have keys), then squeezed."""
        m = self.app.manager
        f = font(15, True)
        small = font(13)
        h = ROW_H - 10
        room = bar.relative_rect.w - 16
        gap, group_gap = 4, 12

        def width(text: str, key: str) -> int:
            if key == "speed":
                return small.size(text)[0] + 16
            return max(36, f.size(text)[0] + 22)

        short, heads, right_ok = False, True, True
        for attempt in range(4):
            short, heads, right_ok = attempt >= 1, attempt < 2, attempt < 3
            left = [c for c in row if not c.right]
            right = [c for c in row if c.right] if right_ok else []
            widths = {c.key: width(c.short if short else c.label, c.key) for c in left + right}
            need = sum(widths[c.key] + gap for c in left) + sum(widths[c.key] + gap for c in right)
            groups = {c.group for c in left if c.group}
            need += group_gap * max(0, len(groups) - 1) + (group_gap if right else 0)
            if heads:
                need += sum(small.size(g)[0] + 10 for g in groups)
            if need <= room:
                break
        scale = min(1.0, room / max(1, need))
        x = 8
        group: str | None = None
        for c in left:
            if c.group != group:
                if group is not None:
                    x += group_gap
                if heads and c.group:
                    hw = small.size(c.group)[0] + 8
                    self.labels.append(UILabel(pygame.Rect(x, 5, hw, h), c.group, m, container=bar))
                    x += hw + 2
                group = c.group
            w = max(28, int(widths[c.key] * scale))
            text = c.short if short else c.label
            if c.key == "speed":
                self.labels.append(UILabel(pygame.Rect(x, 5, w, h), text, m, container=bar))
                self.speed_label = self.labels[-1]
            else:
                self._button(bar, c.key, text, c.tip, c.object_id, c.enabled, pygame.Rect(x, 5, w, h))
            x += w + (group_gap if c.key in ("end", "faster") else gap)
        xr = bar.relative_rect.w - 8
        for c in reversed(right):
            w = widths[c.key]
            xr -= w
            if xr < x:
                break
            self._button(bar, c.key, c.short if short else c.label, c.tip, c.object_id, c.enabled,
                         pygame.Rect(xr, 5, w, h))
            xr -= gap

    def _button(self, bar: UIPanel, key: str, label: str, tip: str, oid: str | None, enabled: bool,
                rect: pygame.Rect) -> None:
        from game.ui.action_bar import TipButton
        b = TipButton(rect, label, self.app.manager, container=bar, tool_tip_text=tip or None, object_id=oid)
        if not enabled:
            b.disable()
        self.buttons[key] = b

    # --- positions ------------------------------------------------------------------------------------------------
    def goto(self, index: int) -> None:
        """Show the game after ``index`` actions (clamped to the record); one step forward is animated."""
        index = max(0, min(self.cursor.length, index))
        if index == self.index:
            return
        if index == self.index + 1:
            action = self.cursor.record.actions[self.index]
            self.game.apply(action)
            self.index = index
            events = self.cursor.events_of(index)
            self.feed.add(events, None, self.dice)     # the log panel is rebuilt a moment later
            self._log_stale = self.time
            self.anims.add(events, self.time)
            self.trails.add(self.game.state, events, self.time)
            return
        self.game = self.cursor.game_at(index)
        self.index = index
        self._reset_view_of_game()

    def _rebuild_log(self) -> None:
        """The log panel with the last ``LOG_LINES`` events up to this position."""
        self._log_stale = None
        self._log_built = self.time
        if self.log is None or self.layout is None:
            return
        self.log.kill()
        self.log = LogPanel(self.app.manager, self.layout.log, list(self.feed.lines)[-LOG_LINES:])

    def step(self, delta: int) -> None:
        """``delta`` actions forward (or back)."""
        self.goto(self.index + delta)

    def _reset_view_of_game(self) -> None:
        """After a jump: the log up to here, the last rolls before here, no animations (widgets kept)."""
        game = self.game
        self.tool = None
        self.error = None
        self._targets.clear()
        self.anims = Animations()
        self.trails = CombatTrails()
        self.trails.add(game.state, game.log, self.time, fresh=False)
        self.feed.reset(game.log, rolls_before(self.cursor, self.index, game.log))
        self._log_stale = self.time
        if self.dice is not None and self.layout is not None:
            self.dice.kill()
            self.dice = DicePanel(self.app.manager, self.layout.dice)
            self.dice.show_events(self.feed.rolls)

    def jump(self, key: str) -> None:
        """A jump button: ``round:N``, ``player:N``, ``phase:NAME``."""
        kind, value = key.split(":", 1)
        mark = self.cursor.marks[self.index]
        target: int | None = None
        if kind == "round":
            target = self._find(int(value), None, None)
            if target is not None and self.cursor.marks[target].phase is Phase.DEPLOYMENT:
                later = [m.index for m in self.cursor.marks if m.round == int(value)
                         and m.phase is not Phase.DEPLOYMENT]
                target = later[0] if later else target
        elif kind == "player":
            target = self._find(mark.round, int(value), None)
        elif kind == "phase":
            phase = Phase(value)
            target = self._find(1, None, phase) if phase is Phase.DEPLOYMENT else \
                self._find(mark.round, mark.player, phase)
        if target is not None:
            self.playing = False
            self.goto(target)

    def _neighbour(self, step: int, key: str) -> int | None:
        """The nearest position before (step -1) or after (+1) this one that starts another phase or turn."""
        marks = self.cursor.marks

        def k(i: int) -> tuple[object, ...]:
            m = marks[i]
            return (m.round, m.player, m.phase) if key == "phase" else (m.round, m.player)

        here = k(self.index)
        if step > 0:
            for i in range(self.index + 1, len(marks)):
                if k(i) != here:
                    return i
            return None
        # back: the start of this run if we are inside it, else the start of the previous run
        i = self.index
        while i > 0 and k(i - 1) == here:
            i -= 1
        if i < self.index:
            return i
        if i == 0:
            return None
        prev = k(i - 1)
        i -= 1
        while i > 0 and k(i - 1) == prev:
            i -= 1
        return i

    def _event(self, step: int) -> int | None:
        if step > 0:
            later = [e.index for e in self.cursor.timeline if e.index > self.index]
            return min(later) if later else None
        earlier = [e.index for e in self.cursor.timeline if e.index < self.index]
        return max(earlier) if earlier else None

    # --- the battle scene's hooks, made read-only ----------------------------------------------------------------
    def act(self, action: Action) -> bool:
        """A replay never changes the game."""
        return False

    def _button_specs(self) -> list:  # type: ignore[type-arg]
        return []

    def undo_refusal(self, player: int | None = None) -> str | None:
        """Nothing is taken back in a replay."""
        return "This is a replay."

    def _sync(self) -> None:
        """Follow the position: terrain turned by the deployment roll-off, the units that could act."""
        key = (id(self.game), self.index)
        if key == self._sync_key:
            return
        self._sync_key = key
        s = self.game.state
        if list(s.terrain) != self.static.terrain:
            self.static = StaticLayer(s.table.width, s.table.depth, s.terrain, self.static.kinds, names=False)
        pending = self.game.pending
        self._targets.clear()
        self.actors = set()
        self._movable = set()
        if pending is not None:
            d = pending.decision
            if d == "move":
                self._movable = set(self.game.units_to_move(pending.player))
                self.actors = set(self._movable)
            elif d == "declare_charge":
                self.actors = set(self.game.chargers(pending.player))
            elif d == "shoot":
                self.actors = set(self.game.shooters(pending.player))

    def command(self, key: str) -> None:
        """Replay buttons and keys; the view strip's commands go to the battle's handler."""
        if key in VIEW_KEYS:
            super().command(key)
        elif key == "play":
            if self.index >= self.cursor.length:
                self.playing = False
            else:
                self.playing = not self.playing
                self._clock = 0.0
        elif key in ("back", "forward"):
            self.playing = False
            self.step(-1 if key == "back" else 1)
        elif key == "start":
            self.playing = False
            self.goto(0)
        elif key == "end":
            self.playing = False
            self.goto(self.cursor.length)
        elif key == "slower":
            self.speed = max(0, self.speed - 1)
        elif key == "faster":
            self.speed = min(len(SPEEDS) - 1, self.speed + 1)
        elif key in ("prev_event", "next_event", "prev_phase", "next_phase", "prev_turn", "next_turn"):
            step = 1 if key.startswith("next") else -1
            target = self._event(step) if key.endswith("event") else self._neighbour(step, key.split("_")[1])
            if target is not None:
                self.playing = False
                self.goto(target)
        elif key.startswith(("round:", "player:", "phase:")):
            self.jump(key)
        elif key == "menu":
            self.app.show_menu()
        elif key == "results" and self.game.state.game_over:
            self.show_results()

    # --- input ------------------------------------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event, consumed: bool) -> None:
        """Controls, keys, the timeline; the table only for looking (select, hover, pan, zoom)."""
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            for key, b in self.buttons.items():
                if event.ui_element is b:
                    self.command(key)
                    return
            if self.tools is not None:
                tool = self.tools.pressed(event)
                if tool is not None:
                    self.command(tool)
                    return
        if self.log is not None and self.log.handle(event):
            return
        if event.type == pygame.KEYDOWN:
            self._replay_key(event)
            return
        if event.type == pygame.KEYUP:
            return
        tl = self.timeline
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and tl is not None \
                and tl.rect.collidepoint(event.pos) and not consumed:
            entry = tl.marker_at(event.pos)
            self.playing = False
            self.goto(entry.index if entry is not None else tl.index_at(event.pos[0]))
            self._drag = entry is None
            return
        if event.type == pygame.MOUSEMOTION and self._drag and tl is not None:
            self.mouse = event.pos
            self.goto(tl.index_at(event.pos[0]))
            return
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self._drag:
            self._drag = False
            return
        super().handle_event(event, consumed)

    def _replay_key(self, event: pygame.event.Event) -> None:
        k = event.key
        shift = bool(event.mod & pygame.KMOD_SHIFT)
        keys = {
            pygame.K_SPACE: "play", pygame.K_HOME: "start", pygame.K_END: "end",
            pygame.K_LEFT: "prev_event" if shift else "back", pygame.K_RIGHT: "next_event" if shift else "forward",
            pygame.K_UP: "prev_phase", pygame.K_DOWN: "next_phase",
            pygame.K_PAGEUP: "prev_turn", pygame.K_PAGEDOWN: "next_turn",
            pygame.K_PLUS: "faster", pygame.K_EQUALS: "faster", pygame.K_KP_PLUS: "faster",
            pygame.K_MINUS: "slower", pygame.K_KP_MINUS: "slower", pygame.K_ESCAPE: "menu",
            pygame.K_f: "fit", pygame.K_t: "turn", pygame.K_m: "measure", pygame.K_a: "arcs", pygame.K_v: "sight",
            pygame.K_c: "trails",
        }
        if k in keys:
            self.command(keys[k])
        elif k == pygame.K_TAB:
            self._cycle_units()

    def _click(self, point: object) -> None:
        """A click on the table only selects (the unit card shows it)."""
        from game.ui.picking import unit_at
        self.selected = unit_at(self.game.state, point)  # type: ignore[arg-type]

    # --- frame ------------------------------------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        """Play on at the chosen speed; refresh the widgets."""
        self.time += dt
        if self.playing:
            self._clock += dt
            due = int(self._clock * SPEEDS[self.speed])     # fast-forward: several actions in one frame
            if due >= 1:
                self._clock -= due / SPEEDS[self.speed]
                for _ in range(min(due, 8)):
                    self.step(1)
                if self.index >= self.cursor.length:
                    self.playing = False
        if self._log_stale is not None and (self.time - self._log_stale >= LOG_DELAY
                                            or self.time - self._log_built >= LOG_EVERY):
            self._rebuild_log()
        self._sync()
        self._refresh_widgets()
        if self.banner is not None and self.time > self.banner[2]:
            self.banner = None

    def _refresh_widgets(self) -> None:
        hud, self.hud = self.hud, None
        try:
            super()._refresh_widgets()
        finally:
            self.hud = hud
        if self.hud is not None:
            self.hud.show(position_title(self.cursor, self.index), self.hint(), self.cursor.marks[self.index].player)
        self._build_buttons()

    def hint(self) -> str:
        """The second line of the top bar: the last action, or how to start."""
        if self.index == 0:
            return "Start of the game · Space: play · ←/→: step · ↑/↓: phase · PgUp/PgDn: turn · Home/End"
        action = self.cursor.record.actions[self.index - 1]
        last = action_text(self.game, action)
        seat = self.cursor.record.computer
        if seat is not None and action.player == seat.player:      # the record names the computer's seat
            last = last.replace(f"Player {seat.player}:", f"Player {seat.player} ({seat.words}):", 1)
        if self.index == self.cursor.length and self.cursor.problem:
            return f"Last: {last} · the replay stops here"
        return f"Last: {last}"

    def draw(self, screen: pygame.Surface) -> None:
        """The battle's drawing of the table, then the timeline and the replay's own notes."""
        super().draw(screen)
        if self.cursor.problem is not None:
            top = pygame.Rect(self.view.rect.x, self.view.rect.y, self.view.rect.w, 64)
            draw_banner(screen, top, f"⚠ {self.cursor.problem}", palette.ILLEGAL)
        if self.timeline is not None:
            hover = pygame.mouse.get_pos() if pygame.mouse.get_focused() else self.mouse
            self.timeline.draw(screen, self.index, hover if self.timeline.rect.collidepoint(hover) else None)
