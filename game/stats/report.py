"""The statistics of a battle (``game.stats``) as text for the terminal, JSON and CSV (``main.py stats``)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from game.files import atomic_write_text
from game.stats.figures import CSV_COLUMNS, PLAYERS, BattleStats, Luck


def luck_text(luck: Luck, what: str) -> str:
    """"to hit: 45 of 88 dice, 42.5 expected, +2.5 (spread 4.5)"."""
    if not luck.dice:
        return f"{what}: no dice rolled"
    return (f"{what}: {luck.actual} of {luck.dice} dice, {luck.expected:.1f} expected, {luck.luck:+.1f} "
            f"(spread {luck.spread:.1f})")


def summary_text(stats: BattleStats, source: str = "") -> str:
    """A readable summary: result, per-unit table, luck, Victory Points by round, turning points."""
    out: list[str] = []
    vp = {p: stats.players[p].vp for p in PLAYERS}
    verdict = "a draw" if vp[1] == vp[2] else f"player {1 if vp[1] > vp[2] else 2} wins"
    state = "game over" if stats.game_over else "unfinished"
    words, short = stats.score_words       # AoWFBR's victory points, AoF:R's objective markers
    out.append(f"{stats.name or source}: {vp[1]} to {vp[2]} {words}, {verdict} ({state}, {stats.actions} "
               f"actions)")
    if stats.problem:
        out.append(f"note: {stats.problem}")
    out.append("")
    head = ("unit", "player", "kills", "wounds dealt", "wounds taken", "models lost", "charges", "VP earned",
            "VP given", "status")
    rows = [(u.name if u.name.endswith(f"({u.id})") else f"{u.name} ({u.id})", str(u.player), str(u.kills),
             str(u.wounds_dealt), str(u.wounds_taken),
             f"{u.models_lost}/{u.models_start}", f"{u.charges}/{u.charges_declared}", str(u.vp_earned),
             str(u.vp_given), u.status) for u in stats.units]
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    for r in [head, *rows]:
        out.append("  ".join(c.ljust(w) if i in (0, 9) else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths,
                                                                                                      strict=True)))
                   .rstrip())
    out.append("(models lost: of those at the start; charges: made/declared)")
    out.append("")
    for p in PLAYERS:
        ps = stats.players[p]
        out.append(f"Player {p}: {ps.vp} {short}, {ps.units_left} of {ps.units_start} units left")
        out.append(f"  luck {luck_text(ps.hits, 'to hit')}")
        out.append(f"  luck {luck_text(ps.defense, 'Defense (blocks)')}")
        for text, points in ps.vp_other:
            out.append(f"  {text}: {points} {short}")
        if ps.vp_unassigned:
            out.append(f"  from enemy units no unit of theirs broke: {ps.vp_unassigned} VP")
    out.append("")
    if stats.rounds_end:
        out.append(f"{words[0].upper()}{words[1:]} at the end of each round: " + ", ".join(
            f"round {t.round}: {t.vp[1]}-{t.vp[2]}" for t in stats.rounds_end))
    if stats.turning_points:
        out.append("Turning points:")
        for t in stats.turning_points:
            out.append(f"  round {t.round}, player {t.player}'s turn, action {t.action}: {t.text}")
    else:
        out.append("Turning points: none (no Victory Points or units changed hands)")
    return "\n".join(out)


def stats_json(stats: BattleStats, source: str | None = None) -> str:
    """All figures as JSON text (docs/formats.md "Statistics")."""
    data = stats.to_dict()
    if source is not None:
        data = {"format": data.pop("format"), "record": source, **data}
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def units_csv(stats: BattleStats) -> str:
    """The per-unit table as CSV text with a header row (``game.stats.CSV_COLUMNS``)."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for u in stats.units:
        d = u.to_dict()
        writer.writerow([d[c] for c in CSV_COLUMNS])
    return buf.getvalue()


def write_stats(stats: BattleStats, json_out: str | Path | None, csv_out: str | Path | None,
                source: str | None = None) -> None:
    """Write the JSON and/or CSV files atomically; raises ``OSError`` if one cannot be written."""
    if json_out is not None:
        atomic_write_text(json_out, stats_json(stats, source))
    if csv_out is not None:
        atomic_write_text(csv_out, units_csv(stats))
