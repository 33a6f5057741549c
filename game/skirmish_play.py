"""Computer play for AoF: Skirmish (issue 18): the random player's and the simple player's answers to every
decision of ``game.engine.rulesets.skirmish`` (loose models), and the group shapes both use.

A group move keeps the unit's shape: every model moves by the same vector (``translated``); a unit whose
casualties broke its coherency closes up around its centre first (``tightened``). Every proposal is checked by the
engine's validators (``AoFSkirmish.check_move_models``, ``check_deploy``, ``check_magic``, ``check_push``) before it
is made.

"Caster(X)" (``cast``, ``dispel``): the simple player casts whenever a sensible spell has a target in sight (hits on
the nearest enemy first, then a curse on the nearest enemy, a blessing on the friendly unit nearest to the enemy that
does not have it yet, rally on a Shaken friend), adding the caster's own tokens that the 6-token cap would waste next
round; against an enemy cast it spends up to 2 tokens against hits on its units and 1 against other spells.
"Pushing" (``push_to``): the simple player pushes the model as far as it may from the nearest objective marker and
from the attacking unit.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from game.engine import magic
from game.engine.actions import (
    Action,
    Activate,
    CastSpell,
    ChooseDeployment,
    DeclareCharge,
    Dispel,
    Done,
    MoveModels,
    PlaceModels,
    PlaceObjective,
    PushModel,
    SetAside,
    Shoot,
    StrikeBack,
    TablePoint,
    TokenSpend,
)
from game.engine.game import Game
from game.engine.rulesets.skirmish import EDGES, SCOUT_REACH, ZONE_DEPTH, AoFSkirmish
from game.engine.skirmish import elevation, moves
from game.engine.skirmish.loose import XY, base_radius, centre, points_of, unit_gap
from game.engine.skirmish.push import PUSH_REACH
from game.engine.spell_effects import ActiveEffect
from game.engine.state import Unit

SPACING = 0.5
"""Inches between neighbouring bases in a fresh group (within the 1" of coherency)."""
JUMP_DICE_TAKEN = 2
"""The most dice a jump the computer players make may roll (2 dice: 4 chances in 9 to land; 3 dice: 8 in 27)."""


def grid(n: int, r: float, at: XY, per_row: int = 5, spacing: float = SPACING) -> list[XY]:
    """``n`` model centres (bases of radius ``r``) in rows of ``per_row`` centred on ``at``, ``spacing`` apart."""
    step = 2 * r + spacing
    rows = -(-n // per_row)
    out = []
    for i in range(n):
        row, col = divmod(i, per_row)
        in_row = min(per_row, n - row * per_row)
        out.append((at[0] + (col - (in_row - 1) / 2) * step, at[1] + (row - (rows - 1) / 2) * step))
    return out


def translated(points: Sequence[XY], dx: float, dy: float) -> list[XY]:
    """Every point moved by (dx, dy): a group move keeping the unit's shape."""
    return [(round(x + dx, 3), round(y + dy, 3)) for x, y in points]


def tightened(points: Sequence[XY], r: float) -> list[XY]:
    """The unit closed up around its centre into a fresh group (rows of five, ``SPACING`` apart), for a unit
    whose casualties broke its coherency."""
    return [(round(x, 3), round(y, 3)) for x, y in grid(len(points), r, centre(points))]


def _points(ps: Sequence[XY]) -> tuple[TablePoint, ...]:
    return tuple(TablePoint(round(x, 3), round(y, 3)) for x, y in ps)


def _ruleset(game: Game) -> AoFSkirmish:
    rs = game.ruleset
    assert isinstance(rs, AoFSkirmish)
    return rs


def group_move(game: Game, unit: Unit, toward: XY | None, action: str, rng: random.Random | None,
               tries: int = 8, leap: bool = False) -> MoveModels | None:
    """A legal ``move_models`` of ``unit`` with ``action`` (advance, rush, consolidate): the group moves towards
    ``toward`` (or a random bearing) by the longest distance the engine accepts without a jump, or None. A move
    with jumps ("Jumping": a failed one falls) is made only when no move without one is found, and only when no
    jump on it rolls more than ``JUMP_DICE_TAKEN`` dice (a 6" drop off a roof, 3 dice all 3+, is never taken);
    ``leap`` (the random player, now and then) takes the first such move as it comes."""
    rs = _ruleset(game)
    fallback: MoveModels | None = None
    pts = points_of(game.state, unit.id)
    r = base_radius(unit.profile)
    limit = moves.allowance(game.state, unit, action)
    c = centre(pts)
    shapes = [pts] if unit.id not in rs.w.incoherent else [tightened(pts, r), pts]
    for attempt in range(tries):
        if toward is not None and attempt == 0:
            ang = math.atan2(toward[1] - c[1], toward[0] - c[0])
            far = math.dist(toward, c)
        else:
            ang = (rng.uniform(0, 2 * math.pi) if rng is not None else attempt * math.pi / 4)
            far = limit
        for frac in (1.0, 0.75, 0.5, 0.25):
            d = min(limit, far) * frac
            for shape in shapes:
                sc = centre(shape)
                # the tightened shape moves from where the unit's centre stands
                dx, dy = c[0] - sc[0] + d * math.cos(ang), c[1] - sc[1] + d * math.sin(ang)
                end = translated(shape, dx, dy)
                if max(math.dist(a, b) for a, b in zip(pts, end, strict=True)) > limit:
                    continue
                action_ = MoveModels(unit.player, unit.id, action, _points(end))
                if rs.check_move_models(action_) is None:
                    dice = jump_dice_of(game, unit, action_)
                    if not dice:
                        return action_
                    if max(dice) <= JUMP_DICE_TAKEN:
                        if leap:
                            return action_
                        fallback = fallback or action_
    return fallback


def jump_dice_of(game: Game, unit: Unit, action: MoveModels) -> list[int]:
    """The dice of every jump a legal ``move_models`` of ``unit`` would roll ("Jumping": X+1 each), empty when it
    has none."""
    start = points_of(game.state, unit.id)
    return [j.dice for a, p in zip(start, action.positions, strict=True)
            for j in elevation.plan_path(game.state, unit, a, (p.x, p.y)).jumps]


def _nearest_enemy(game: Game, unit: Unit) -> Unit | None:
    enemies = game.state.enemies_of(unit.player)
    return min(enemies, key=lambda e: (unit_gap(game.state, unit, e), e.id)) if enemies else None


def _goal(game: Game, unit: Unit) -> XY | None:
    """Where the simple player heads: the nearest marker it does not hold, else the nearest enemy."""
    s = game.state
    c = centre(points_of(s, unit.id))
    markers = [(o.x, o.y) for o in s.objectives if o.controller != unit.player]
    if markers:
        return min(markers, key=lambda m: (math.dist(m, c), m))
    enemy = _nearest_enemy(game, unit)
    return centre(points_of(s, enemy.id)) if enemy is not None else None


def _deploy(game: Game, player: int, options: Sequence[str], rng: random.Random) -> Action:
    rs = _ruleset(game)
    s = game.state
    unit = s.units[options[0] if rng is None else rng.choice(list(options))]
    r = base_radius(unit.profile)
    edge = rs.w.edges[player]
    t = s.table
    reach = ZONE_DEPTH + (SCOUT_REACH if rs.w.scouting else 0.0)
    for _ in range(60):
        depth = rng.uniform(r + 1.0, reach - 3 * r - 1.0)
        along = rng.uniform(6.0, (t.width if edge in ("south", "north") else t.depth) - 6.0)
        at = {"south": (along, depth), "north": (along, t.depth - depth), "west": (depth, along),
              "east": (t.width - depth, along)}[edge]
        pts = grid(unit.models, r, at)
        action = PlaceModels(player, unit.id, _points(pts))
        if rs.check_deploy(action) is None:
            return action
    raise RuntimeError(f"found no place to deploy {unit.name}")


def _ambush(game: Game, player: int, options: Sequence[str], rng: random.Random, toward: XY | None) -> Action:
    """An Ambush unit placed anywhere over 9" from the enemy (nearest ``toward`` of the spots tried when given),
    or ``done`` when no spot is found."""
    rs = _ruleset(game)
    t = game.state.table
    unit = game.state.units[rng.choice(list(options))]
    r = base_radius(unit.profile)
    legal: list[PlaceModels] = []
    for _ in range(40):
        at = (rng.uniform(4, t.width - 4), rng.uniform(4, t.depth - 4))
        action = PlaceModels(player, unit.id, _points(grid(unit.models, r, at)))
        if rs.check_deploy(action) is None:
            legal.append(action)
    if not legal:
        return Done(player)
    if toward is None:
        return rng.choice(legal)
    return min(legal, key=lambda a: math.dist(centre([(p.x, p.y) for p in a.positions]), toward))


def _objective(game: Game, player: int, rng: random.Random) -> Action:
    rs = _ruleset(game)
    t = game.state.table
    for _ in range(200):
        action = PlaceObjective(player, round(rng.uniform(1, t.width - 1), 3), round(rng.uniform(1, t.depth - 1), 3))
        if rs.check_deploy(action) is None:
            return action
    raise RuntimeError("found no place for an objective marker")


def _gap(game: Game, a: str, b: str) -> float:
    s = game.state
    return unit_gap(s, s.units[a], s.units[b])


def _sensible(game: Game, cast: CastSpell) -> tuple[int, float, str] | None:
    """How the simple player ranks ``cast`` (lower first), or None when it would waste the spell: hits on an enemy
    (nearest first), a curse on an enemy, a blessing on a friend nearest to the enemy that does not have it yet,
    rally on a Shaken friend."""
    s = game.state
    spell = magic.spells_of(s, cast.player).get(cast.spell)
    target = s.units.get(cast.target or cast.unit)
    if spell is None or target is None:
        return None
    if spell.target == "enemy":
        return (0 if spell.hits is not None else 1, _gap(game, cast.unit, target.id), spell.name)
    if spell.rally:
        return (2, 0.0, spell.name) if target.shaken else None
    if any(isinstance(e, ActiveEffect) and e.spell == spell.name for e in target.effects):
        return None
    enemies = s.enemies_of(target.player)
    near = min((unit_gap(s, target, e) for e in enemies), default=math.inf)
    return (3, near, spell.name) if near <= 12.0 else None


def cast(game: Game, player: int, rng: random.Random | None) -> CastSpell | None:
    """"Caster(X)": the spell the activated caster tries now (``rng`` None: the simple player's, else a random one,
    often none), or None."""
    s = game.state
    options = game.activation_casts(player)
    if not options:
        return None
    if rng is not None:
        if rng.random() >= 0.6:
            return None
        action = rng.choice(options)
        caster = s.units[action.unit]
        value = magic.spells_of(s, player)[action.spell].value
        spare = [(u, n - (value if u == caster.id else 0)) for u, n in magic.token_sources(s, caster, player)]
        spare = [(u, n) for u, n in spare if n > 0 and u is not None]
        if spare and rng.random() < 0.5:
            u, n = rng.choice(spare)
            action = CastSpell(player, action.unit, action.spell, action.target, (TokenSpend(rng.randint(1, n), u),))
        return action if game.check_magic(action) is None else None
    ranked = [(r, i, c) for i, c in enumerate(options) if (r := _sensible(game, c)) is not None]
    if not ranked:
        return None
    best = min(ranked, key=lambda t: (t[0], t[1]))[2]
    caster = s.units[best.unit]
    value = magic.spells_of(s, player)[best.spell].value
    # tokens the 6-token cap would waste when the next round's X come: spent on this roll instead
    waste = caster.spell_tokens - value + magic.caster_value(caster) - magic.MAX_TOKENS
    if waste > 0:
        boosted = CastSpell(player, best.unit, best.spell, best.target, (TokenSpend(waste, caster.id),))
        if game.check_magic(boosted) is None:
            return boosted
    return best


def dispel(game: Game, player: int, rng: random.Random | None) -> Dispel:
    """"Caster(X)": the tokens spent against the enemy's cast (-1 each): the simple player (``rng`` None) up to 2
    against hits on its units, 1 against another spell; a random player a random number from one caster."""
    s = game.state
    cast_ = magic.magic_of(s).cast
    p = game.pending
    caster = s.units.get(p.unit) if p is not None and p.unit is not None else None
    if cast_ is None or caster is None:
        return Dispel(player)
    sources = [(u, n) for u, n in magic.token_sources(s, caster, player) if u is not None and n > 0]
    if not sources:
        return Dispel(player)
    if rng is not None:
        if rng.random() < 0.5:
            return Dispel(player)
        u, n = rng.choice(sources)
        return Dispel(player, (TokenSpend(rng.randint(1, n), u),))
    spell = magic.spells_of(s, cast_.player).get(cast_.spell)
    want = 2 if spell is not None and spell.hits is not None else 1
    return Dispel(player, magic.take_tokens(sources, want))


def push_to(game: Game, player: int, rng: random.Random | None) -> Action:
    """"Pushing": where the attacker pushes the model (``rng`` None: the simple player's spot, as far as it may
    from the nearest objective marker and from the attacking unit; else a random legal spot, or none), or ``done``.
    """
    rs = _ruleset(game)
    offer = rs.push_options()
    if offer is None:
        return Done(player)
    uid, (x, y) = offer
    s = game.state
    legal: list[PushModel] = []
    for k in range(16):
        a = 2 * math.pi * k / 16
        for d in (PUSH_REACH, PUSH_REACH / 2):
            action = PushModel(player, uid, round(x + d * math.cos(a), 3), round(y + d * math.sin(a), 3))
            if rs.check_push(action) is None:
                legal.append(action)
                break
    if not legal:
        return Done(player)
    if rng is not None:
        return rng.choice(legal) if rng.random() < 0.7 else Done(player)
    w = rs.w
    mine = [u for u in [w.unit, *w.melee] if u is not None and s.units[u].player == player]
    foes = points_of(s, mine[0]) if mine else []       # the attacking unit
    marks = [(o.x, o.y) for o in s.objectives]

    def score(a: PushModel) -> tuple[float, float]:
        p = (a.x, a.y)
        off_marker = min((math.dist(p, m) for m in marks), default=0.0)
        off_foe = min((math.dist(p, q) for q in foes), default=0.0)
        return (min(off_marker, 6.0) + min(off_foe, 6.0), -a.x - a.y)
    return max(legal, key=score)


def choose(game: Game, rng: random.Random, simple: bool) -> Action:
    """A legal answer to ``game.pending`` in an AoF: Skirmish game: random (``simple`` False) or the simple
    player's (charge the nearest enemy it can reach, shoot the nearest target, else advance towards the nearest
    marker it does not hold, always strike back). Raises ``RuntimeError`` when the game is over."""
    p = game.pending
    if p is None:
        raise RuntimeError("the game is over")
    s = game.state
    rs = _ruleset(game)
    d = p.decision
    if d == "choose_deployment":
        return ChooseDeployment(p.player, p.player, EDGES[0] if simple else rng.choice(EDGES))
    if d == "place_objective":
        return _objective(game, p.player, rng)
    if d == "deploy":
        aside = [u for u in p.options if s.units[u].has("Ambush") or s.units[u].has("Scout")]
        if aside and not simple and not rs.w.scouting and rng.random() < 0.5:
            return SetAside(p.player, rng.choice(aside))
        return _deploy(game, p.player, p.options, rng)
    if d == "ambush":
        if not simple and rng.random() < 0.3:
            return Done(p.player)
        markers = [(o.x, o.y) for o in s.objectives if o.controller != p.player]
        return _ambush(game, p.player, p.options, rng, markers[0] if simple and markers else None)
    if d == "activate":
        return Activate(p.player, p.options[0] if simple else rng.choice(list(p.options)))
    if d == "dispel":
        return dispel(game, p.player, None if simple else rng)
    if d == "push":
        return push_to(game, p.player, None if simple else rng)
    if d in ("action", "shoot"):
        spell = cast(game, p.player, None if simple else rng)
        if spell is not None:
            return spell
    unit = s.units[p.unit] if p.unit is not None else None
    if unit is None:
        return Done(p.player)
    if d == "action":
        targets = rs.charge_targets(unit.id)
        shots = bool(unit.profile.ranged_weapons)
        if simple:
            if targets:
                near = min(targets, key=lambda e: (unit_gap(s, unit, s.units[e]), e))
                return DeclareCharge(p.player, unit.id, near)
            move = group_move(game, unit, _goal(game, unit), "advance", None)
            return move or Done(p.player)
        roll = rng.random()
        if targets and roll < 0.4:
            return DeclareCharge(p.player, unit.id, rng.choice(targets))
        if roll < 0.55 and shots:
            return Done(p.player)
        kind = "advance" if roll < 0.85 else "rush"
        move = group_move(game, unit, _goal(game, unit) if rng.random() < 0.7 else None, kind, rng,
                          leap=rng.random() < 0.5)
        return move or Done(p.player)
    if d == "shoot":
        targets = rs.shooting_targets(unit.id)
        if not targets:
            return Done(p.player)
        pick = min(targets, key=lambda e: (unit_gap(s, unit, s.units[e]), e)) if simple else rng.choice(targets)
        return Shoot(p.player, unit.id, pick)
    if d == "strike_back":
        return StrikeBack(p.player, unit.id) if simple or rng.random() < 0.85 else Done(p.player)
    if d == "consolidate":
        if simple:
            return Done(p.player)
        move = group_move(game, unit, _goal(game, unit), "consolidate", rng, tries=3)
        return move or Done(p.player)
    return Done(p.player)


def reason(game: Game, action: Action) -> str:
    """Why the simple player (``choose`` with ``simple``) answers ``game.pending`` with ``action``, in a few words
    for the log of a game against the computer (``game`` is the game before the action)."""
    s = game.state
    if isinstance(action, DeclareCharge):
        return "the nearest enemy its charge reaches"
    if isinstance(action, Shoot):
        return "the nearest enemy in range and in sight"
    if isinstance(action, MoveModels):
        unit = s.units.get(action.unit)
        markers = unit is not None and any(o.controller != unit.player for o in s.objectives)
        return "towards the nearest objective marker it does not hold" if markers else "towards the nearest enemy"
    if isinstance(action, StrikeBack):
        return "it always strikes back"
    if isinstance(action, CastSpell):
        spell = magic.spells_of(s, action.player).get(action.spell)
        if spell is not None and spell.target == "enemy":
            return "a spell on the nearest enemy in sight" + (" (hits first)" if spell.hits is not None else "")
        if spell is not None and spell.rally:
            return "its friend is Shaken"
        return "a blessing for the friend nearest to the enemy"
    if isinstance(action, Dispel):
        return "tokens against the enemy's spell" if action.tokens else "no tokens in reach to spend"
    if isinstance(action, PushModel):
        return "as far as it may from the nearest marker and from the attackers"
    if isinstance(action, Activate):
        return "the first of its units still to activate"
    if isinstance(action, (PlaceModels, PlaceObjective, ChooseDeployment, SetAside)):
        return "by a quick rule of thumb (no look-ahead)"
    p = game.pending
    d = p.decision if p is not None else ""
    if d == "action":
        return "no enemy in its charge reach and no move towards its goal it may make"
    if d == "shoot":
        return "no enemy in range and in sight"
    if d == "consolidate":
        return "it stays where it fought"
    if d == "push":
        return "no spot to push the model to"
    return "nothing else it could do here"
