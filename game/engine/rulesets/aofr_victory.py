"""AoF:R 2.16 "The Mission", "Mission Objectives", "Extra Missions", "Side-Missions": the end of the game and who
the mission makes the winner (``aofr.AoFR216`` is built on it).
"""

from __future__ import annotations

from game.engine import objectives, side_missions
from game.engine.events import Event
from game.engine.rulesets.aofr_core import AoFRCore


class AoFRVictory(AoFRCore):
    """"Mission Objectives": the winner and the end of the game."""

    def _end_game(self) -> list[Event]:
        s = self.state
        s.game_over = True
        s.pending = None
        revealed = side_missions.reveal(s)   # hidden side-missions are shown now
        held = self.victory_points()
        verdict = "the game is a draw" if held[1] == held[2] else f"player {1 if held[1] > held[2] else 2} wins"
        names = self.score_names()
        what = "objective markers" if names == self.score_words else names[0]   # the core mission's words
        return revealed + [Event("victory", f"Game over after round {s.round}: {held[1]} to {held[2]} {what}, "
                                 f"{verdict}",
                                 {"victory_points": {"1": held[1], "2": held[2]}})]

    def victory_points(self) -> dict[int, int]:
        """Who the mission makes the winner (the higher count wins, equal counts draw): ``victory_breakdown``
        added up."""
        return {p: sum(v for _, v in lines) for p, lines in self.victory_breakdown().items()}

    def victory_breakdown(self) -> dict[int, list[tuple[str, int]]]:
        """AoF:R 2.16 "Mission Objectives", "Extra Missions": the mission decides the winner. Without side-missions
        a line worth 1 per marker controlled (carried, in Relic Hunt), so the player who controls most markers wins
        (King of the Hill: the one who controls it); in Sabotage 1 for destroying the enemy marker and 1 for keeping
        one's own, so the higher count is exactly "the player that managed to destroy the enemy marker whilst
        keeping their own marker intact" and anything else is a draw. "Playing with Side-Missions": "the scoring at
        the end of the game is done using a Victory Points (VP) system, instead of winning based on the mission's
        conditions": the mission's VP (1 per marker, 2 for King of the Hill's, Sabotage 1 + 1) and 1 VP per
        side-mission completed (scored once the game is over)."""
        s = self.state
        if side_missions.active(s):
            out = objectives.objective_lines(s, per_vp=1)
            for p, lines in side_missions.side_mission_lines(s).items():
                out[p] += lines
            return out
        return {p: [(what, 1) for what, _ in lines] for p, lines in objectives.objective_lines(s).items()}

    def score_names(self) -> tuple[str, str]:
        """What the count is: victory points with side-missions; Sabotage's points; else markers held."""
        if side_missions.active(self.state):
            return ("victory points", "VP")
        if self.state.mission == "sabotage":
            return ("Sabotage points (enemy marker destroyed, own marker kept)", "points")
        return self.score_words

    def melee_wins(self, events: list[Event]) -> list[tuple[int, int]]:
        """The melee results of ``events`` (``melee`` events carrying ``winner`` and ``caused``): the winner and
        the wounds its unit caused minus the enemy unit's (docs/rulings.md "AoF:R 2.16": Onslaught)."""
        out: list[tuple[int, int]] = []
        for e in events:
            winner, caused, units = e.data.get("winner"), e.data.get("caused"), e.data.get("units")
            if e.kind != "melee" or winner not in (1, 2) or not caused or not units:
                continue
            side = {uid: self.state.units[uid].player for uid in units if uid in self.state.units}
            won = sum(n for uid, n in caused.items() if side.get(uid) == winner)
            lost = sum(n for uid, n in caused.items() if side.get(uid) == 3 - winner)
            out.append((winner, won - lost))
        return out
