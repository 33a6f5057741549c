"""Magic with fixed dice: spell tokens (step 0.1), casting (steps 1.3 and 3.2), boosting and dispelling tokens,
one try per spell, every effect kind and when effects end (rulebook "Caster(X)", "Spell and Dispel Tokens",
"Pooled Tokens"; game.engine.magic).

The table (a model sees in its front arc): player 1's wizard ``wiz-1`` (Caster(2)) at (36, 6) facing +y, its
archers ahead on its left at (31.5, 12); player 2's orcs at (40, 22) and player 2's shaman ``shaman-1``
(Caster(2)) facing player 1, either near (16" from the wizard, in reach of its tokens) or far (at y = 40).
"""

from __future__ import annotations

import pytest

from game.engine import magic
from game.engine.actions import (
    AllocateTokens,
    CastSpell,
    Dispel,
    Done,
    TokenSpend,
    TokenSplit,
    action_from_dict,
)
from game.engine.casualties import apply_wounds
from game.engine.dice import Dice
from game.engine.errors import IllegalAction
from game.engine.game import Game
from game.engine.magic import ActiveEffect, Spell, SpellHits, SpellModifier
from game.engine.morale import morale_test
from game.engine.movement import move_allowance
from game.engine.shooting import defense_modifiers, to_hit_modifiers
from game.engine.state import GameState, JoinedHero, MoveAction, Phase, Removal, Step, Table, make_unit
from geometry.pose import Pose
from tests.rules.builders import HAND_WEAPON, LONGBOW, profile, rolls

WIZARD = profile("Wizard", quality=4, defense=5, weapons=(HAND_WEAPON,), rules=("Hero", "Caster(2)", "Tough(3)"),
                 size=1, base=(25.0, 25.0))
ARCHERS = profile("Archers", weapons=(LONGBOW, HAND_WEAPON))
ORCS = profile("Orcs", quality=4, defense=5, weapons=(HAND_WEAPON,))
TROLLS = profile("Trolls", quality=5, defense=4, weapons=(HAND_WEAPON,), rules=("Tough(3)",), size=3,
                 base=(40.0, 40.0))

BOLT = Spell("Bolt", 1, "enemy", 24.0, hits=SpellHits(3, ap=1))
BLESS = Spell("Bless", 1, "friend", 12.0, modifier=SpellModifier("to_hit", 1, "turn"))
SHIELD = Spell("Shield", 2, "friend", 12.0, modifier=SpellModifier("defense", 1, "round"))
HASTE = Spell("Haste", 1, "friend", 12.0, modifier=SpellModifier("move", 2, "phase"))
CURSE = Spell("Curse", 1, "enemy", 24.0, modifier=SpellModifier("morale", -1, "turn"))
FURY = Spell("Fury", 1, "friend", 12.0, modifier=SpellModifier("attacks", 1, "turn"))
MEND = Spell("Mend", 1, "friend", 12.0, heal=4)
RALLY = Spell("Rally", 1, "friend", 12.0, rally=True)
WARD = Spell("Ward", 1, "self", modifier=SpellModifier("defense", 1, "turn"))
SPELLS = {s.name: s for s in (BOLT, BLESS, SHIELD, HASTE, CURSE, FURY, MEND, RALLY, WARD)}


NEAR, FAR = Pose(34, 22, 180), Pose(46, 40, 180)


def table(mode: str = "basic", shaman: Pose = NEAR, second_wizard: bool = False, extra: tuple = ()) -> GameState:
    """The test table (module docstring), round 1, player 1's first strategy phase; magic in ``mode``.
    ``second_wizard``: ``wiz-2`` stands 4" behind ``wiz-1`` and sees it."""
    units = [
        make_unit("wiz-1", 1, WIZARD, 1, Pose(36, 6, 0)),
        make_unit("archers-1", 1, ARCHERS, 10, Pose(31.5, 12, 0)),
        make_unit("orcs-1", 2, ORCS, 10, Pose(40, 22, 180)),
        make_unit("shaman-1", 2, WIZARD, 1, shaman),
    ]
    if second_wizard:
        units.append(make_unit("wiz-2", 1, WIZARD, 1, Pose(36, 2, 0)))
    units += list(extra)
    state = GameState("magic", Table(), terrain=[], units={u.id: u for u in units}, generals={1: None, 2: None},
                      options={"spell_tokens": mode})
    state.magic = magic.new_magic_state(mode, {1: dict(SPELLS), 2: dict(SPELLS)})
    return state


def start(state: GameState, *dice: int) -> Game:
    return Game.start(state, Dice(sequence=list(dice)))


def cast(spell: str, target: str | None = "orcs-1", unit: str = "wiz-1", player: int = 1,
         boost: tuple[TokenSpend, ...] = ()) -> CastSpell:
    return CastSpell(player, unit, spell, target, boost)


def spell_events(events) -> list[str]:
    return [e.text for e in events if e.kind == "spell"]


# --- step 0.1: tokens -------------------------------------------------------------------------------------------


def test_casters_get_x_tokens_each_round_and_hold_at_most_six() -> None:
    """Rulebook "Caster(X)": X tokens at the start of each round, never more than 6 held."""
    state = table()
    held = []
    for rnd in range(1, 6):
        state.round = rnd
        magic.start_of_round(state, Phase.STRATEGY_1)
        magic.start_of_round(state, Phase.STRATEGY_1)  # once per round
        held.append(state.units["wiz-1"].spell_tokens)
    assert held == [2, 4, 6, 6, 6]
    assert state.units["shaman-1"].spell_tokens == 6
    assert state.units["archers-1"].spell_tokens == 0


def test_casters_off_the_table_still_get_tokens_but_removed_casters_do_not() -> None:
    """Rulebook "Caster(X)": casters get tokens even when not on the table (waiting to Ambush)."""
    reserve = make_unit("wiz-2", 1, WIZARD, 1, None)
    state = table(extra=(reserve,))
    state.units["shaman-1"].removed = Removal.DESTROYED
    magic.start_of_round(state, Phase.STRATEGY_1)
    assert state.units["wiz-2"].spell_tokens == 2
    assert state.units["shaman-1"].spell_tokens == 0


def test_the_game_allocates_tokens_at_the_start_of_each_round() -> None:
    game = start(table())
    assert game.state.units["wiz-1"].spell_tokens == 2
    assert game.pending.decision == "strategy"
    assert any(e.kind == "tokens" for e in game.log)


# --- casting ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("die", "cast_ok"), [(3, False), (4, True), (6, True)])
def test_a_spell_is_cast_on_4_plus(die: int, cast_ok: bool) -> None:
    game = start(table(shaman=FAR), die, 1, 1, 1)  # shaman out of reach: no dispel decision
    events = game.apply(cast("Bolt"))
    roll = [e for e in rolls(events) if e.data["purpose"].startswith("Casting")]
    assert roll[0].data["dice"] == [die] and roll[0].data["need"] == 4
    assert ("Bolt is cast on Orcs (orcs-1)" in spell_events(events)) is cast_ok
    assert game.state.units["wiz-1"].spell_tokens == 1  # paid either way
    assert game.pending.decision == "strategy" and game.pending.player == 1
    assert game.state.units["orcs-1"].models == (7 if cast_ok else 10)  # three Defense rolls of 1


def test_natural_one_fails_and_natural_six_succeeds_whatever_the_tokens() -> None:
    """Rulebook "Modifiers": a 6 always succeeds, a 1 always fails."""
    game = start(table(shaman=FAR, second_wizard=True), 1)
    events = game.apply(cast("Bless", "archers-1", boost=(TokenSpend(1, "wiz-1"), TokenSpend(2, "wiz-2"))))
    assert "Bless fails" in spell_events(events)
    assert game.state.units["wiz-2"].spell_tokens == 0
    assert game.state.units["wiz-1"].spell_tokens == 0


def test_a_spell_needs_tokens_a_target_in_range_and_sight_and_a_caster() -> None:
    game = start(table(shaman=FAR))
    game.state.magic.spells[1]["Doom"] = Spell("Doom", 3, "enemy", 24.0, hits=SpellHits(6))
    with pytest.raises(IllegalAction, match=r"costs 3 spell tokens; Wizard \(wiz-1\) holds 2") as e:
        game.apply(cast("Doom"))
    assert e.value.rule == "Caster(X)"
    with pytest.raises(IllegalAction, match="wiz-1 has only 0 tokens to spare"):
        game.apply(cast("Shield", "archers-1", boost=(TokenSpend(1, "wiz-1"),)))
    for bad, why in [(cast("Bless", "orcs-1"), "targets a friendly unit"),
                     (cast("Bolt", "archers-1"), "targets an enemy unit"),
                     (cast("Nope"), "not a spell of this army"),
                     (cast("Bolt", unit="archers-1"), "not a Caster"),
                     (cast("Bolt", unit="shaman-1"), "belongs to player 2")]:
        with pytest.raises(IllegalAction, match=why):
            game.apply(bad)
    # range: the 24" Bolt reaches the orcs, not the shaman 34" away, and a 6" spell does not reach the orcs
    assert game.check_magic(cast("Bolt", "orcs-1")) is None
    assert "is 34.2\" away; Bolt has a range of 24\"" in game.check_magic(cast("Bolt", "shaman-1")).message
    short = Spell("Spit", 1, "enemy", 6.0, hits=SpellHits(1))
    game.state.magic.spells[1]["Spit"] = short
    problem = game.check_magic(cast("Spit", "orcs-1"))
    assert problem is not None and "range of 6\"" in problem.message
    assert game.state.units["wiz-1"].spell_tokens == 2  # nothing changed


def test_no_line_of_sight_no_spell() -> None:
    """A target behind the caster (outside every model's front arc) is not in line of sight."""
    behind = make_unit("orcs-2", 2, ORCS, 5, Pose(36, 1.2, 0), per_row=5)
    state = table(shaman=FAR, extra=(behind,))
    state.units["wiz-1"].pose = Pose(36, 6, 0)
    game = start(state)
    assert "orcs-2" not in magic.spell_targets(game.state, game.state.units["wiz-1"], BOLT)
    assert "has no line of sight" in game.check_magic(cast("Bolt", "orcs-2")).message


def test_a_shaken_caster_stays_idle() -> None:
    state = table(shaman=FAR)
    state.units["wiz-1"].shaken = True
    game = start(state)
    with pytest.raises(IllegalAction, match="Shaken"):
        game.apply(cast("Bolt"))
    assert magic.cast_options(game.state, 1) == []


def test_self_spells_target_the_caster_without_naming_it() -> None:
    game = start(table(shaman=FAR), 5)
    game.apply(cast("Ward", None))
    assert magic.effect_value(game.state.units["wiz-1"], "defense") == 1


# --- one try per spell ------------------------------------------------------------------------------------------


def test_one_try_per_spell_per_round() -> None:
    """Rulebook "Caster(X)": only one try per spell; a try in the first strategy phase also counts for the second
    (docs/rulings.md); the next round it may be tried again."""
    game = start(table(shaman=FAR), 2, 1, 1, 1)
    game.apply(cast("Bolt"))
    with pytest.raises(IllegalAction, match="already tried Bolt this round"):
        game.apply(cast("Bolt"))
    game.apply(cast("Bless", "archers-1"))  # another spell is fine
    assert all(c.spell not in ("Bolt", "Bless") for c in magic.cast_options(game.state, 1))
    game.state.phase = Phase.STRATEGY_2
    assert game.check_magic(cast("Bolt")) is not None
    game.state.round = 2
    game.state.units["wiz-1"].spell_tokens = 2
    magic.start_of_round(game.state, Phase.STRATEGY_1)
    assert game.check_magic(cast("Bolt")) is None


# --- boosting and dispelling --------------------------------------------------------------------------------------


def test_friendly_casters_within_18_in_sight_boost_the_roll() -> None:
    # wiz-2 stands 4" behind wiz-1 and sees it in its front arc
    game = start(table(shaman=FAR, second_wizard=True), 3)
    events = game.apply(cast("Bless", "archers-1", boost=(TokenSpend(1, "wiz-2"),)))
    roll = [e for e in rolls(events) if e.data["purpose"].startswith("Casting")][0]
    assert roll.data["modifier"] == 1
    assert "Bless is cast on Archers (archers-1)" in spell_events(events)
    assert game.state.units["wiz-2"].spell_tokens == 1


def test_casters_out_of_reach_cannot_boost() -> None:
    far = make_unit("wiz-3", 1, WIZARD, 1, Pose(60, 2, 0))  # 24" away
    game = start(table(shaman=FAR, extra=(far,)))
    problem = game.check_magic(cast("Bless", "archers-1", boost=(TokenSpend(1, "wiz-3"),)))
    assert problem is not None and "not within 18\"" in problem.message
    assert [u for u, _ in magic.token_sources(game.state, game.state.units["wiz-1"], 1)] == ["wiz-1"]


def test_the_opponent_in_reach_may_spend_tokens_against_the_cast() -> None:
    """Basic Caster(X): models within 18" in line of sight of the caster's unit give -1 per token."""
    game = start(table(shaman=NEAR), 4)
    events = game.apply(cast("Bolt"))
    assert game.pending.player == 2 and game.pending.decision == "dispel"
    assert game.pending.unit == "wiz-1" and game.pending.options == ("shaman-1",)
    assert game.state.step is Step.DISPEL
    assert not rolls(events)  # nothing rolled yet
    with pytest.raises(IllegalAction, match="only 2 tokens"):
        game.apply(Dispel(2, (TokenSpend(3, "shaman-1"),)))
    events = game.apply(Dispel(2, (TokenSpend(1, "shaman-1"),)))
    roll = [e for e in rolls(events) if e.data["purpose"].startswith("Casting")][0]
    assert roll.data["dice"] == [4] and roll.data["modifier"] == -1
    assert "Bolt fails" in spell_events(events)
    assert game.state.units["shaman-1"].spell_tokens == 1
    assert game.pending.player == 1 and game.pending.decision == "strategy"
    assert game.state.step is Step.STRATEGY


def test_done_answers_the_dispel_decision_with_no_tokens() -> None:
    game = start(table(shaman=NEAR), 4, 6, 6, 6)
    game.apply(cast("Bolt"))
    events = game.apply(Done(2))
    assert "Bolt is cast on Orcs (orcs-1)" in spell_events(events)
    assert game.state.units["shaman-1"].spell_tokens == 2


def test_an_opponent_out_of_reach_is_not_asked() -> None:
    game = start(table(shaman=FAR), 4, 6, 6, 6)
    events = game.apply(cast("Bolt"))
    assert game.pending.decision == "strategy"
    assert "Bolt is cast on Orcs (orcs-1)" in spell_events(events)


# --- effects ------------------------------------------------------------------------------------------------------


def test_hits_are_blocked_by_defense_with_ap_and_no_cover() -> None:
    game = start(table(shaman=FAR), 5, 6, 5, 2)  # cast; Defense 6 (saved), 5-1=4 (wound), 2 (wound)
    events = game.apply(cast("Bolt"))
    block = [e for e in rolls(events) if "Defense" in e.data["purpose"]][0]
    assert block.data["dice"] == [6, 5, 2] and block.data["modifier"] == -1 and block.data["successes"] == 2
    assert game.state.units["orcs-1"].models == 8
    assert game.state.units["orcs-1"].lost_models_this_turn  # 4.3 morale tests count spells


def test_hits_with_regeneration() -> None:
    trolls = make_unit("trolls-1", 2, profile("Trolls", defense=6, weapons=(HAND_WEAPON,), rules=("Regeneration",)),
                       10, Pose(46, 26, 180))
    game = start(table(shaman=FAR, extra=(trolls,)), 6, 1, 1, 1, 5, 4, 6)  # 3 wounds, 2 regenerated
    game.apply(cast("Bolt", "trolls-1"))
    assert game.state.units["trolls-1"].models == 9


@pytest.mark.parametrize(("spell", "stat", "value"), [("Bless", "to_hit", 1), ("Shield", "defense", 1),
                                                      ("Haste", "move", 2), ("Fury", "attacks", 1)])
def test_modifier_spells_put_an_effect_on_the_target(spell: str, stat: str, value: int) -> None:
    state = table(shaman=FAR)
    game = start(state, 6)
    game.state.units["wiz-1"].spell_tokens = 2
    game.apply(cast(spell, "archers-1"))
    archers = game.state.units["archers-1"]
    assert [(e.spell, e.stat, e.value) for e in archers.effects] == [(spell, stat, value)]


def test_modifiers_reach_the_rules() -> None:
    """to_hit: shooting and melee hit rolls; defense: Defense rolls; morale: morale tests; move: inches (Rush and
    Charge twice); attacks: melee attacks per model."""
    state = table()
    archers, orcs = state.units["archers-1"], state.units["orcs-1"]
    exp = (1, 1, 6)
    for stat, value in (("to_hit", 1), ("move", 2), ("attacks", 1), ("morale", 1)):
        magic.add_effect(archers, ActiveEffect(f"S-{stat}", "wiz-1", stat, value, "turn", exp))
    magic.add_effect(orcs, ActiveEffect("Curse", "shaman-1", "defense", -1, "turn", exp))
    assert [m.value for m in to_hit_modifiers(state, archers, orcs, LONGBOW) if "spell" in m.reason] == [1]
    assert [m.value for m in defense_modifiers(state, archers, orcs, LONGBOW, [0]) if "spell" in m.reason] == [-1]
    assert move_allowance(archers, MoveAction.ADVANCE) == 8.0
    assert move_allowance(archers, MoveAction.RUSH) == 16.0
    assert magic.melee_attacks(archers, 1) == 2
    test = morale_test(Dice(sequence=[3]), archers, [], "test")  # Quality 4+: 3 +1 passes
    assert test.passed


def test_the_same_spell_does_not_stack_but_different_spells_do() -> None:
    """Rulebook "Rules Priority & Stacking Effects"."""
    unit = table().units["archers-1"]
    magic.add_effect(unit, ActiveEffect("Bless", "wiz-1", "to_hit", 1, "turn", (1, 0, 6)))
    magic.add_effect(unit, ActiveEffect("Bless", "wiz-2", "to_hit", 1, "round", (1, 1, 6)))
    magic.add_effect(unit, ActiveEffect("Hawk-Eye", "wiz-2", "to_hit", 1, "phase", (1, 0, 4)))
    assert magic.effect_value(unit, "to_hit") == 2
    assert [e.duration for e in unit.effects] == ["round", "phase"]


def test_heal_removes_wounds_then_brings_models_back() -> None:
    trolls = make_unit("trolls-1", 1, TROLLS, 3, Pose(40, 14, 0))
    state = table(shaman=FAR, extra=(trolls,))
    apply_wounds(state, trolls, 4, "test")  # one troll dead, one with 1 wound
    assert (trolls.models, trolls.wounds) == (2, 1)
    game = start(state, 5)
    events = game.apply(cast("Mend", "trolls-1"))
    trolls = game.state.units["trolls-1"]
    assert (trolls.models, trolls.wounds) == (3, 0)  # 1 wound healed, then 3 (Tough) bring one back
    assert [e.data["models"] for e in events if e.kind == "heal"] == [1]


def test_heal_never_goes_past_the_starting_size() -> None:
    game = start(table(shaman=FAR), 5)
    events = game.apply(cast("Mend", "archers-1"))
    assert game.state.units["archers-1"].models == 10
    assert any("nothing" in e.text for e in events)


def test_rally_removes_shaken() -> None:
    state = table(shaman=FAR)
    state.units["archers-1"].shaken = True
    game = start(state, 4)
    game.apply(cast("Rally", "archers-1"))
    assert not game.state.units["archers-1"].shaken


# --- expiry -------------------------------------------------------------------------------------------------------


def test_effects_end_with_their_phase_turn_or_round() -> None:
    """phase: through the phase after the strategy phase of the cast; turn: until the end of the player turn;
    round: until the end of the round (after the second player's turn)."""
    game = start(table(shaman=FAR), 6, 6, 6)
    s = game.state
    s.units["wiz-1"].spell_tokens = 6
    game.apply(cast("Haste", "archers-1"))   # phase
    game.apply(cast("Bless", "archers-1"))   # turn
    game.apply(cast("Shield", "archers-1"))  # round
    archers = s.units["archers-1"]

    def stats() -> list[str]:
        return sorted(e.stat for e in archers.effects)

    game.apply(Done(1))  # -> movement
    assert stats() == ["defense", "move", "to_hit"]
    game.apply(Done(1))  # no charges -> remaining moves
    game.apply(Done(1))  # -> strategy 2: the phase effect ended
    assert stats() == ["defense", "to_hit"]
    assert any(e.kind == "effect" and "Haste" in e.text and e.data.get("ended") for e in game.log)
    game.apply(Done(1))  # -> shooting
    game.apply(Done(1))  # -> close combat, rally
    game.apply(Done(1))  # end of turn: player 2's turn starts
    assert (s.active_player, s.round) == (2, 1)
    assert stats() == ["defense"]
    for _ in range(6):
        game.apply(Done(2))
    assert (s.active_player, s.round) == (1, 2)
    assert stats() == []


# --- optional rules: spell and dispel tokens, pooled tokens -------------------------------------------------------


def test_spell_and_dispel_tokens_are_split_then_revealed() -> None:
    """Rulebook "Spell and Dispel Tokens": both players choose, then the tokens are handed out together."""
    game = start(table("spell_and_dispel", shaman=NEAR))
    s = game.state
    assert s.step is Step.ALLOCATE_TOKENS and game.pending.decision == "allocate_tokens"
    assert game.pending.player == 1 and game.pending.options == ("wiz-1",)
    with pytest.raises(IllegalAction, match="receives 2 tokens, not 3"):
        game.apply(AllocateTokens(1, casters=(TokenSplit("wiz-1", 2, 1),)))
    with pytest.raises(IllegalAction, match="not a caster of player 1"):
        game.apply(AllocateTokens(1, casters=(TokenSplit("shaman-1", 2, 0),)))
    game.apply(AllocateTokens(1, casters=(TokenSplit("wiz-1", 2, 0),)))
    assert s.units["wiz-1"].spell_tokens == 0  # not revealed yet
    assert game.pending.player == 2
    events = game.apply(AllocateTokens(2, casters=(TokenSplit("shaman-1", 0, 2),)))
    assert (s.units["wiz-1"].spell_tokens, s.units["shaman-1"].dispel_tokens) == (2, 2)
    assert any(e.kind == "tokens" for e in events)
    assert game.pending.decision == "strategy" and s.phase is Phase.STRATEGY_1 and s.step is Step.STRATEGY
    # dispel tokens give -1; the shaman's (absent) spell tokens cannot be used against the cast
    game.dice = Dice(sequence=[5])
    game.apply(cast("Bolt"))
    assert game.pending.decision == "dispel"
    events = game.apply(Dispel(2, (TokenSpend(2, "shaman-1"),)))
    assert "Bolt fails" in spell_events(events)
    assert s.units["shaman-1"].dispel_tokens == 0


def test_done_splits_tokens_the_default_way() -> None:
    game = start(table("spell_and_dispel"))
    game.apply(Done(1))
    game.apply(Done(2))
    assert game.state.units["wiz-1"].spell_tokens == 2 and game.state.units["wiz-1"].dispel_tokens == 0
    assert game.pending.decision == "strategy"


def test_pooled_tokens_two_free_dispel_tokens_no_range_and_the_cap() -> None:
    """Rulebook "Pooled Tokens": tokens go to the pool plus 2 dispel tokens; no range; cut to 6X + 2."""
    game = start(table("pooled", shaman=FAR))  # the shaman is far away: with a pool, range does not matter
    s = game.state
    game.apply(AllocateTokens(1, spell_tokens=2, dispel_tokens=0))
    game.apply(AllocateTokens(2, spell_tokens=1, dispel_tokens=1))
    pools = s.magic.pools
    assert (pools[1].spell, pools[1].dispel) == (2, 2)
    assert (pools[2].spell, pools[2].dispel) == (1, 3)
    with pytest.raises(IllegalAction, match="leave out unit"):
        game.apply(cast("Bolt", boost=(TokenSpend(1, "wiz-1"),)))
    game.dice = Dice(sequence=[4])
    game.apply(cast("Bolt", boost=(TokenSpend(1),)))
    assert pools[1].spell == 0 and game.pending.decision == "dispel" and game.pending.options == ("pool",)
    events = game.apply(Dispel(2, (TokenSpend(3),)))
    assert "Bolt fails" in spell_events(events)  # 4 + 1 - 3
    assert pools[2].dispel == 0
    # end of round: down to 6 x casters + 2 = 8
    pools[1].spell, pools[1].dispel = 9, 3
    s.round = 2
    magic.start_of_round(s, Phase.STRATEGY_1)
    assert (pools[1].spell, pools[1].dispel) == (5, 3)


def test_magic_actions_round_trip_through_the_record_form() -> None:
    for action in (cast("Bolt", boost=(TokenSpend(1, "wiz-2"),)), cast("Ward", None), Dispel(2),
                   Dispel(2, (TokenSpend(2),)), AllocateTokens(1, casters=(TokenSplit("wiz-1", 1, 1),)),
                   AllocateTokens(2, spell_tokens=1, dispel_tokens=3)):
        assert action_from_dict(action.to_dict()) == action


def test_a_caster_hero_joined_to_a_unit_casts_as_that_unit() -> None:
    """Rulebook "Hero": a hero that joined a unit is part of it; the unit holds the tokens and is "the caster's
    unit". The cast may name the hero or its unit."""
    guard = make_unit("guard-1", 1, ARCHERS, 10, Pose(31.5, 2, 0), hero=JoinedHero("sage", WIZARD))
    state = table(shaman=FAR, extra=(guard,))
    game = start(state, 5)
    assert magic.caster_value(game.state.units["guard-1"]) == 2
    assert game.state.units["guard-1"].spell_tokens == 2
    game.apply(cast("Ward", None, unit="sage"))
    guard = game.state.units["guard-1"]
    assert guard.spell_tokens == 1 and magic.effect_value(guard, "defense") == 1
    with pytest.raises(IllegalAction, match="already tried Ward"):
        game.apply(cast("Ward", None, unit="guard-1"))
    guard.hero.killed = True
    assert magic.caster_value(guard) == 0
