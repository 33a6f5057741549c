"""AoF: Skirmish "Playing the Game", "Morale", "Wound Effects" (Shaken), "Mission", "Deployment" on fixed dice
(../shared/rules/aof-skirmish-quick-rules.md; docs/rulings.md "AoF Skirmish")."""

from __future__ import annotations

import pytest

from game.engine.actions import Activate, ChooseDeployment, Done, PlaceModels, PlaceObjective, TablePoint
from game.engine.dice import Dice
from game.engine.errors import IllegalAction
from game.engine.game import Game
from game.engine.skirmish.loose import Warband
from game.engine.state import GameState, Objective, Phase, Removal, Step, Table
from tests.rules.skirmish.helpers import WARRIOR, skirmish_game, unit


def _half_army(dice):
    a, b, c = unit("a", 1, WARRIOR, 1), unit("b", 2, WARRIOR, 1), unit("c", 2, WARRIOR, 1)
    g = skirmish_game([(a, [(10, 10)]), (b, [(30, 40)]), (c, [(40, 40)])], dice=dice)
    g.state.activation.models["c"] = []
    g.state.remove(c, Removal.DESTROYED)
    return g, a, b


def test_an_army_at_half_its_units_tests_morale_at_the_end_of_the_round_failed_is_shaken():
    """"Morale": "if an army is down to half or less of its starting units, then all of its units must take a
    morale test ... if failed the unit is Shaken"."""
    g, a, b = _half_army([3])
    g.apply(Activate(1, "a"))
    g.apply(Done(1))
    g.apply(Activate(2, "b"))
    g.apply(Done(2))                       # the round ends: player 2 has 1 of 2 units
    assert b.shaken and not a.shaken and g.dice.consumed == 1 and g.state.round == 2


def test_a_shaken_unit_that_fails_routs_and_shaken_always_fails():
    """"if the unit was already Shaken, then it routs instead"; Shaken "always fails morale tests"."""
    g2, a2, b2 = _half_army([])
    b2.shaken = True
    g2.state.activation.activated.append("b")
    g2.apply(Activate(1, "a"))
    g2.apply(Done(1))                      # round ends, no dice: b is Shaken and routs
    assert b2.removed is Removal.ROUTED and g2.dice.consumed == 0


def test_a_shaken_unit_stays_idle_and_recovers():
    """Shaken: "must stay idle ... Shaken units must spend one full activation idle to stop being Shaken"."""
    a, b = unit("a", 1, WARRIOR, 1), unit("b", 2, WARRIOR, 1)
    g = skirmish_game([(a, [(10, 10)]), (b, [(30, 40)])])
    a.shaken = True
    events = g.apply(Activate(1, "a"))
    assert not a.shaken and any(e.kind == "rally" for e in events) and g.pending.player == 2


def test_markers_are_seized_within_3_inches_contested_neutral_shaken_cannot():
    """"Mission": "if a unit is within 3" of a marker while enemies aren't, then it's seized ... if units from both
    sides are contesting a marker, then it becomes neutral"; Shaken "can't contest or seize objectives"."""
    a, b = unit("a", 1, WARRIOR, 1), unit("b", 2, WARRIOR, 1)
    g = skirmish_game([(a, [(24, 20.6)]), (b, [(24, 27.4)])])
    g.state.objectives = [Objective(24, 24), Objective(10, 40, controller=2)]
    b.shaken = True
    g.state.activation.activated.append("b")    # b stays Shaken until its next activation
    g.apply(Activate(1, "a"))
    g.apply(Done(1))                           # the round ends
    assert g.state.objectives[0].controller == 1 and g.state.objectives[1].controller == 2
    while g.state.round == 2:              # b recovers in its activation, a holds
        p = g.pending
        g.apply(Activate(p.player, p.options[0]) if p.decision == "activate" else Done(p.player))
    assert not b.shaken and g.state.round == 3
    assert g.state.objectives[0].controller is None        # both within 3": neutral again
    assert g.victory_points() == {1: 0, 2: 1}


def test_deployment_edges_markers_and_units_within_12_inches():
    """"Deployment": the roll-off winner picks a table edge, the opponent the opposite; units within 12" of their
    edge, alternating from the winner. "Mission": D3+2 markers placed alternately outside deployment zones, over
    9" from each other."""
    a, b = unit("a", 1, WARRIOR, 2), unit("b", 2, WARRIOR, 1)
    s = GameState("t", Table(48, 48), terrain=[], units={"a": a, "b": b}, generals={1: None, 2: None})
    s.ruleset, s.mission, s.phase, s.step = "aof-skirmish", "standard", Phase.DEPLOYMENT, Step.DEPLOY
    # roll-off 2 v 5: player 2 wins; D3 from a 1: 3 markers; markers roll-off 6 v 1: player 1 places first
    g = Game.start(s, Dice(sequence=[2, 5, 1, 6, 1]))
    assert isinstance(s.activation, Warband) and g.pending.player == 2
    g.apply(ChooseDeployment(2, 2, "west"))
    assert s.activation.edges == {2: "west", 1: "east"} and g.pending.player == 1
    with pytest.raises(IllegalAction, match="outside of deployment zones"):
        g.apply(PlaceObjective(1, 40, 24))
    g.apply(PlaceObjective(1, 24, 24))
    with pytest.raises(IllegalAction, match="over 9"):
        g.apply(PlaceObjective(2, 24, 32))
    g.apply(PlaceObjective(2, 24, 34))
    g.apply(PlaceObjective(1, 24, 14))
    assert g.pending.decision == "deploy" and g.pending.player == 2       # the deployment roll-off winner
    with pytest.raises(IllegalAction, match="within 12\" of the west"):
        g.apply(PlaceModels(2, "b", (TablePoint(13, 24),)))
    g.apply(PlaceModels(2, "b", (TablePoint(11, 24),)))
    g.apply(PlaceModels(1, "a", (TablePoint(40, 10), TablePoint(41.5, 10))))
    assert s.phase is Phase.ACTIVATION and g.pending.player == 2 and g.pending.decision == "activate"


def _ambush_game():
    from game.engine.profiles import Profile, Weapon
    goblin = Profile("Goblin", 5, 6, 25.4, 25.4, 2, 20, (Weapon("Stabber", 1),), ("Ambush",))
    a, b, gob = unit("a", 1, WARRIOR, 1), unit("b", 2, WARRIOR, 1), unit("g", 2, goblin, 2)
    g = skirmish_game([(a, [(24, 20)]), (b, [(30, 40)])])
    g.state.units["g"] = gob
    w = g.state.activation
    w.ambush.append("g")
    w.starting_units = {1: 1, 2: 2}
    g.state.objectives = [Objective(24, 33)]
    return g, a, b, gob


def test_ambush_units_deploy_from_round_2_over_9_inches_from_enemies():
    """Ambush: "At the start of any round after the first, may be deployed anywhere over 9" away from enemy units.
    Players alternate in placing Ambush units, starting with the player that activates next. Units that deploy via
    Ambush can't seize or contest objectives on the round they deploy"."""
    g, a, b, gob = _ambush_game()
    g.apply(Activate(1, "a"))
    g.apply(Done(1))
    g.apply(Activate(2, "b"))
    g.apply(Done(2))                                   # round 1 ends
    assert not b.shaken and g.dice.consumed == 0       # a unit waiting in Ambush is not lost: no morale test
    p = g.pending
    assert (p.player, p.decision, p.options) == (2, "ambush", ("g",))      # player 1 has none waiting
    with pytest.raises(IllegalAction, match="over 9\" away"):
        g.apply(PlaceModels(2, "g", (TablePoint(24, 30), TablePoint(25.5, 30))))
    g.apply(PlaceModels(2, "g", (TablePoint(24, 31), TablePoint(25.5, 31))))   # 9.5" edge to edge from a
    assert g.state.activation.arrived == {"g": 2} and g.pending.decision == "activate"
    while g.state.round == 2:
        p = g.pending
        g.apply(Activate(p.player, p.options[0]) if p.decision == "activate" else Done(p.player))
    assert g.state.objectives[0].controller is None     # g arrived this round: it can't seize the marker


def test_a_player_may_keep_its_ambush_units_waiting():
    """"may be deployed": ``done`` keeps them waiting this round."""
    g, a, b, gob = _ambush_game()
    for _ in range(4):
        p = g.pending
        g.apply(Activate(p.player, p.options[0]) if p.decision == "activate" else Done(p.player))
    assert g.pending.decision == "ambush"
    g.apply(Done(2))
    assert g.pending.decision == "activate" and g.state.activation.ambush == ["g"] and not gob.on_table


def test_ambush_units_are_set_aside_during_deployment():
    """Ambush: "May be set aside before deployment"."""
    from game.engine.actions import SetAside
    from game.engine.profiles import Profile, Weapon
    goblin = Profile("Goblin", 5, 6, 25.4, 25.4, 2, 20, (Weapon("Stabber", 1),), ("Ambush",))
    a, gob = unit("a", 1, WARRIOR, 1), unit("g", 2, goblin, 2)
    b = unit("b", 2, WARRIOR, 1)
    s = GameState("t", Table(48, 48), terrain=[], units={"a": a, "g": gob, "b": b}, generals={1: None, 2: None})
    s.ruleset, s.mission, s.phase, s.step = "aof-skirmish", None, Phase.DEPLOYMENT, Step.DEPLOY
    g = Game.start(s, Dice(sequence=[1, 6]))                 # player 2 wins the deployment roll-off
    g.apply(ChooseDeployment(2, 2, "north"))
    assert g.pending.options == ("g", "b")
    with pytest.raises(IllegalAction, match="no Ambush"):
        g.apply(SetAside(2, "b"))
    g.apply(SetAside(2, "g"))
    assert g.pending.player == 2 and g.pending.options == ("b",)
    g.apply(PlaceModels(2, "b", (TablePoint(24, 40),)))
    g.apply(PlaceModels(1, "a", (TablePoint(24, 5),)))
    assert s.phase is Phase.ACTIVATION and s.activation.ambush == ["g"] and not gob.on_table


def test_scout_units_deploy_after_all_others_within_12_inches_of_their_zone():
    """Scout: "May be set aside before deployment. After all other units are deployed, may be deployed anywhere
    fully within 12" of their deployment zone. Players alternate in placing Scout units, starting with the player
    that activates next"."""
    from game.engine.actions import SetAside
    from game.engine.profiles import Profile, Weapon
    scout = Profile("Warden", 4, 5, 25.4, 25.4, 1, 20, (Weapon("Knife", 1),), ("Scout",))
    a, sc1 = unit("a", 1, WARRIOR, 1), unit("s1", 1, scout, 1)
    b, sc2 = unit("b", 2, WARRIOR, 1), unit("s2", 2, scout, 1)
    s = GameState("t", Table(48, 48), terrain=[], units={"a": a, "s1": sc1, "b": b, "s2": sc2},
                  generals={1: None, 2: None})
    s.ruleset, s.phase, s.step = "aof-skirmish", Phase.DEPLOYMENT, Step.DEPLOY
    g = Game.start(s, Dice(sequence=[6, 1]))                 # player 1 wins the deployment roll-off
    g.apply(ChooseDeployment(1, 1, "south"))
    g.apply(SetAside(1, "s1"))
    g.apply(PlaceModels(1, "a", (TablePoint(10, 5),)))
    g.apply(SetAside(2, "s2"))
    g.apply(PlaceModels(2, "b", (TablePoint(10, 43),)))
    assert s.activation.scouting and g.pending.player == 1 and g.pending.options == ("s1",)
    with pytest.raises(IllegalAction, match="fully within 12\" of its deployment zone"):
        g.apply(PlaceModels(1, "s1", (TablePoint(30, 23.8),)))      # its base reaches 24.3" from the edge
    g.apply(PlaceModels(1, "s1", (TablePoint(30, 23.4),)))
    g.apply(PlaceModels(2, "s2", (TablePoint(40, 25),)))
    assert s.phase is Phase.ACTIVATION and sc1.on_table and sc2.on_table and not s.activation.scouting
