"""The computer opponent's magic within activations (issues 13 and 14): AoF:R 2.16's "Wizard(X)" (cast D6+X, the
enemy's wizards may block) and the AoF:R quick rules' "Caster(X)" (spell tokens; the enemy's tokens against a cast).

What is searched here is judged as the AoWFBR strategy step's casts are (``game.ai.search``): every candidate is
applied to clones of the AI's seat view rolling its own dice, played on with the fixed rollout policy and evaluated.
This module gives the candidates and the one term the evaluation adds for magic (``in_hand``):

* a cast is only worth trying when it beats not casting. ``cast_candidates`` lists the activated unit's casts (the
  engine's ``Game.activation_casts``, each accepted by ``Game.check_magic``), the most purposeful target of each
  spell first (``game.ai.candidates.cast_candidates``); under the quick rules also with extra tokens (``boost``:
  +1 each, up to ``MAX_BOOST`` beyond what the opponent may spend against it);
* ``block_candidates`` (2.16 ``block_spell``): none, every wizard that may, or each one alone;
* ``dispel_candidates`` (the quick rules' ``dispel``): none, or 1, 2, ... tokens (up to ``MAX_BOOST``, the most a
  4+ roll can be worsened before only a natural 6 casts), taken from the casters holding the most first;
* ``in_hand``: what a side's magic not yet used this round is worth, so that spending it has a price: a spell token
  held (``TOKEN`` points; none for the tokens the cap of 6 would take off at the next round's refill), a wizard's
  try of the round not yet used (``CAST_TRY`` times its best chance to cast while it may still cast in its own
  activation, ``BLOCK_TRY`` once it may only block and an enemy wizard may still cast). Zero-sum (the other side's
  is subtracted) and zero outside the activation rulesets, so AoWFBR's evaluation is unchanged.

These prices are the only figures not simulated: what an unused try or token would bring later in the round is not
played out by the rollout (its policy casts nothing), so it is priced. Only public state is read.
"""

from __future__ import annotations

from game.ai.candidates import cast_candidates as ranked_casts
from game.engine import activation_magic, magic
from game.engine.actions import Action, CastSpell, Dispel, Done, TokenSpend
from game.engine.game import Game
from game.engine.state import Phase, Unit

# The prices are on the evaluation's scale (game.ai.evaluate): a spell's hits removing a model or two of a regiment
# move it by a few points only, so a try or a token held is worth about what a later cast would add.
TOKEN = 0.75
"""Points a spell token held is worth (one the cap of 6 will not take off at the next refill)."""
CAST_TRY = 2.0
"""Points a wizard's unused try is worth while it may still cast this round (times its best chance to cast)."""
BLOCK_TRY = 1.0
"""Points a wizard's unused try is worth once it may only block this round."""
MAX_BOOST = 3
"""Tokens beyond the opponent's that can still change a 4+ roll (natural 1 fails, natural 6 casts: rulebook
"Modifiers"); more are never offered."""


def wizard_rules(game: Game) -> bool:
    """True under AoF:R 2.16's Wizard(X) (the ruleset has the ``block_spell`` decision)."""
    return "block_spell" in (game.ruleset.decisions or ())


def token_rules(game: Game) -> bool:
    """True under a token Caster(X) cast within activations (the AoF:R quick rules)."""
    return game.state.phase is Phase.ACTIVATION and not wizard_rules(game)


def cast_chance(x: int, value: int) -> float:
    """AoF:R 2.16 "Wizard(X)": the chance that D6+X is ``value`` or more."""
    return max(0.0, min(1.0, (7 + x - value) / 6.0))


def cast_candidates(game: Game, me: int, limit: int) -> list[CastSpell]:
    """Up to ``limit`` casts the activated unit of ``me`` may try now (``Game.activation_casts``), ranked as the
    strategy step's casts are (``game.ai.candidates.cast_candidates``), each accepted by ``Game.check_magic``; under
    the quick rules then their boosted variants (``boosts``), up to twice ``limit`` in all."""
    casts = ranked_casts(game, me, limit, game.activation_casts(me))
    if not token_rules(game):
        return casts
    out = list(casts)
    for c in casts:
        out += boosts(game, c)
    return out[: limit * 2]


def boosts(game: Game, cast: CastSpell) -> list[CastSpell]:
    """The quick rules' "Caster(X)": ``cast`` with 1, 2, ... extra tokens (the caster's own beyond the spell's
    value first, then the other casters' in reach with the most), up to ``MAX_BOOST`` more than the opponent may
    spend against it; each accepted by ``Game.check_magic``."""
    s = game.state
    caster = magic.find_caster(s, cast.unit)
    spell = magic.spells_of(s, cast.player).get(cast.spell)
    if caster is None or spell is None:
        return []
    sources = []
    for uid, n in magic.token_sources(s, caster, cast.player):
        spare = n - spell.value if uid == caster.id else n
        if spare > 0:
            sources.append((uid, spare))
    sources.sort(key=lambda un: (un[0] != caster.id, -un[1], str(un[0])))
    against = sum(n for _, n in magic.token_sources(s, caster, 3 - cast.player))
    most = min(sum(n for _, n in sources), MAX_BOOST + against)
    out: list[CastSpell] = []
    for total in range(1, most + 1):
        spend = magic.take_tokens(sources, total)
        boosted = CastSpell(cast.player, cast.unit, cast.spell, cast.target, spend, cast.point)
        if game.check_magic(boosted) is None:
            out.append(boosted)
    return out


def block_candidates(game: Game, me: int) -> list[Action]:
    """AoF:R 2.16 ``block_spell``: none first (``done``), every wizard that may block, then each alone (when there
    are several); each accepted by ``Game.check_magic``."""
    p = game.pending
    assert p is not None
    out: list[Action] = [Done(me)]
    options = list(p.options)
    tries = [tuple(options)] + ([(uid,) for uid in options] if len(options) > 1 else [])
    for group in tries:
        block = Dispel(me, tuple(TokenSpend(1, uid) for uid in group))
        if group and game.check_magic(block) is None:
            out.append(block)
    return out


def dispel_candidates(game: Game, me: int) -> list[Action]:
    """The quick rules' ``dispel`` against the cast of ``pending.unit``: none first, then 1, 2, ... tokens, up to
    ``MAX_BOOST`` more than the cast's boost and what ``me``'s casters in reach hold, taken from the casters
    holding the most first; each accepted by ``Game.check_magic``."""
    s = game.state
    p = game.pending
    assert p is not None and p.unit is not None
    caster = magic.find_caster(s, p.unit)
    out: list[Action] = [Dispel(me)]
    if caster is None:
        return out
    sources = sorted(((u, n) for u, n in magic.token_sources(s, caster, me) if n > 0),
                     key=lambda un: (-un[1], str(un[0])))
    cast = magic.magic_of(s).cast
    boost = cast.boost if cast is not None else 0
    most = min(sum(n for _, n in sources), MAX_BOOST + boost)
    for total in range(1, most + 1):
        action = Dispel(me, magic.take_tokens(sources, total))
        if game.check_magic(action) is None:
            out.append(action)
    return out


def in_hand(game: Game, seat: int) -> float:
    """What the magic each side has not used this round is worth (see the module docstring), ``seat``'s less the
    other side's; 0 outside the activation rulesets and once the game is over."""
    s = game.state
    if s.phase is not Phase.ACTIVATION or s.game_over:
        return 0.0
    live = [u for u in s.units.values() if u.removed is None and u.on_table]
    if not wizard_rules(game):
        return sum(_tokens(u) * (1.0 if u.player == seat else -1.0) for u in live)
    a = s.activation
    used = set(getattr(a, "spell_used", ()))
    activated = set(getattr(a, "activated", ()))
    current = getattr(a, "unit", None)
    casting: dict[int, bool] = {1: False, 2: False}
    worth: dict[str, float] = {}
    for u in live:
        x = activation_magic.wizard_value(u)
        spells = magic.spells_of(s, u.player)
        if x <= 0 or u.id in used or not spells:
            continue
        if u.id not in activated or u.id == current:
            casting[u.player] = True
            worth[u.id] = CAST_TRY * max(cast_chance(x, sp.value) for sp in spells.values())
        else:
            worth[u.id] = -1.0          # may only block: worth something while an enemy wizard may still cast
    total = 0.0
    for u in live:
        w = worth.get(u.id, 0.0)
        if w < 0.0:
            w = BLOCK_TRY if casting[3 - u.player] else 0.0
        total += w if u.player == seat else -w
    return total


def _tokens(unit: Unit) -> float:
    """The quick rules: the worth of the spell tokens ``unit`` holds that the next refill would not cap."""
    x = magic.caster_value(unit)
    if x <= 0:
        return 0.0
    return TOKEN * min(unit.spell_tokens, max(magic.MAX_TOKENS - x, 0))


__all__ = ["BLOCK_TRY", "CAST_TRY", "MAX_BOOST", "TOKEN", "block_candidates", "boosts", "cast_candidates",
           "cast_chance", "dispel_candidates", "in_hand", "token_rules", "wizard_rules"]
