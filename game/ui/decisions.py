"""The buttons for each pending decision and what pressing them does.

``button_specs(scene)`` lists the action bar's buttons for the decision the engine waits for; ``run(scene, key)``
turns a button (or its key) into an engine action through ``scene.act`` or into a change of the window's own
tools (the ghost, the chosen weapon group or spell). Clicks on the table are handled by the battle scene.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from game.engine import side_missions
from game.engine.actions import (
    CastSpell,
    ChargeReaction,
    ChooseDeployment,
    ChooseFirstTurn,
    ChooseObjectiveOrder,
    Dispel,
    Done,
    FollowUp,
    PivotToFace,
    Pursue,
    Redirect,
    RollCharge,
    SelectSideMission,
    SetAside,
    Shoot,
    StrikeBack,
    TokenSpend,
)
from game.ui import describe, odds_panel, palette, spell_aim
from game.ui.action_bar import ButtonSpec

if TYPE_CHECKING:
    from game.ui.scene_protocols import BattleSceneLike

DONE_LABELS = {
    "strategy": "Done: go on (Space)",
    "declare_charge": "Done: no more charges (Space)",
    "move": "Done: end movement (Space)",
    "shoot": "Done: end shooting (Space)",
    "rally": "Done: end the turn (Space)",
    "consolidate": "Skip: stay in place (Space)",
    "pivot_to_face": "Do not pivot (Space)",
    "dispel": "Spend no tokens (Space)",
    "allocate_tokens": "Default split (Space)",
    "set_aside": "Done: deploy the rest normally (Space)",
    "scout_move": "Stay here (Space)",
    "ambush": "Done: keep the rest waiting (Space)",
    "action": "Stay idle (Space)",
    "strike_back": "Do not strike back (Space)",
    "wavering": "Stay idle, no pivot (Space)",
    "block_spell": "Do not block (Space)",
}
"""The Done button of each decision that Done answers."""


WINDOW_DECISIONS = frozenset({
    "strategy", "dispel", "allocate_tokens", "declare_charge", "charge_reaction", "redirect", "roll_charge", "move",
    "shoot", "pursue", "pursue_target", "follow_up", "pivot_to_face", "consolidate", "rally", "deploy", "ambush",
    "scout_move", "set_aside", "choose_objective_order", "place_objective", "select_side_mission",
    "choose_first_turn", "choose_deployment", "activate", "action", "strike_back", "wavering", "block_spell",
    "push",
})
"""The pending decisions the battle screens present (``button_specs`` and the table's clicks and drags; ``push``,
AoF: Skirmish "Pushing": ``game.ui.scenes.skirmish_battle``)."""


def _strike_back_pick(scene: BattleSceneLike) -> tuple[str, str] | None:
    """The charger's hero the charged unit's Takedown weapons may pick when striking back (``Game.melee_pick``), as
    (its id, its name), or None."""
    pending = scene.game.pending
    melee = list(getattr(scene.game.state.activation, "melee", []) or [])
    if pending is None or pending.unit is None or len(melee) != 2 or melee[1] != pending.unit:
        return None
    hero = scene.game.melee_pick(pending.unit, melee[0])
    charger = scene.game.state.units[melee[0]]
    if hero is None or charger.hero is None:
        return None
    return hero, charger.hero.profile.name


def window_refusal(ruleset_id: str) -> str | None:
    """Why the window cannot play a game of ``ruleset_id`` (a ruleset asking decisions the battle screen does not
    present, e.g. AoF:R 2.16's activations, which are played headless: ``main.py autoplay``/``run``), or None."""
    from game.engine.rulesets import RULESETS

    factory = RULESETS.get(ruleset_id)
    asked: frozenset[str] | None = getattr(factory, "decisions", None)
    missing = sorted(asked - WINDOW_DECISIONS) if asked is not None else []
    if not missing:
        return None
    title = getattr(factory, "title", ruleset_id)
    return (f"{title} ({ruleset_id}) cannot be played in the window yet: the battle screen has no way to answer "
            f"its decisions {', '.join(missing)}. Play it headless with python main.py autoplay, check and run.")


# --- spells ---------------------------------------------------------------------------------------------------
ACTIVATION_CASTING = frozenset({"action", "shoot"})
"""Decisions of an activation at which the activated unit may cast (AoF:R 2.16 "Wizard(X)": before attacking)."""


def _breath_buttons(scene: BattleSceneLike) -> list[ButtonSpec]:
    """AoF:R 2.16 "Breath Attack" when shooting: a button per enemy unit the activated unit may breathe on (once per
    round, within 12")."""
    pending = scene.game.pending
    if pending is None or pending.unit is None:
        return []
    s = scene.game.state
    targets = scene.game.breath_targets(pending.unit)
    return [ButtonSpec(f"breath:{uid}", f"Breath Attack at {_choice_name(s, uid, tuple(targets))}",
                       "3 automatic hits with AP(1) per model with Breath Attack that sees it within 12\" (once per "
                       "round; then the weapons may still fire)", "#primary_button") for uid in targets]


def _block_buttons(scene: BattleSceneLike) -> list[ButtonSpec]:
    """AoF:R 2.16 "Wizard(X)": a button per wizard that may roll D6+X to block the spell being cast, and one for all
    of them when there are several."""
    pending = scene.game.pending
    if pending is None:
        return []
    s = scene.game.state
    cast = getattr(s.activation, "cast", None)
    what = f" {cast.spell}" if cast is not None else ""
    out = [ButtonSpec(f"block:{uid}", f"Block{what} with {_choice_name(s, uid, pending.options)}",
                      "This wizard rolls D6+X; higher than the caster's D6+X blocks the spell (it may then not cast "
                      "this round)", "#primary_button") for uid in pending.options]
    if len(pending.options) > 1:
        out.append(ButtonSpec("block:*", "Block with all", "Every wizard listed rolls to block", "#primary_button"))
    return out


def cast_options(scene: BattleSceneLike) -> list[CastSpell]:
    """Every spell the deciding player may try now (empty when magic is not in this game): in a strategy step, or
    within an activation before attacking (AoF:R 2.16 "Wizard(X)": ``Game.activation_casts``)."""
    pending = scene.game.pending
    if pending is not None and pending.decision in ACTIVATION_CASTING:
        return scene.game.activation_casts(pending.player)
    if pending is None or pending.decision != "strategy":
        return []
    try:
        from game.engine import magic
        return list(magic.cast_options(scene.game.state, pending.player))
    except (ImportError, AttributeError, KeyError, TypeError):
        return []


def spell_info(scene: BattleSceneLike, player: int, name: str) -> Any:
    """The ``Spell`` called ``name`` of ``player``'s army, or None."""
    try:
        from game.engine import magic
        return magic.spells_of(scene.game.state, player).get(name)
    except (ImportError, AttributeError):
        return None


def spell_targets(scene: BattleSceneLike, caster: str, spell: str) -> list[str]:
    """Targets the chosen spell of ``caster`` may be cast on now."""
    return [c.target for c in scene.casts if c.unit == caster and c.spell == spell and c.target is not None]


def _spell_buttons(scene: BattleSceneLike) -> list[ButtonSpec]:
    pending = scene.game.pending
    caster = scene.selected
    if pending is None or caster is None:
        return []
    names: list[str] = []
    for c in scene.casts:
        if c.unit == caster and c.spell not in names:
            names.append(c.spell)
    for name in spell_aim.point_spells_of(scene, caster):   # aimed at any point: offered without a target
        if name not in names:
            names.append(name)
    out = []
    for name in names:
        spell = spell_info(scene, pending.player, name)
        label = f"{name} ({spell.value})" if spell is not None else name
        tip = spell.summary() if spell is not None and hasattr(spell, "summary") else None
        on = scene.spell == name
        out.append(ButtonSpec(f"spell:{name}", ("✦ " if on else "") + label, tip,
                              "#toggle_on" if on else None))
    return out


def _dispel_buttons(scene: BattleSceneLike) -> list[ButtonSpec]:
    """A button per token source and count (up to 3) that may be spent against the spell being cast."""
    pending = scene.game.pending
    if pending is None:
        return []
    s = scene.game.state
    out = []
    try:
        from game.engine import magic
        caster = s.units[pending.unit] if pending.unit in s.units else None
        sources = magic.token_sources(s, caster, pending.player) if caster is not None else []
    except (ImportError, AttributeError):
        sources = []
    for unit, held in sources:
        who = "pool" if unit is None else describe.unit_name(s, unit)
        for n in range(1, min(held, 3) + 1):
            out.append(ButtonSpec(f"dispel:{unit or ''}:{n}", f"{who}: {n} token{'s' if n > 1 else ''}",
                                  f"-{n} to the casting roll"))
    return out


# --- weapon groups ------------------------------------------------------------------------------------------------
def _ranged_left(scene: BattleSceneLike, uid: str) -> list[str]:
    unit = scene.game.state.units[uid]
    return [w.name for w in unit.profile.ranged_weapons if w.name not in unit.weapons_fired]


def _weapon_buttons(scene: BattleSceneLike) -> list[ButtonSpec]:
    """With a shooter selected that has two or more ranged weapons left: a toggle per weapon."""
    s = scene.game.state
    pending = scene.game.pending
    unit = s.units.get(scene.selected) if scene.selected else None
    if unit is None or pending is None or unit.player != pending.player:
        return []
    left = _ranged_left(scene, unit.id)
    if len(left) < 2:
        return []
    chosen = scene.fire.get(unit.id, set(left))
    return [ButtonSpec(f"weapon:{name}", ("✔ " if name in chosen else "✘ ") + name,
                       "Fire this weapon group at the next target you click",
                       "#toggle_on" if name in chosen else None) for name in left]


def shot_weapons(scene: BattleSceneLike, uid: str) -> tuple[str, ...] | None:
    """The weapons the next shot of ``uid`` fires: None (all left) unless a group was chosen."""
    left = _ranged_left(scene, uid)
    chosen = scene.fire.get(uid)
    if chosen is None or set(left) <= chosen:
        return None
    return tuple(w for w in left if w in chosen)


# --- the buttons ---------------------------------------------------------------------------------------------------
def _choice_name(state: Any, uid: str, options: tuple[str, ...]) -> str:
    """A unit offered as a choice: its name, with its id when another option has the same name."""
    name = describe.unit_name(state, uid)
    twins = [o for o in options if o != uid and describe.unit_name(state, o) == name]
    return f"{name} ({uid})" if twins else name


def button_specs(scene: BattleSceneLike) -> list[ButtonSpec]:
    """The action bar for the decision at hand, then the view buttons."""
    pending = scene.game.pending
    if pending is None:
        return [ButtonSpec("results", "Show the results", None, "#primary_button"),
                ButtonSpec("fit", "Fit table (F)", "Show the whole table", right=True)]
    specs: list[ButtonSpec] = []
    d = pending.decision
    t = scene.tool
    p = pending.player
    casting = d in ACTIVATION_CASTING and bool(scene.casts)
    if casting and scene.spell_menu:     # AoF:R 2.16 "Wizard(X)": the wizard's spells, before attacking
        specs += _spell_buttons(scene)
        specs.append(ButtonSpec("spell_menu", "◂ Back", "Back to the unit's moves (no spell)", pinned=True))
        return specs
    if casting:
        specs.append(ButtonSpec("spell_menu", "Cast a spell ▸", "Pick one of the wizard's spells (D6+X against its "
                                "value; enemy wizards in 18\" may block), then click its target", "#primary_button",
                                short="Cast ▸"))
    if d == "action" and pending.unit is not None and scene.game.breath_in_melee(pending.unit):
        specs.append(ButtonSpec("breath", "Breath Attack: on" if scene.breath else "Breath Attack: off",
                                "AoF:R 2.16 \"Breath Attack\" (once per round): on, the next charge deals 3 automatic "
                                "hits with AP(1) per model with it in the two front rows", "#toggle_on" if scene.breath
                                else None, short="Breath on" if scene.breath else "Breath off"))
    if d in ("move", "action"):     # "action": the activated unit's Hold/Advance/Rush (AoF:R 2.16)
        for a in ("hold", "advance", "rush"):
            on = t is not None and t.forced == a
            article = "an" if a == "advance" else "a"
            specs.append(ButtonSpec(a, a.capitalize(), f"Make this move {article} {a.capitalize()} (click again "
                                    "for automatic)", "#toggle_on" if on else None, enabled=t is not None))
        specs.append(ButtonSpec("confirm", "Confirm move (Enter)", "Enter", "#primary_button",
                                enabled=t is not None, short="Confirm"))
        specs.append(ButtonSpec("cancel", "Cancel (Esc)", "Esc", enabled=t is not None, short="Cancel"))
    elif d == "shoot":
        specs += _breath_buttons(scene) + _weapon_buttons(scene) + scene.artillery.buttons()
    elif d == "block_spell":
        specs += _block_buttons(scene)
    elif d == "strategy":
        specs += _spell_buttons(scene)
    elif d == "dispel":
        specs += _dispel_buttons(scene)
    elif d == "charge_reaction":
        for o in pending.options:
            specs.append(ButtonSpec(f"react:{o}", describe.REACTION_NAMES.get(o, o), None, "#primary_button"))
    elif d == "redirect":
        specs.append(ButtonSpec("run_down", "Run down", "Charge the fleeing unit with the normal charge distance",
                                "#primary_button"))
    elif d == "roll_charge":     # Random Charge Distances, step 5: the charging player picks the next roll
        s = scene.game.state
        for uid in pending.options:
            specs.append(ButtonSpec(f"roll_charge:{uid}", f"Roll for {_choice_name(s, uid, pending.options)}",
                                    describe.charge_roll_hint(s, uid), "#primary_button"))
    elif d == "pursue":
        odds = odds_panel.pursue_tooltips(scene.game)     # the odds of each answer (game.odds.simulate)
        specs.append(ButtonSpec("pursue", "Pursue", odds.get(True), "#primary_button"))
        specs.append(ButtonSpec("no_pursue", "Do not pursue", odds.get(False, "The unit then takes a morale test")))
    elif d == "pursue_target":  # several fleeing units in the same facing: the player chooses (after the flights)
        s = scene.game.state
        for uid in pending.options:
            specs.append(ButtonSpec(f"pursue_target:{uid}", f"Pursue {_choice_name(s, uid, pending.options)}",
                                    "Pursue this fleeing unit along its flight line", "#primary_button"))
    elif d == "follow_up":
        s = scene.game.state
        if len(pending.options) > 1:  # several retreating units in the same facing: choose which one
            for uid in pending.options:
                specs.append(ButtonSpec(f"follow_up:{uid}", f"Follow up {_choice_name(s, uid, pending.options)}", None,
                                        "#primary_button"))
        else:
            specs.append(ButtonSpec("follow_up", "Follow up", None, "#primary_button"))
        specs.append(ButtonSpec("stay", "Stay"))
    elif d == "pivot_to_face":
        s = scene.game.state
        for uid in pending.options:
            specs.append(ButtonSpec(f"pivot_to_face:{uid}", f"Pivot to face {_choice_name(s, uid, pending.options)}",
                                    "Turn to face this enemy in the flank or rear; the others stay in contact",
                                    "#primary_button"))
    elif d == "consolidate":
        specs.append(ButtonSpec("confirm", "Confirm (Enter)", None, "#primary_button"))
        specs.append(ButtonSpec("reset", "Reset"))
    elif d in ("rally", "wavering"):
        specs.append(ButtonSpec("confirm", "Confirm pivot (Enter)", None, "#primary_button", enabled=t is not None))
    elif d == "strike_back":
        specs.append(ButtonSpec("strike_back", "Strike back", "The two front rows strike the charging unit (the unit "
                                "is then fatigued for the rest of the round)", "#primary_button"))
        if pending.unit is not None and scene.game.breath_in_melee(pending.unit):
            specs.append(ButtonSpec("strike_back_breath", "Strike back with Breath Attack", "AoF:R 2.16 \"Breath "
                                    "Attack\" (once per round): 3 automatic hits with AP(1) per model with it in the "
                                    "two front rows, then the strikes", "#primary_button", short="Strike + Breath"))
        pick = _strike_back_pick(scene)
        if pick is not None:
            name = pick[1]
            specs.append(ButtonSpec("strike_back_pick", f"Strike back, Takedown at {name}",
                                    "Strike back; the Takedown weapons strike the charger's hero as a unit of one",
                                    "#primary_button"))
    elif d in ("deploy", "ambush", "scout_move"):
        label = "Scout here (Enter)" if d == "scout_move" else "Deploy here (Enter)"
        specs.append(ButtonSpec("confirm", label, None, "#primary_button", enabled=t is not None))
        if len(pending.options) > 1 and not pending.unit:
            specs.append(ButtonSpec("next_unit", "Next unit (Tab)"))
    elif d == "set_aside":
        s = scene.game.state
        for uid in pending.options:
            specs.append(ButtonSpec(f"set_aside:{uid}", f"Set aside {describe.unit_name(s, uid)}"))
    elif d == "choose_objective_order":
        for first in (p, 3 - p):
            specs.append(ButtonSpec(f"objective_first:{first}", f"Player {first} places the first marker", None,
                                    "#primary_button"))
    elif d == "select_side_mission":
        specs += _side_mission_buttons(scene)
    elif d == "choose_first_turn":
        for first in (p, 3 - p):
            specs.append(ButtonSpec(f"first:{first}", f"Player {first} takes the first turn", None,
                                    "#primary_button"))
    elif d == "choose_deployment":
        edges: list[str | None] = list(pending.options) or [None]
        style = scene.game.state.deployment_style
        if style not in (None, "front_line", "random"):    # keeping one's zone first
            edges.sort(key=lambda e: e != ("south" if p == 1 else "north"))
        for edge in edges:
            for first in (p, 3 - p):
                if scene.game.check_deploy(ChooseDeployment(p, first, edge)) is not None:
                    continue    # AoF:R 2.16: the roll-off winner deploys first (the engine says which choices)
                where = f"{edge.capitalize()} edge · " if edge else ""
                if edge and style not in (None, "front_line", "random"):   # the zones are drawn, not edges
                    own = (edge == "south") == (p == 1)
                    where = "Keep your zone · " if own else "Other zone · "
                specs.append(ButtonSpec(f"deployment:{edge or ''}:{first}", f"{where}Player {first} places first",
                                        None, "#primary_button", short=f"{where}P{first} first"))
    if d in DONE_LABELS:
        style = None if d in ("move", "consolidate", "action") else "#primary_button"
        specs.append(ButtonSpec("done", DONE_LABELS[d], "End this step (Space)", style, short="Done (Space)",
                                pinned=True))
    # the view's tools (measure, arcs, sight, last combat, fit, turn) are on the strip over the table
    # (game/ui/view_tools.py)
    return specs


def _side_mission_buttons(scene: BattleSceneLike) -> list[ButtonSpec]:
    """AoF:R 2.16 "Side-Missions": Free, a button per category and then one per side-mission of it (with Back);
    Limited, one per side-mission of the category rolled. Each tooltip gives the book's condition. Only the side-
    missions the player can complete are offered (``side_missions.offered``)."""
    s = scene.game.state
    offered = side_missions.offered(s)
    sm = side_missions.progress(s)
    rolled = sm.category if sm is not None else None
    vp = sm.rules.vp if sm is not None else side_missions.VP
    category = rolled or scene.side_category
    specs: list[ButtonSpec] = []
    if category is None:
        for n, (name, keys) in side_missions.CATEGORIES.items():
            names = [side_missions.SIDE_MISSIONS[k].name for k in keys if k in offered]
            specs.append(ButtonSpec(f"side_category:{n}", f"{n}. {name} ▸", ", ".join(names) or
                                    "none of these can be completed in this battle", "#primary_button",
                                    enabled=bool(names)))
        return specs
    for k in side_missions.CATEGORIES[category][1]:
        if k in offered:
            info = side_missions.SIDE_MISSIONS[k]
            specs.append(ButtonSpec(f"side_mission:{k}", info.name, f"{info.name}: {info.text} ({vp} VP at the end)",
                                    "#primary_button"))
    if rolled is None:
        specs.append(ButtonSpec("side_back", "◂ Categories", "Back to the three categories"))
    return specs


# --- pressing them -------------------------------------------------------------------------------------------------
def run(scene: BattleSceneLike, key: str) -> None:
    """Do what button ``key`` stands for."""
    pending = scene.game.pending
    if scene.artillery.run(key):       # Random Scatter for Artillery: a cannon's "skip first Quality test"
        return
    if key == "fit":
        scene.view.fit()
    elif key == "turn":
        scene.view.set_flipped(not scene.view.flipped)
    elif key == "measure":
        scene.measure = not scene.measure
    elif key == "arcs":
        scene.show_arcs = not scene.show_arcs
    elif key == "sight":
        scene.show_sight = not scene.show_sight
    elif key == "trails":
        scene.show_trails = not scene.show_trails
        if scene.show_trails and not scene.trails.last:
            scene.show_banner("No flight, pursuit, retreat or charge moves yet in this game.", palette.SHAKEN)
    elif key == "results" and pending is None:
        scene.show_results()
    if pending is None:
        return
    p = pending.player
    unit = pending.unit
    if key == "done":
        if pending.decision not in DONE_LABELS:
            return
        if scene.tool is not None and scene.tool.changed and pending.decision in ("move", "action"):
            scene.show_banner("Confirm the move (Enter) or cancel it (Esc) before ending the step.", palette.SHAKEN)
            return
        scene.act(Done(player=p))
    elif key == "confirm":
        if scene.tool is not None:
            scene.act(scene.tool.action())
    elif key == "cancel":
        scene.tool = None
        scene.error = None
    elif key == "reset":
        if scene.tool is not None:
            scene.tool.reset()
    elif key in ("hold", "advance", "rush"):
        if scene.tool is not None:
            scene.tool.set_forced(None if scene.tool.forced == key else key)
    elif key == "strike_back" and unit is not None:
        scene.act(StrikeBack(player=p, unit=unit))
    elif key == "strike_back_breath" and unit is not None:
        scene.act(StrikeBack(player=p, unit=unit, breath=True))
    elif key == "breath":
        scene.breath = not scene.breath
    elif key.startswith("breath:") and unit is not None:
        scene.act(Shoot(player=p, unit=unit, target=key.split(":", 1)[1], breath=True))
    elif key == "strike_back_pick" and unit is not None:
        pick = _strike_back_pick(scene)
        scene.act(StrikeBack(player=p, unit=unit, model=pick[0] if pick is not None else None))
    elif key.startswith("react:") and unit is not None:
        scene.act(ChargeReaction(player=p, unit=unit, reaction=key.split(":", 1)[1]))
    elif key == "run_down" and unit is not None:
        scene.act(Redirect(player=p, unit=unit, target=None))
    elif key in ("pursue", "no_pursue") and unit is not None:
        scene.act(Pursue(player=p, unit=unit, pursue=key == "pursue"))
    elif key in ("follow_up", "stay") and unit is not None:
        scene.act(FollowUp(player=p, unit=unit, follow_up=key == "follow_up"))
    elif key.startswith("follow_up:") and unit is not None:
        scene.act(FollowUp(player=p, unit=unit, follow_up=True, target=key.split(":", 1)[1]))
    elif key.startswith("pursue_target:") and unit is not None:
        scene.act(Pursue(player=p, unit=unit, pursue=True, target=key.split(":", 1)[1]))
    elif key.startswith("pivot_to_face:") and unit is not None:
        scene.act(PivotToFace(player=p, unit=unit, target=key.split(":", 1)[1]))
    elif key.startswith("weapon:") and scene.selected:
        name = key.split(":", 1)[1]
        chosen = scene.fire.setdefault(scene.selected, set(_ranged_left(scene, scene.selected)))
        if name in chosen and len(chosen) > 1:
            chosen.discard(name)
        else:
            chosen.add(name)
    elif key.startswith("spell:") and scene.selected:
        _choose_spell(scene, key.split(":", 1)[1])
    elif key == "spell_menu":
        scene.spell_menu = not scene.spell_menu
        scene.spell = None
    elif key.startswith("block:"):
        who = key.split(":", 1)[1]
        wizards = pending.options if who == "*" else (who,)
        scene.act(Dispel(player=p, tokens=tuple(TokenSpend(tokens=1, unit=w) for w in wizards)))
    elif key.startswith("dispel:"):
        _, source, n = key.split(":")
        scene.act(Dispel(player=p, tokens=(TokenSpend(tokens=int(n), unit=source or None),)))
    elif key.startswith("set_aside:"):
        scene.act(SetAside(player=p, unit=key.split(":", 1)[1]))
    elif key.startswith("roll_charge:"):
        scene.act(RollCharge(player=p, unit=key.split(":", 1)[1]))
    elif key.startswith("first:"):
        scene.act(ChooseFirstTurn(player=p, first=int(key.split(":", 1)[1])))
    elif key.startswith("objective_first:"):
        scene.act(ChooseObjectiveOrder(player=p, first=int(key.split(":", 1)[1])))
    elif key.startswith("deployment:"):
        _, edge, first = key.split(":")
        scene.act(ChooseDeployment(player=p, first=int(first), edge=edge or None))
    elif key == "next_unit":
        scene.next_deploy_unit()
    elif key.startswith("side_category:"):
        scene.side_category = int(key.split(":", 1)[1])
    elif key == "side_back":
        scene.side_category = None
    elif key.startswith("side_mission:"):
        if scene.act(SelectSideMission(player=p, mission=key.split(":", 1)[1])):
            scene.side_category = None


def _choose_spell(scene: BattleSceneLike, name: str) -> None:
    """Pick (or drop) a spell of the selected caster; a spell with a single possible target is cast at once."""
    pending = scene.game.pending
    caster = scene.selected
    if pending is None or caster is None:
        return
    if scene.spell == name:
        scene.spell = None
        return
    scene.spell = name
    targets = spell_targets(scene, caster, name)
    spell = spell_info(scene, pending.player, name)
    if spell is not None and getattr(spell, "target", None) == "self" and targets:
        cast_spell(scene, targets[0])
    elif spell is not None and getattr(spell, "area", None) is not None:
        scene.show_banner(f"{name}: click a point on the table within {spell.range:g}\" of the caster, in its line "
                          f"of sight (Esc: cancel)", palette.LEGAL, 5.0)


def cast_spell(scene: BattleSceneLike, target: str) -> bool:
    """Cast the chosen spell of the selected caster on ``target``."""
    pending = scene.game.pending
    if pending is None or scene.selected is None or scene.spell is None:
        return False
    done = scene.act(CastSpell(player=pending.player, unit=scene.selected, spell=scene.spell, target=target))
    if done:
        scene.spell = None
    return done
