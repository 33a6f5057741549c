"""Casting spells within a unit's activation (issue 14): the shared part of the activation rulesets' magic, with
the spells, targets and effects of ``game.engine.magic`` (army file ``spells:``) and each ruleset's own roll.

AoF:R 2.16 "Wizard(X)" (../shared/rules/aofr-2.16-full-rulebook.txt, "Special Rules"): "Models with this special
rule may cast one spell at any point during their activation, before attacking. [...] roll D6+X. If the result is
equal to or higher than the number in brackets, then you may resolve the spell's effects. Enemy wizards within 18"
and line of sight may also roll D6+X at the same time, and if the result is higher than that of the casting
wizard, then the spell's effects are blocked instead. Note that each wizard may only either try to cast a spell or
try to block a spell each round."

How a cast goes (decisions, docs/formats.md "Spells within an activation"): while its unit is being activated and
before it attacks (decision ``action``, before its move or charge, or ``shoot``, before it shoots), the active player
sends ``cast_spell {unit, spell, target | point}``. If the other player has wizards that may block (within 18" of the
caster's unit and in line of sight either way, not having cast or blocked this round), the game asks that player
(decision ``block_spell``, options the wizards): ``dispel {tokens: [{unit: W, tokens: 1}, ...]}`` names the wizards
that roll to block (``done`` or an empty list: none). Then the dice: the caster's D6, then each blocking wizard's
D6 in the order named, then the spell's effects (``magic.resolve_effects``). The activation goes on where it was.

The AoF:R quick rules' (and AoF: Skirmish's) "Caster(X)": "Gets X spell tokens at the start of each round, but
can't hold more than 6 tokens at once. At any point before attacking, spend as many tokens as the spell's value to
try casting one or more spells (only one try per spell). Roll one die, on 4+ resolve the effect [...]. Models
within 18" in line of sight of the caster's unit may spend any number of spell tokens at the same time before
rolling, to give the caster +1/-1 to the roll per token." This is AoWFBR's Caster(X) with basic tokens
(``game.engine.magic``: ``start_of_round``, ``cast_spell`` with ``boost``, the opponent's decision ``dispel``, the
4+ roll) cast within the caster's activation instead of a strategy step (``token_cast_options``;
``magic.cast_spell(..., in_activation=True)``).

Spell effects with a duration last until the end of the round in which they were cast (docs/rulings.md "AoF:R
2.16": spell durations within activations; ``magic.expires_after``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from game.engine import magic
from game.engine.actions import Action, CastSpell, Dispel, TablePoint
from game.engine.dice import Dice
from game.engine.errors import IllegalAction
from game.engine.events import Event, roll_event
from game.engine.state import GameState, Unit

WIZARD_RULE = "Wizard"
"""AoF:R 2.16's name of the rule (``Wizard(X)``)."""
BLOCK_RANGE = 18.0
"""AoF:R 2.16 "Wizard(X)": "Enemy wizards within 18" and line of sight may also roll"."""
SECTION = "Wizard(X)"
"""The section an illegal cast or block names."""


@dataclass
class ActivationCast:
    """A cast waiting for the other player's ``block_spell`` answer (kept in the ruleset's activations state)."""

    caster: str
    """The casting unit's id."""
    spell: str
    """The spell's name."""
    target: str | None
    """The target unit, or None for a spell aimed at ``point``."""
    point: tuple[float, float] | None
    """The point a ``point`` spell is aimed at (inches), or None."""
    blockers: tuple[str, ...]
    """The enemy wizards that may roll to block."""
    resume: str
    """The activation stage to return to once the cast is resolved (``action`` or ``shoot``)."""

    def to_dict(self) -> dict[str, object]:
        """The state file form (docs/formats.md)."""
        return {"caster": self.caster, "spell": self.spell, "target": self.target,
                "point": list(self.point) if self.point is not None else None, "blockers": list(self.blockers),
                "resume": self.resume}


def wizard_value(unit: Unit) -> int:
    """X of Wizard(X) of ``unit`` or of a living hero joined to it (AoF:R 2.16 "Hero": the hero is part of the
    unit); 0 for a unit that is not a wizard."""
    x = unit.profile.value(WIZARD_RULE)
    hero = unit.hero
    if hero is not None and unit.hero_alive:
        x = max(x, hero.profile.value(WIZARD_RULE))
    return x


def wizard_name(unit: Unit) -> str:
    """How a wizard is named in the log: the unit, or the joined wizard hero "with" its unit."""
    hero = unit.hero
    if unit.profile.value(WIZARD_RULE) == 0 and hero is not None and unit.hero_alive:
        return f"{hero.name} with {unit.name}"
    return unit.name


def cast_problem(state: GameState, unit: Unit, used: list[str]) -> str | None:
    """Why the activated ``unit`` may not try a spell now (ignoring the stage of its activation), or None."""
    if wizard_value(unit) <= 0:
        return f"{unit.name} is not a wizard"
    if not unit.on_table:
        return f"{unit.name} is not on the table"
    if unit.id in used:
        return f"{wizard_name(unit)} has already tried to cast or block a spell this round"
    if not magic.spells_of(state, unit.player):
        return f"player {unit.player}'s army has no spells"
    return None


def blockers(state: GameState, caster: Unit, used: list[str]) -> list[str]:
    """Enemy wizards that may roll to block a spell of ``caster``: on the table, within 18" of the caster's unit
    and in line of sight of it (either way), not having cast or blocked this round; scenario order."""
    out = []
    for u in state.units_of(3 - caster.player):
        if wizard_value(u) <= 0 or not u.on_table or u.id in used or not caster.on_table:
            continue
        if state.scene.distance(u.id, caster.id) > BLOCK_RANGE + 1e-9:
            continue
        if state.scene.unit_has_sight(u.id, caster.id) or state.scene.unit_has_sight(caster.id, u.id):
            out.append(u.id)
    return out


def plan_cast(state: GameState, unit: Unit, action: CastSpell, used: list[str], resume: str) -> ActivationCast:
    """Check ``action`` (a cast by the activated ``unit``) and the cast it starts. Raises ``IllegalAction`` naming
    "Wizard(X)": not a wizard, already cast or blocked this round, unknown spell, tokens named (a wizard has none),
    a target out of range or sight, a point not allowed (``magic.point_problem``)."""
    problem = cast_problem(state, unit, used)
    if problem:
        raise IllegalAction(SECTION, problem)
    if action.boost:
        raise IllegalAction(SECTION, "a wizard casts with D6+X: no tokens are spent (leave boost out)")
    spell = magic.spells_of(state, unit.player).get(action.spell)
    if spell is None:
        raise IllegalAction(SECTION, f"{action.spell!r} is not a spell of player {unit.player}'s army")
    point: tuple[float, float] | None = None
    target: str | None = None
    if spell.target == "point":
        if action.point is None:
            raise IllegalAction(SECTION, f"{spell.name} is aimed at a point of the table: give point {{x, y}}")
        point = (action.point.x, action.point.y)
        why = magic.point_problem(state, unit, spell, point)
        if why:
            raise IllegalAction(SECTION, why)
    else:
        if action.point is not None:
            raise IllegalAction(SECTION, f"{spell.name} targets a unit, not a point")
        target = action.target if action.target is not None or spell.target != "self" else unit.id
        if target not in magic.spell_targets(state, unit, spell):
            raise IllegalAction(SECTION, f"{target} is not a target of {spell.name} (range {spell.range or 0:g}\", "
                                "line of sight, " + ("an enemy unit" if spell.target == "enemy" else
                                                     "a friendly unit") + ")")
    return ActivationCast(unit.id, spell.name, target, point, tuple(blockers(state, unit, used)), resume)


def block_choice(cast: ActivationCast, action: Dispel) -> list[str]:
    """The wizards ``action`` names to roll to block ``cast`` (each with ``tokens: 1``), in order. Raises
    ``IllegalAction``: a wizard that may not block, named twice, or with another token count."""
    out: list[str] = []
    for spend in action.tokens:
        if spend.unit is None or spend.unit not in cast.blockers:
            raise IllegalAction(SECTION, f"{spend.unit} may not block this spell; wizards that may: "
                                f"{', '.join(cast.blockers) or 'none'}")
        if spend.tokens != 1:
            raise IllegalAction(SECTION, "a wizard rolls to block once: write tokens: 1")
        if spend.unit in out:
            raise IllegalAction(SECTION, f"{spend.unit} is named twice")
        out.append(spend.unit)
    return out


def resolve_216(state: GameState, dice: Dice, cast: ActivationCast, blocking: list[str]) -> list[Event]:
    """AoF:R 2.16 "Wizard(X)": the caster rolls D6+X, cast if equal to or higher than the spell's value; each
    blocking wizard rolls D6+X, and a result higher than the caster's blocks it. Then the spell's effects. Dice:
    the caster's D6, each blocker's D6 in order, then the effects' dice."""
    caster = state.units[cast.caster]
    spell = magic.spells_of(state, caster.player)[cast.spell]
    x = wizard_value(caster)
    purpose = f"Casting {spell.name} ({wizard_name(caster)}, Wizard({x}))"
    roll = dice.one(purpose)
    result = roll + x
    cast_ok = result >= spell.value
    events = [roll_event(purpose, [roll], spell.value, x, 1 if cast_ok else 0, [f"Wizard({x}): +{x}"],
                         unit=caster.id, spell=spell.name)]
    blocked_by: str | None = None
    for uid in blocking:
        w = state.units[uid]
        bx = wizard_value(w)
        what = f"Blocking {spell.name} ({wizard_name(w)}, Wizard({bx}))"
        b = dice.one(what)
        higher = b + bx > result
        events.append(roll_event(what, [b], result + 1, bx, 1 if higher else 0, [f"Wizard({bx}): +{bx}"],
                                 unit=uid, spell=spell.name))
        if higher and blocked_by is None:
            blocked_by = uid
    data: dict[str, object] = {"unit": caster.id, "spell": spell.name, "cast": False, "roll": result}
    if cast.point is not None and spell.area is not None:
        data["point"] = [cast.point[0], cast.point[1]]
        data["radius"] = spell.area.radius
    if not cast_ok:
        events.append(Event("spell", f"{spell.name} fails ({result} against {spell.value})", data))
        return events
    if blocked_by is not None:
        data["blocked_by"] = blocked_by
        events.append(Event("spell", f"{spell.name} is blocked by {wizard_name(state.units[blocked_by])}", data))
        return events
    if cast.point is not None:
        return events + magic.resolve_area(state, dice, caster, spell, cast.point)
    assert cast.target is not None
    target = state.units[cast.target]
    events.append(Event("spell", f"{spell.name} is cast on {target.name}",
                        {"unit": caster.id, "spell": spell.name, "target": target.id, "cast": True}))
    if not target.on_table:
        return events
    return events + magic.resolve_effects(state, dice, caster, spell, target)


def check_token_magic(state: GameState, action: Action, turn: Callable[[Action], None],
                      casting: Callable[[CastSpell], object], dispelling: Callable[[Dispel], object]) -> None:
    """Raise ``IllegalAction`` when a proposed ``cast_spell`` or ``dispel`` of the quick rules' "Caster(X)" is
    illegal now (nothing changes): ``turn`` raises when it is not the player's decision, ``casting`` and
    ``dispelling`` when the ruleset's activation is not at a point where the cast or the answer is allowed (the
    caster activated and not yet attacking; the ``dispel`` stage); then ``magic.check`` judges the tokens, the spell
    and its target. The rulesets' ``check_magic`` report it through ``errors.reports_illegal``."""
    turn(action)
    if isinstance(action, CastSpell):
        casting(action)
        magic.check(state, action, in_activation=True)
    elif isinstance(action, Dispel):
        dispelling(action)
        magic.check(state, action)


def token_cast_options(state: GameState, unit: Unit) -> list[CastSpell]:
    """The AoF:R quick rules' "Caster(X)": every spell the activated caster ``unit`` may try now with its tokens
    (value held, not tried this round; targets or a few points), without extra tokens; for players and the window.
    """
    if magic.cast_problem(state, unit):
        return []
    m = magic.magic_of(state)
    return _casts(state, unit, [spell for spell in magic.spells_of(state, unit.player).values()
                                if (unit.id, spell.name) not in m.tried and spell.value <= unit.spell_tokens])


def cast_options(state: GameState, unit: Unit, used: list[str]) -> list[CastSpell]:
    """Every cast the activated ``unit`` may try now (spell, target or a few points), for players and the
    window; empty when it may not cast."""
    if cast_problem(state, unit, used):
        return []
    return _casts(state, unit, list(magic.spells_of(state, unit.player).values()))


def _casts(state: GameState, unit: Unit, spells: list[magic.Spell]) -> list[CastSpell]:
    """A cast of each of ``spells`` by ``unit`` at each target it may pick (a few points for a spell aimed at a
    point: ``magic.point_candidates``)."""
    out: list[CastSpell] = []
    for spell in spells:
        if spell.target == "point":
            out += [CastSpell(unit.player, unit.id, spell.name, point=TablePoint(*p))
                    for p in magic.point_candidates(state, unit, spell)]
        else:
            out += [CastSpell(unit.player, unit.id, spell.name, t) for t in magic.spell_targets(state, unit, spell)]
    return out


__all__ = ["ActivationCast", "BLOCK_RANGE", "WIZARD_RULE", "block_choice", "blockers", "cast_options",
           "cast_problem", "plan_cast", "resolve_216", "token_cast_options", "check_token_magic", "wizard_name",
           "wizard_value"]
