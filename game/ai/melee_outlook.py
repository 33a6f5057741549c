"""The computer opponent's quick outlook of one round of melee between two units: who is likely to win it and what
each side stands to lose, in the points of the position evaluation (``game.ai.stakes``).

A charge is worth what it is expected to take from the target less what it is expected to cost the charger, not
a share of the target's worth: winning a melee against a Fearless regiment that passes its test takes a few
models, routing a unit takes its whole cost in Victory Points (AoWFBR 1.4 "Victory Conditions").

For one round (AoWFBR 1.4 "Melee"; other rulesets through the ``Ruleset`` estimates named below):

* the wounds each side deals: its two front rows' attacks (each hitting on its Quality, Fatigue on 6s only when
  Shaken, Lance +1 and AP(+1) when charging, Furious 6s doubled when charging), failing the enemy's Defense worsened
  by AP, Regeneration saving 5+ where neither Rending nor Poison stops it; Impact(X) on a charge (X dice per model
  hitting on 2+, less the enemy's Counter models when the charge hits its front), X more attacks in later rounds;
  the side each unit has the other at decides how many of its models strike (``Ruleset.strikers_estimate``: the
  two front rows at its front, the models in base contact at a flank or the rear, there on 6s only), and the
  target strikes back with what its casualties leave (they come off the back row: rulebook "Remove Casualties"),
  unless its Counter weapons strike first;
* the laws of those wounds (``stakes.wounds_law``), taken as independent;
* the resolution: the wounds caused plus what each unit adds (``Ruleset.melee_result_extra``: full rows after its
  casualties, charge and flank or rear bonuses, Fear);
* the loser's morale test (``Ruleset.melee_loss_estimate``: AoWFBR's -1/-2 by what is left after the difference,
  -1/-2 in the flank/rear, Shaken or Shaken and Flees; AoF:R's rout at half strength, Wavering or Shaken), and a
  fleeing unit caught by the winner's pursuit (2D6 each, rulebook "Flight Moves", "Pursuit Moves") routed;
* each outcome priced by the stakes: the wounds taken (``stakes.stake_table``), a Shaken or fleeing unit's share
  of its worth, a routed or destroyed unit's whole cost in Victory Points.

A rough figure for the evaluation only: the engine plays the real melee (sergeants, heroes' own weapons, Deadly,
Blast, spells and terrain are left out). Results are remembered by the two units' public state.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.ai.stakes import FLEEING, SHAKEN, after_wounds, stake_table, worth, wounds_law
from game.engine.game import Game
from game.engine.rulesets.base import Ruleset
from game.engine.special_rules import (
    REGENERATION_NEED,
    carries,
    no_pursuit_or_follow_up,
    wound_capacities,
)
from game.engine.state import Unit
from game.odds.exact import die_success
from geometry.pose import bearing_difference, bearing_to

IMPACT_HIT = 2
"""Impact(X) dice hit on 2+ (rulebook "Impact(X)")."""


@dataclass(frozen=True)
class Outlook:
    """The outlook of one round of melee between an attacker (the charger, or the unit whose side is asked about)
    and a defender."""

    win: float
    """Chance (0..1) the attacker's side wins the round (the defender destroyed, or losing the resolution)."""
    lose: float
    """Chance (0..1) the attacker's side loses it."""
    attacker_loss: float
    """Evaluation points the attacker's side is expected to lose (wounds, Shaken, flight, rout)."""
    defender_loss: float
    """Evaluation points the defender's side is expected to lose."""

    @property
    def value(self) -> float:
        """What the round is worth to the attacker's side: the defender's expected loss less its own."""
        return self.defender_loss - self.attacker_loss


def side_of(target: Unit, enemy: Unit) -> str:
    """``front``, ``flank`` or ``rear``: where ``enemy``'s centre stands seen from ``target``'s facing."""
    assert target.pose is not None and enemy.pose is not None
    off = abs(bearing_difference(target.pose.facing, bearing_to(target.pose.xy, enemy.pose.xy)))
    return "front" if off <= 45.0 else ("flank" if off <= 135.0 else "rear")


def _has_counter(unit: Unit) -> bool:
    return unit.profile.has("Counter") or any(w.has("Counter") for w in unit.profile.melee_weapons)


def _gets_through(defense: int, ap: int) -> float:
    """Chance a hit is not blocked by ``defense``+ worsened by AP(``ap``) (a natural 6 still blocks)."""
    return 1.0 - die_success(defense, -ap)


def _strikers(unit: Unit) -> int:
    """Models of ``unit``'s two front rows (AoWFBR 1.4 "Who Can Strike" at its front)."""
    return min(unit.models, 2 * max(unit.per_row, 1))


def strike_batches(unit: Unit, enemy: Unit, charging: bool, front: bool, strikers: int,
                   engaged: bool = False, sixes: bool = False) -> tuple[tuple[int, float], ...]:
    """The dice of one round of ``unit``'s strikes at ``enemy`` by ``strikers`` models: (dice, chance each wounds)
    per weapon and Impact (see the module docstring). ``charging``: the round of its charge (Impact dice, Lance,
    Furious); ``front``: the charge hits ``enemy``'s front (Counter cuts Impact); ``engaged``: a later round (Impact
    as attacks); ``sixes``: hits only on unmodified 6s (at the enemy's rear)."""
    if strikers <= 0:
        return ()
    p = unit.profile
    d = enemy.profile
    out: list[tuple[int, float]] = []
    regen = d.has("Regeneration")
    for w in p.melee_weapons:
        quality = 2 if carries(p, w, "Reliable") else p.quality
        mod, ap = 0, w.ap
        if charging and carries(p, w, "Lance"):
            mod, ap = 1, ap + 1
        hit = 1.0 / 6.0 if unit.shaken or sixes else die_success(quality, mod)
        if charging and carries(p, w, "Furious"):
            hit += 1.0 / 6.0
        through = _gets_through(d.defense, ap)
        if regen and not carries(p, w, "Rending") and not carries(p, w, "Poison"):
            through *= (REGENERATION_NEED - 1) / 6.0
        out.append((strikers * w.attacks, round(min(hit, 1.0) * through, 4)))
    impact = p.value("Impact")
    if impact:
        dice = strikers * impact
        if charging:
            if front and _has_counter(enemy):
                dice = max(0, dice - _strikers(enemy))
            hit = die_success(IMPACT_HIT, 0)
        elif engaged:
            hit = 1.0 / 6.0 if unit.shaken or sixes else die_success(p.quality, 0)
        else:
            dice = 0
            hit = 0.0
        if dice:
            through = _gets_through(d.defense, 0) * ((REGENERATION_NEED - 1) / 6.0 if regen else 1.0)
            out.append((dice, round(hit * through, 4)))
    return tuple(sorted(out))


def _catch_chance(pursuer: Unit, fleeing: Unit) -> float:
    """Chance a pursuit move of 2D6 (+2" Fast, -2" Slow) reaches a unit fleeing 2D6 with the same bonuses
    (rulebook "Flight Moves", "Pursuit Moves"): the pursuer's roll at least the flight's. 0 for a pursuer that may
    not pursue (Immobile, Entrenched)."""
    if no_pursuit_or_follow_up(pursuer):
        return 0.0
    a = (2 if pursuer.profile.has("Fast") else 0) - (2 if pursuer.profile.has("Slow") else 0)
    b = (2 if fleeing.profile.has("Fast") else 0) - (2 if fleeing.profile.has("Slow") else 0)
    return _CATCH.get(a - b, 0.0 if a < b else 1.0)


def _two_d6() -> list[float]:
    law = [0.0] * 13
    for i in range(1, 7):
        for j in range(1, 7):
            law[i + j] += 1.0 / 36.0
    return law


def _catch_table() -> dict[int, float]:
    law = _two_d6()
    out = {}
    for edge in range(-12, 13):
        out[edge] = sum(law[x] * law[y] for x in range(2, 13) for y in range(2, 13) if x + edge >= y)
    return out


_CATCH = _catch_table()

_OUTLOOKS: dict[tuple[object, ...], tuple[Outlook, tuple[object, ...]]] = {}
"""Outlooks by the two units' state; each entry keeps the profiles its key names by ``id`` alive, so that no other
profile can take their ``id`` while the entry lasts."""
_OUTLOOKS_MAX = 50_000


def _unit_key(unit: Unit) -> tuple[object, ...]:
    hero = unit.hero
    return (unit.id, id(unit.profile), unit.models, unit.starting_models, unit.wounds, unit.per_row, unit.shaken,
            unit.fleeing, unit.fights_as_charger, unit.upgrades, unit.cost,
            None if hero is None else (id(hero.profile), hero.wounds, hero.killed))


def _profiles(*units: Unit) -> tuple[object, ...]:
    return tuple(p for u in units for p in (u.profile, u.hero.profile if u.hero is not None else None))


def charge_outlook(game: Game, charger: Unit, target: Unit) -> Outlook:
    """The outlook of ``charger`` charging ``target`` now (the round of the charge; the side hit is where the
    charger's centre stands seen from the target: ``side_of``)."""
    return outlook(game, charger, target, side_of(target, charger), True)


def round_outlook(game: Game, unit: Unit, enemy: Unit) -> Outlook:
    """The outlook of the next round of the melee ``unit`` fights with ``enemy`` (no charge bonus unless ``unit``
    fights as a charger, e.g. after a follow up); each strikes with the models the side the other stands at allows
    (``Ruleset.strikers_estimate``)."""
    return outlook(game, unit, enemy, side_of(enemy, unit), unit.fights_as_charger, side_of(unit, enemy))


def outlook(game: Game, attacker: Unit, defender: Unit, side: str, charging: bool,
            attacker_side: str = "front") -> Outlook:
    """The outlook of a round of melee of ``attacker`` on ``defender`` at its ``side`` (front, flank, rear),
    ``charging`` or not, the defender standing at the attacker's ``attacker_side`` (see the module docstring). A
    fleeing defender is simply caught."""
    return _remembered(game, [(attacker, side, side)], defender, charging, attacker_side)


_SIDE_ORDER = {"front": 0, "flank": 1, "rear": 2}


def joint_charge_outlook(game: Game, chargers: list[Unit], target: Unit) -> Outlook:
    """The outlook of ``chargers`` (the first the one the target strikes back at) all charging ``target`` now: one
    combat (AoWFBR 1.4 "Multiple Units in Combat": the resolution is counted by side, every charger's wounds, full
    rows and bonuses summed; a flank or rear bonus "only once for a unit's flank/rear facing side", so a second
    charger at the same flank or the rear adds no second one), the target's morale test taken at the worst side it
    was charged in, and its flight pursued by the charger likeliest to catch it. ``attacker_loss`` is the first
    charger's; for one charger this is ``charge_outlook``."""
    assert target.pose is not None
    claimed: set[tuple[str, bool]] = set()
    attackers: list[tuple[Unit, str, str]] = []
    for c in chargers:
        assert c.pose is not None
        side = side_of(target, c)
        right = side == "flank" and bearing_difference(target.pose.facing, bearing_to(target.pose.xy, c.pose.xy)) > 0
        attackers.append((c, side, side if (side, right) not in claimed else "front"))
        claimed.add((side, right))
    return _remembered(game, attackers, target, True, "front")


def _remembered(game: Game, attackers: list[tuple[Unit, str, str]], defender: Unit, charging: bool,
                attacker_side: str) -> Outlook:
    """``_compute``, remembered by the units' state. ``attackers``: (unit, the side of ``defender`` it strikes,
    the side whose bonus it adds to the result)."""
    rules = game.ruleset
    key = (rules.id, tuple((_unit_key(a), side, bonus) for a, side, bonus in attackers), _unit_key(defender), charging,
           attacker_side, game.state.generals.get(1), game.state.generals.get(2))
    hit = _OUTLOOKS.get(key)
    if hit is not None:
        return hit[0]
    got = _compute(game, attackers, defender, charging, attacker_side)
    if len(_OUTLOOKS) >= _OUTLOOKS_MAX:
        _OUTLOOKS.clear()
    _OUTLOOKS[key] = (got, _profiles(defender, *(a for a, _, _ in attackers)))
    return got


def _compute(game: Game, attackers: list[tuple[Unit, str, str]], defender: Unit, charging: bool,
             attacker_side: str) -> Outlook:
    state = game.state
    rules = game.ruleset
    units_score = rules.units_score
    attacker, side, _ = attackers[0]
    table_d = stake_table(state, defender, units_score)
    table_a = stake_table(state, attacker, units_score)
    if defender.fleeing:
        return Outlook(1.0, 0.0, 0.0, table_d[-1])
    front = side == "front"
    worst = max((s for _, s, _ in attackers), key=lambda s: _SIDE_ORDER.get(s, 0))
    cap_d, cap_a = len(table_d) - 1, len(table_a) - 1
    batches: list[tuple[int, float]] = []
    others = 0.0        # what the other chargers add to the side's result
    for i, (unit, at, bonus) in enumerate(attackers):
        n, sixes = rules.strikers_estimate(unit, defender, attacker_side if i == 0 else "front")
        batches += strike_batches(unit, defender, charging, at == "front", n, engaged=not charging, sixes=sixes)
        if i:
            others += rules.melee_result_extra(unit, charging, bonus)
    law_a = wounds_law(tuple(sorted(batches)), cap_d)
    counter_first = charging and front and _has_counter(defender)
    # the defender strikes back with what its casualties leave (unless its Counter weapons strike first)
    back_laws: dict[tuple[int, bool], tuple[float, ...]] = {}
    whole = rules.strikers_estimate(defender, attacker, side)

    def back_law(w: int) -> tuple[float, ...]:
        n, sixes = whole if counter_first or w == 0 else rules.strikers_estimate(after_wounds(defender, w),
                                                                                 attacker, side)
        got = back_laws.get((n, sixes))
        if got is None:
            got = wounds_law(strike_batches(defender, attacker, False, True, n, engaged=not charging, sixes=sixes),
                             cap_a)
            back_laws[(n, sixes)] = got
        return got

    after_a = [after_wounds(attacker, w) for w in range(cap_a + 1)]
    after_d = [after_wounds(defender, w) for w in range(cap_d + 1)]
    extra_a = [x + others for x in _extras(rules, after_a, charging, side)]
    extra_d = _extras(rules, after_d, False, side)
    catcher = max((a for a, _, _ in attackers), key=lambda a: _catch_chance(a, defender))
    broken: dict[tuple[bool, int, int], float] = {}

    def breaks(defender_lost: bool, w: int, diff: int) -> float:
        key = (defender_lost, w, diff)
        got = broken.get(key)
        if got is None:
            if defender_lost:
                got = _broken(game, defender, after_d[w], w, diff, worst, catcher, table_d)
            else:
                got = _broken(game, attacker, after_a[w], w, diff, "front", defender, table_a)
            broken[key] = got
        return got

    win = lose = loss_a = loss_d = 0.0
    for wa, pa in enumerate(law_a):
        if not pa:
            continue
        for wd, pd in enumerate(back_law(wa)):
            if not pd:
                continue
            p = pa * pd
            la, ld = table_a[wd], table_d[wa]
            if wa >= cap_d or wd >= cap_a:
                # a side destroyed loses without a test (both destroyed: no winner)
                if wa >= cap_d and wd < cap_a:
                    win += p
                elif wd >= cap_a and wa < cap_d:
                    lose += p
                loss_a += p * la
                loss_d += p * ld
                continue
            diff = (wa + extra_a[wd]) - (wd + extra_d[wa])
            if diff > 0:
                win += p
                loss_a += p * la
                loss_d += p * (ld + breaks(True, wa, int(round(diff))))
            elif diff < 0:
                lose += p
                loss_d += p * ld
                loss_a += p * (la + breaks(False, wd, int(round(-diff))))
            else:
                loss_a += p * la
                loss_d += p * ld
    return Outlook(win, lose, loss_a, loss_d)


def _extras(rules: Ruleset, afters: list[Unit], charging: bool, side: str) -> list[float]:
    """``Ruleset.melee_result_extra`` of a unit as each count of wounds leaves it (``afters``: its full rows after
    them); 0 once it is destroyed."""
    out: list[float] = []
    last: tuple[int, float] | None = None
    for after in afters:
        if last is not None and last[0] == after.models:
            out.append(last[1])
            continue
        value = rules.melee_result_extra(after, charging, side) if after.removed is None else 0.0
        last = (after.models, value)
        out.append(value)
    return out


def _broken(game: Game, loser: Unit, after: Unit, wounds: int, diff: int, side: str, winner: Unit,
            table: tuple[float, ...]) -> float:
    """What losing by ``diff`` after ``wounds`` costs ``loser``'s side beyond the wounds: the chance its morale test
    fails (``Ruleset.melee_loss_estimate``) times SHAKEN of its worth left, the chance it flees times FLEEING of it,
    or, caught by the winner's pursuit, the rest of its table (routed: its whole cost in Victory Points), and the
    chance it routs at once the same. ``after``: ``loser`` as the ``wounds`` leave it."""
    shaken, flees, routs = game.ruleset.melee_loss_estimate(after, diff, side)
    rest = table[-1] - table[min(wounds, len(table) - 1)]
    w = worth(after)
    out = 0.0
    if shaken and not after.shaken:
        out += shaken * SHAKEN * w
    if flees:
        catch = _catch_chance(winner, loser)
        flight = (FLEEING - (SHAKEN if after.shaken else 0.0)) * w     # a Shaken unit's share is already gone
        out += flees * (catch * rest + (1.0 - catch) * flight)
    if routs:
        out += routs * rest
    return out


def capacity(unit: Unit) -> int:
    """Wounds ``unit`` can still take."""
    return sum(wound_capacities(unit))
