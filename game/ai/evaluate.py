"""Position evaluation for the computer opponent: one number, in points, good for ``seat`` when positive.

The score is zero-sum (the same terms for both sides, the other side's subtracted, but for closing in) and is made
of:

* Victory Points now (``Game.victory_points``: destroyed, routed and fled units, half-strength units, killed
  heroes and Generals, objectives held; rulebook "Victory Conditions"), which is what wins the game; where only
  objective markers score (``Ruleset.units_score`` False: AoF:R 2.16 "The Mission") each marker is worth
  ``MARKER`` points;
* the standing of each unit still in the game (``stakes.standing``: ``MATERIAL`` x its cost x the share of its
  models left, plus a living joined hero's cost, less ``SHAKEN`` of it for a Shaken or fleeing unit: one that may
  rout or cannot charge is worth less than its models);
* every threat below is priced in those same points (``game.ai.stakes``): the expected drop of the threatened
  unit's standing plus the Victory Points the wounds would give up (half strength, destroyed, the banner, the
  General), so that a volley or a charge is worth what it would change in the result;
* charges in the offing (``charges_value``): each unit that may charge and has enemies within its charge reach
  (``charge_reach``; no sight asked: a charger may pivot or wheel first; at most 6" across difficult terrain and the
  way round impassable terrain counted, ``game.ai.lanes``) counts its best charge
  (``melee_outlook.charge_outlook``: the laws of both sides' wounds from their front rows, Impact hits, what the
  ruleset adds in the melee result and the strikes the target can return, ``Ruleset.melee_result_extra``,
  ``melee_loss_estimate``, ``strikers_estimate``; then the loser's morale test, its flight and the chance it is
  caught); up to ``JOINT`` chargers of one target are judged as one combat (AoWFBR "Multiple Units in Combat"),
  never for more than the target can lose; fully for the side that acts next, ``LATER`` of it for the other (which
  must survive the other side's turn first). So a unit stays out of the reach of enemies that would beat it, and
  steps into reach where it would win the charge. A move judged in the moving side's Movement Phase (the search's
  ``caps``) where units score also fears the pile-on: an enemy that would lose charging alone joins a charge
  another enemy would gain by, where together they gain more (``charges_value``'s helpers). Only there: counted in
  every evaluation, the pile-ons that ``random`` never makes held back the computer's own charges and lost it
  more games against it (README "Computer opponent");
* melees in progress: each melee (units engaged with each other) counts the outlook of its next round
  (``melee_value``, ``melee_outlook.round_outlook``: as a charge, without the charge's bonuses) times
  ``MELEE_ON``. Without it a charge that wins at once scored its rout, and one that would lose the melee on the
  next round scored nothing against it, so every charge looked good;
* shooting: each unit that may shoot counts what its volley is expected to take from the best target within its
  weapons' range that it could see (``volley_stake``: hits on its Quality, the target's Defense worsened by AP, the
  firing models the ruleset allows, the morale test the wounds may force; a shooter about to act counted as
  Advancing first), fully for a side whose volleys come first (the side about to act, and the active side before
  its own Shooting Phase), ``LATER`` of it for the other. So archers do not march into a crossbow line, and
  shooters step where they have a target. A move judged in the moving side's Movement Phase (the search's
  ``caps``, ``still_to_move_caps``) counts no more against a unit of its side still to move than that unit's
  exposure before the move: that unit answers it when its own move comes;
* the enemy's volleys to come (where units score as they fall, ``Ruleset.units_score``): each enemy shooter's volley
  again, ``VOLLEYS_TO_COME`` of it, for each later turn of the game before a unit of ``seat`` closing in on it (each
  unit is taken to close in on its nearest enemy) could charge it, a Rush a turn and then its charge reach, counted
  in turns, not whole (``_volleys_to_come``). So a side outshot closes in on the shooters instead of waiting where
  each turn costs it a volley (``seat``'s own volleys to come are not counted, like closing in: counted, they held
  its shooters back from the enemy, and against ``random`` it lost more, README "Computer opponent");
* closing in: a unit of ``seat`` loses a little for each inch to the nearest enemy beyond its weapons' range
  (``APPROACH``, a lone model ``HERO_APPROACH`` of it; counting the inches round impassable terrain,
  ``game.ai.route.detour``), so moves that lead to a charge or a shot are preferred over standing still (this term
  alone is not zero-sum: the enemy keeping away is no gain, or the search would learn to stand still);
* objectives (when a mission is played): a marker that would change hands at the end of the round (a side alone
  within 3"; in a round of activations a Wavering unit whose activation is still to come counts, ``_recovering``)
  counts ``SEIZING`` of its worth (``SEIZING_LAST`` in the last round), each marker is worth up to
  ``OBJECTIVE_PULL`` to the side whose nearest unit is closer to it, and ``seat`` loses ``MARKER_APPROACH`` per inch
  the unit it sends to a marker it does not hold still has to go (that side only, like closing in; each unit sent to
  one marker, the nearest pairs first: ``_marker_walkers``); in the last
  round, where the markers alone win the game, the result they would give if the round ended now counts
  ``RESULT_LAST``.

Once the game is over only the Victory Points count (the result, scaled to outweigh any estimate, plus ``WIN``).

Only public state is read (no dice, no hidden choices: the search evaluates a seat view, ``game.ai.view``).
"""

from __future__ import annotations

import functools

from game.ai.by_ruleset import ruleset_ai
from game.ai.lanes import charge_open
from game.ai.melee_outlook import Outlook, charge_outlook, joint_charge_outlook, round_outlook
from game.ai.route import clearance, detour
from game.ai.stakes import SHAKEN, expected_loss, stake_table, standing, worth, wounds_law
from game.engine import objectives
from game.engine.casualties import strength_after
from game.engine.close_combat import find_combats
from game.engine.game import Game
from game.engine.movement import move_allowance
from game.engine.random_charge import charge_allowance
from game.engine.shooting import Arm, ranged_arms, shooting_rows
from game.engine.special_rules import immobile
from game.engine.state import MoveAction, Phase, Unit
from game.odds.exact import die_success, morale_fail_chance, rules_of
from geometry.pose import bearing_difference, bearing_to

MELEE_ON = 1.0
"""Weight of a melee in progress (its next round is fought whoever acts next)."""
LATER = 0.3
"""Weight of the charges of the side that does not act next (the other side moves first)."""
APPROACH = 2.0
"""Points per inch (scaled by worth / 100) a unit loses for its distance to the enemy beyond its weapons' range."""
HERO_APPROACH = 0.5
"""Share of ``APPROACH`` a lone model (a hero alone) loses per inch: it follows the army at a distance (without
any pull, generals and casters held their ground all game while the battle was fought without them)."""
OBJECTIVE_PULL = 40.0
"""Points an objective marker worth 100 is worth to the side nearer to it (scaled by how much nearer, up to 12")."""
MARKER_APPROACH = 1.5
"""Points per inch (scaled by a marker's worth / 100) ``seat``'s nearest unit still has to go to be within 3" of a
marker it does not hold (``seat`` only, like ``APPROACH``): a marker no enemy is near was left alone (the nearer side
gained nothing more from walking on), where the side that stands on it at the end of a round takes it."""
SEIZING = 0.6
"""Share of a marker's worth counted for the side that would seize it (alone within 3") at the end of the round."""
SEIZING_LAST = 1.0
"""The same share in the last round: who holds the markers at its end wins the game (rulebook "Victory
Conditions"; AoF:R 2.16 "The Mission"), and nothing after it can take a marker back."""
RESULT_LAST = 500.0
"""Points the result the markers would give if the last round ended now is worth (won +, lost -) where the markers
alone win the game (AoF:R 2.16 "The Mission"): between 2-2 and 3-2 lies a win, not one marker."""
MARKER = 250.0
"""Points one objective marker is worth where the markers alone win the game (AoF:R 2.16 "The Mission")."""
WIN = 2000.0
"""Points a won game is worth on top of its margin (the result is what a player plays for)."""
VOLLEYS_TO_COME = 0.5
"""Share of an enemy shooter's volley counted again for each of its later turns before a unit of ``seat`` could
charge it (its volleys to come; where units score as they fall: ``Ruleset.units_score``)."""


def charge_reach(game: Game, unit: Unit) -> float:
    """Inches ``unit`` may charge (rulebook "Charge Moves": 12", Fast, Slow, musician, spells; the engine's
    ``random_charge.charge_allowance``)."""
    return charge_allowance(game.state, unit)


@functools.cache
def _success(need: int) -> float:
    """Chance (0..1) one die passes a test of ``need``+ (``odds.exact.die_success``: the engine's own rule, a
    natural 6 passing and a 1 failing); remembered, the evaluation's hot path asks it of a few values only."""
    return die_success(need, 0)


@functools.cache
def _gets_through(defense: int, ap: int) -> float:
    """Chance (0..1) a hit is not blocked by a Defense of ``defense``+ worsened by AP(``ap``) (rulebook "Armor
    Piercing"; a natural 6 still blocks, as the engine rolls it: ``attacks.succeeds``)."""
    return 1.0 - die_success(defense, -ap)


def volley_stake(game: Game, shooter: Unit, target: Unit, gap: float, rows: int) -> float:
    """Points of the evaluation ``target``'s side is expected to lose to one volley of ``shooter`` at ``gap``
    inches, its ``rows`` front rows firing: over the law of the volley's wounds (each weapon in
    range: attacks x the chance to hit x the chance the target fails its Defense worsened by AP), the drop of the
    target's standing and the Victory Points it gives up (``stakes.stake_table``: half strength, destroyed, the
    General), and a Shaken target's share of its worth when the wounds leave it to a morale test it may fail
    (``Ruleset.tests_morale_after_shot``, ``odds.exact.morale_fail_chance``). A rough figure for the evaluation
    only: no cover or special rules (``_best_volley`` asks ``could_see`` first)."""
    return _volley_stake(game, shooter, ranged_arms(shooter), target, gap, rows)


def _volley_stake(game: Game, shooter: Unit, arms: list[Arm], target: Unit, gap: float, rows: int) -> float:
    """``volley_stake`` with ``shooter``'s ``ranged_arms`` already listed."""
    if rows <= 0 or target.starting_models <= 0 or target.removed is not None:
        return 0.0
    firing = shooter.regulars if game.ruleset.all_models_shoot else min(shooter.regulars,
                                                                        rows * max(shooter.per_row, 1))
    batches = []
    for arm in arms:
        w = arm.weapon
        if (w.range or 0.0) >= gap:
            batches.append(((1 if arm.hero else firing) * w.attacks,
                            round(_success(arm.profile.quality) * _gets_through(target.profile.defense, w.ap), 4)))
    if not batches:
        return 0.0
    table = shot_table(game, target)
    law = wounds_law(tuple(sorted(batches)), len(table) - 1)
    return expected_loss(table, law)


_SHOT_TABLES: dict[tuple[object, ...], tuple[float, ...]] = {}
_SHOT_TABLES_MAX = 50_000


def shot_table(game: Game, target: Unit) -> tuple[float, ...]:
    """The evaluation points ``target``'s side loses if a volley puts 0, 1, 2 ... wounds on it now: the stakes of
    the wounds (``stakes.stake_table``) and, for each count that leaves it to a morale test
    (``Ruleset.tests_morale_after_shot``), the chance it fails (``odds.exact.morale_fail_chance``) times
    ``SHAKEN`` of the worth it has left. Remembered by the target's state."""
    rules = game.ruleset
    fail = 0.0 if target.shaken or target.fleeing else _fail_chance(game, target)
    key = (rules.id, target.id, target.profile.name, target.models, target.wounds, target.shaken, target.fleeing,
           target.lost_models_this_turn, target.engaged, target.cost, fail,
           None if target.hero is None else (target.hero.wounds, target.hero.killed),
           game.state.generals.get(1), game.state.generals.get(2))
    got = _SHOT_TABLES.get(key)
    if got is not None:
        return got
    stakes = stake_table(game.state, target, rules.units_score)
    out = list(stakes)
    if fail > 0.0:
        for w in range(1, len(out)):
            removed, left = strength_after(target, w)
            if left > 0 and rules.tests_morale_after_shot(target, w, left):
                models = target.models - removed
                out[w] += fail * SHAKEN * worth(target) * models / max(target.models, 1)
    table = tuple(out)
    if len(_SHOT_TABLES) >= _SHOT_TABLES_MAX:
        _SHOT_TABLES.clear()
    _SHOT_TABLES[key] = table
    return table


def _fail_chance(game: Game, unit: Unit) -> float:
    """``odds.exact.morale_fail_chance`` of ``unit`` under ``game``'s ruleset."""
    return morale_fail_chance(unit, rules_of(game.state))


def _fires_this_turn(game: Game, shooter: Unit) -> bool:
    """Whether ``shooter``'s side is the active one and its Shooting Phase is still to come or under way (AoWFBR 1.4
    "Turn Sequence")."""
    s = game.state
    return shooter.player == s.active_player and s.phase in (Phase.STRATEGY_1, Phase.MOVEMENT, Phase.STRATEGY_2,
                                                             Phase.SHOOTING)


def _best_volley(game: Game, shooter: Unit, gaps: list[tuple[float, Unit]], next_to_act: int,
                 caps: dict[tuple[str, str], float] | None = None) -> float:
    """``volley_stake`` of ``shooter``'s best target among ``gaps`` (inches, enemy) not locked in melee that it may
    see (``could_see``: in its front arc only for the active side, which has moved; the other side may pivot first),
    weighted by when it fires: fully for the side about to act, and for the active side before its Shooting Phase
    (AoWFBR 1.4 "Turn Sequence": its rows as its move this turn leaves them, ``shooting.shooting_rows``),
    ``LATER`` for the other side (two rows: it may Hold; it may also Advance and fire its front row). 0 for a unit
    that may not shoot (Shaken, fleeing, in melee). ``caps``: (shooter, target) -> the most a target's stake may
    be (``still_to_move_caps``), for the targets that have still to move."""
    weight, indirect, stakes = _volley_stakes(game, shooter, gaps, next_to_act)
    if not stakes:
        return 0.0
    if caps:
        stakes = [(min(got, caps[(shooter.id, t.id)]) if (shooter.id, t.id) in caps else got, tid, t)
                  for got, tid, t in stakes]
    arc = _fires_this_turn(game, shooter)
    for got, _, t in sorted(stakes, key=lambda st: (-st[0], st[1])):
        if got > 0.0 and (indirect or could_see(game, shooter, t, arc)):
            return weight * got
    return 0.0


def _volley_stakes(game: Game, shooter: Unit, gaps: list[tuple[float, Unit]], next_to_act: int
                   ) -> tuple[float, bool, list[tuple[float, str, Unit]]]:
    """(the weight of ``shooter``'s next volley, whether it has an Indirect weapon (no sight needed), [(its stake,
    id, target)] for each target of ``gaps`` it has in range and not in melee, sight not asked): ``_best_volley``'s
    figures before it picks."""
    if shooter.shaken or shooter.fleeing or shooter.engaged_with:
        return 0.0, False, []
    arms = ranged_arms(shooter)
    if not arms:
        return 0.0, False, []
    step = 0.0
    if _fires_this_turn(game, shooter):
        if shooter.shot_targets:
            return 0.0, False, []
        rows, weight = shooting_rows(shooter), 1.0
    else:
        rows, weight = 2, (1.0 if shooter.player == next_to_act else LATER)
        # before its own turn a shooter may also Advance and fire its front row (AoWFBR 1.4 "Who Can Shoot"): a
        # target just beyond its weapons' range is not out of reach
        if not game.ruleset.all_models_shoot and _may_act(game, shooter):
            step = move_allowance(shooter, MoveAction.ADVANCE)
    stakes = []
    for g, t in gaps:
        if t.engaged_with:
            continue
        got = _volley_stake(game, shooter, arms, t, g, rows)
        if step > 0.0:
            got = max(got, _volley_stake(game, shooter, arms, t, g - step, 1))
        if got > 0.0:
            stakes.append((got, t.id, t))
    return weight, any(arm.weapon.has("Indirect") for arm in arms), stakes


def still_to_move_caps(game: Game, seat: int) -> dict[tuple[str, str], float]:
    """In ``seat``'s Movement Phase (AoWFBR 1.4 "Remaining Moves"), for each enemy shooter and each unit of ``seat``
    that has still to move: the stake of its volley on that unit now (0 where it could not see it; ``_best_volley``'s
    figure before its weight). A unit still to move answers its own exposure when its move comes (it may step out
    of range or behind a friend), so the move judged now is not blamed for uncovering it, only credited for
    covering it: the evaluation takes the lesser of the stake then and this one (``evaluate(caps=...)``). Without
    it a line stood still to screen a General who would have stepped aside himself (the orcs of
    ``orcs_vs_dwarves.yaml`` waited out of the dwarves' reach for three rounds). Empty outside that phase."""
    s = game.state
    if s.phase is not Phase.MOVEMENT or s.active_player != seat:
        return {}
    fluid = [u for u in map(s.units.__getitem__, game.units_to_move(seat)) if u.on_table]
    if not fluid:
        return {}
    caps: dict[tuple[str, str], float] = {}
    ids = [u.id for u in fluid]
    for shooter in s.units.values():
        if shooter.player == seat or not shooter.on_table:
            continue
        gaps = list(zip(s.scene.distances(shooter.id, ids), fluid, strict=True))
        _, indirect, stakes = _volley_stakes(game, shooter, gaps, 3 - seat)
        if not stakes:
            continue
        seen = {tid: got for got, tid, t in stakes if indirect or could_see(game, shooter, t, False)}
        for uid in ids:
            caps[(shooter.id, uid)] = seen.get(uid, 0.0)
    return caps


SIGHT_ARC = 45.0
"""Degrees either side of a unit's facing it sees in (rulebook "Line of Sight": the 45 degree front arc)."""


def could_see(game: Game, looker: Unit, target: Unit, arc: bool) -> bool:
    """Whether ``looker`` may see ``target``, quickly: a clear line (``Scene.line_clear``: terrain and other units
    block, rulebook "Line of Sight") from the middle or a corner of its front edge to the centre or one of the two
    nearer corners of the target; with ``arc``, the target's centre must also lie in the front arc (a unit that
    may still pivot sees all round). An estimate for the evaluation; the engine decides who may be shot at."""
    assert looker.pose is not None and target.pose is not None
    if arc and abs(bearing_difference(looker.pose.facing, bearing_to(looker.pose.xy, target.pose.xy))) > SIGHT_ARC:
        return False
    scene = game.state.scene
    lc = scene.corners(looker.id)
    tc = scene.corners(target.id)
    eyes = [((lc[0][0] + lc[1][0]) / 2, (lc[0][1] + lc[1][1]) / 2), (lc[0][0], lc[0][1]), (lc[1][0], lc[1][1])]
    ex, ey = looker.pose.xy
    near = sorted(((float(x), float(y)) for x, y in tc), key=lambda c: (c[0] - ex) ** 2 + (c[1] - ey) ** 2)[:2]
    marks = [target.pose.xy, *near]
    ignore = (looker.id, target.id)
    return any(scene.line_clear((float(e[0]), float(e[1])), m, ignore_units=ignore) for e in eyes for m in marks)


def charge_value(game: Game, charger: Unit, target: Unit) -> float:
    """Points ``charger``'s side expects to gain by charging ``target`` now: what the round of the charge is
    expected to take from the target less what it is expected to cost the charger, in the evaluation's points
    (``melee_outlook.charge_outlook``: wounds, Shaken, flight, rout and the Victory Points they give up). A
    fleeing target is simply caught."""
    return charge_outlook(game, charger, target).value


def win_chance(game: Game, charger: Unit, target: Unit) -> float:
    """The quick estimate of the chance (0..1) that ``charger`` wins the melee of its charge on ``target``
    (``melee_outlook.charge_outlook``: the laws of both sides' wounds and what the ruleset adds to them in the
    melee's result). 1 for a fleeing target, which is simply caught."""
    return charge_outlook(game, charger, target).win


JOINT = 3
"""Chargers of one target judged together at most (the best of them)."""


def charges_value(game: Game, target: Unit, charges: list[tuple[Unit, Outlook]], seat: int,
                  next_to_act: int, helpers: list[tuple[Unit, Outlook]] | None = None) -> float:
    """What the charges in the offing against ``target`` (each charger's best charge, ``charge_outlook``) are
    worth to ``seat``: alone, that charge's value; several chargers (up to ``JOINT``, the best first) judged as one
    combat (``melee_outlook.joint_charge_outlook``: their wounds and bonuses summed, so that two units together may
    break what neither would), less what the others risk (each its own outlook's loss), and never more than all
    the target can lose (``stakes.stake_table``'s last entry: routed, its whole cost in Victory Points); fully for
    the side that acts next, ``LATER`` of it for the other.

    ``helpers``: chargers that would lose charging ``target`` alone (their outlooks on it) and may join the
    charges to make up ``JOINT`` (the pile-on, AoWFBR 1.4 "Multiple Units in Combat"); each risks its own loss only
    as often as the joint combat is lost, and the pile-on counts only where it is worth more to the chargers than
    the charges without it (they choose)."""
    weight = 1.0 if target.player != next_to_act else LATER
    ranked = sorted(charges, key=lambda uo: (-uo[1].value, uo[0].id))[:JOINT]
    extra = sorted(helpers or [], key=lambda uo: (-uo[1].value, uo[0].id))[:JOINT - len(ranked)]
    value = _joint_value(game, target, ranked, [])
    if extra:
        value = max(value, _joint_value(game, target, ranked, extra))
    value *= weight
    return value if target.player != seat else -value


def _joint_value(game: Game, target: Unit, ranked: list[tuple[Unit, Outlook]],
                 extra: list[tuple[Unit, Outlook]]) -> float:
    """The chargers' gain from ``ranked`` (best first) and the helpers ``extra`` charging ``target`` together
    (``charges_value``), in evaluation points, for the chargers' side."""
    if len(ranked) == 1 and not extra:
        return ranked[0][1].value
    joint = joint_charge_outlook(game, [u for u, _ in ranked + extra], target)
    most = stake_table(game.state, target, game.ruleset.units_score)[-1]
    return min(joint.defender_loss, most) - joint.attacker_loss - sum(o.attacker_loss for _, o in ranked[1:]) \
        - joint.lose * sum(o.attacker_loss for _, o in extra)


def melees(game: Game) -> list[tuple[list[Unit], list[Unit]]]:
    """The melees in progress (the engine's ``close_combat.find_combats``: each connected group of units locked in
    melee, rulebook "Multiple Units in Combat"), each as (player 1's units, player 2's units), sorted by id."""
    s = game.state
    out: list[tuple[list[Unit], list[Unit]]] = []
    for group in find_combats(s):
        units = sorted((s.units[uid] for uid in group), key=lambda u: u.id)
        sides = ([u for u in units if u.player == 1], [u for u in units if u.player == 2])
        if sides[0] and sides[1]:
            out.append(sides)
    return out


def melee_value(game: Game, ours: list[Unit], theirs: list[Unit]) -> float:
    """What the next round of a melee in progress is worth to the side of ``ours`` (points of the evaluation): for
    each unit not fleeing, the outlook of its round against the first enemy it is engaged with
    (``melee_outlook.round_outlook``), half from each side's view (so that the figure is the same, negated, for
    the other side, and a unit facing two enemies counts each of them once)."""
    def half(units: list[Unit], enemies: list[Unit]) -> float:
        ids = {e.id: e for e in enemies if not e.fleeing}
        total = 0.0
        for u in units:
            foes = [ids[e] for e in sorted(u.engaged_with) if e in ids]
            if u.fleeing or not foes or u.pose is None or foes[0].pose is None:
                continue
            total += 0.5 * round_outlook(game, u, foes[0]).value
        return total

    return half(ours, theirs) - half(theirs, ours)


def score_worth(game: Game) -> float:
    """Points one unit of ``Game.victory_points`` is worth: 1 where victory points are points (AoWFBR: units
    destroyed score their cost), ``MARKER`` where they count objective markers only (``Ruleset.units_score`` False:
    AoF:R 2.16 "The Mission")."""
    return 1.0 if game.ruleset.units_score else MARKER


def _may_act(game: Game, unit: Unit) -> bool:
    """Whether ``unit`` may take a move action (Advance, Charge) in its side's next turn: not Shaken (rulebook
    "Shaken Units"), not Immobile. Under AoWFBR 1.4 what it did this turn does not count (its flags are cleared when
    its turn begins, ``Unit.reset_turn_flags``); in a round of activations (AoF:R) a unit that has taken its action
    waits for the next round (its threat is not counted)."""
    if unit.shaken or immobile(unit):
        return False
    return unit.move_action is None or game.state.phase is not Phase.ACTIVATION


def _closing(game: Game, on: list[Unit], gaps_of: dict[str, list[tuple[float, Unit]]]
             ) -> dict[str, tuple[str, float, float]]:
    """For each unit of ``on`` that may charge in its next turn (not fleeing, not in melee, ``_may_act``): (the
    nearest enemy, the one it is taken to close in on; its charge reach; the inches its Rush takes it a turn),
    inches. ``gaps_of``: each unit's (inches, enemy) pairs."""
    out = {}
    for u in on:
        if u.fleeing or u.engaged_with or not _may_act(game, u) or not gaps_of[u.id]:
            continue
        toward = min(gaps_of[u.id], key=lambda ge: (ge[0], ge[1].id))[1]
        out[u.id] = (toward.id, charge_reach(game, u), max(move_allowance(u, MoveAction.RUSH), 1.0))
    return out


def _volleys_to_come(game: Game, shooter: Unit, gaps: list[tuple[float, Unit]],
                     closing: dict[str, tuple[str, float, float]]) -> float:
    """How many more turns ``shooter`` (whose next volley ``_best_volley`` counts) fires before an enemy of
    ``gaps`` (inches, enemy) closing in on it (``_closing``: its nearest enemy) could charge it, in turns (not
    whole: each inch counts): that enemy Rushes closer a turn and charges once within its reach (straight lines,
    AoWFBR 1.4 "Charge Moves"); the game's last round ends the count. A side outshot loses a volley a turn while it
    keeps its distance, so its units close in on the shooters."""
    s = game.state
    # its next volley falls this round when its Shooting Phase is still to come this round, else in the next round
    # (past its own Shooting Phase, ``_best_volley`` counted next round's)
    this_round = _fires_this_turn(game, shooter) or (shooter.player != s.active_player
                                                     and s.active_player == s.first_player)
    turns = float(max(0, s.rounds - s.round - (0 if this_round else 1)))
    for g, e in gaps:
        got = closing.get(e.id)
        if turns and got is not None and got[0] == shooter.id:
            # not whole turns: with them a step closer that crosses no turn's boundary would count for nothing
            turns = min(turns, max(g - got[1], 0.0) / got[2])
    return turns


def _marker_walkers(game: Game, seat: int, movers: list[Unit], to_marker: dict[str, list[float]]) -> dict[int, float]:
    """For the objective markers ``seat`` does not hold (by index in ``state.objectives``), the inches the unit of
    ``seat`` sent to each still has to the marker: the nearest pairs first, each unit sent to one marker (of
    ``movers``, the units not fleeing nor Shaken; ``to_marker``: each one's inches to each marker, the way it walks,
    not round terrain). A marker left without a unit (more markers than units) is not in the answer."""
    marks = [i for i, o in enumerate(game.state.objectives) if o.controller != seat and not o.destroyed
             and o.carried_by is None]
    pairs = sorted((to_marker[u.id][i], i, u.id) for i in marks for u in movers if u.player == seat)
    out: dict[int, float] = {}
    sent: set[str] = set()
    for d, i, uid in pairs:
        if i not in out and uid not in sent:
            out[i] = d
            sent.add(uid)
    return out


def _recovering(game: Game) -> list[Unit]:
    """The Wavering units (AoF:R 2.16; the quick rules' Shaken) whose activation is still to come this round: it is
    idle and ends the state (AoF:R 2.16 "Wavering": "which stops it from being Wavering at the end of its
    activation"), so at the round's end they seize markers and stop others from seizing them again ("The Mission":
    "Wavering units can't seize or stop others from seizing them"). Empty outside a round of activations."""
    s = game.state
    if s.phase is not Phase.ACTIVATION or s.pending is None:
        return []
    a = s.activation
    activated = set(getattr(a, "activated", ()))
    current = getattr(a, "unit", None)
    wavering_now = s.pending.decision == "wavering"
    return [u for u in s.units.values()
            if u.shaken and not u.fleeing and u.on_table and u.removed is None and u.pose is not None
            and (u.id not in activated or (u.id == current and wavering_now))]


def _reach(unit: Unit) -> float:
    return max((w.range or 0.0 for w in unit.profile.weapons), default=0.0)


def evaluate(game: Game, seat: int, next_to_act: int, caps: dict[tuple[str, str], float] | None = None) -> float:
    """The position for ``seat`` (points, positive = good), ``next_to_act`` being the player whose turn comes
    next (their charges count fully). See the module docstring for the terms. ``caps``: ``still_to_move_caps`` of
    the position a move decision is judged from (the search's), else None; given, the enemy's pile-ons count too.
    A ruleset with its own evaluation (``game.ai.by_ruleset``: AoF: Skirmish's loose models) is scored by it
    (without caps)."""
    own = ruleset_ai(game)
    if own is not None:
        return own.evaluate(game, seat, next_to_act)
    return sum(evaluate_terms(game, seat, next_to_act, caps).values())


def evaluate_terms(game: Game, seat: int, next_to_act: int, caps: dict[tuple[str, str], float] | None = None
                   ) -> dict[str, float]:
    """``evaluate`` term by term (points for ``seat``): ``vp``, ``units`` (standing), ``melees``, ``charges``,
    ``shooting``, ``volleys`` (the enemy's to come), ``approach``, ``objectives`` (see the module docstring);
    their sum is the evaluation. Once the game is over only ``result``. ``caps``: as ``evaluate``'s, applied to the
    units of ``seat`` still to move in this position (and, given, the enemy's chargers that would lose alone join
    the charges on ``seat``'s units: ``charges_value``'s helpers). Formations' rulesets only (not a ruleset with its
    own evaluation)."""
    s = game.state
    vp = game.victory_points()
    per_vp = score_worth(game)
    margin = float(vp[seat] - vp[3 - seat]) * per_vp
    if s.game_over:
        # the result: only the Victory Points count now (x10 so that it outweighs any guess), and a win most
        return {"result": margin * 10.0 + (WIN if vp[seat] > vp[3 - seat] else -WIN if vp[seat] < vp[3 - seat]
                                           else 0.0)}
    terms = {"vp": margin, "units": 0.0, "melees": 0.0, "charges": 0.0, "shooting": 0.0, "approach": 0.0,
             "objectives": 0.0, "volleys": 0.0}
    scene = s.scene
    for one, two in melees(game):
        friends, foes = (one, two) if seat == 1 else (two, one)
        terms["melees"] += MELEE_ON * melee_value(game, friends, foes)
    on = [u for u in s.units.values() if u.removed is None and u.on_table and u.pose is not None]
    for u in s.units.values():
        value = standing(u)
        terms["units"] += value if u.player == seat else -value
    threats: dict[str, list[tuple[Unit, Outlook]]] = {}     # by target: each charger's best charge
    # a move judged at once where units score: the enemy's chargers that would lose alone, by target (pile-ons)
    pile_on = caps is not None and game.ruleset.units_score
    helpers: dict[str, list[tuple[Unit, Outlook]]] = {}
    enemies_of = {p: [e for e in on if e.player != p] for p in (1, 2)}
    gaps_of = {u.id: list(zip(scene.distances(u.id, [e.id for e in enemies_of[u.player]]), enemies_of[u.player],
                              strict=True)) for u in on}
    # seat's units closing in on the enemy's shooters (their volleys to come)
    closing = _closing(game, [u for u in on if u.player == seat], gaps_of) if game.ruleset.units_score else {}
    if caps:     # only for the units that have still to move now (``still_to_move_caps``)
        fluid = set(game.units_to_move(seat)) if s.phase is Phase.MOVEMENT else set()
        caps = {k: v for k, v in caps.items() if k[1] in fluid}
    for u in on:
        w = worth(u)
        sign = 1.0 if u.player == seat else -1.0
        gaps = gaps_of[u.id]
        if not gaps:
            continue
        nearest = min(g for g, _ in gaps)
        if not u.fleeing and not u.engaged_with and _may_act(game, u):
            reach = charge_reach(game, u)
            looks = [(charge_outlook(game, u, e), e.id) for g, e in gaps if charge_open(s, u, e, g, reach)]
            best = max(looks, key=lambda oe: (oe[0].value, oe[1]), default=None)
            if best is not None and best[0].value > 0.0:
                threats.setdefault(best[1], []).append((u, best[0]))
            elif pile_on and u.player != seat:
                # offered at every target it reaches: each target's pile-on is judged on its own
                for outlook, target_id in looks:
                    helpers.setdefault(target_id, []).append((u, outlook))
        if u.fleeing or u.engaged_with:
            continue
        fire = _reach(u)
        volley = _best_volley(game, u, gaps, next_to_act, caps if u.player != seat else None)
        if volley > 0.0:
            terms["shooting"] += sign * volley
            if closing and u.player != seat:
                terms["volleys"] += sign * VOLLEYS_TO_COME * volley * \
                    _volleys_to_come(game, u, gaps, closing)
        pull = 1.0 if u.starting_models > 1 else HERO_APPROACH
        if u.player == seat and pull > 0.0:
            # only its own side's units (the other side keeping away is no gain); a lone hero is pulled less. The
            # way to the nearest enemy goes round impassable terrain (a unit behind a building is not close)
            if nearest > fire:
                closest = min(gaps, key=lambda ge: (ge[0], ge[1].id))[1]
                assert u.pose is not None and closest.pose is not None
                nearest += detour(scene, u.pose.xy, closest.pose.xy, clearance(scene, u.id))
            terms["approach"] -= pull * APPROACH * (w / 100.0) * min(max(nearest - fire, 0.0), 36.0)
    for target_id, charges in threats.items():
        terms["charges"] += charges_value(game, s.units[target_id], charges, seat, next_to_act,
                                          helpers.get(target_id, []))
    if s.mission is not None:
        # a marker held counts in the VP already; one that would change hands at the end of the round (a side
        # alone within 3") counts a share of it, and the nearer side pulls
        marker = 100.0 if per_vp == 1.0 else per_vp
        last = s.round >= s.rounds
        seizing = SEIZING_LAST if last else SEIZING
        held = float(vp[seat] - vp[3 - seat])     # markers held, where they alone score: as they stand at the end
        movers = [u for u in on if not u.fleeing and not u.shaken]
        points = [(o.x, o.y) for o in s.objectives]
        to_marker = {u.id: scene.distances_to_points(u.id, points) for u in movers}     # inches, by marker
        walkers = _marker_walkers(game, seat, movers, to_marker)
        recovering = _recovering(game)
        for i, o in enumerate(s.objectives):
            if o.destroyed or o.carried_by is not None:
                continue
            near = objectives.contesting(s, o)
            for u in recovering:
                if scene.distance_to_point(u.id, (o.x, o.y)) <= objectives.SEIZE_DISTANCE + 1e-6:
                    near[u.player].append(u.id)
            holder = (1 if near[1] else 2) if bool(near[1]) != bool(near[2]) else (None if near[1] else o.controller)
            if holder != o.controller:
                gain = (1.0 if holder == seat else -1.0 if holder is not None else 0.0) - \
                    (1.0 if o.controller == seat else -1.0 if o.controller is not None else 0.0)
                terms["objectives"] += seizing * marker * gain
                held += gain
            mine = [to_marker[u.id][i] for u in movers if u.player == seat]
            theirs = [to_marker[u.id][i] for u in movers if u.player != seat]
            d_me = min(mine, default=48.0)
            d_them = min(theirs, default=48.0)
            terms["objectives"] += OBJECTIVE_PULL * (marker / 100.0) * max(-12.0, min(12.0, d_them - d_me)) / 12.0
            if o.controller != seat and mine:
                # the race term saturates once seat is 12" nearer: the way still to go keeps a unit walking, the one
                # sent to this marker (each unit to one marker: a unit nearest to two went for only one)
                to_go = walkers.get(i, d_me)
                terms["objectives"] -= MARKER_APPROACH * (marker / 100.0) * min(
                    max(to_go - objectives.SEIZE_DISTANCE, 0.0), 36.0)
        if last and per_vp != 1.0 and held:
            # the last round's markers decide the game: a draw turned into a win is worth more than one marker
            terms["objectives"] += RESULT_LAST if held > 0 else -RESULT_LAST
    return terms
