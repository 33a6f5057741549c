"""Spells of loose models (AoF: Skirmish "Caster(X)", ../shared/rules/aof-skirmish-quick-rules.md line 87): the
per-model questions ``game.engine.magic`` asks when the game is played with loose models.

"Caster(X): Gets X spell tokens at the start of each round, but can't hold more than 6 tokens at once. At any point
before attacking, spend as many tokens as the spell's value to try casting one or more spells (only one try per
spell). Roll one die, on 4+ resolve the effect on a target in line of sight. Models within 18" in line of sight of
the caster's unit may spend any number of spell tokens at the same time before rolling, to give the caster +1/-1
to the roll per token."

The tokens, the casting roll and the opponent's decision ``dispel`` are ``game.engine.magic``'s (as for the AoF:R
quick rules, ``game.engine.activation_magic.token_cast_options``); here, measured per model, base edge to base edge
(docs/rulings.md "AoF Skirmish": spells):

* a target is in range and line of sight when one model of the caster's unit is within the spell's range of one
  model of the target and sees it (``targets``);
* a caster may spend tokens on a cast when one of its models is within 18" of a model of the caster's unit and one
  of the two sees the other (``in_token_reach``);
* a spell's hits are blocked like shooting (AP, cover only if the spell says so, Regeneration) and placed by the
  wound effects of loose models: each wound kills a model until one remains, the last takes wound markers and rolls
  on the wound table (``resolve_hits``, ``game.engine.skirmish.attacks.take_wounds``).
"""

from __future__ import annotations

from typing import Protocol

from game.engine.dice import Dice
from game.engine.events import Event
from game.engine.skirmish.attacks import Strike, block, in_cover, take_wounds
from game.engine.skirmish.loose import Warband, base_radius, centre, gap, points_of, sight
from game.engine.state import GameState, Unit


class SpellHits(Protocol):
    """What is read of a spell's automatic hits (``game.engine.magic.SpellHits``; magic imports this module)."""

    @property
    def count(self) -> int: ...
    @property
    def ap(self) -> int: ...
    @property
    def cover(self) -> bool: ...


class Spell(Protocol):
    """What is read of a spell here (``game.engine.magic.Spell``)."""

    @property
    def name(self) -> str: ...
    @property
    def target(self) -> str: ...
    @property
    def range(self) -> float | None: ...
    @property
    def heal(self) -> int: ...

TOKEN_RANGE = 18.0
""""Caster(X)": models within 18" in line of sight of the caster's unit may spend tokens."""
SPELL_EFFECTS = ("hits", "modifier", "rally")
"""The spell effects played with loose models; ``heal`` (killed models returned) and spells aimed at a ``point``
are refused when a scenario loads (``spell_problem``)."""
_EPS = 1e-6


def loose(state: GameState) -> bool:
    """The game is played with loose models (AoF: Skirmish)."""
    return isinstance(state.activation, Warband)


def _pair_in_reach(state: GameState, a: Unit, b: Unit, reach: float) -> bool:
    """One model of ``a`` within ``reach`` inches (edge to edge) of one model of ``b``, the two in line of sight
    (``loose.sight`` between two centres works both ways)."""
    ra, rb = base_radius(a.profile), base_radius(b.profile)
    for p in points_of(state, a.id):
        for q in points_of(state, b.id):
            if gap(p, ra, q, rb) <= reach + _EPS and sight(state, p, q):
                return True
    return False


def targets(state: GameState, caster: Unit, spell: Spell) -> list[str]:
    """Units ``caster`` may target with ``spell`` now, scenario order: ``self`` the caster only; ``friend`` the caster
    and its friends, ``enemy`` the enemy units, with a model within the spell's range of a model of the caster's unit
    and in its line of sight."""
    if not caster.on_table or spell.target == "point":
        return []
    if spell.target == "self":
        return [caster.id]
    player = caster.player if spell.target == "friend" else 3 - caster.player
    reach = spell.range or 0.0
    out = [u.id for u in state.units_of(player) if u.id != caster.id and u.on_table
           and _pair_in_reach(state, caster, u, reach)]
    if spell.target == "friend":
        out.insert(0, caster.id)
    return out


def target_problem(state: GameState, caster: Unit, spell: Spell, target: Unit) -> str:
    """Why ``target`` is not a target of ``spell`` for ``caster`` (out of range, or no model in line of sight)."""
    rc, rt = base_radius(caster.profile), base_radius(target.profile)
    pts, foes = points_of(state, caster.id), points_of(state, target.id)
    if not pts or not foes:
        return f"{target.name} is not on the table"
    d = min(gap(p, rc, q, rt) for p in pts for q in foes)
    if d > (spell.range or 0.0) + _EPS:
        return f'{target.name} is {d:.1f}" away; {spell.name} has a range of {spell.range:g}"'
    return f"no model of {caster.name} within {spell.range:g}\" of {target.name} has line of sight to it"


def in_token_reach(state: GameState, unit: Unit, caster: Unit) -> bool:
    """"Caster(X)": a model of ``unit`` is within 18" of a model of the caster's unit, in line of sight (the caster
    itself always)."""
    if unit.id == caster.id:
        return True
    if not (unit.on_table and caster.on_table):
        return False
    return _pair_in_reach(state, unit, caster, TOKEN_RANGE)


def resolve_hits(state: GameState, dice: Dice, caster: Unit, spell: Spell, target: Unit, hits: SpellHits
                 ) -> list[Event]:
    """A cast spell's automatic ``hits`` on ``target``: Defense rolls (AP, the spell's cover only when it says so:
    from the caster's models; the target's spell modifiers to Defense), Regeneration, then the wound effects of
    loose models from the caster's models (``take_wounds``). Dice: the Defense rolls, Regeneration, the wound
    effect roll."""
    label = f"{spell.name} of {caster.name}"
    events = [Event("hits", f"{label} on {target.name}: {hits.count} hit{'s' if hits.count != 1 else ''}",
                    {"unit": caster.id, "target": target.id, "spell": spell.name, "hits": hits.count})]
    pts = points_of(state, caster.id)
    cover = hits.cover and in_cover(state, target, pts)
    wounds, _, evs = block(dice, target, caster, [Strike(None, hits.count, cover=cover, ap_bonus=hits.ap)], label)
    events += evs
    return events + take_wounds(state, dice, target, wounds, centre(pts) if pts else (0.0, 0.0))


def spell_problem(spell: Spell) -> str | None:
    """Why an army's ``spell`` can't be cast by loose models, or None: a spell aimed at a point, or one that heals
    (it returns killed models to a unit), is not played in AoF: Skirmish yet."""
    if spell.target == "point":
        return (f"{spell.name} is aimed at a point of the table: AoF: Skirmish plays spells that target a unit "
                "(enemy, friend or self)")
    if spell.heal:
        return (f"{spell.name} heals (killed models come back): AoF: Skirmish plays the spell effects "
                f"{', '.join(SPELL_EFFECTS)}")
    return None
