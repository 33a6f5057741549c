"""Drawing the statistics of a battle (``game.stats``) for the results screen: the Victory Points chart and the
per-unit table, as pygame surfaces in the window's own colours and font (no charting library)."""

from __future__ import annotations

import pygame

from game.stats import BattleStats, Luck, Standing, UnitStats
from game.ui import palette
from game.ui.assets import font

BOX = (24, 27, 29)
"""Background of a chart or table (the text boxes' ``dark_bg``)."""
BORDER = (60, 67, 72)
GRID = (44, 49, 53)
TEXT = (232, 232, 232)
MUTED = (150, 158, 165)
GOOD = (110, 214, 130)
BAD = (240, 120, 100)
MARK = (255, 214, 64)
"""Turning point badges (the targets' yellow)."""


def _nice_step(top: int, lines: int = 5, counts: bool = False) -> int:
    """A round step between grid lines giving at most ``lines`` lines up to ``top``; ``counts``: small whole
    numbers (markers) may step by 1, 2 or 5."""
    for step in ((1, 2, 5, 10) if counts else ()) + (25, 50, 100, 200, 250, 500, 1000, 2000, 5000):
        if top / step <= max(1, lines):
            return step
    return 10000


def fit_text(text: str, size: int, width: int, bold: bool = False) -> str:
    """``text`` cut with an ellipsis to fit ``width`` pixels."""
    f = font(size, bold)
    if f.size(text)[0] <= width:
        return text
    while text and f.size(text + "…")[0] > width:
        text = text[:-1]
    return text.rstrip() + "…"


def chart_points(stats: BattleStats) -> list[Standing]:
    """The standings the chart plots: the start of the battle, then the end of each player turn."""
    return ([stats.start] if stats.start is not None else []) + list(stats.turns)


def render_vp_chart(stats: BattleStats, size: tuple[int, int]) -> pygame.Surface:
    """The score of both players (the ruleset's: AoWFBR's Victory Points, AoF:R 2.16's objective markers held,
    ``stats.score_words``) at the start and at the end of each player turn (AoF:R: activation), as a line chart with
    the rounds marked and each turning point numbered (1 = the largest swing)."""
    w, h = max(120, size[0]), max(80, size[1])
    surf = pygame.Surface((w, h))
    surf.fill(BOX)
    pygame.draw.rect(surf, BORDER, surf.get_rect(), 1)
    small, label = font(12), font(13, True)
    legend_w = sum(small.size(f"Player {p}")[0] + 38 for p in (1, 2))
    what, turn = stats.score_words[0], stats.turn_word
    what = what[0].upper() + what[1:]
    by = f"player {turn} by player {turn}" if turn == "turn" else f"{turn} by {turn}"   # AoF:R: activations
    title = f"{what}, {by}"
    if label.size(title)[0] + legend_w + 20 > w:
        title = f"{what} by {turn}"
    surf.blit(label.render(fit_text(title, 13, w - legend_w - 20, True), True, TEXT), (10, 7))
    lx = w - 10
    for p in (2, 1):
        text = small.render(f"Player {p}", True, palette.PLAYER_LIGHT[p])
        lx -= text.get_width()
        surf.blit(text, (lx, 9))
        lx -= 24
        pygame.draw.line(surf, palette.PLAYER_LIGHT[p], (lx, 16), (lx + 18, 16), 3)
        lx -= 14
    points = chart_points(stats)
    # AoWFBR's Victory Points run in hundreds; a count of markers starts from a scale of 5
    top_vp = max([100 if stats.units_score else 5] + [max(s.vp.values()) for s in points])
    step = _nice_step(top_vp, (h - 26 - 58) // 20, not stats.units_score)   # grid lines at least 20 px apart
    top_vp = -(-top_vp // step) * step
    # the turning point badges sit in a row of their own between the title and the plot
    badges_y = 40
    left, right, top, bottom = 10 + small.size(str(top_vp))[0] + 8, w - 14, 58, h - 26
    if right - left < 40 or bottom - top < 30:
        return surf
    n = max(1, len(points) - 1)

    def x_of(i: int) -> int:
        return round(left + (right - left) * i / n)

    def y_of(vp: int) -> int:
        return round(bottom - (bottom - top) * vp / top_vp)

    for v in range(0, top_vp + 1, step):
        y = y_of(v)
        pygame.draw.line(surf, GRID, (left, y), (right, y))
        t = small.render(str(v), True, MUTED)
        surf.blit(t, (left - 6 - t.get_width(), y - t.get_height() // 2))
    # rounds: a separator after each round's last turn, the round's number under its turns
    first = 1
    for i, s in enumerate(points[1:], start=1):
        last_of_round = i == len(points) - 1 or points[i + 1].round != s.round
        if last_of_round:
            if i < len(points) - 1:
                pygame.draw.line(surf, BORDER, (x_of(i), top), (x_of(i), bottom))
            mid = (x_of(first - 1) + x_of(i)) // 2
            t = small.render(f"Round {s.round}" if x_of(i) - x_of(first - 1) > 70 else f"R{s.round}", True, MUTED)
            surf.blit(t, (mid - t.get_width() // 2, bottom + 6))
            first = i + 1
    pygame.draw.line(surf, BORDER, (left, bottom), (right, bottom))
    # turning points: a band over their player turn and a numbered badge
    for rank, tp in enumerate(stats.turning_points, start=1):
        at = next((k for k, s in enumerate(points) if k > 0 and s.position >= tp.position), None)
        if at is None:
            continue
        x0, x1 = x_of(at - 1), x_of(at)
        band = pygame.Surface((max(1, x1 - x0), bottom - badges_y), pygame.SRCALPHA)
        band.fill((*MARK, 26))
        surf.blit(band, (x0, badges_y))
        cx = (x0 + x1) // 2
        pygame.draw.circle(surf, MARK, (cx, badges_y + 9), 8)
        t = font(11, True).render(str(rank), True, BOX)
        surf.blit(t, (cx - t.get_width() // 2, badges_y + 9 - t.get_height() // 2))
    for p in (1, 2):
        colour = palette.PLAYER_LIGHT[p]
        pts = [(x_of(i), y_of(s.vp[p]) + (1 if p == 2 else -1)) for i, s in enumerate(points)]
        if len(pts) >= 2:
            pygame.draw.lines(surf, colour, False, pts, 3)
        for x, y in pts:
            pygame.draw.circle(surf, colour, (x, y), 4)
            pygame.draw.circle(surf, BOX, (x, y), 2)
    if points:
        last = points[-1]
        ys = {p: y_of(last.vp[p]) for p in (1, 2)}
        for p in (1, 2):
            t = font(12, True).render(str(last.vp[p]), True, palette.PLAYER_LIGHT[p])
            above = last.vp[p] > last.vp[3 - p] or (last.vp[1] == last.vp[2] and p == 1)
            y = ys[p] - 6 - t.get_height() if above else ys[p] + 6
            surf.blit(t, (x_of(len(points) - 1) - t.get_width() - 6, max(top, min(bottom - t.get_height(), y))))
    return surf


COLUMNS: list[tuple[str, str]] = [
    ("Kills", "kills"), ("Wounds\ndealt", "wounds_dealt"), ("Wounds\ntaken", "wounds_taken"),
    ("Models\nlost", "models_lost"), ("Charges", "charges"), ("VP\nearned", "vp_earned"), ("VP\ngiven", "vp_given"),
    ("Status", "status"),
]
"""The per-unit table's columns after the unit's name: (header, ``UnitStats`` field)."""

DROP_ORDER = ("status", "charges", "wounds_taken", "vp_given")
"""Columns left out, in this order, when the table is too narrow."""

ROW_H = 22
HEAD_H = 34


def _cell(u: UnitStats, key: str) -> str:
    if key == "models_lost":
        return f"{u.models_lost}/{u.models_start}"
    if key == "charges":
        return f"{u.charges}/{u.charges_declared}" if u.charges_declared else "–"
    if key == "status":
        return u.status
    return str(getattr(u, key))


def table_columns(stats: BattleStats, width: int) -> list[tuple[str, str, int]]:
    """The columns that fit in ``width`` pixels: (header, field, width); the unit's name column first. No VP
    columns where removing units does not score (``stats.units_score``: AoF:R 2.16)."""
    body, head = font(13), font(12, True)

    def col_w(header: str, key: str) -> int:
        cells = [body.size(_cell(u, key))[0] for u in stats.units] + [head.size(x)[0] for x in header.split("\n")]
        return max(cells) + 14

    cols = [(h, k, col_w(h, k)) for h, k in COLUMNS
            if stats.units_score or k not in ("vp_earned", "vp_given")]
    name_w = max([body.size(u.name)[0] for u in stats.units] + [60]) + 22
    for key in DROP_ORDER:
        if sum(c[2] for c in cols) + min(name_w, 150) <= width:
            break
        cols = [c for c in cols if c[1] != key]
    name_w = max(80, min(name_w, width - sum(c[2] for c in cols)))
    spare = width - name_w - sum(c[2] for c in cols)
    if spare > 0 and cols:   # a wide table spreads its columns rather than leaving a gap at the right
        extra = min(spare // len(cols), 40)
        cols = [(h, k, cw + extra) for h, k, cw in cols]
    return [("Unit", "name", name_w), *cols]


def render_unit_table(stats: BattleStats, width: int) -> pygame.Surface:
    """The per-unit table (player 1's units, then player 2's), as tall as its rows."""
    units = sorted(stats.units, key=lambda u: u.player)
    cols = table_columns(stats, width)
    h = HEAD_H + ROW_H * len(units) + 4
    surf = pygame.Surface((max(1, width), h))
    surf.fill(BOX)
    head, body = font(12, True), font(13)
    x = 0
    for header, key, cw in cols:
        lines = header.split("\n")
        for n, line in enumerate(lines):
            t = head.render(line, True, MUTED)
            y = HEAD_H - 6 - (len(lines) - n) * 14
            surf.blit(t, (x + 10 if key == "name" else x + cw - 7 - t.get_width(), y))
        x += cw
    pygame.draw.line(surf, BORDER, (0, HEAD_H - 2), (width, HEAD_H - 2))
    for r, u in enumerate(units):
        y = HEAD_H + r * ROW_H
        if r % 2:
            pygame.draw.rect(surf, (30, 34, 37), (0, y, width, ROW_H))
        pygame.draw.rect(surf, palette.PLAYER[u.player], (0, y + 2, 4, ROW_H - 4))
        gone = u.status in ("destroyed", "routed", "fled")
        x = 0
        for _, key, cw in cols:
            if key == "name":
                text, colour = fit_text(u.name, 13, cw - 16), (MUTED if gone else palette.PLAYER_LIGHT[u.player])
                t = body.render(text, True, colour)
                surf.blit(t, (x + 10, y + (ROW_H - t.get_height()) // 2))
            else:
                value = _cell(u, key)
                colour = TEXT
                if key == "status":
                    colour = BAD if gone else MUTED
                elif value in ("0", "–") or value.startswith("0/"):
                    colour = MUTED
                t = body.render(value, True, colour)
                surf.blit(t, (x + cw - 7 - t.get_width(), y + (ROW_H - t.get_height()) // 2))
            x += cw
    return surf


def luck_words(luck: Luck) -> str:
    """How lucky, in a word or two, from how many spreads the luck is away from the expectation."""
    if not luck.dice or luck.spread == 0:
        return "no dice"
    z = luck.luck / luck.spread
    if abs(z) < 1:
        return "about as expected"
    if abs(z) < 2:
        return "lucky" if z > 0 else "unlucky"
    return "very lucky" if z > 0 else "very unlucky"


def luck_html(luck: Luck, what: str, successes: str) -> str:
    """One line of a player's dice luck for a text box."""
    if not luck.dice:
        return f"{what}: <font color='#9aa4ac'>no dice rolled</font>"
    colour = "#6ed682" if luck.luck > 0.05 else "#f07864" if luck.luck < -0.05 else "#c8c8c8"
    if luck.actual == 1 and successes.endswith("s"):       # "1 block", not "1 blocks"
        successes = successes[:-1]
    dice = "die" if luck.dice == 1 else "dice"
    return (f"{what}: {luck.actual} {successes} of {luck.dice} {dice}, {luck.expected:.1f} expected: "
            f"<b><font color='{colour}'>{luck.luck:+.1f}</font></b> "
            f"<font color='#9aa4ac'>({luck_words(luck)})</font>")
