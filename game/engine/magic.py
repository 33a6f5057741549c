"""Magic: spell tokens, casting spells and the effects of spells (rulebook "Turn Sequence" 0.1 allocate spell
tokens, 1.3 and 3.2 Cast Spells; Special Rules Reference "Caster(X)"; Optional Rules "Spell and Dispel Tokens" and
"Pooled Tokens"; "Rules Priority & Stacking Effects").

Spells are data: each army lists its spells (army file ``spells:``, docs/formats.md "Spells") and its casters may
cast any of them. A spell has a value (the tokens it costs), a range, a kind of target (``enemy``, ``friend`` or
``self``) and one or more effects from a small vocabulary:

* ``hits``: automatic hits resolved with Defense rolls like shooting (AP, no cover unless the spell says so,
  Regeneration), then casualties;
* ``modifier``: a temporary modifier to a stat of the target unit (``to_hit``, ``defense``, ``morale``, ``move``,
  ``attacks``) lasting a ``phase``, ``turn`` or ``round``; the rules modules ask for it through ONE function,
  ``effect_modifiers`` (or ``effect_value`` for inches and attacks);
* ``heal``: wounds taken off the target's wounded model, then killed models returned;
* ``rally``: the target stops being Shaken.

A spell with target ``point`` is aimed at a point of the table instead of a unit (``cast_spell`` with ``point``):
the point must be on the table, within range of the caster's unit (closest point) and in its line of sight
(``geometry.point_sight``); its ``area`` (a radius and the units it ``affects``: enemy, friend or all) then gives
the effects to every such unit whose footprint is within the radius of the point, each separately, nearest
first (docs/rulings.md "Spells aimed at a point").

How a cast goes (``cast_spell``): in the strategy step of either strategy phase the active player names a caster,
a spell, a target and optional extra tokens (``boost``: +1 each). The caster pays the spell's value. If the other
player has tokens that may reach the cast, the engine asks them (decision ``dispel``) how many to spend (-1 each).
Then one die is rolled for the cast: 4+ (a natural 6 always succeeds, a natural 1 always fails: rulebook
"Modifiers") resolves the effect. Each caster may try each spell once per round.

Token modes (scenario ``options.spell_tokens``):

* ``basic`` (Caster(X)): at the start of each round every caster still in the game (on the table or waiting in
  reserve) gets X spell tokens, holding at most 6. Casters of either player within 18" and in line of sight of the
  caster's unit may spend their tokens: the caster's player's for +1, the opponent's for -1.
* ``spell_and_dispel``: at the start of each round each player with casters splits the total X of their casters
  into spell and dispel tokens and gives them to their casters (decision ``allocate_tokens``; the choices are
  revealed together). Spell tokens cast and boost, dispel tokens give -1 to the opponent's casts; 18" and line of
  sight as in basic.
* ``pooled``: the split tokens go to the player's magic pool with 2 free dispel tokens each round; no range, no
  caster needed to dispel; at the end of a round the pool is cut down to 6 x casters + 2 tokens.

Order of the dice: a cast rolls one die (the casting roll), then, if it succeeds, the effect's dice (Defense rolls,
Regeneration rolls).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import shapely
import shapely.ops

from game.engine import special_rules
from game.engine.actions import Action, AllocateTokens, CastSpell, Dispel, Done, TablePoint, TokenSpend, TokenSplit
from game.engine.attacks import Modifier, roll_to_block, succeeds, total
from game.engine.casualties import apply_wounds
from game.engine.dice import Dice
from game.engine.errors import IllegalAction
from game.engine.events import Event, roll_event
from game.engine.profiles import Profile
from game.engine.skirmish import spells as loose_spells
from game.engine.spell_effects import ActiveEffect, effect_modifiers, effect_value, melee_attacks, move_bonus
from game.engine.state import GameState, Pending, Phase, Step, Unit
from geometry.formation import pose_keeping_front
from geometry.point_sight import point_in_sight
from geometry.pose import Point
from geometry.shapes import footprint_polygon, overlap_area

MAX_TOKENS = 6
"""Rulebook "Caster(X)": a caster can't hold more than 6 tokens at once."""
CAST_NEED = 4
"""Rulebook "Caster(X)": the spell is cast on a 4+."""
TOKEN_RANGE = 18.0
"""Rulebook "Caster(X)": models within 18" in line of sight of the caster's unit may spend tokens on its roll."""
POOL_FREE_DISPEL = 2
"""Rulebook "Pooled Tokens": each player adds 2 dispel tokens to their pool each round (no caster needed)."""

MODES: tuple[str, ...] = ("basic", "spell_and_dispel", "pooled")
"""Values of the scenario option ``spell_tokens``."""
TARGETS: tuple[str, ...] = ("enemy", "friend", "self", "point")
"""What a spell may target: an enemy unit, a friendly unit (the caster included), the caster only, or a point of
the table (with an ``area``)."""
AFFECTS: tuple[str, ...] = ("enemy", "friend", "all")
"""Units the area of a point spell affects: the caster's enemies, its own side (the caster included), or all."""
STATS: tuple[str, ...] = ("to_hit", "defense", "morale", "move", "attacks")
"""Stats a ``modifier`` effect changes: hit rolls (shooting and melee), Defense rolls (against shooting, melee and
spells), morale tests, inches of movement (Advance; Rush and Charge twice as much, like Fast/Slow), melee attacks
per model and melee weapon."""
DURATIONS: tuple[str, ...] = ("phase", "turn", "round")
"""How long a ``modifier`` lasts: until the end of the phase after the strategy phase of the cast (movement or
shooting), until the end of the current player turn, or until the end of the current round."""

DONE_STEPS: frozenset[Step] = frozenset({Step.ALLOCATE_TOKENS, Step.DISPEL})
"""Steps of this module where ``done`` is an answer (default split of the tokens; no dispel)."""

_PHASE_ORDER: dict[Phase, int] = {
    Phase.DEPLOYMENT: 0, Phase.STRATEGY_1: 1, Phase.MOVEMENT: 2, Phase.STRATEGY_2: 3, Phase.SHOOTING: 4,
    Phase.CLOSE_COMBAT: 5, Phase.RALLY: 6, Phase.ACTIVATION: 2,
}
_EPS = 1e-9


# --- spells as data -------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SpellHits:
    """Effect ``hits``: ``count`` automatic hits resolved with Defense rolls, like shooting."""

    count: int
    """Hits dealt."""
    ap: int = 0
    """AP(X) of the hits: -X to the Defense rolls."""
    cover: bool = False
    """True if cover from the caster counts (+1 Defense); spells ignore cover otherwise."""


@dataclass(frozen=True, slots=True)
class SpellModifier:
    """Effect ``modifier``: ``value`` added to ``stat`` of the target unit for ``duration``."""

    stat: str
    """One of ``STATS``."""
    value: int
    """Added to the rolls (or inches, or attacks); negative for a curse."""
    duration: str = "turn"
    """One of ``DURATIONS``."""


@dataclass(frozen=True, slots=True)
class SpellArea:
    """The area of a spell aimed at a point: every unit of ``affects`` whose footprint is within ``radius``."""

    radius: float
    """Inches from the point to the closest point of a unit's footprint."""
    affects: str
    """One of ``AFFECTS``."""


@dataclass(frozen=True, slots=True)
class Spell:
    """A spell of an army (army file ``spells:``)."""

    name: str
    """Unique within the army."""
    value: int
    """Tokens it costs to try it, 1 to 6; under AoF:R 2.16 the number in brackets a wizard's D6+X must reach
    ("Wizard(X)"). A game's spells carry the value of its ruleset (``for_ruleset``)."""
    target: str
    """One of ``TARGETS``."""
    range: float | None = None
    """Inches from the caster to the target unit or point (closest points); None for ``self`` spells."""
    hits: SpellHits | None = None
    """Automatic hits, or None."""
    modifier: SpellModifier | None = None
    """Temporary modifier, or None."""
    heal: int = 0
    """Wounds healed (0: none)."""
    rally: bool = False
    """The target stops being Shaken."""
    description: str | None = None
    """Flavour text shown to players."""
    area: SpellArea | None = None
    """The area of a ``point`` spell (None for the others)."""
    values: tuple[tuple[str, int], ...] = ()
    """Its value under other rulesets (army file ``values``: ruleset id, value), replacing ``value`` there."""

    def for_ruleset(self, ruleset: str | None) -> Spell:
        """This spell as played under ``ruleset`` (an id; None: as written): its ``values`` entry for that ruleset
        replaces ``value``."""
        for rid, v in self.values:
            if rid == ruleset:
                return replace(self, value=v)
        return self

    def summary(self) -> str:
        """The spell's rules in a few words (value, range, target, effects)."""
        parts = []
        if self.hits is not None:
            parts.append(f"{self.hits.count} hits" + (f" AP({self.hits.ap})" if self.hits.ap else ""))
        if self.modifier is not None:
            m = self.modifier
            parts.append(f"{m.value:+d} {m.stat.replace('_', ' ')} for a {m.duration}")
        if self.heal:
            parts.append(f"heal {self.heal}")
        if self.rally:
            parts.append("rally")
        reach = "self" if self.target == "self" else f'{self.target} within {self.range:g}"'
        if self.area is not None:
            who = {"enemy": "enemy units", "friend": "friendly units", "all": "all units"}[self.area.affects]
            reach = f'point within {self.range:g}", {who} within {self.area.radius:g}" of it'
        return f"{self.name} ({self.value}): {reach}; {', '.join(parts)}"


@dataclass
class TokenPool:
    """A player's magic pool (rulebook "Pooled Tokens")."""

    spell: int = 0
    """Spell tokens: cast and boost."""
    dispel: int = 0
    """Dispel tokens: -1 to the opponent's casting rolls."""


@dataclass
class PendingCast:
    """A cast waiting for the opponent's dispel decision."""

    player: int
    caster: str
    spell: str
    target: str | None
    """The target unit, or None for a spell aimed at ``point``."""
    boost: int
    """+1 per token spent by the caster's side beyond the spell's value."""
    resume: Pending | None
    """The strategy decision to return to once the cast is resolved."""
    point: Point | None = None
    """The point a ``point`` spell is aimed at (inches)."""
    resume_step: Step = Step.STRATEGY
    """The step to return to once the cast is resolved (``Step.ACTIVATION``: cast within an activation, the AoF:R
    quick rules' "Caster(X)")."""


@dataclass
class MagicState:
    """Everything about magic in a game (``GameState.magic``)."""

    mode: str = "basic"
    """Token mode: one of ``MODES``."""
    spells: dict[int, dict[str, Spell]] = field(default_factory=dict)
    """Each player's spells by name (their army's)."""
    tried: set[tuple[str, str]] = field(default_factory=set)
    """(caster, spell) tried this round: one try per spell."""
    allocated_round: int = 0
    """The round whose tokens have been allocated (step 0.1 is done once per round)."""
    pools: dict[int, TokenPool] = field(default_factory=lambda: {1: TokenPool(), 2: TokenPool()})
    """Magic pools (``pooled`` mode only)."""
    awaiting: list[int] = field(default_factory=list)
    """Players still to split their tokens this round, in order."""
    chosen: dict[int, AllocateTokens] = field(default_factory=dict)
    """Splits chosen and not yet revealed."""
    cast: PendingCast | None = None
    """The cast waiting for a dispel decision, or None."""

    def pool(self, player: int) -> TokenPool:
        """The magic pool of ``player``."""
        return self.pools.setdefault(player, TokenPool())


def new_magic_state(mode: str, spells: dict[int, dict[str, Spell]], ruleset: str | None = None) -> MagicState:
    """The magic of a new game: the token mode and each player's spells, with their values under ``ruleset``
    (``Spell.for_ruleset``; None: as written)."""
    if mode not in MODES:
        raise ValueError(f"unknown spell token mode {mode!r} (modes: {', '.join(MODES)})")
    return MagicState(mode=mode, spells={p: {n: sp.for_ruleset(ruleset) for n, sp in s.items()}
                                         for p, s in spells.items()})


def magic_of(state: GameState) -> MagicState:
    """The game's magic state, made on first use for states built without one (rule tests)."""
    m = state.magic
    if not isinstance(m, MagicState):
        m = MagicState(mode=str(state.options.get("spell_tokens", "basic")))
        state.magic = m
    return m


def _view(state: GameState) -> MagicState:
    """The game's magic state for reading only: a state without one is not changed."""
    m = state.magic
    return m if isinstance(m, MagicState) else MagicState(mode=str(state.options.get("spell_tokens", "basic")))


def mode_of(state: GameState) -> str:
    """The token mode of the game (one of ``MODES``), without changing the state."""
    m = state.magic
    return m.mode if isinstance(m, MagicState) else str(state.options.get("spell_tokens", "basic"))


# --- the one place other rules read spell effects ----------------------------------------------------------------


def _now(state: GameState) -> tuple[int, int, int]:
    return (state.round, 0 if state.active_player == state.first_player else 1, _PHASE_ORDER[state.phase])


def expires_after(state: GameState, duration: str) -> tuple[int, int, int]:
    """The last moment an effect cast now with ``duration`` applies (see ``DURATIONS``). In a round of
    activations (AoF:R) every duration lasts until the end of the round (docs/rulings.md "AoF:R 2.16": spell
    durations within activations)."""
    rnd, turn, phase = _now(state)
    if state.phase is Phase.ACTIVATION:
        return (rnd, 1, _PHASE_ORDER[Phase.RALLY])
    if duration == "phase":
        return (rnd, turn, phase + 1)
    if duration == "turn":
        return (rnd, turn, _PHASE_ORDER[Phase.RALLY])
    return (rnd, 1, _PHASE_ORDER[Phase.RALLY])


def add_effect(unit: Unit, effect: ActiveEffect) -> None:
    """Put ``effect`` on ``unit``; the same spell's earlier effect on the same stat is replaced (no stacking)."""
    unit.effects = [e for e in unit.effects
                    if not (isinstance(e, ActiveEffect) and e.spell == effect.spell and e.stat == effect.stat)]
    unit.effects.append(effect)


def expire_effects(state: GameState) -> list[Event]:
    """Remove the spell effects whose duration has ended; call at the start of every phase."""
    now = _now(state)
    events: list[Event] = []
    for unit in state.units.values():
        if not unit.effects:
            continue
        keep = []
        for e in unit.effects:
            if isinstance(e, ActiveEffect) and e.expires_after < now:
                events.append(Event("effect", f"{e.spell} on {unit.name} ends",
                                    {"unit": unit.id, "spell": e.spell, "stat": e.stat, "ended": True}))
            else:
                keep.append(e)
        unit.effects = keep
    return events


# --- casters and tokens -------------------------------------------------------------------------------------------


def caster_value(unit: Unit) -> int:
    """X of Caster(X) of the unit, or of a living hero joined to it (rulebook "Hero": the hero is part of the unit,
    which holds its tokens and is "the caster's unit"); 0 for a unit that is not a caster."""
    x = unit.profile.value("Caster")
    hero = getattr(unit, "hero", None)
    if hero is not None and getattr(unit, "hero_alive", False):
        x = max(x, hero.profile.value("Caster"))
    return x


def caster_name(unit: Unit) -> str:
    """How a caster is named in the log: the unit, or the joined caster hero "with" its unit."""
    hero = getattr(unit, "hero", None)
    if unit.profile.value("Caster") == 0 and hero is not None and getattr(unit, "hero_alive", False):
        return f"{hero.name} with {unit.name}"
    return unit.name


def find_caster(state: GameState, unit_id: str) -> Unit | None:
    """The unit ``unit_id``, or the unit a hero ``unit_id`` joined (a joined caster casts as its unit)."""
    unit = state.units.get(unit_id)
    if unit is None and hasattr(state, "host_of"):
        unit = state.host_of(unit_id)
    return unit


def casters_of(state: GameState, player: int) -> list[Unit]:
    """Casters of ``player`` still in the game (on the table or not yet deployed), scenario order."""
    return [u for u in state.units.values() if u.player == player and u.removed is None and caster_value(u) > 0]


def tokens_of(state: GameState, player: int) -> dict[str, int]:
    """For the window: ``spell`` and ``dispel`` tokens ``player`` holds in all (casters, or the pool)."""
    m = _view(state)
    if m.mode == "pooled":
        pool = m.pool(player)
        return {"spell": pool.spell, "dispel": pool.dispel}
    casters = casters_of(state, player)
    return {"spell": sum(u.spell_tokens for u in casters), "dispel": sum(u.dispel_tokens for u in casters)}


def start_of_round(state: GameState, phase: Phase) -> list[Event]:
    """Step 0.1 "allocate spell tokens", once per round (later calls in the same round do nothing).

    ``basic``: every caster gets X tokens (at most 6 held). Otherwise each player with casters must split their
    tokens (decision ``allocate_tokens``, Step.ALLOCATE_TOKENS) before ``phase`` is entered; ``pooled`` first cuts
    each pool down to 6 x casters + 2 (the end of the previous round). See ``waiting_for_allocation``.
    """
    m = magic_of(state)
    if m.allocated_round >= state.round:
        return []
    m.allocated_round = state.round
    m.tried.clear()
    m.chosen.clear()
    m.awaiting = []
    events: list[Event] = []
    order = [state.first_player, 3 - state.first_player]
    if m.mode == "pooled" and state.round > 1:
        for player in order:
            events += _discard_pool(state, player)
    for player in order:
        casters = casters_of(state, player)
        if m.mode == "basic":
            for u in casters:
                before = u.spell_tokens
                u.spell_tokens = min(MAX_TOKENS, before + caster_value(u))
                lost = before + caster_value(u) - u.spell_tokens
                events.append(Event("tokens", f"{caster_name(u)} gets {caster_value(u)} spell token"
                                    f"{'s' if caster_value(u) != 1 else ''} (holds {u.spell_tokens}"
                                    + (f"; {lost} over the 6 held are lost" if lost else "") + ")",
                                    {"unit": u.id, "player": player, "spell_tokens": u.spell_tokens}))
        elif sum(caster_value(u) for u in casters) > 0:
            m.awaiting.append(player)
    if m.mode != "basic":
        if m.awaiting:
            state.phase = phase
            state.step = Step.ALLOCATE_TOKENS
            state.pending = _allocation_pending(state, m.awaiting[0])
        else:
            events += _reveal(state)
    return events


def waiting_for_allocation(state: GameState) -> bool:
    """True while a player must still split their tokens (Step.ALLOCATE_TOKENS)."""
    m = state.magic
    return isinstance(m, MagicState) and bool(m.awaiting)


def _allocation_pending(state: GameState, player: int) -> Pending:
    return Pending(player, "allocate_tokens", options=tuple(u.id for u in casters_of(state, player)))


def _discard_pool(state: GameState, player: int) -> list[Event]:
    """Rulebook "Pooled Tokens": at the end of a round, unspent tokens are cut down to 6X + 2 (X: casters).

    Spell tokens are discarded before dispel tokens (docs/rulings.md)."""
    pool = magic_of(state).pool(player)
    limit = MAX_TOKENS * len(casters_of(state, player)) + POOL_FREE_DISPEL
    extra = pool.spell + pool.dispel - limit
    if extra <= 0:
        return []
    from_spell = min(pool.spell, extra)
    pool.spell -= from_spell
    pool.dispel -= extra - from_spell
    return [Event("tokens", f"Player {player} discards {extra} unspent token{'s' if extra != 1 else ''} from the "
                            f"magic pool (keeps {limit})", {"player": player, "pool": _pool_dict(pool)})]


def _pool_dict(pool: TokenPool) -> dict[str, int]:
    return {"spell": pool.spell, "dispel": pool.dispel}


def allocation_total(state: GameState, player: int) -> int:
    """Tokens ``player`` receives this round: the sum of X over their casters still in the game."""
    return sum(caster_value(u) for u in casters_of(state, player))


def default_allocation(state: GameState, player: int) -> AllocateTokens:
    """The split ``done`` stands for: every caster keeps its own X as spell tokens (pooled: all spell tokens)."""
    if _view(state).mode == "pooled":
        return AllocateTokens(player, spell_tokens=allocation_total(state, player), dispel_tokens=0)
    splits = []
    for u in casters_of(state, player):
        room = MAX_TOKENS - u.spell_tokens - u.dispel_tokens
        splits.append(TokenSplit(u.id, spell=max(0, min(caster_value(u), room))))
    return AllocateTokens(player, casters=tuple(splits))


def check_allocation(state: GameState, action: AllocateTokens) -> None:
    """Why a split of the tokens is illegal (raises ``IllegalAction``), rulebook "Spell and Dispel Tokens",
    "Pooled Tokens"."""
    m = magic_of(state)
    rule = "Pooled Tokens" if m.mode == "pooled" else "Spell and Dispel Tokens"
    if state.step is not Step.ALLOCATE_TOKENS or not m.awaiting or m.awaiting[0] != action.player:
        raise IllegalAction("Turn Sequence", "spell tokens are allocated at the start of a round (step 0.1)")
    received = allocation_total(state, action.player)
    if m.mode == "pooled":
        if action.casters:
            raise IllegalAction(rule, "pooled tokens go to the magic pool: give spell_tokens and dispel_tokens, "
                                      "not casters")
        spell, dispel = action.spell_tokens or 0, action.dispel_tokens or 0
        if spell < 0 or dispel < 0:
            raise IllegalAction(rule, "token counts cannot be negative")
        if spell + dispel > received:
            raise IllegalAction(rule, f"player {action.player} receives {received} tokens, not {spell + dispel}")
        return
    if action.spell_tokens is not None or action.dispel_tokens is not None:
        raise IllegalAction(rule, "give each caster its tokens in casters: [{unit, spell, dispel}]")
    given = 0
    seen: set[str] = set()
    mine = {u.id: u for u in casters_of(state, action.player)}
    for split in action.casters:
        u = mine.get(split.unit)
        if u is None:
            raise IllegalAction(rule, f"{split.unit!r} is not a caster of player {action.player} in the game")
        if split.unit in seen:
            raise IllegalAction(rule, f"{u.name} is listed twice")
        seen.add(split.unit)
        if split.spell < 0 or split.dispel < 0:
            raise IllegalAction(rule, "token counts cannot be negative")
        held = u.spell_tokens + u.dispel_tokens + split.spell + split.dispel
        if held > MAX_TOKENS:
            raise IllegalAction("Caster(X)", f"{u.name} would hold {held} tokens; a caster holds at most 6")
        given += split.spell + split.dispel
    if given > received:
        raise IllegalAction(rule, f"player {action.player} receives {received} tokens, not {given}")


def allocate(state: GameState, action: AllocateTokens) -> list[Event]:
    """Record a player's split; once every player has chosen, reveal and hand out the tokens together."""
    check_allocation(state, action)
    m = magic_of(state)
    m.chosen[action.player] = action
    m.awaiting.pop(0)
    events = [Event("tokens", f"Player {action.player} has split their spell tokens", {"player": action.player})]
    if m.awaiting:
        state.pending = _allocation_pending(state, m.awaiting[0])
        return events
    return events + _reveal(state)


def _reveal(state: GameState) -> list[Event]:
    """Hand out the chosen splits (and, pooled, the 2 free dispel tokens) in first-player order."""
    m = magic_of(state)
    events: list[Event] = []
    for player in (state.first_player, 3 - state.first_player):
        choice = m.chosen.pop(player, None)
        if m.mode == "pooled":
            pool = m.pool(player)
            spell = (choice.spell_tokens or 0) if choice else 0
            dispel = ((choice.dispel_tokens or 0) if choice else 0) + POOL_FREE_DISPEL
            pool.spell += spell
            pool.dispel += dispel
            events.append(Event("tokens", f"Player {player} puts {spell} spell and {dispel} dispel tokens in the "
                                          f"magic pool (now {pool.spell} spell, {pool.dispel} dispel)",
                                {"player": player, "pool": _pool_dict(pool)}))
            continue
        if choice is None:
            continue
        for split in choice.casters:
            u = state.units[split.unit]
            u.spell_tokens += split.spell
            u.dispel_tokens += split.dispel
            events.append(Event("tokens", f"{caster_name(u)} gets {split.spell} spell and {split.dispel} dispel tokens "
                                          f"(holds {u.spell_tokens} spell, {u.dispel_tokens} dispel)",
                                {"unit": u.id, "player": player, "spell_tokens": u.spell_tokens,
                                 "dispel_tokens": u.dispel_tokens}))
    return events


# --- casting ---------------------------------------------------------------------------------------------------


def spells_of(state: GameState, player: int) -> dict[str, Spell]:
    """The spells ``player``'s casters may cast (their army's), by name."""
    return _view(state).spells.get(player, {})


def cast_problem(state: GameState, unit: Unit) -> str | None:
    """Why ``unit`` may not cast now (ignoring whose turn it is), or None."""
    if caster_value(unit) <= 0:
        return f"{unit.name} is not a Caster"
    if unit.embarked_in is not None and unit.removed is None:
        # Transport(X) would let it target only its Transport and the units inside: not played yet (docs/rulings.md)
        return (f"{unit.name} is inside a Transport: casting from inside (at the Transport and the units inside "
                "only) is not played yet")
    if not unit.on_table:
        return f"{unit.name} is not on the table"
    if unit.shaken:
        return f"{unit.name} is Shaken and must stay idle"
    return None


def _sees(state: GameState, a: Unit, b: Unit) -> bool:
    return state.scene.unit_has_sight(a.id, b.id)


def in_token_reach(state: GameState, unit: Unit, caster: Unit) -> bool:
    """Rulebook "Caster(X)": ``unit`` is within 18" of the caster's unit and in line of sight of it (either way)."""
    if loose_spells.loose(state):      # AoF: Skirmish: measured per model
        return loose_spells.in_token_reach(state, unit, caster)
    if unit.id == caster.id:
        return True
    if not (unit.on_table and caster.on_table):
        return False
    if state.scene.distance(unit.id, caster.id) > TOKEN_RANGE + _EPS:
        return False
    return _sees(state, unit, caster) or _sees(state, caster, unit)


def spell_targets(state: GameState, caster: Unit, spell: Spell) -> list[str]:
    """Units ``caster`` may target with ``spell`` now: in range (closest points) and in line of sight, scenario
    order. ``self`` spells target the caster only; ``friend`` spells may target the caster too; ``point`` spells
    target no unit (``point_problem``)."""
    if loose_spells.loose(state):      # AoF: Skirmish: measured per model
        return loose_spells.targets(state, caster, spell)
    if not caster.on_table or spell.target == "point":
        return []
    if spell.target == "self":
        return [caster.id]
    player = caster.player if spell.target == "friend" else 3 - caster.player
    reach = (spell.range or 0.0) + _EPS
    near = [u.id for u in state.units_of(player)
            if u.id != caster.id and state.scene.distance(caster.id, u.id) <= reach]
    seen = set(state.scene.visible_units(caster.id, near)) if near else set()
    out = [uid for uid in near if uid in seen]
    if spell.target == "friend":
        out.insert(0, caster.id)
    return out


def token_sources(state: GameState, caster: Unit, player: int) -> list[tuple[str | None, int]]:
    """Who of ``player`` may spend tokens on a cast by ``caster`` now, and how many they hold.

    For the caster's player these are spell tokens (+1 each), for the opponent the tokens that give -1 (basic: spell
    tokens; spell_and_dispel and pooled: dispel tokens). Pooled: one source, ``None``, the magic pool (no range).
    Otherwise casters on the table within 18" and in line of sight of the caster's unit (rulebook "Caster(X)");
    the caster itself counts with the tokens it holds beyond the spell's value (the caller takes those off). A
    Shaken caster stays idle in its own turn and cannot boost; it may still spend tokens against the enemy.
    """
    m = _view(state)
    friendly = player == caster.player
    if m.mode == "pooled":
        pool = m.pool(player)
        n = pool.spell if friendly else pool.dispel
        return [(None, n)] if n > 0 else []
    out: list[tuple[str | None, int]] = []
    for u in casters_of(state, player):
        n = u.spell_tokens if (friendly or m.mode == "basic") else u.dispel_tokens
        if n <= 0 or not u.on_table or (friendly and u.shaken and u.id != caster.id):
            continue
        if in_token_reach(state, u, caster):
            out.append((u.id, n))
    return out


def point_problem(state: GameState, caster: Unit, spell: Spell, point: Point) -> str | None:
    """Why ``caster`` may not aim the ``point`` spell ``spell`` at ``point`` (inches) now, or None: the point must be
    on the table, within the spell's range of the caster's unit (closest point of its footprint) and in its line of
    sight (``geometry.point_sight``; a point on the caster's own unit is always seen). Rulebook "Caster(X)" ("a
    target in line of sight"), "Measuring Distances"; docs/rulings.md "Spells aimed at a point"."""
    x, y = point
    table = state.table
    if not (math.isfinite(x) and math.isfinite(y) and -_EPS <= x <= table.width + _EPS
            and -_EPS <= y <= table.depth + _EPS):
        return f"the point ({x:.1f}, {y:.1f}) is not on the table"
    scene = state.scene
    d = scene.distance_to_point(caster.id, point)
    if d > (spell.range or 0.0) + _EPS:
        return f'the point is {d:.1f}" from {caster.name}; {spell.name} has a range of {spell.range:g}"'
    if d > _EPS and not point_in_sight(scene, caster.id, point):
        return f"{caster.name} has no line of sight to the point"
    return None


def units_in_area(state: GameState, caster: Unit, spell: Spell, point: Point) -> list[Unit]:
    """The units the area of ``spell`` aimed at ``point`` affects: on the table, of the side its ``affects`` names
    (the caster's own unit included for ``friend`` and ``all``), footprint within the radius of the point (closest
    point); nearest first, then scenario order. Empty for a spell without an area."""
    area = spell.area
    if area is None:
        return []
    scene = state.scene
    found: list[tuple[float, int, Unit]] = []
    for i, u in enumerate(state.units.values()):
        if not u.on_table:
            continue
        if area.affects == "enemy" and u.player == caster.player:
            continue
        if area.affects == "friend" and u.player != caster.player:
            continue
        d = scene.distance_to_point(u.id, point)
        if d <= area.radius + _EPS:
            found.append((d, i, u))
    return [u for _, _, u in sorted(found, key=lambda t: (t[0], t[1]))]


@dataclass(frozen=True, slots=True)
class _CastPlan:
    caster: Unit
    spell: Spell
    target: Unit | None
    """The target unit; None for a spell aimed at ``point``."""
    boost: tuple[tuple[str | None, int], ...]
    point: Point | None = None


def take_tokens(sources: Sequence[tuple[str | None, int]], total: int) -> tuple[TokenSpend, ...]:
    """``total`` tokens (at most what they hold) from ``sources`` (``token_sources``' (unit id or None, tokens held)
    pairs) in their order, as the token spends of a cast or a ``dispel``."""
    out: list[TokenSpend] = []
    left = total
    for uid, n in sources:
        k = min(n, left)
        if k <= 0:
            break
        out.append(TokenSpend(k, uid))
        left -= k
    return tuple(out)


def _spend_check(state: GameState, caster: Unit, player: int, spends: tuple[TokenSpend, ...], reserved: int,
                 rule: str, what: str) -> tuple[tuple[str | None, int], ...]:
    """Validate token spending ``spends`` by ``player`` on a cast by ``caster``; ``reserved`` tokens of the caster (or
    the pool) are already used for the spell's value."""
    sources = dict(token_sources(state, caster, player))
    m = magic_of(state)
    out: list[tuple[str | None, int]] = []
    seen: set[str | None] = set()
    for s in spends:
        if s.tokens < 1:
            raise IllegalAction(rule, f"{what}: each entry spends at least 1 token, got {s.tokens}")
        if m.mode == "pooled" and s.unit is not None:
            raise IllegalAction("Pooled Tokens", f"{what}: tokens come from the magic pool; leave out unit")
        if m.mode != "pooled" and s.unit is None:
            raise IllegalAction(rule, f"{what}: name the caster (unit) whose tokens are spent")
        key: str | None = None
        if s.unit is not None:
            u = find_caster(state, s.unit)
            if u is None or u.player != player:
                raise IllegalAction(rule, f"{what}: {s.unit!r} is not a unit of player {player}")
            key = u.id
        if key in seen:
            raise IllegalAction(rule, f"{what}: {s.unit or 'the pool'} is listed twice")
        seen.add(key)
        have = sources.get(key, 0) - (reserved if key in (caster.id, None) else 0)
        if have < s.tokens:
            if key is not None and key not in sources and key != caster.id:
                why = (f"{state.units[key].name} holds no usable tokens or is not within 18\" and in line of sight "
                       f"of {caster.name}")
            else:
                why = f"{s.unit or 'the magic pool'} has only {max(have, 0)} token{'s' if have != 1 else ''} to spare"
            raise IllegalAction(rule, f"{what}: {why}")
        out.append((key, s.tokens))
    return tuple(out)


def _plan_cast(state: GameState, action: CastSpell, in_activation: bool = False) -> _CastPlan:
    m = magic_of(state)
    if in_activation:
        pass    # the activation ruleset checks that the caster is being activated, before attacking
    elif state.step is not Step.STRATEGY or state.pending is None or state.pending.decision != "strategy":
        raise IllegalAction("Strategy Phase", "spells are cast in the strategy step of a strategy phase (1.3, 3.2)")
    caster = find_caster(state, action.unit)
    if caster is None:
        raise IllegalAction("Caster(X)", f"there is no unit {action.unit!r}")
    if caster.player != action.player:
        raise IllegalAction("Caster(X)", f"{caster.name} belongs to player {caster.player}")
    why = cast_problem(state, caster)
    if why:
        raise IllegalAction("Caster(X)", why)
    spells = spells_of(state, action.player)
    spell = spells.get(action.spell)
    if spell is None:
        known = ", ".join(spells) or "none"
        raise IllegalAction("Caster(X)", f"{action.spell!r} is not a spell of this army (spells: {known})")
    if (caster.id, spell.name) in m.tried:
        raise IllegalAction("Caster(X)", f"{caster.name} already tried {spell.name} this round (one try per spell)")
    target: Unit | None = None
    point: Point | None = None
    if spell.target == "point":
        if action.target is not None:
            raise IllegalAction("Caster(X)", f"{spell.name} is aimed at a point of the table, not at a unit: give "
                                             "point {x, y}, not target")
        if action.point is None:
            raise IllegalAction("Caster(X)", f"{spell.name} needs a point of the table to aim at (point: {{x, y}})")
        point = (action.point.x, action.point.y)
        why = point_problem(state, caster, spell, point)
        if why:
            raise IllegalAction("Caster(X)", why)
    else:
        if action.point is not None:
            raise IllegalAction("Caster(X)", f"{spell.name} targets a unit ({spell.target}), not a point: give "
                                             "target, not point")
        target_id = action.target if action.target is not None else (caster.id if spell.target == "self" else None)
        if target_id is None:
            raise IllegalAction("Caster(X)", f"{spell.name} needs a target ({spell.target})")
        target = state.units.get(target_id)
        if target is None:
            raise IllegalAction("Caster(X)", f"there is no unit {target_id!r}")
        if target_id not in spell_targets(state, caster, spell):
            raise IllegalAction("Caster(X)", _target_problem(state, caster, spell, target))
    pays = m.pool(action.player).spell if m.mode == "pooled" else caster.spell_tokens
    if pays < spell.value:
        where = "the magic pool holds" if m.mode == "pooled" else f"{caster.name} holds"
        plural = "s" if spell.value != 1 else ""
        raise IllegalAction("Caster(X)", f"{spell.name} costs {spell.value} spell token{plural}; {where} {pays}")
    boost = _spend_check(state, caster, action.player, action.boost, spell.value, "Caster(X)", "boost")
    return _CastPlan(caster, spell, target, boost, point)


def _target_problem(state: GameState, caster: Unit, spell: Spell, target: Unit) -> str:
    if spell.target == "self":
        return f"{spell.name} targets the caster only"
    if spell.target == "enemy" and target.player == caster.player:
        return f"{spell.name} targets an enemy unit; {target.name} is friendly"
    if spell.target == "friend" and target.player != caster.player:
        return f"{spell.name} targets a friendly unit; {target.name} is an enemy"
    if not target.on_table:
        return f"{target.name} is not on the table"
    if loose_spells.loose(state):
        return loose_spells.target_problem(state, caster, spell, target)
    d = state.scene.distance(caster.id, target.id)
    if d > (spell.range or 0.0) + _EPS:
        return f'{target.name} is {d:.1f}" away; {spell.name} has a range of {spell.range:g}"'
    return f"{caster.name} has no line of sight to {target.name}"


def check(state: GameState, action: Action, in_activation: bool = False) -> None:
    """Raise ``IllegalAction`` if the magic ``action`` (cast_spell, dispel, allocate_tokens) is illegal now;
    nothing changes. ``in_activation``: a cast within the caster's activation (the AoF:R quick rules)."""
    if isinstance(action, CastSpell):
        _plan_cast(state, action, in_activation)
    elif isinstance(action, Dispel):
        _plan_dispel(state, action)
    elif isinstance(action, AllocateTokens):
        check_allocation(state, action)


def _pay(state: GameState, player: int, spends: tuple[tuple[str | None, int], ...], dispel: bool) -> None:
    m = magic_of(state)
    for unit_id, n in spends:
        if unit_id is None:
            pool = m.pool(player)
            if dispel:
                pool.dispel -= n
            else:
                pool.spell -= n
            continue
        u = state.units[unit_id]
        if dispel and m.mode != "basic":
            u.dispel_tokens -= n
        else:
            u.spell_tokens -= n


def _spend_text(state: GameState, spends: tuple[tuple[str | None, int], ...]) -> str:
    return ", ".join(f"{n} from {state.units[u].name if u else 'the magic pool'}" for u, n in spends)


@dataclass(frozen=True, slots=True)
class CastTerms:
    """What a cast would roll, before any die (``cast_terms``): the odds advisor's numbers (game.odds)."""

    caster: Unit
    spell: Spell
    boost: int
    """+1 per boost token to the casting roll (4+)."""
    targets: tuple[Unit, ...]
    """The units its effects fall on if it is cast: the target, or a point spell's area (``units_in_area``)."""


def cast_terms(state: GameState, action: CastSpell) -> CastTerms:
    """What ``action`` would roll if tried now (nothing changes); raises ``IllegalAction`` as ``cast_spell`` does."""
    plan = _plan_cast(state, action)
    if plan.point is not None:
        targets = tuple(units_in_area(state, plan.caster, plan.spell, plan.point))
    else:
        targets = (plan.target,) if plan.target is not None else ()
    return CastTerms(plan.caster, plan.spell, sum(n for _, n in plan.boost), targets)


def cast_spell(state: GameState, dice: Dice, action: CastSpell, in_activation: bool = False) -> list[Event]:
    """Try a spell (rulebook "Caster(X)"): pay its value and the boost, then ask the opponent for dispel tokens if
    any may reach the cast, else roll at once. ``in_activation``: within the caster's activation (the AoF:R quick
    rules' "Caster(X)"; the ruleset checks when); the dispel decision then returns to the activation's step and
    decision. Raises ``IllegalAction`` (nothing changes)."""
    plan = _plan_cast(state, action, in_activation)
    m = magic_of(state)
    caster, spell, target, point = plan.caster, plan.spell, plan.target, plan.point
    _pay(state, action.player, ((None if m.mode == "pooled" else caster.id, spell.value),), dispel=False)
    _pay(state, action.player, plan.boost, dispel=False)
    m.tried.add((caster.id, spell.name))
    boost = sum(n for _, n in plan.boost)
    if point is not None:
        on = f" at the point ({point[0]:.1f}, {point[1]:.1f})"
    else:
        assert target is not None
        on = "" if target.id == caster.id and spell.target == "self" else f" on {target.name}"
    plural = "s" if spell.value != 1 else ""
    text = f"{caster_name(caster)} tries to cast {spell.name}{on} ({spell.value} token{plural})"
    if boost:
        text += f", +{boost} from tokens ({_spend_text(state, plan.boost)})"
    data: dict[str, object] = {"unit": caster.id, "spell": spell.name, "value": spell.value, "boost": boost}
    if point is not None:
        data["point"] = [point[0], point[1]]
    else:
        assert target is not None
        data["target"] = target.id
    events = [Event("spell", text, data)]
    opponent = 3 - action.player
    target_id = target.id if target is not None else None
    if token_sources(state, caster, opponent):
        m.cast = PendingCast(action.player, caster.id, spell.name, target_id, boost, state.pending, point,
                             state.step)
        state.step = Step.DISPEL
        options = tuple(u or "pool" for u, _ in token_sources(state, caster, opponent))
        state.pending = Pending(opponent, "dispel", caster.id, options)
        return events
    return events + _resolve(state, dice, caster, spell, target, boost, 0, point)


def _plan_dispel(state: GameState, action: Dispel) -> tuple[tuple[str | None, int], ...]:
    m = magic_of(state)
    cast = m.cast
    if state.step is not Step.DISPEL or cast is None:
        raise IllegalAction("Caster(X)", "there is no spell being cast to spend tokens against")
    if action.player == cast.player:
        raise IllegalAction("Caster(X)", "the opponent of the caster spends these tokens")
    caster = state.units[cast.caster]
    rule = "Caster(X)" if m.mode == "basic" else "Spell and Dispel Tokens" if m.mode == "spell_and_dispel" \
        else "Pooled Tokens"
    return _spend_check(state, caster, action.player, action.tokens, 0, rule, "dispel")


def dispel(state: GameState, dice: Dice, action: Dispel) -> list[Event]:
    """The opponent's answer to a cast: tokens spent for -1 each (possibly none), then the casting roll."""
    spends = _plan_dispel(state, action)
    m = magic_of(state)
    cast = m.cast
    assert cast is not None
    _pay(state, action.player, spends, dispel=True)
    m.cast = None
    state.step = cast.resume_step
    state.pending = cast.resume or Pending(cast.player, "strategy")
    n = sum(t for _, t in spends)
    events = []
    if n:
        events.append(Event("spell", f"Player {action.player} spends {n} token{'s' if n != 1 else ''} against "
                                     f"{cast.spell} ({_spend_text(state, spends)})",
                            {"player": action.player, "spell": cast.spell, "dispel": n}))
    caster = state.units[cast.caster]
    target = state.units[cast.target] if cast.target is not None else None
    spell = spells_of(state, cast.player)[cast.spell]
    return events + _resolve(state, dice, caster, spell, target, cast.boost, n, cast.point)


def _resolve(state: GameState, dice: Dice, caster: Unit, spell: Spell, target: Unit | None, boost: int,
             dispelled: int, point: Point | None = None) -> list[Event]:
    """The casting roll (4+, +boost, -dispel) and, if it succeeds, the spell's effects on ``target``, or on each
    unit in its area around ``point``."""
    mods = ([Modifier("spell tokens", boost)] if boost else []) + \
        ([Modifier("tokens against", -dispelled)] if dispelled else [])
    purpose = f"Casting {spell.name} ({caster_name(caster)})"
    roll = dice.one(purpose)
    ok = succeeds(roll, CAST_NEED, total(mods))
    events = [roll_event(purpose, [roll], CAST_NEED, total(mods), 1 if ok else 0, [str(x) for x in mods],
                         unit=caster.id, spell=spell.name)]
    if not ok:
        data: dict[str, object] = {"unit": caster.id, "spell": spell.name, "cast": False}
        if point is not None and spell.area is not None:
            data["point"] = [point[0], point[1]]
            data["radius"] = spell.area.radius
        events.append(Event("spell", f"{spell.name} fails", data))
        return events
    if point is not None:
        return events + resolve_area(state, dice, caster, spell, point)
    assert target is not None
    events.append(Event("spell", f"{spell.name} is cast on {target.name}",
                        {"unit": caster.id, "spell": spell.name, "target": target.id, "cast": True}))
    if not target.on_table:
        return events
    return events + resolve_effects(state, dice, caster, spell, target)


def resolve_area(state: GameState, dice: Dice, caster: Unit, spell: Spell, point: Point) -> list[Event]:
    """A cast ``point`` spell (``point`` in inches): its effects on each unit of its area, nearest first
    (``units_in_area``)."""
    area = spell.area
    assert area is not None
    units = units_in_area(state, caster, spell, point)
    where = f"({point[0]:.1f}, {point[1]:.1f})"
    if units:
        names = ", ".join(u.name for u in units)
        text = f'{spell.name} is cast at {where}: within {area.radius:g}" — {names}'
    else:
        who = {"enemy": "enemy unit", "friend": "friendly unit", "all": "unit"}[area.affects]
        text = f'{spell.name} is cast at {where}: no {who} within {area.radius:g}"'
    events = [Event("spell", text, {"unit": caster.id, "spell": spell.name, "cast": True,
                                    "point": [point[0], point[1]], "radius": area.radius,
                                    "affected": [u.id for u in units]})]
    for u in units:
        if u.on_table:
            events += resolve_effects(state, dice, caster, spell, u)
    return events


def resolve_effects(state: GameState, dice: Dice, caster: Unit, spell: Spell, target: Unit) -> list[Event]:
    """The effects of a cast spell on ``target``, in the order hits, modifier, heal, rally."""
    events: list[Event] = []
    if spell.hits is not None:
        events += _hits(state, dice, caster, spell, target, spell.hits)
    if spell.modifier is not None and target.on_table:
        mod = spell.modifier
        add_effect(target, ActiveEffect(spell.name, caster.id, mod.stat, mod.value, mod.duration,
                                        expires_after(state, mod.duration)))
        events.append(Event("effect", f"{target.name}: {mod.value:+d} {mod.stat.replace('_', ' ')} "
                                      f"({spell.name}, for a {mod.duration})",
                            {"unit": target.id, "spell": spell.name, "stat": mod.stat, "value": mod.value,
                             "duration": mod.duration}))
    if spell.heal and target.on_table:
        events += heal(state, target, spell.heal, spell.name)
    if spell.rally and target.on_table:
        if target.shaken:
            target.shaken = False
            target.fleeing = False
            events.append(Event("rally", f"{target.name} rallies ({spell.name})", {"unit": target.id,
                                                                                 "spell": spell.name}))
        else:
            events.append(Event("info", f"{target.name} is not Shaken; {spell.name} has nothing to rally",
                                {"unit": target.id}))
    return events


def _hits(state: GameState, dice: Dice, caster: Unit, spell: Spell, target: Unit, hits: SpellHits) -> list[Event]:
    """Automatic hits: Defense rolls with AP, cover only if the spell says so, the target's spell modifiers to
    Defense, then Regeneration (5+ per wound), then casualties (rulebook "Roll to Block", "Regeneration")."""
    if loose_spells.loose(state):      # AoF: Skirmish: the wound effects of loose models
        return loose_spells.resolve_hits(state, dice, caster, spell, target, hits)
    label = f"{spell.name} of {caster.name} on {target.name}"
    events = [Event("hits", f"{label}: {hits.count} hit{'s' if hits.count != 1 else ''}",
                    {"unit": caster.id, "target": target.id, "spell": spell.name, "hits": hits.count})]
    defender, mods = spell_defense(state, caster, hits, target)
    br = roll_to_block(dice, hits.count, defender.defense, mods, f"{label}: Defense")
    events += br.events
    wounds, regen = special_rules.regeneration_rolls(dice, br.wounds, defender, caster.profile, None, label,
                                                     target.id)
    events += regen
    events += apply_wounds(state, target, wounds, f"{spell.name} of {caster.name}")
    return events


def spell_defense(state: GameState, caster: Unit, hits: SpellHits, target: Unit) -> tuple[Profile, list[Modifier]]:
    """Whose Defense ``target`` rolls against a spell's automatic ``hits`` and its modifiers: AP, cover only if the
    spell says so, the target's spell modifiers to Defense (rulebook "Roll to Block"; ``_hits`` and the odds)."""
    mods: list[Modifier] = []
    if hits.ap:
        mods.append(Modifier(f"AP({hits.ap})", -hits.ap))
    if hits.cover and state.scene.in_cover(caster.id, target.id):
        mods.append(Modifier("Cover", 1))
    mods += effect_modifiers(target, "defense")
    return special_rules.defense_profile(target), mods


def heal(state: GameState, unit: Unit, wounds: int, source: str) -> list[Event]:
    """Heal ``wounds``: first the wounds carried by the wounded Tough model, then killed models come back (each
    needs its Tough value in healing), at the back of the unit, while it keeps its front edge and the grown unit
    stays on the table, off impassable terrain, not overlapping another unit and not within 1" of an enemy it is
    not fighting. Never above the starting size."""
    cured = min(wounds, unit.wounds)
    unit.wounds -= cured
    left = wounds - cured
    back = 0
    while left >= unit.tough and unit.models < unit.starting_models and _room_for_one_more(state, unit):
        state.set_models(unit, unit.models + 1)
        left -= unit.tough
        back += 1
    if not cured and not back:
        return [Event("info", f"{unit.name} has nothing {source} can heal", {"unit": unit.id})]
    text = f"{unit.name} is healed ({source})"
    if cured:
        text += f": {cured} wound{'s' if cured != 1 else ''} removed"
    if back:
        text += f"{',' if cured else ':'} {back} model{'s' if back != 1 else ''} back"
    return [Event("heal", text, {"unit": unit.id, "wounds": cured, "models": back})]


def _room_for_one_more(state: GameState, unit: Unit) -> bool:
    if unit.pose is None:
        return False
    old = unit.formation
    new = old.with_models(unit.models + 1)
    pose = pose_keeping_front(unit.pose, old, new)
    poly = footprint_polygon(pose, new)
    scene = state.scene
    if not scene.on_table(poly):
        return False
    for t in state.terrain:
        if "impassable" in t.traits and overlap_area(poly, t.shape) > 1e-9:
            return False
    for other in state.units.values():
        if other.id == unit.id or not other.on_table:
            continue
        fp = scene.footprint(other.id)
        if overlap_area(poly, fp) > 1e-6:
            return False
        if other.player != unit.player and other.id not in unit.engaged_with and poly.distance(fp) < 1.0 - 1e-6:
            return False
    return True


# --- entry points for the game and the players ----------------------------------------------------------------


def apply(state: GameState, dice: Dice, action: Action) -> list[Event]:
    """Apply a magic action, or ``done`` in a magic step (the default token split; no dispel tokens)."""
    if isinstance(action, CastSpell):
        return cast_spell(state, dice, action)
    if isinstance(action, Dispel):
        return dispel(state, dice, action)
    if isinstance(action, AllocateTokens):
        return allocate(state, action)
    if isinstance(action, Done) and state.step is Step.DISPEL:
        return dispel(state, dice, Dispel(action.player))
    if isinstance(action, Done) and state.step is Step.ALLOCATE_TOKENS:
        return allocate(state, default_allocation(state, action.player))
    raise IllegalAction("Turn Sequence", f"{action.type} is not a magic action")


def cast_options(state: GameState, player: int) -> list[CastSpell]:
    """Every cast ``player`` may try now without extra tokens (caster, spell, target), for players and tests; for a
    ``point`` spell a few legal points (``point_candidates``)."""
    out: list[CastSpell] = []
    spells = spells_of(state, player)
    for caster_id, name in castable(state, player):
        caster, spell = state.units[caster_id], spells[name]
        if spell.target == "point":
            for point in point_candidates(state, caster, spell):
                out.append(CastSpell(player, caster.id, spell.name, point=TablePoint(*point)))
            continue
        for target in spell_targets(state, caster, spell):
            out.append(CastSpell(player, caster.id, spell.name, target))
    return out


def point_candidates(state: GameState, caster: Unit, spell: Spell) -> list[Point]:
    """A few legal points for a ``point`` spell, for players and tests: for each unit its area aims at (enemies
    for ``enemy`` and ``all``, friends for ``friend``) its centre and the point of its footprint nearest to the
    caster (rounded to 1/100 inch), those ``point_problem`` allows. Any other legal point may be cast at too."""
    if spell.area is None or not caster.on_table:
        return []
    aimed = caster.player if spell.area.affects == "friend" else 3 - caster.player
    scene = state.scene
    mine = scene.footprint(caster.id)
    out: list[Point] = []
    for u in state.units_of(aimed):
        if not u.on_table or u.pose is None:
            continue
        near = shapely.ops.nearest_points(scene.footprint(u.id), mine)[0]
        for x, y in ((u.pose.x, u.pose.y), (near.x, near.y)):
            p = (round(x, 2), round(y, 2))
            if p not in out and point_problem(state, caster, spell, p) is None:
                out.append(p)
    return out


def castable(state: GameState, player: int) -> list[tuple[str, str]]:
    """(caster id, spell name) of every spell ``player`` may try now whatever the target (tokens held, not tried
    this round, caster able to cast): the window offers a ``point`` spell from this, as any point may be aimed
    at."""
    if state.step is not Step.STRATEGY or state.pending is None or state.pending.decision != "strategy" \
            or state.pending.player != player:
        return []
    m = _view(state)
    out: list[tuple[str, str]] = []
    for caster in casters_of(state, player):
        if cast_problem(state, caster):
            continue
        held = m.pool(player).spell if m.mode == "pooled" else caster.spell_tokens
        for spell in spells_of(state, player).values():
            if (caster.id, spell.name) not in m.tried and spell.value <= held:
                out.append((caster.id, spell.name))
    return out


def state_dict(unit: Unit, mode: str) -> dict[str, object]:
    """Optional state-file keys of a unit: ``spell_tokens`` (casters), ``dispel_tokens`` (spell_and_dispel) and
    ``effects`` (active spell modifiers), each only when it applies."""
    out: dict[str, object] = {}
    if caster_value(unit) > 0 or unit.spell_tokens:
        out["spell_tokens"] = unit.spell_tokens
    if mode == "spell_and_dispel" and (caster_value(unit) > 0 or unit.dispel_tokens):
        out["dispel_tokens"] = unit.dispel_tokens
    if unit.effects:
        out["effects"] = [e.to_dict() for e in unit.effects if isinstance(e, ActiveEffect)]
    return out


__all__ = [
    "AFFECTS", "SpellArea", "castable", "point_candidates", "point_problem", "units_in_area",
    "CAST_NEED", "DONE_STEPS", "DURATIONS", "MAX_TOKENS", "MODES", "STATS", "TARGETS", "TOKEN_RANGE", "ActiveEffect",
    "MagicState", "Spell", "SpellHits", "SpellModifier", "TokenPool", "add_effect", "allocate", "apply", "cast_options",
    "cast_spell", "check", "default_allocation", "dispel", "effect_modifiers", "effect_value", "expire_effects",
    "heal", "magic_of", "melee_attacks", "move_bonus", "new_magic_state", "spell_targets", "start_of_round",
    "token_sources", "waiting_for_allocation",
]
