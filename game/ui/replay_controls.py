"""The replay's timeline and controls, one implementation for both replay viewers: the regiments'
(``game.ui.scenes.replay.ReplayScene``) and AoF: Skirmish's (``game.ui.scenes.skirmish_replay``).

``Timeline`` draws the strip under the table (the game as a bar of player turns, the main events as clickable
markers, the position); ``ReplayControls`` is the viewer's part that does not depend on how the table is drawn:
two rows of controls (play and pause, step, start and end, speed, previous/next main event; round, player and
phase jumps), their keys, clicks and drags on the timeline, and playing on at the chosen speed. The scene gives it
``goto(index)`` (show the position after ``index`` actions), ``command`` and ``show_results``, and says where the
strip goes (``build_replay_bars``).

Keys: Space play/pause · ←/→ step · Shift+←/→ previous/next main event · ↑/↓ previous/next phase ·
PgUp/PgDn previous/next player turn · Home/End start/end · +/- faster/slower · Esc menu.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UILabel, UIPanel

from game.engine.state import Phase
from game.replay import ReplayCursor, TimelineEntry
from game.ui import palette
from game.ui.assets import font, text_cache
from game.ui.dice_panel import DicePanel
from game.ui.event_feed import EventFeed, rolls_before
from game.ui.layout import BattleLayout
from game.ui.log_panel import LogPanel
from game.ui.overlays import draw_note
from game.ui.scenes.saves import PHASE_WORDS

if TYPE_CHECKING:
    from game.engine.events import Event
    from game.engine.game import Game
    from game.ui.window import Window

SPEEDS = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0)
"""Playing speeds, actions per second."""
TIMELINE_H = 50
"""Height of the timeline strip, pixels."""
ROW_H = 44
"""Height of one row of replay controls."""
REPLAY_H = TIMELINE_H + 2 * ROW_H
"""Height of the timeline and the two rows of controls under the table, pixels."""
LOG_LINES = 50
"""Events shown in the replay's log (the text box is rebuilt after each jump: keep it quick)."""
LOG_DELAY = 0.15
"""Seconds the position must rest before the log is rebuilt (stepping fast does not stall the frames)..."""
LOG_EVERY = 0.6
"""...or seconds since the last rebuild while the position keeps changing (playing fast)."""
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


class ReplayControls:
    """The replay viewer's controls, timeline and playing, mixed into a battle screen that never acts.

    The scene sets ``cursor`` and calls ``_init_replay`` in its ``__init__``, ``build_replay_bars`` in its
    ``build_ui`` and ``kill_replay_bars`` in its ``kill_ui``; it defines ``goto(index)`` (show the position after
    ``index`` actions; ``index`` updated) and ``replay_menu``/``show_results`` for those two buttons. Its
    ``handle_event`` gives events to ``replay_event`` first, its ``update`` calls ``play_on``, its ``draw`` calls
    ``draw_timeline``.
    """

    app: Window
    cursor: ReplayCursor
    index: int
    mouse: tuple[int, int]
    feed: EventFeed
    log: LogPanel | None
    dice: DicePanel | None
    time: float
    game: Game

    goto: Callable[[int], None]
    """Show the game after ``index`` actions (the scene's)."""
    show_results: Callable[[], None]
    """The results of the finished game (the scene's)."""
    command: Callable[[str], None]
    """A button or key command (the scene's: it passes the replay's to ``replay_command``)."""

    def _init_replay(self) -> None:
        """The controls' state at the start of the record (widgets come with ``build_replay_bars``)."""
        self.index = 0
        """Number of actions applied at the position shown."""
        self.playing = False
        """Playing on by itself."""
        self.speed = SPEEDS.index(1.0)
        """Index in ``SPEEDS``."""
        self.timeline: Timeline | None = None
        self.bars: list[UIPanel] = []
        self.buttons: dict[str, UIButton] = {}
        """The controls' buttons by command."""
        self.labels: list[UILabel] = []
        self._button_state: tuple[object, ...] | None = None
        self.speed_label: UILabel | None = None
        self._clock = 0.0
        self._scrubbing = False
        self._log_stale: float | None = None
        """When the log panel fell behind the position (it is rebuilt a moment later), or None."""
        self._log_built = 0.0
        self._dice_rect = self._log_rect = pygame.Rect(0, 0, 300, 200)

    # --- widgets --------------------------------------------------------------------------------------------------
    def build_replay_bars(self, left: int, top: int, width: int, lay: BattleLayout) -> None:
        """The timeline at (``left``, ``top``), ``width`` pixels wide, and the two rows of controls under it
        (``REPLAY_H`` pixels in all); the dice panel and the log are rebuilt at ``lay``'s places after a jump."""
        m = self.app.manager
        self._dice_rect, self._log_rect = lay.dice, lay.log
        self._log_stale = None
        self.timeline = Timeline(self.cursor, pygame.Rect(left, top, width, TIMELINE_H))
        self.bars = [UIPanel(pygame.Rect(left, top + TIMELINE_H + i * ROW_H, width, ROW_H),
                             starting_height=1, manager=m) for i in range(2)]
        self._button_state = None
        self._build_buttons()

    def kill_replay_bars(self) -> None:
        """Remove the controls' widgets."""
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
    # --- positions ------------------------------------------------------------------------------------------------
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

    # --- commands ---------------------------------------------------------------------------------------------------
    def replay_command(self, key: str) -> bool:
        """Run a replay control's command (play, step, jump, speed, menu, results); False if ``key`` is not one."""
        if key == "play":
            if self.index >= self.cursor.length:
                self.playing = False
            else:
                self.playing = not self.playing
                self._clock = 0.0
        elif key in ("back", "forward"):
            self.playing = False
            self.goto(self.index + (-1 if key == "back" else 1))
        elif key in ("start", "end"):
            self.playing = False
            self.goto(0 if key == "start" else self.cursor.length)
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
        elif key == "results":
            if self.game.state.game_over:
                self.show_results()
        else:
            return False
        return True

    @staticmethod
    def replay_key(event: pygame.event.Event) -> str | None:
        """The replay command of a key press (module docstring), or None."""
        shift = bool(event.mod & pygame.KMOD_SHIFT)
        return {
            pygame.K_SPACE: "play", pygame.K_HOME: "start", pygame.K_END: "end",
            pygame.K_LEFT: "prev_event" if shift else "back", pygame.K_RIGHT: "next_event" if shift else "forward",
            pygame.K_UP: "prev_phase", pygame.K_DOWN: "next_phase",
            pygame.K_PAGEUP: "prev_turn", pygame.K_PAGEDOWN: "next_turn",
            pygame.K_PLUS: "faster", pygame.K_EQUALS: "faster", pygame.K_KP_PLUS: "faster",
            pygame.K_MINUS: "slower", pygame.K_KP_MINUS: "slower", pygame.K_ESCAPE: "menu",
        }.get(event.key)

    # --- input ------------------------------------------------------------------------------------------------------
    def replay_event(self, event: pygame.event.Event, consumed: bool) -> bool:
        """The controls' buttons, and clicks and drags on the timeline (a marker: its position; elsewhere: the
        position under the mouse, following it while the button is held). True if the event was taken."""
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            for key, b in self.buttons.items():
                if event.ui_element is b:
                    self.command(key)
                    return True
            return False
        tl = self.timeline
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and tl is not None \
                and tl.rect.collidepoint(event.pos) and not consumed:
            entry = tl.marker_at(event.pos)
            self.playing = False
            self.goto(entry.index if entry is not None else tl.index_at(event.pos[0]))
            self._scrubbing = entry is None
            return True
        if event.type == pygame.MOUSEMOTION and self._scrubbing and tl is not None:
            self.mouse = event.pos
            self.goto(tl.index_at(event.pos[0]))
            return True
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self._scrubbing:
            self._scrubbing = False
            return True
        return False

    # --- frame ------------------------------------------------------------------------------------------------------
    def play_on(self, dt: float) -> None:
        """Playing: the actions due at the chosen speed (at most 8 a frame); the log rebuilt once it is due; the
        controls refreshed."""
        if self.playing:
            self._clock += dt
            due = int(self._clock * SPEEDS[self.speed])     # fast-forward: several actions in one frame
            if due >= 1:
                self._clock -= due / SPEEDS[self.speed]
                for _ in range(min(due, 8)):
                    self.goto(self.index + 1)
                if self.index >= self.cursor.length:
                    self.playing = False
        if self._log_stale is not None and (self.time - self._log_stale >= LOG_DELAY
                                            or self.time - self._log_built >= LOG_EVERY):
            self._rebuild_log()
        self._build_buttons()

    def _rebuild_log(self) -> None:
        """The log panel with the last ``LOG_LINES`` events up to this position."""
        self._log_stale = None
        self._log_built = self.time
        if self.log is None:
            return
        self.log.kill()
        self.log = LogPanel(self.app.manager, self._log_rect, list(self.feed.lines)[-LOG_LINES:])

    def _log_and_dice_here(self, log: list[Event]) -> None:
        """After a jump: the log up to here (rebuilt a moment later), the last rolls at or before here."""
        self.feed.reset(log, rolls_before(self.cursor, self.index, log))
        self._log_stale = self.time
        if self.dice is not None:
            self.dice.kill()
            self.dice = DicePanel(self.app.manager, self._dice_rect)
            self.dice.show_events(self.feed.rolls)

    def draw_timeline(self, screen: pygame.Surface) -> None:
        """The timeline, with the note of what is under the mouse."""
        if self.timeline is not None:
            hover = pygame.mouse.get_pos() if pygame.mouse.get_focused() else self.mouse
            self.timeline.draw(screen, self.index, hover if self.timeline.rect.collidepoint(hover) else None)
