"""The game's position and the expected decision in words, using the rulebook's terms (no pygame here)."""

from __future__ import annotations

from typing import Any

from game.engine.movement import move_allowance
from game.engine.rulesets.aofr_breath import has_breath
from game.engine.state import GameState, MoveAction, Pending, Phase, Step

PHASE_NAMES = {
    Phase.DEPLOYMENT: "Deployment",
    Phase.STRATEGY_1: "First Strategy Phase",
    Phase.MOVEMENT: "Movement Phase",
    Phase.STRATEGY_2: "Second Strategy Phase",
    Phase.SHOOTING: "Shooting Phase",
    Phase.CLOSE_COMBAT: "Close Combat Phase",
    Phase.RALLY: "Rally Phase",
    Phase.ACTIVATION: "Activations",
}
"""Each phase as the rulebook's turn sequence names it."""

STEP_NAMES = {
    Step.DEPLOY: "Deploy armies: fully within your deployment zone",
    Step.SIDE_MISSION: "Side-missions",
    Step.OBJECTIVE_ORDER: "Objective markers: who places first",
    Step.PLACE_OBJECTIVES: "Place objective markers",
    Step.CHOOSE_DEPLOYMENT: "Choose table edges and who places first",
    Step.SET_ASIDE: "Set aside Scouts and Ambushers",
    Step.SCOUT_MOVE: "Scout moves",
    Step.FIRST_TURN: "Who takes the first turn",
    Step.AMBUSH: "1.1 Deploy Ambushers",
    Step.ALLOCATE_TOKENS: "0.1 Allocate spell tokens",
    Step.DISPEL: "Cast spells: tokens against the spell",
    Step.DECLARE_CHARGES: "2.1 Declare charges",
    Step.CHARGE_REACTIONS: "2.2 Declare charge reactions",
    Step.REDIRECT: "2.3 Charge moves: run down or redirect",
    Step.ROLL_CHARGES: "2.3 Charge moves: roll the charge distances",
    Step.REMAINING_MOVES: "2.4 Remaining moves",
    Step.RANGED_ATTACKS: "4.2 Ranged attacks",
    Step.MELEE: "5.4-5.5 Flight, pursuit and consolidation",
    Step.RALLY: "6.1 Rally",
    Step.ACTIVATION: "one unit's activation",
}
"""Each step with its turn sequence number."""

REACTION_NAMES = {"hold": "Hold", "stand_and_shoot": "Stand and Shoot", "flee": "Flee"}
"""Charge reactions (rulebook "Charge Reactions")."""


def step_name(phase: Phase, step: Step, decision: str | None = None) -> str:
    """The step in words; the strategy step is numbered by phase (1.2 or 3.1); ``decision`` refines step 2.3."""
    if step is Step.REDIRECT and decision == "consolidate":
        return "2.3 Charge moves: after running down, pivot up to 180° or move up to 3\""
    if step is Step.STRATEGY:
        return "1.2-1.3 Special rules and spells" if phase is Phase.STRATEGY_1 else "3.1-3.2 Special rules and spells"
    return str(STEP_NAMES.get(step, step.value.replace("_", " ")))


def ruleset_of(state: GameState) -> Any:
    """The class of the ruleset refereeing ``state`` (``game.engine.rulesets.RULESETS``), or None: what the window
    asks for the names and summaries the ruleset's book uses."""
    from game.engine.rulesets import RULESETS
    return RULESETS.get(state.ruleset)


def morale_word(state: GameState, flag: str = "shaken") -> str:
    """The ruleset's name for a morale state flag: ``shaken`` is "Shaken" in AoWFBR and the AoF:R quick rules,
    "Wavering" in AoF:R 2.16."""
    names = getattr(ruleset_of(state), "morale_states", {}) or {}
    return str(names.get(flag, flag.capitalize()))


def unit_name(state: GameState, unit_id: str | None) -> str:
    """A unit's display name, or its id if unknown."""
    if unit_id is None:
        return "the unit"
    unit = state.units.get(unit_id)
    return unit.profile.name if unit else unit_id


def _kinds(unit: Any) -> list[Any]:
    """The unit's own profile and its living joined hero's."""
    return [unit.profile] + ([unit.hero.profile] if unit.hero_alive and unit.hero is not None else [])


def position(state: GameState) -> str:
    """Round, player, phase and step: "Round 1/4 · Player 1 · Movement Phase — 2.4 Remaining moves"."""
    if state.game_over:
        return f"Round {state.round}/{state.rounds} · Game over"
    player = state.pending.player if state.pending else state.active_player
    if state.phase is Phase.DEPLOYMENT:
        step = step_name(state.phase, state.step)
        if getattr(state.deployment, "stage", "") == "scout":
            step = "Scouts: placed after all other units"
        return f"Deployment · Player {player} — {step}{_style(state)}"
    turn = "" if player == state.active_player else f" (in Player {state.active_player}'s turn)"
    decision = state.pending.decision if state.pending else None
    return (f"Round {state.round}/{state.rounds} · Player {player}{turn} · {PHASE_NAMES.get(state.phase, state.phase)}"
            f" — {step_name(state.phase, state.step, decision)}")


def _style(state: GameState) -> str:
    """" (Long Haul)": the deployment style when it is not the standard Front Line."""
    from game.engine.deployment_styles import STYLES
    style = STYLES.get(state.deployment_style or "")
    return f" ({style.name})" if style is not None and state.deployment_style != "front_line" else ""


def charge_roll_hint(state: GameState, unit_id: str) -> str:
    """Random Charge Distances (AoWFBR 1.4 "Optional Rules", step 5): what ``unit_id``'s roll must reach and the
    chance, e.g. "Rolls 2D6: highest + Advance 6\" must reach 9.7\" (75%)"; its target when it cannot be measured."""
    from game.engine import charge as charging
    from game.engine.errors import IllegalAction
    from game.engine.random_charge import chance, measured_distance

    charge = next((c for c in state.charges if c.unit == unit_id and not c.resolved), None)
    unit = state.units.get(unit_id)
    if charge is None or unit is None:
        return ""
    target = state.units[charge.target]
    advance = move_allowance(unit, MoveAction.ADVANCE)
    try:
        plan = charging.plan_charge_for_move(state, unit, target)
    except IllegalAction:
        return f"Rolls 2D6 at {target.profile.name}: out of charge range now, so the charge fails"
    need = measured_distance(plan.distance, plan.travel)
    return (f"Rolls 2D6 at {target.profile.name}: highest + Advance {advance:g}\" must reach {need:.1f}\" "
            f"({chance(advance, need):.0%})")


def chargers_of(state: GameState, target: str | None) -> list[str]:
    """Names of the units that declared a charge on ``target`` this movement phase."""
    return [unit_name(state, c.unit) for c in state.charges if c.target == target]


def _side_mission_instruction(state: GameState, pending: Pending) -> str:
    """What the player selecting a side-mission does (AoF:R 2.16 "Side-Missions")."""
    from game.engine import side_missions
    sm = side_missions.progress(state)
    hidden = bool(sm and sm.queue and sm.queue[0][1])
    how = ("in secret: only you can complete it, and the other player sees it only at the end" if hidden else
           "openly: both players can complete it")
    if sm is not None and sm.category is not None:
        pick = f"you rolled {side_missions.CATEGORIES[sm.category][0]}: pick one of its side-missions"
    else:
        pick = "pick a category, then a side-mission"
    vp = sm.rules.vp if sm is not None else side_missions.VP
    return f"Select your side-mission {how}; {pick} (the conditions are listed on the table; {vp} VP each)."


def instruction(state: GameState, pending: Pending | None, moving: bool = False, focus: str | None = None,
                casting: bool = False) -> str:
    """What the deciding player is expected to do now, with the keys and clicks that do it.

    ``focus`` names the unit the window is working on when the decision names none (the unit to deploy);
    ``casting``: the deciding player has spells to cast in this strategy step.
    """
    if pending is None:
        return "The game is over."
    unit = unit_name(state, pending.unit or focus)
    d = pending.decision
    own = getattr(ruleset_of(state), "prompts", {}).get(d)     # the ruleset's own words for this decision
    if own:
        return str(own).replace("{unit}", unit)
    if d == "strategy":
        if casting:
            return ("Cast spells: click a highlighted caster, pick a spell below, then click its target (a unit, "
                    "or a point for an area spell). Space = Done.")
        return "No special rules or spells to use: press Space (Done) to go on."
    if d == "block_spell":        # AoF:R 2.16 "Wizard(X)"
        cast = getattr(state.activation, "cast", None)
        what = f"{cast.spell} on {unit_name(state, cast.target)}" if cast is not None and cast.target else \
            (cast.spell if cast is not None else "a spell")
        return f"{unit} casts {what}: block with a wizard (D6+X, higher blocks) or Space to let it be."
    if d in ("action", "shoot") and casting:      # AoF:R 2.16 "Wizard(X)": before attacking
        act = "move, charge" if d == "action" else "shoot"
        return (f"{unit} is a wizard: \"Cast a spell\" first (then click its target), or {act} as usual; Space = "
                "Done.")
    if d == "dispel":
        return (f"The enemy {unit} is casting a spell: spend tokens against it (-1 to its roll each), or "
                "Space to spend none.")
    if d == "allocate_tokens":
        return "0.1 Split your casters' tokens into spell and dispel tokens: Space takes the default split."
    if d == "choose_deployment":
        if state.deployment_style not in (None, "front_line", "random"):
            return ("You won the deployment roll-off: keep your zone as drawn or take the other one (the table "
                    "turns), and choose who places the first unit.")
        return "You won the deployment roll-off: choose the table edge and who places the first unit."
    if d == "select_side_mission":
        return _side_mission_instruction(state, pending)
    if d == "choose_objective_order":
        return "You won the objective roll-off: choose who places the first objective marker."
    if d == "place_objective":
        from game.engine.objectives import MISSIONS
        mission = MISSIONS.get(state.mission or "")
        where = {"sabotage": "anywhere along your 12\" line", "king_of_the_hill": "over 9\" from the deployment "
                 "zones and the table edges"}.get(state.mission or "", "outside both deployment zones, over 9\" "
                                                                       "from the other markers")
        own = getattr(ruleset_of(state), "mission_text", None)   # the mission decides the winner (AoF:R)
        summary = "" if mission is None else f"at the end {mission.goal}" if own else mission.summary
        told = f" {mission.name}: {summary}." if mission is not None else ""
        return f"Click the table to place an objective marker, {where}.{told}"
    if d == "choose_first_turn":
        return "You won the roll-off for the first turn: choose who takes the first turn of each round."
    if d == "set_aside":
        return "Set aside Scout or Ambush units to deploy later, or Space (Done) to deploy them normally."
    if d == "scout_move":
        return (f"Scout: {unit} may be placed again within 12\" of where it deployed. Drag it; Enter confirms; "
                "Space stays.")
    if d == "ambush":
        return (f"1.1 Ambush: place {unit} fully within 6\" of any table edge (click or drag, Q/E pivots, Enter); "
                "Space keeps the rest waiting.")
    if d == "declare_charge":
        riders = any(u.player == pending.player and u.embarked_in and u.removed is None for u in state.units.values())
        return ("Click one of your units" + (" (Tab reaches those inside Transports)" if riders else "")
                + ", then a highlighted enemy to declare a charge. Space = Done when all charges are declared.")
    if d == "charge_reaction":
        who = ", ".join(chargers_of(state, pending.unit)) or "the enemy"
        names = [REACTION_NAMES.get(o, o) for o in pending.options] or ["Hold"]
        choice = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
        inside = [c for c in state.charges if c.target == pending.unit and not c.resolved
                  and state.units[c.unit].embarked_in and state.units[c.unit].removed is None]
        why = " — no Stand and Shoot: it cannot see into the Transport the charge comes out of" if inside else ""
        return f"{unit} is charged by {who}: choose a charge reaction ({choice}){why}."
    if d == "redirect":
        return f"The target of {unit} fled: Run down, or click a highlighted enemy to redirect the charge."
    if d == "roll_charge":
        return ("Random charge distances: pick the next charge to roll for (a button, or click the charging unit); "
                "2D6, the highest + its Advance must reach the distance measured.")
    if d == "activate":     # an activation ruleset (AoF:R 2.16)
        return "Click one of your highlighted units to activate it (each unit activates once a round)."
    if d == "action":
        if moving:
            rush = "straight after one pivot" if getattr(ruleset_of(state), "rush_pivots_first", True) \
                else "with one pivot at any point"
            return (f"Drag to move (Advance 6\", Rush 12\" {rush}); Q/E pivots; Enter confirms; "
                    "Esc cancels.")
        picks = getattr(ruleset_of(state), "melee_picks", False) and pending.unit in state.units and any(
            "Takedown" in w.rules or "Takedown" in p.rules for p in _kinds(state.units[pending.unit])
            for w in p.melee_weapons)
        if picks:       # the quick rules' "Takedown": a click on the enemy's hero picks it
            return (f"{unit}: drag to Hold, Advance or Rush (Q/E pivots, Enter), click an enemy to charge (its hero: "
                    "Takedown picks it), or Space: idle.")
        return (f"{unit}: drag it to Hold, Advance or Rush (Q/E pivots, Enter confirms), click a highlighted enemy "
                "to charge it, or Space to stay idle.")
    if d == "strike_back":
        if getattr(state.activation, "counter_first", False):     # the quick rules' Counter: decided first
            return (f"{unit} is charged: strike back (its Counter weapons strike first, before the charger), or not "
                    "(Space).")
        return f"{unit} was charged: strike back with its two front rows, or not (Space)."
    if d == "wavering":
        return (f"{unit} is {morale_word(state)}: it stays idle and may pivot up to 90° (Q/E, Enter), then "
                "recovers. Space = no pivot.")
    if d == "move":
        if moving:
            return ("Drag to move; Q/E or wheel pivots 5° (Shift 15°); Enter confirms; Backspace undoes a leg; "
                    "Esc cancels.")
        return ("Drag a unit to move it; Q/E or mouse wheel pivots; Enter confirms; Space = Done "
                "(units not moved Hold).")
    if d == "shoot":
        points = (" Stone throwers, mortars and cannons: select one, then click a target point."
                  if state.options.get("artillery_scatter") else "")    # Random Scatter for Artillery
        shooter = state.units.get(pending.unit) if pending.unit is not None else None
        breath = shooter is not None and has_breath(shooter) and \
            shooter.id not in (getattr(state.activation, "breath_used", None) or [])
        points += " Or breathe on an enemy within 12\" (the Breath Attack buttons, once per round)." if breath else ""
        return f"Click one of your units, then a highlighted enemy to shoot at it.{points} Space = Done when finished."
    if d == "pursue":
        return f"{unit} won the melee: pursue the fleeing enemy, or not (then it takes a morale test)."
    if d == "follow_up":
        return f"{unit} won the melee: follow up the retreating enemy, or stay."
    if d == "consolidate":
        return (f"Consolidation: {unit} may pivot up to 180° or move up to 3\". Drag / Q, E; Enter confirms; "
                "Skip stays.")
    if d == "pursue_target":
        return f"{unit} pursues: several enemies fled in the same facing. Choose which one to pursue."
    if d == "pivot_to_face":
        return (f"{unit} has no enemy in front: it may pivot to face an enemy in its flank or rear "
                "(Consolidation Moves), or not (Space).")
    if d == "rally":
        if not pending.options:
            return "Rally Phase: no unit of yours rallied. Space (Done) ends the turn."
        rallied = ", ".join(unit_name(state, u) for u in pending.options)
        return (f"Rallied: {rallied}. Click one to pivot it up to 180° (Q/E or wheel, Enter confirms); "
                "Space (Done) ends the turn.")
    if d == "deploy":
        reach = getattr(state.deployment, "scout_reach", None) if getattr(state.deployment, "stage", "") == "scout" \
            else None
        if reach is not None:       # the AoF:R quick rules' "Scout": placed once, beyond the zone
            return (f"Scout: place {unit} anywhere fully within {reach:g}\" of your deployment zone (click or drag, "
                    "Q/E pivots, Enter confirms; Tab: next unit).")
        return f"Deploy {unit}: click or drag on the table to place it, Q/E pivots, Enter confirms; Tab: next unit."
    return f"Decision: {d.replace('_', ' ')}."
