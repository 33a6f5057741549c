"""The odds before a decision, in words for the battle screen (issue 15): lines for the hover note of a valid
shooting target, charge target or spell target, and the tooltips of the pursue buttons.

The figures come from ``game.odds`` (exact convolution for shots, the engine's own simulation with dice of its own
otherwise). Off the hot path: one ``OddsAdvisor`` per game caches each question per position (the number of actions
applied); a new question gets at most ``FIRST_BUDGET_S`` in the frame it is first asked (under the issue's 50 ms),
then a simulated one draws more samples for ``REFINE_BUDGET_S`` a frame while the mouse stays on it, until
``simulate.MAX_SAMPLES``. The lines go into the hover note, which the frame's label layout places
(``battle_draw._note_beside``).
"""

from __future__ import annotations

import time
import weakref

from game.engine.actions import CastSpell, DeclareCharge, Shoot
from game.engine.errors import IllegalAction
from game.engine.game import Game
from game.engine.state import GameState
from game.odds import ShotAdvice, shot_advice
from game.odds.exact import shot_odds
from game.odds.simulate import ChargeOdds, ChargeStudy, PursueOdds, PursueStudy, Samples, Study, shot_study, spell_study
from game.odds.spells import SpellOdds

FIRST_BUDGET_S = 0.025
"""Time a new question may take in the frame it is asked, setting up included (one more sample may overrun it by a
few milliseconds: the issue's limit is 50 ms)."""
REFINE_BUDGET_S = 0.004
"""Time a simulated question may take in each later frame while it is shown (at least one sample: a few ms)."""
ODDS = (170, 205, 255)
"""Colour of the odds lines."""

Line = tuple[str, tuple[int, int, int]]

REACTION_WORDS = {"hold": "If it holds", "stand_and_shoot": "If it stands and shoots", "flee": "If it flees"}


def pct(p: float) -> str:
    """A chance as a whole percentage; "<1%" and ">99%" instead of a misleading 0% or 100%."""
    if 0.0 < p < 0.005:
        return "<1%"
    if 0.995 < p < 1.0:
        return ">99%"
    return f"{p:.0%}"


class OddsAdvisor:
    """The odds of the questions asked about one game, cached per position."""

    def __init__(self) -> None:
        self.position = -1
        """``len(game.history)`` the cache is for."""
        self.cache: dict[tuple[object, ...], object] = {}

    def _fresh(self, game: Game) -> None:
        if len(game.history) != self.position:
            self.position = len(game.history)
            self.cache.clear()

    def shot(self, game: Game, action: Shoot) -> ShotAdvice | None:
        """The odds of ``action`` (None if it is illegal)."""
        self._fresh(game)
        key = ("shoot", action)
        entry = self.cache.get(key)
        if entry == "illegal":
            return None
        if isinstance(entry, ShotAdvice):
            return entry
        try:
            if entry is None:
                if shot_odds(game.state, action) is not None:
                    advice = shot_advice(game, action)      # exact: computed once for this position
                    self.cache[key] = advice
                    return advice
                self.cache[key] = entry = shot_study(game, action)
                return shot_advice(game, action, FIRST_BUDGET_S, entry)
            assert isinstance(entry, Study)
            return shot_advice(game, action, 0.0 if entry.finished else REFINE_BUDGET_S, entry)
        except IllegalAction:
            self.cache[key] = "illegal"
            return None

    def charge(self, game: Game, action: DeclareCharge) -> list[ChargeOdds]:
        """The odds of declaring ``action``, per reaction (empty if it may not be declared)."""
        self._fresh(game)
        key = ("charge", action)
        entry = self.cache.get(key)
        if entry == "illegal":
            return []
        begin = time.perf_counter()
        if entry is None:
            try:
                entry = ChargeStudy(game, action)
            except IllegalAction:
                self.cache[key] = "illegal"
                return []
            self.cache[key] = entry
            left = FIRST_BUDGET_S - (time.perf_counter() - begin)
            if left > 0:
                entry.advance(left)
            return entry.odds()
        assert isinstance(entry, ChargeStudy)
        if not entry.finished:
            entry.advance(REFINE_BUDGET_S)
        return entry.odds()

    def spell(self, game: Game, action: CastSpell) -> Samples | None:
        """The samples of casting ``action`` so far (None if it is illegal)."""
        self._fresh(game)
        key = ("cast", action)
        entry = self.cache.get(key)
        if entry == "illegal":
            return None
        begin = time.perf_counter()
        try:
            if entry is None:
                self.cache[key] = entry = spell_study(game, action)
                left = FIRST_BUDGET_S - (time.perf_counter() - begin)
                return entry.advance(max(0.0, left), at_least=1)
            assert isinstance(entry, Study)
            return entry.advance(0.0 if entry.finished else REFINE_BUDGET_S)
        except IllegalAction:
            self.cache[key] = "illegal"
            return None

    def pursue(self, game: Game) -> tuple[PursueStudy, list[PursueOdds]] | None:
        """The study of the pending pursue decision and the odds it showed first (None when none is pending)."""
        self._fresh(game)
        p = game.pending
        if p is None or p.decision != "pursue":
            return None
        key = ("pursue", p.unit)
        entry = self.cache.get(key)
        if entry is None:
            study = PursueStudy(game)
            study.advance(FIRST_BUDGET_S, at_least=1)       # both answers get a first sample
            self.cache[key] = entry = (study, study.odds())
        assert isinstance(entry, tuple)
        return entry


_ADVISORS: weakref.WeakKeyDictionary[Game, OddsAdvisor] = weakref.WeakKeyDictionary()


def advisor(game: Game) -> OddsAdvisor:
    """The advisor of ``game`` (one per game object)."""
    got = _ADVISORS.get(game)
    if got is None:
        got = _ADVISORS[game] = OddsAdvisor()
    return got


def shot_lines(game: Game, action: Shoot) -> list[Line]:
    """The hover note's lines for a valid shooting target: hits and wounds with their spread, the chance to
    destroy it, to make it test morale and to make it fail."""
    a = advisor(game).shot(game, action)
    if a is None:
        return []
    how = "exact" if a.samples == 0 else f"{a.samples} simulated shots"
    lines = [(f"Odds ({how}): hits {a.hits}, wounds {a.wounds}", ODDS)]
    bits = [f"destroys {pct(a.destroyed)}"]
    if a.morale_test > 0:
        bits.append(f"morale test {pct(a.morale_test)} → fails {pct(a.morale_fail)}")
    else:
        bits.append("no morale test")
    lines.append(("   " + ", ".join(bits), ODDS))
    return lines


def charge_lines(game: Game, action: DeclareCharge) -> list[Line]:
    """The hover note's lines for a valid charge target: per reaction the charged unit may choose, the chance the
    charge reaches it, to win the melee, the wounds caused, the chance the target breaks or is destroyed."""
    odds = advisor(game).charge(game, action)
    if not odds:
        return []
    lines: list[Line] = [(f"Odds (simulated, {min(o.samples for o in odds)}+ games each, to the end of the "
                          "melee):", ODDS)]
    # the ruleset's morale states: AoWFBR's units flee; AoF:R 2.16's become Wavering or rout (no flight)
    states = getattr(game.ruleset, "morale_states", {}) or {}
    flight = "fleeing" in states
    for o in odds:
        who = REACTION_WORDS.get(o.reaction, o.reaction) if len(odds) > 1 or flight else "If it charges"
        if o.samples == 0:
            lines.append((f"   {who}: working it out...", ODDS))
            continue
        if o.reaction == "flee":
            text = f"it gets away {pct(1 - o.target_destroyed)}, caught or off the table {pct(o.target_destroyed)}"
        else:
            bits = []
            if o.contact < 0.995:
                bits.append(f"reaches it {pct(o.contact)}")
            bits.append(f"wins the melee {pct(o.won)}" + (f" (tie {pct(o.tied)})" if o.tied >= 0.005 else ""))
            bits.append(f"wounds {o.wounds[0]:.1f} ± {o.wounds[1]:.1f}")
            if flight:
                bits.append(f"target flees {pct(o.target_breaks)}")
                if o.target_destroyed >= 0.005:
                    bits.append(f"off the table {pct(o.target_destroyed)}")
                if o.charger_lost >= 0.005:
                    bits.append(f"charger breaks {pct(o.charger_lost)}")
            else:
                bits.append(f"target {states.get('shaken', 'Shaken')} {pct(o.target_shaken)}")
                bits.append(f"routed or destroyed {pct(o.target_destroyed)}")
                if o.charger_lost >= 0.005:
                    bits.append(f"charger routed or destroyed {pct(o.charger_lost)}")
            text = ", ".join(bits)
        lines.append((f"   {who}: {text}", ODDS))
    return lines


def spell_lines(game: Game, action: CastSpell) -> list[Line]:
    """The hover note's lines for a spell's target: the chance the cast succeeds if the opponent does not dispel,
    and for a spell that wounds, the wounds with their spread, the chance to destroy the target, to make it test
    morale and fail (simulated with the engine: ``simulate.spell_study``)."""
    got = advisor(game).spell(game, action)
    if got is None or not got.n:
        return []
    lines = [(f"Odds ({got.n} simulated casts, if not dispelled): cast {pct(got.chance('cast'))}", ODDS)]
    mean, sd = got.mean_sd("wounds")
    if mean > 0:
        bits = [f"wounds {mean:.1f} ± {sd:.1f}", f"destroys {pct(got.chance('destroyed'))}"]
        if got.chance("morale_test") > 0:
            bits.append(f"morale test {pct(got.chance('morale_test'))} → fails "
                        f"{pct(got.mean_sd('morale_fail')[0])}")
        lines.append(("   " + ", ".join(bits), ODDS))
    return lines


def point_spell_lines(state: GameState, odds: SpellOdds, most: int = 4) -> list[Line]:
    """The aiming note's lines for a spell aimed at a point (``game.odds.spells``, exact): the chance the cast
    succeeds if the opponent does not dispel, and for a spell with hits, per unit of the area (nearest first, at
    most ``most``): the wounds with their spread, the chance to destroy it, to make it test morale and fail."""
    lines: list[Line] = [(f"Odds (exact, if not dispelled): cast {pct(odds.cast)}", ODDS)]
    for u in odds.units[:most]:
        unit = state.units.get(u.unit)
        name = unit.profile.name if unit is not None else u.unit
        bits = [f"wounds {u.wounds}", f"destroys {pct(u.destroyed)}"]
        if u.morale_test > 0:
            bits.append(f"morale test {pct(u.morale_test)} → fails {pct(u.morale_fail)}")
        lines.append((f"   {name}: " + ", ".join(bits), ODDS))
    if len(odds.units) > most:
        lines.append((f"   … and {len(odds.units) - most} more unit{'s' if len(odds.units) - most != 1 else ''}",
                      ODDS))
    return lines


def pursue_tooltips(game: Game) -> dict[bool, str]:
    """Tooltips of the Pursue / Do not pursue buttons with their odds; empty when no pursue decision is pending.
    The text changes only when the samples are complete (the buttons are rebuilt when a tooltip changes)."""
    got = advisor(game).pursue(game)
    if got is None:
        return {}
    study, first = got
    if not study.finished:
        study.advance(REFINE_BUDGET_S)
    shown = study.odds() if study.finished else first
    odds = {o.pursue: o for o in shown}
    tag = f"(simulated: {min(o.samples for o in shown)} games)"
    out = {}
    if True in odds:
        out[True] = f"Catches the fleeing enemy {pct(odds[True].catches)} {tag}"
    if False in odds:
        out[False] = (f"The unit then takes a morale test: holds back {pct(odds[False].holds_back)} (else it must "
                      f"pursue); catches the enemy {pct(odds[False].catches)} {tag}")
    return out
