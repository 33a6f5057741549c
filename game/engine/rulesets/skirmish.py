"""Age of Fantasy: Skirmish (issue 18; ../shared/rules/aof-skirmish-quick-rules.md) behind the ruleset seam: loose
models (``game.engine.skirmish``), alternating activations, wound effects, end-of-round morale and the mission.

The game (decisions: docs/formats.md "AoF: Skirmish"): the deployment roll-off winner picks a table edge
(``choose_deployment {edge}``; the opponent takes the opposite one); D3+2 objective markers are placed alternately
(``place_objective``; the marker roll-off winner first) outside the deployment zones and over 9" from each other;
the players alternate placing one unit each within 12" of their edge (``place_models``), the deployment roll-off
winner first; Ambush and Scout units may be set aside (``set_aside``): Scouts are placed last, Ambush units from
round 2 (decision ``ambush``). Each round the players alternate activating one unit (``activate``): a Shaken unit
stays idle and recovers; any other takes one action: Hold (``done``, may shoot), Advance (``move_models
advance``, may shoot after), Rush (``move_models rush``) or Charge (``declare_charge``: the rules move the models,
the defenders move up to 3", Counter weapons strike first, the charger strikes, the defender may ``strike_back``,
then the chargers move back 1" or, when a unit was destroyed, the other may ``move_models consolidate`` up to 3").
Shooting (``shoot``, up to two targets with different weapons). At the end of each round: morale of an army down
to half or less of its starting units, then the markers are seized; after 4 rounds most markers wins.

Special rules played: ``SPECIAL_RULES``; any other is refused when a scenario loads. Rulings: docs/rulings.md
"AoF Skirmish".
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from shapely import Point

from game.engine import activation_magic, magic
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
)
from game.engine.activation_order import first_of_next_round, listed_answers, offer_activation
from game.engine.attacks import succeeds
from game.engine.errors import IllegalAction, reports_illegal
from game.engine.events import Event, roll_event
from game.engine.profiles import Weapon
from game.engine.rulesets.base import GameHost, Handler, ListedUnit, Problem, Ruleset
from game.engine.skirmish import attacks, elevation, moves, push, spells
from game.engine.skirmish.loose import (
    UNIT_GAP,
    XY,
    Warband,
    all_points,
    base_in,
    base_radius,
    coherency_problem,
    free_spot,
    gap,
    has_command,
    height_at,
    models_killed,
    new_models,
    outline,
    pieces_with,
    points_of,
    sync_pose,
    unit_gap,
)
from game.engine.spell_effects import effect_modifiers
from game.engine.state import GameState, MoveAction, Objective, Pending, Phase, Removal, Step, Unit
from geometry.terrain import DANGEROUS, IMPASSABLE

ID = "aof-skirmish"
SPECIAL_RULES = frozenset({
    "Ambush", "AP", "Bane", "Blast", "Caster", "Counter", "Deadly", "Fast", "Fear", "Fearless", "Flying", "Furious",
    "Hero", "Immobile", "Impact", "Indirect", "Limited", "Regeneration", "Relentless", "Reliable", "Rending", "Scout",
    "Slow", "Stealth", "Strider", "Surge", "Thrust", "Tough", "Unstoppable",
})
"""The "Special Rules Reference" rules this ruleset plays (Caster(X): its army's spells that target a unit,
``game.engine.skirmish.spells``); other books' rules are refused when a scenario loads (``AoFSkirmish.rule_hints``).
"""
TERRAIN_TRAITS = frozenset({"impassable", "blocking", "cover", "difficult", "dangerous", "see_into_not_through",
                            "elevated"})
"""Terrain as played here. ``elevated`` pieces are ground models stand on, their top at the piece's ``height``
("Special Movement": Jumping, Falling; "Melee": 4" vertical reach; ``game.engine.skirmish.elevation``)."""
DECISIONS = frozenset({"choose_deployment", "place_objective", "deploy", "ambush", "activate", "action", "shoot",
                       "strike_back", "consolidate", "dispel", "push"})
"""The ``pending`` decisions of an AoF: Skirmish game (docs/formats.md "AoF: Skirmish")."""
EDGES = ("south", "north", "west", "east")
"""Table edges a player may deploy on (south: y = 0, player 1's edge as the scenario lays it out)."""
OPPOSITE = {"south": "north", "north": "south", "west": "east", "east": "west"}
ZONE_DEPTH = 12.0
""""Deployment": within 12" of their table edge."""
MARKER_SPACING = 9.0
""""Mission": markers over 9" away from each other."""
SCOUT_REACH = 12.0
"""Scout: "deployed anywhere fully within 12" of their deployment zone"."""
AMBUSH_DISTANCE = 9.0
"""Ambush: "deployed anywhere over 9" away from enemy units"."""
MARKER_REACH = 3.0
""""Mission": a unit within 3" of a marker seizes it."""
HERO_REACH = 12.0
"""Hero: friendly units within 12" may take morale tests using the hero's Quality."""
FEARLESS_NEED = 4
"""Fearless: a failed morale test counts as passed on a 4+."""


def zone_gap(edge: str, width: float, depth: float, p: XY, r: float) -> float:
    """Inches the far side of a base at ``p`` stands from ``edge`` (within the zone when <= 12")."""
    x, y = p
    return {"south": y + r, "north": depth - y + r, "west": x + r, "east": width - x + r}[edge]


_VERB = {"consolidate": "moves", "rush": "rushes"}
"""The log's verb of a move whose action name does not take a plain "s" (a consolidation is logged as a move)."""

class AoFSkirmish(Ruleset):
    """Age of Fantasy: Skirmish for one ``Game``."""

    id: ClassVar[str] = ID
    title: ClassVar[str] = "Age of Fantasy: Skirmish"
    short_title: ClassVar[str] = "AoF: Skirmish"
    activation_words: ClassVar[tuple[str, str]] = ("this round", "round")
    morale_states: ClassVar[Mapping[str, str]] = {"shaken": "Shaken", "routed": "Rout"}
    special_rules: ClassVar[frozenset[str] | None] = SPECIAL_RULES
    rule_hints: ClassVar[Mapping[str, str]] = {"Wizard": "Wizard(X) is AoF:R 2.16's; AoF: Skirmish writes Caster(X)"}
    upgrades: ClassVar[frozenset[str] | None] = frozenset({"sergeant", "musician", "banner"})
    terrain_traits: ClassVar[frozenset[str] | None] = TERRAIN_TRAITS
    missions: ClassVar[frozenset[str] | None] = frozenset({"standard"})
    optional_rules: ClassVar[bool] = False
    side_missions: ClassVar[bool] = False
    all_models_shoot: ClassVar[bool] = True
    shaken_text: ClassVar[str | None] = ("Shaken: +1 to wound effect rolls, stays idle (its next activation "
                                         "recovers), strikes back as fatigued, fails morale tests, can't seize or "
                                         "contest objectives")
    mission_text: ClassVar[str | None] = ("D3+2 markers placed by the players, seized at the end of each round; "
                                          "after 4 rounds the player who controls most markers wins")
    rule_texts: ClassVar[Mapping[str, str]] = {
        "Ambush": "May be set aside before deployment; from round 2 it may deploy anywhere over 9\" from enemy units "
                  "(it can't seize or contest markers that round).",
        "Fast": "+2\" when it Advances, +4\" when it Rushes or Charges.",
        "Slow": "-2\" when it Advances, -4\" when it Rushes or Charges.",
        "Fear": "In melee it counts as having dealt +X wounds for the wound effect roll (if it dealt one).",
        "Fearless": "A failed morale test is passed on a 4+.",
        "Hero": "Friendly units within 12\" may test morale with its Quality while it isn't Shaken.",
        "Impact": "When it attacks after charging (not fatigued), each striking model rolls X dice: each 2+ is a hit.",
        "Furious": "When charging, unmodified 6s to hit in melee deal 1 extra hit.",
        "Regeneration": "When it takes wounds (all models have it), each is ignored on a 5+.",
        "Stealth": "Enemies shooting it from over 9\" get -1 to hit (all models have it).",
        "Strider": "Ignores difficult terrain when moving.",
        "Scout": "May be set aside and deployed after all other units, anywhere fully within 12\" of its deployment "
                 "zone.",
        "Flying": "Moves through units and terrain and ignores terrain effects whilst moving.",
        "Tough": "Rolls for wound effects only once it has X wound markers; Knocked Out on 5+X.",
        "Immobile": "May only Hold.",
        "Caster": "Gets X spell tokens each round (holds at most 6); before attacking it may try each spell once, "
                  "paying its value: 4+ to cast on a target in line of sight. Casters within 18\" in line of sight "
                  "may add tokens: +1 each (friends), -1 each (enemies).",
        "Blast": "Ignores cover; each hit becomes up to X hits (at most the enemy models in the target and within 3\" "
                 "of it), split evenly between the target and the enemy units within 3\" of it.",
    }
    units_score: ClassVar[bool] = False
    setup_refusal: ClassVar[str | None] = ("the battle set-up builds armies of regiments; start a skirmish from its "
                                           "scenarios in the main menu (Crossroads Shrine, Burnt Village)")
    score_words: ClassVar[tuple[str, str]] = ("objective markers held", "markers")
    decisions: ClassVar[frozenset[str] | None] = DECISIONS
    start_phases: ClassVar[frozenset[str] | None] = frozenset({Phase.DEPLOYMENT.value, Phase.ACTIVATION.value})

    @classmethod
    def army_problems(cls, units: Sequence[ListedUnit], points: int, force_org: bool) -> list[Problem]:
        """"Command Groups": "Each army may only have one model with one of the following upgrades": past the
        first unit with an upgrade, every unit with one is refused, and so is a second upgrade on one unit
        (docs/rulings.md "AoF Skirmish": command models)."""
        out: list[Problem] = []
        first: ListedUnit | None = None
        for u in units:
            if len(u.upgrades) > 1:
                out.append((u.where + ("upgrades",), f"{u.profile.name} has {', '.join(sorted(u.upgrades))}: "
                            f"each army may only have one model with one command group upgrade (AoF: Skirmish "
                            f"\"Command Groups\")"))
            elif u.upgrades and first is not None:
                out.append((u.where + ("upgrades",), f"{u.profile.name} has {min(u.upgrades)}, but "
                            f"{first.profile.name} already has {min(first.upgrades)}: each army may only have one "
                            f"model with one command group upgrade (AoF: Skirmish \"Command Groups\")"))
            if u.upgrades and first is None:
                first = u
        return out

    @classmethod
    def spell_problem(cls, spell: Any) -> str | None:
        """"Caster(X)" with loose models: spells that target a unit, with hits, modifiers or rally
        (``game.engine.skirmish.spells.spell_problem``)."""
        return spells.spell_problem(spell)

    @classmethod
    def in_force_words(cls, state: GameState, unit: Unit) -> list[str]:
        """The unit card's words: the shared ones, then the Musician's and Banner's rules while the unit has them
        ("Command Groups": the unit carrying it and the units it picked)."""
        words = list(super().in_force_words(state, unit))
        for up, text in (("musician", "+1\" with Advance, Rush and Charge"), ("banner", "+1 to morale test rolls")):
            if has_command(state, unit, up):
                own = up in unit.upgrades
                words.append(f"{up.capitalize()} ({'its own' if own else 'picked'}): {text}")
        return words

    def __init__(self, game: GameHost) -> None:
        super().__init__(game)

    @property
    def w(self) -> Warband:
        """The warband state (``GameState.activation``)."""
        a = self.state.activation
        if not isinstance(a, Warband):
            raise IllegalAction("Game Structure", "this game has no loose models")
        return a

    # --- start ------------------------------------------------------------------------------------------------
    def start(self) -> list[Event]:
        """Deployment (edges, markers, units) or the scenario's round, its player activating first."""
        s = self.state
        if not isinstance(s.activation, Warband):
            s.activation = Warband()
        w = self.w
        w.starting_units = {p: sum(1 for u in s.units.values() if u.player == p) for p in (1, 2)}
        for u in s.units.values():
            if w.models.get(u.id):
                sync_pose(s, u)
        if s.phase is not Phase.DEPLOYMENT:
            return self._begin_round(s.active_player)
        winner, events = self._roll_off("Deployment roll-off")
        w.roll_off = winner
        w.stage = "choose_deployment"
        s.step = Step.CHOOSE_DEPLOYMENT
        s.pending = Pending(winner, "choose_deployment", None, EDGES)
        return events

    def _roll_off(self, purpose: str) -> tuple[int, list[Event]]:
        events = []
        while True:
            a, b = self.dice.d6(2, purpose)
            events.append(roll_event(purpose, [a, b], details=["player 1", "player 2"]))
            if a != b:
                winner = 1 if a > b else 2
                events.append(Event("info", f"{purpose}: player {winner} wins", {"player": winner}))
                return winner, events

    def handlers(self) -> Mapping[type[Action], Handler]:
        """Every action of an AoF: Skirmish game and the method answering it."""
        return {
            ChooseDeployment: self._choose_edge, PlaceObjective: self._place_objective, PlaceModels: self._place,
            SetAside: self._set_aside,
            Activate: self._activate, MoveModels: self._move, DeclareCharge: self._charge, Shoot: self._shoot,
            StrikeBack: self._strike_back, Done: self._done, CastSpell: self._cast, Dispel: self._block,
            PushModel: self._push,
        }

    def _expect(self, action: Action, *stages: str) -> Warband:
        self.check_turn(action)
        w = self.w
        if w.stage not in stages:
            raise IllegalAction("Activation", f"'{action.type}' is not possible now (waiting for: {w.stage})")
        return w

    # --- deployment ---------------------------------------------------------------------------------------------
    def _choose_edge(self, action: ChooseDeployment) -> list[Event]:
        w = self._expect(action, "choose_deployment")
        edge = action.edge or "south"
        if edge not in EDGES:
            raise IllegalAction("Deployment", f"a table edge is one of {', '.join(EDGES)}, not {edge!r}")
        s = self.state
        if min(s.table.width, s.table.depth) < 2 * ZONE_DEPTH + 24.0 - 1e-6:
            raise IllegalAction("The Battlefield", "armies must deploy at least 24\" apart")
        w.edges = {action.player: edge, 3 - action.player: OPPOSITE[edge]}
        events = [Event("deployment", f"Player {action.player} deploys on the {edge} edge, player "
                        f"{3 - action.player} on the {OPPOSITE[edge]} edge", {"edges": dict(w.edges)})]
        if s.mission == "standard" and not s.objectives:
            n = self.dice.d3("Mission: D3+2 objective markers") + 2
            events.append(Event("info", f"{n} objective markers to place", {"markers": n}))
            first, evs = self._roll_off("Objective markers roll-off")
            w.markers_left, w.placer, w.stage = n, first, "place_objective"
            s.step = Step.PLACE_OBJECTIVES
            s.pending = Pending(first, "place_objective")
            return events + evs
        return events + self._begin_deploy()

    def _in_zone(self, player: int, p: XY, r: float) -> bool:
        t = self.state.table
        return zone_gap(self.w.edges[player], t.width, t.depth, p, r) <= ZONE_DEPTH + 1e-6

    def check_marker(self, player: int, x: float, y: float) -> None:
        """Raises ``IllegalAction`` unless a marker may stand at (x, y) ("Mission": outside deployment zones, over
        9" from other markers, on the table and not in impassable terrain)."""
        s = self.state
        if not (0 <= x <= s.table.width and 0 <= y <= s.table.depth):
            raise IllegalAction("Mission", "the marker must be on the table")
        if any(self._in_zone(p, (x, y), 0.0) for p in (1, 2)):
            raise IllegalAction("Mission", "markers are placed outside of deployment zones")
        for o in s.objectives:
            if math.hypot(o.x - x, o.y - y) <= MARKER_SPACING + 1e-6:
                raise IllegalAction("Mission", f"markers are placed over {MARKER_SPACING:g}\" away from each other")
        for piece in pieces_with(s, IMPASSABLE):
            if outline(piece).contains(Point(x, y)):
                raise IllegalAction("Mission", f"the marker can't stand on {piece.name} (impassable)")

    def _place_objective(self, action: PlaceObjective) -> list[Event]:
        w = self._expect(action, "place_objective")
        self.check_marker(action.player, action.x, action.y)
        s = self.state
        s.objectives.append(Objective(action.x, action.y, placed_by=action.player))
        w.markers_left -= 1
        events = [Event("objective", f"Player {action.player} places an objective marker at ({action.x:.1f}, "
                        f"{action.y:.1f})", {"x": action.x, "y": action.y, "player": action.player})]
        if w.markers_left > 0:
            w.placer = 3 - action.player
            s.pending = Pending(w.placer, "place_objective")
            return events
        return events + self._begin_deploy()

    def _begin_deploy(self) -> list[Event]:
        w, s = self.w, self.state
        w.stage = "deploy"
        s.step = Step.DEPLOY
        return self._next_deploy(w.roll_off)

    def _to_deploy(self, player: int) -> list[str]:
        """The player's units to place now: those not set aside, or once they are all placed, its Scout units."""
        w = self.w
        if w.scouting:
            return [u for u in w.scouts if self.state.units[u].player == player]
        return [u.id for u in self.state.units.values() if u.player == player and u.removed is None
                and not w.models.get(u.id) and u.id not in w.ambush and u.id not in w.scouts]

    def _aside_rule(self, action: SetAside) -> tuple[Unit, str]:
        """The unit and the rule (Ambush or Scout) it is set aside by; raises ``IllegalAction``."""
        w = self._expect(action, "deploy")
        unit = self.own_unit(action)
        rules = [r for r in ("Ambush", "Scout") if unit.has(r)]
        if action.rule is not None:
            rules = [r for r in rules if r == action.rule]
        if not rules:
            raise IllegalAction(action.rule or "Ambush", f"{unit.name} has no {action.rule or 'Ambush or Scout'}")
        if len(rules) > 1:
            raise IllegalAction("Ambush", f"{unit.name} has Ambush and Scout: name the rule (rule: Ambush or Scout)")
        if w.scouting or unit.id not in self._to_deploy(action.player):
            raise IllegalAction(rules[0], f"{unit.name} is already deployed or set aside")
        return unit, rules[0]

    def _set_aside(self, action: SetAside) -> list[Event]:
        """Ambush, Scout: "May be set aside before deployment": while it is the player's turn to place a unit, such a
        unit not placed yet is set aside; the same player then places a unit (docs/rulings.md)."""
        unit, rule = self._aside_rule(action)
        w = self.w
        (w.ambush if rule == "Ambush" else w.scouts).append(unit.id)
        return [Event("set_aside", f"{unit.name} is set aside ({rule})", {"unit": unit.id, "rule": rule})] + \
            self._next_deploy(action.player)

    def _next_deploy(self, player: int) -> list[Event]:
        """The next placement: ``player`` if it has a unit left, else the other; then the Scout units ("After all
        other units are deployed ... Players alternate in placing Scout units, starting with the player that
        activates next"); then round 1."""
        s, w = self.state, self.w
        for p in (player, 3 - player):
            left = self._to_deploy(p)
            if left:
                s.active_player = p
                s.pending = Pending(p, "deploy", None, tuple(left))
                return []
        if w.scouts and not w.scouting:
            w.scouting = True
            return [Event("info", "Scout units deploy", {"scouts": list(w.scouts)})] + self._next_deploy(w.roll_off)
        w.scouting = False
        s.round = 1
        return self._begin_round(w.roll_off)

    def _check_place(self, action: PlaceModels) -> tuple[Unit, list[XY]]:
        w = self._expect(action, "deploy", "ambush")
        unit = self.own_unit(action)
        ambush = w.stage == "ambush"
        if w.models.get(unit.id):
            raise IllegalAction("Deployment", f"{unit.name} is already deployed")
        if ambush and unit.id not in w.ambush:
            raise IllegalAction("Ambush", f"{unit.name} is not waiting in Ambush")
        if not ambush and unit.id not in self._to_deploy(unit.player):
            raise IllegalAction("Deployment", f"{unit.name} is set aside: it deploys "
                                + ("from round 2 on" if unit.id in w.ambush else "after the other units"))
        pts = [(p.x, p.y) for p in action.positions]
        if len(pts) != unit.models:
            raise IllegalAction("Deployment", f"{unit.name} has {unit.models} models; {len(pts)} points given")
        r = base_radius(unit.profile)
        others = all_points(self.state)
        others[unit.id] = pts
        for i, p in enumerate(pts):
            if ambush:
                for enemy in self.state.enemies_of(unit.player):
                    re_ = base_radius(enemy.profile)
                    if any(gap(p, r, q, re_) <= AMBUSH_DISTANCE + 1e-6 for q in points_of(self.state, enemy.id)):
                        raise IllegalAction("Ambush", f"model {i + 1} of {unit.name} must be placed over 9\" away "
                                            f"from enemy units ({enemy.name} is nearer)")
            elif w.scouting:
                t = self.state.table
                if zone_gap(w.edges[unit.player], t.width, t.depth, p, r) > ZONE_DEPTH + SCOUT_REACH + 1e-6:
                    raise IllegalAction("Scout", f"model {i + 1} of {unit.name} must be placed fully within 12\" of "
                                        "its deployment zone")
            elif not self._in_zone(unit.player, p, r):
                raise IllegalAction("Deployment", f"model {i + 1} of {unit.name} must be placed within 12\" of "
                                    f"the {w.edges[unit.player]} table edge")
            why = free_spot(self.state, unit.id, i, p, r, others)
            if why is not None:
                raise IllegalAction("Deployment", f"model {i + 1} of {unit.name} would stand {why}")
        why = coherency_problem(pts, r)
        if why is not None:
            raise IllegalAction("Movement", f"{unit.name} must be placed in coherency: {why}")
        for uid, q in others.items():
            if uid != unit.id:
                other = self.state.units[uid]
                ro = base_radius(other.profile)
                if min(gap(a, r, b, ro) for a in pts for b in q) < 1.0 - 1e-3:
                    raise IllegalAction("Movement", f"{unit.name} would stand within 1\" of {other.name}")
        return unit, pts

    @reports_illegal
    def check_deploy(self, action: Action) -> None:
        """Why a proposed deployment action is illegal, or None (nothing changes)."""
        if isinstance(action, PlaceModels):
            self._check_place(action)
        elif isinstance(action, SetAside):
            self._aside_rule(action)
        elif isinstance(action, PlaceObjective):
            self._expect(action, "place_objective")
            self.check_marker(action.player, action.x, action.y)
        else:
            self.game.clone().apply(action)    # Ruleset.check's way: the action tried on a clone

    def _place(self, action: PlaceModels) -> list[Event]:
        unit, pts = self._check_place(action)
        w = self.w
        w.models[unit.id] = new_models(unit, pts)
        sync_pose(self.state, unit)
        if w.stage == "ambush":
            w.ambush.remove(unit.id)
            w.arrived[unit.id] = self.state.round
            events = [Event("deploy", f"{unit.name} arrives from Ambush", {"unit": unit.id, "ambush": True,
                                                                            "positions": [list(p) for p in pts]})]
            return events + self._next_ambush(3 - action.player)
        if w.scouting:
            w.scouts.remove(unit.id)
        events = [Event("deploy", f"{unit.name} deploys", {"unit": unit.id, "positions": [list(p) for p in pts]})]
        return events + self._next_deploy(3 - action.player)

    def _waiting(self, player: int) -> list[str]:
        return [u for u in self.w.ambush if self.state.units[u].player == player
                and self.state.units[u].removed is None]

    def _next_ambush(self, player: int) -> list[Event]:
        """Ambush: "At the start of any round after the first ... Players alternate in placing Ambush units,
        starting with the player that activates next"; a player who answers ``done`` places none this round."""
        s, w = self.state, self.w
        for p in (player, 3 - player):
            if p not in w.ambush_passed and self._waiting(p):
                w.stage = "ambush"
                s.active_player = p
                s.pending = Pending(p, "ambush", None, tuple(self._waiting(p)))
                return []
        return self._next_activation(w.first)

    # --- rounds -------------------------------------------------------------------------------------------------
    def _begin_round(self, first: int) -> list[Event]:
        s, w = self.state, self.w
        s.phase, s.step = Phase.ACTIVATION, Step.ACTIVATION
        s.first_player = first
        w.first, w.activated, w.finished_first, w.fatigued = first, [], None, []
        for u in s.units.values():
            u.reset_turn_flags()
        events = [Event("phase", f"Round {s.round}: player {first} activates first", {"round": s.round,
                                                                                      "player": first})]
        # "Caster(X)": last round's spells end, then "Gets X spell tokens at the start of each round" (at most 6)
        events += magic.expire_effects(s) + magic.start_of_round(s, Phase.ACTIVATION)
        w.ambush_passed = []
        if s.round >= 2 and w.ambush:
            return events + self._next_ambush(first)
        return events + self._next_activation(first)

    def _eligible(self, player: int) -> list[str]:
        done = set(self.w.activated)
        return [u.id for u in self.state.units_of(player) if u.id not in done]

    def _next_activation(self, player: int) -> list[Event]:
        s, w = self.state, self.w
        w.unit, w.stage, w.melee, w.fired, w.targets = None, "activate", [], [], []
        offered, w.finished_first = offer_activation(s, player, self._eligible, w.finished_first)
        return [] if offered else self._end_round()

    def _end_round(self) -> list[Event]:
        s, w = self.state, self.w
        events = self._morale() + self._seize()
        if s.round >= s.rounds or not self._army(1) or not self._army(2):
            return events + self._end_game()
        s.round += 1
        return events + self._begin_round(first_of_next_round(w.finished_first, w.first))

    def _end_game(self) -> list[Event]:
        s = self.state
        s.game_over = True
        s.pending = None
        held = self.victory_points()
        verdict = "the game is a draw" if held[1] == held[2] else f"player {1 if held[1] > held[2] else 2} wins"
        return [Event("victory", f"Game over after round {s.round}: {held[1]} to {held[2]} objective markers, "
                      f"{verdict}", {"victory_points": {"1": held[1], "2": held[2]}})]

    def victory_points(self) -> dict[int, int]:
        """"Mission": the objective markers each player controls."""
        out = {1: 0, 2: 0}
        for o in self.state.objectives:
            if o.controller in out:
                out[o.controller] += 1
        return out

    def victory_breakdown(self) -> dict[int, list[tuple[str, int]]]:
        """One line per player: the markers controlled."""
        return {p: [("objective markers", v)] for p, v in self.victory_points().items()}

    def _seize(self) -> list[Event]:
        """"Mission": a unit within 3" of a marker while enemies aren't seizes it; units from both sides make it
        neutral; Shaken units can't seize or contest."""
        s = self.state
        events = []
        for i, o in enumerate(s.objectives):
            near = set()
            for u in s.units.values():
                if not u.on_table or u.shaken or self.w.arrived.get(u.id) == s.round:
                    continue        # Shaken, or deployed via Ambush this round: can't seize or contest
                r = base_radius(u.profile)
                if any(math.hypot(x - o.x, y - o.y) - r <= MARKER_REACH + 1e-6 for x, y in points_of(s, u.id)):
                    near.add(u.player)
            before = o.controller
            if len(near) == 2:
                o.controller = None
            elif len(near) == 1:
                o.controller = near.pop()
            if o.controller != before:
                who = "neutral" if o.controller is None else f"held by player {o.controller}"
                events.append(Event("objective", f"Objective marker {i + 1} is now {who}",
                                    {"marker": i, "controller": o.controller}))
        return events

    def _morale(self) -> list[Event]:
        """"Morale": an army down to half or less of its starting units tests with every unit (a Quality test;
        failed: Shaken; already Shaken: routs). Shaken units always fail; Fearless: a failed test passes on 4+;
        Hero: within 12" of a friendly Hero that isn't Shaken, use its Quality."""
        s, w = self.state, self.w
        events: list[Event] = []
        for p in (1, 2):
            left = len(self._army(p))
            start = w.starting_units.get(p, 0)
            if not left or left * 2 > start:
                continue
            events.append(Event("morale", f"Player {p}'s army is down to {left} of {start} units: every unit "
                                "takes a morale test", {"player": p}))
            for u in list(s.units_of(p)):
                quality, who = self._morale_quality(u)
                passed = False
                if u.shaken:
                    events.append(Event("morale", f"{u.name} is Shaken and fails its morale test", {"unit": u.id}))
                else:
                    roll = self.dice.one(f"{u.name} morale test")
                    banner = 1 if has_command(s, u, "banner") else 0     # "Command Groups": +1 to the roll
                    cast = effect_modifiers(u, "morale")      # spells cast this round (game.engine.magic)
                    mod = banner + sum(m.value for m in cast)
                    passed = succeeds(roll, quality, mod)
                    events.append(roll_event(f"{u.name} morale test", [roll], quality, mod, int(passed),
                                             [f"Quality {quality}+{who}"] + (["+1 Banner"] if banner else [])
                                             + [str(m) for m in cast]))
                if not passed and u.has("Fearless"):
                    roll = self.dice.one(f"{u.name} Fearless")
                    passed = roll >= FEARLESS_NEED
                    events.append(roll_event(f"{u.name} Fearless", [roll], FEARLESS_NEED, 0, int(passed)))
                if passed:
                    continue
                if u.shaken:
                    events.append(Event("rout", f"{u.name} routs", {"unit": u.id}))
                    models_killed(s, u, w.models[u.id])     # a Musician or Banner that routs is lost too
                    w.models[u.id] = []
                    s.remove(u, Removal.ROUTED)
                else:
                    u.shaken = True
                    events.append(Event("shaken", f"{u.name} is Shaken", {"unit": u.id}))
        return events

    def _army(self, player: int) -> list[Unit]:
        """The player's units still in the game: on the table or waiting in Ambush."""
        return [u for u in self.state.units.values() if u.player == player and u.removed is None]

    def _morale_quality(self, unit: Unit) -> tuple[int, str]:
        best, who = unit.profile.quality, ""
        for h in self.state.units_of(unit.player):
            if h.has("Hero") and not h.shaken and h.profile.quality < best and \
                    (h is unit or unit_gap(self.state, unit, h) <= HERO_REACH):
                best, who = h.profile.quality, f" ({h.name}'s, Hero)"
        return best, who

    # --- activations --------------------------------------------------------------------------------------------
    def _unit_now(self, action: Any, w: Warband) -> Unit:
        unit = self.own_unit(action)
        if unit.id != w.unit:
            raise IllegalAction("Activation", f"{self.state.units[w.unit].name if w.unit else 'no unit'} is "
                                "being activated")
        return unit

    def _activate(self, action: Activate) -> list[Event]:
        w = self._expect(action, "activate")
        unit = self.own_unit(action)
        if unit.id not in self._eligible(action.player):
            raise IllegalAction("Activation", f"{unit.name} has already activated this round")
        w.activated.append(unit.id)
        w.unit = unit.id
        events = [Event("activate", f"{unit.name} activates", {"unit": unit.id})]
        events += self._dangerous(unit, list(range(unit.models)), activating=True)
        if not unit.on_table:
            return events + self._end_activation()
        if unit.shaken:
            unit.shaken = False
            return events + [Event("rally", f"{unit.name} stays idle and is no longer Shaken",
                                   {"unit": unit.id})] + self._end_activation()
        w.stage = "action"
        self.state.pending = Pending(action.player, "action", unit.id)
        return events

    def _dangerous(self, unit: Unit, indices: list[int], activating: bool) -> list[Event]:
        """"Dangerous Terrain": each model moving across it, or activating in it, rolls one die (as many as its
        Tough value); each 1 is a wound."""
        if moves.ignores_terrain(unit) and not activating:
            return []
        pieces = pieces_with(self.state, DANGEROUS)
        if not pieces:
            return []
        r = base_radius(unit.profile)
        pts = points_of(self.state, unit.id)
        if activating:
            indices = [i for i, p in enumerate(pts) if any(base_in(t, p, r) for t in pieces)]
        if not indices:
            return []
        n = len(indices) * unit.tough
        rolls = self.dice.d6(n, f"{unit.name} dangerous terrain")
        wounds = sum(1 for d in rolls if d == 1)
        events = [roll_event(f"{unit.name} dangerous terrain", rolls, 2, 0, len(rolls) - wounds, wounds=wounds)]
        return events + attacks.take_wounds(self.state, self.dice, unit, wounds, pts[indices[0]])

    def _end_activation(self) -> list[Event]:
        s, w = self.state, self.w
        player = s.units[w.unit].player if w.unit else s.active_player
        return self._next_activation(3 - player)

    def _put(self, unit: Unit, pts: list[XY]) -> None:
        """Move the models of ``unit`` to ``pts``; a unit whose casualties broke its coherency is coherent again
        once its models stand in coherency."""
        w = self.w
        for m, (x, y) in zip(w.models[unit.id], pts, strict=True):
            m.x, m.y = x, y
        sync_pose(self.state, unit)
        if unit.id in w.incoherent and coherency_problem(pts, base_radius(unit.profile)) is None:
            w.incoherent.remove(unit.id)
        self._prune_pairs()

    def _prune_pairs(self) -> None:
        """Forget pairs of units left close after a melee once they stand 1" apart or one is gone."""
        s, w = self.state, self.w
        w.close_pairs = [[a, b] for a, b in w.close_pairs if s.units[a].on_table and s.units[b].on_table
                         and unit_gap(s, s.units[a], s.units[b]) < UNIT_GAP - 1e-3]

    def _note_close(self, unit: Unit) -> None:
        """Remember every unit ``unit`` was left within 1" of after a melee (the charge and the defenders' move may
        end near friends; the chargers may not be able to move back)."""
        s, w = self.state, self.w
        for other in s.units.values():
            if other.id != unit.id and other.on_table and unit_gap(s, unit, other) < UNIT_GAP - 1e-3 and \
                    other.id not in w.partners(unit.id):
                w.close_pairs.append(sorted([unit.id, other.id]))

    # --- moving -------------------------------------------------------------------------------------------------
    def _validate_move(self, action: MoveModels) -> tuple[Unit, list[XY], moves.MoveReport]:
        w = self.state.activation
        self.check_turn(action)
        if not isinstance(w, Warband):
            raise IllegalAction("Game Structure", "this game has no loose models")
        pts = [(p.x, p.y) for p in action.positions]
        if action.action == "consolidate":
            self._expect(action, "consolidate")
            unit = self.own_unit(action)
            pending = self.state.pending
            if pending is None or pending.unit != unit.id:
                raise IllegalAction("Melee", "only the unit left standing may move after the melee")
            report = moves.check_move(self.state, unit, pts, moves.CONSOLIDATE, allowed_near=w.partners(unit.id))
            return unit, pts, report
        self._expect(action, "action")
        unit = self._unit_now(action, w)
        if unit.has("Immobile"):
            raise IllegalAction("Immobile", f"{unit.name} may only use Hold actions")
        limit = moves.allowance(self.state, unit, action.action)
        report = moves.check_move(self.state, unit, pts, limit, allowed_near=w.partners(unit.id))
        return unit, pts, report

    @reports_illegal
    def check_move_models(self, action: MoveModels) -> None:
        """Why a proposed ``move_models`` is illegal, or None (nothing changes): the window asks while dragging."""
        self._validate_move(action)

    def _move(self, action: MoveModels) -> list[Event]:
        unit, pts, report = self._validate_move(action)
        moved = list(self.w.models[unit.id])
        self._put(unit, pts)
        jumped = f", {len(report.jumps)} jump{'s' if len(report.jumps) != 1 else ''}" if report.jumps else ""
        events = [Event("move", f"{unit.name} {_VERB.get(action.action, action.action + 's')} "
                        f"(up to {report.longest:.1f}\"{jumped})", {"unit": unit.id, "action": action.action,
                                                                    "positions": [list(p) for p in pts]})]
        fell = 0
        if report.jumps:
            # "Jumping": the dice of every jump, model order then path order; a failed jump falls ("Falling")
            evs, fell = elevation.make_jumps(self.state, self.dice, unit, report.jumps)
            events += evs
            self._note_fallen(unit)
        living = self.w.models.get(unit.id, [])
        crossed = [k for k, m in enumerate(living) if any(m is moved[i] for i in report.dangerous)]
        if unit.on_table:
            events += self._dangerous(unit, crossed, activating=False)
        if action.action == "consolidate":
            return events + self._end_activation()
        unit.move_action = MoveAction.ADVANCE if action.action == "advance" else MoveAction.RUSH
        if fell and unit.on_table:
            # "Falling": "its activation ends immediately"
            return events + [Event("info", f"{unit.name}'s activation ends: a model fell", {"unit": unit.id})] + \
                self._end_activation()
        if action.action == "advance" and unit.on_table:
            return events + self._to_shoot(unit)
        return events + self._end_activation()

    def _note_fallen(self, unit: Unit) -> None:
        """After falls: the unit's coherency (a killed or displaced model may break it: its next move restores it)
        and the units a fallen model landed within 1" of (``close_pairs``)."""
        w = self.w
        pts = points_of(self.state, unit.id)
        if unit.on_table and coherency_problem(pts, base_radius(unit.profile)) is not None and \
                unit.id not in w.incoherent:
            w.incoherent.append(unit.id)
        if unit.on_table:
            self._note_close(unit)
        self._prune_pairs()

    # --- shooting -----------------------------------------------------------------------------------------------
    def _unfired(self, unit: Unit) -> list[Weapon]:
        """Ranged weapons not fired this activation (nor, Limited, this game)."""
        return [wp for wp in unit.profile.ranged_weapons if wp.name not in self.w.fired
                and not (wp.has("Limited") and wp.name in unit.limited_used)]

    def _to_shoot(self, unit: Unit) -> list[Event]:
        """After Hold or Advance: shoot, or cast ("At any point before attacking"), else the activation ends."""
        if self.shooting_targets(unit.id) or self.activation_casts(unit.player):
            self.w.stage = "shoot"
            self.state.pending = Pending(unit.player, "shoot", unit.id)
            return []
        return self._end_activation()

    def decision_options(self) -> list[Action] | None:
        """The discrete answers to a round's decisions (docs/formats.md "AoF: Skirmish"): ``activate`` each unit not
        activated yet; ``action`` Hold (``done``) or charge each valid target (Advance and Rush are model positions:
        ``units_to_move``, ``check_move_models``); ``shoot`` each valid target, or done; ``strike_back`` or not;
        ``consolidate`` stay (its moves are positions). None for the set-up decisions (edges, markers, placing,
        Ambush: their answers are positions) and for any decision not listed here."""
        s = self.state
        p, w = s.pending, s.activation
        if p is None or not isinstance(w, Warband) or s.phase is not Phase.ACTIVATION:
            return None
        return listed_answers(p, self.charge_targets, self.shooting_targets, ("consolidate",))

    def shooting_targets(self, unit_id: str, nearest: bool = False) -> list[str]:
        """Enemy units ``unit_id`` may shoot now (a weapon not fired yet has a model in range and sight of them;
        a third target is not allowed); ``nearest``: only the nearest of them (``loose.unit_gap``, then id)."""
        w = self.state.activation
        if not isinstance(w, Warband) or w.unit != unit_id or w.stage not in ("shoot", "action"):
            return []
        unit = self.state.units[unit_id]
        enemies = [e for e in self.state.enemies_of(unit.player) if len(w.targets) < 2 or e.id in w.targets]
        if nearest:
            enemies.sort(key=lambda e: (unit_gap(self.state, unit, e), e.id))
        out = []
        for enemy in enemies:
            if any(attacks.in_range(self.state, unit, enemy, wp) for wp in self._unfired(unit)):
                out.append(enemy.id)
                if nearest:
                    break
        return out

    def _shoot(self, action: Shoot) -> list[Event]:
        w = self._expect(action, "shoot")
        unit = self._unit_now(action, w)
        target = self.state.units.get(action.target)
        if target is None or not target.on_table or target.player == unit.player:
            raise IllegalAction("Shooting", f"{action.target!r} is not an enemy unit on the table")
        if target.id in w.targets:
            raise IllegalAction("Shooting", f"{unit.name} already shot at {target.name}; a second target takes "
                                "the other weapon types")
        if len(w.targets) >= 2:
            raise IllegalAction("Shooting", "models may fire at up to two different targets")
        unfired = self._unfired(unit)
        if action.weapons is None:
            weapons = [wp for wp in unfired if attacks.in_range(self.state, unit, target, wp)]
        else:
            names = [wp.name for wp in unit.profile.ranged_weapons]
            weapons = []
            for name in action.weapons:
                if name not in names:
                    raise IllegalAction("Shooting", f"{unit.name} has no ranged weapon {name!r}")
                if name in w.fired:
                    raise IllegalAction("Shooting", f"{name} has already fired this activation")
                if name in unit.limited_used and unit.profile.weapon(name).has("Limited"):
                    raise IllegalAction("Limited", f"{name} may only be used once per game")
                weapons.append(unit.profile.weapon(name))
        if not weapons or not any(attacks.in_range(self.state, unit, target, wp) for wp in weapons):
            raise IllegalAction("Shooting", f"no model of {unit.name} has {target.name} in range and line of "
                                "sight")
        w.targets.append(target.id)
        w.fired += [wp.name for wp in weapons]
        unit.limited_used |= {wp.name for wp in weapons if wp.has("Limited")}
        events = attacks.shoot(self.state, self.dice, unit, target, weapons,
                               moved=unit.move_action is MoveAction.ADVANCE)
        return self._with_pushes(events, unit.player, "shoot")

    def _shoot_next(self) -> list[Event]:
        """After a shot: another target, else the activation ends."""
        w = self.w
        unit = self.state.units[w.unit] if w.unit else None
        if unit is not None and unit.on_table:
            w.stage = "shoot"
            if self.shooting_targets(unit.id):
                self.state.pending = Pending(unit.player, "shoot", unit.id)
                return []
        return self._end_activation()

    # --- charging and melee -------------------------------------------------------------------------------------
    def charge_targets(self, unit_id: str) -> list[str]:
        """Enemy units ``unit_id`` may charge now: one of its models within charge distance."""
        w = self.state.activation
        if not isinstance(w, Warband) or w.unit != unit_id or w.stage != "action":
            return []
        unit = self.state.units[unit_id]
        if unit.has("Immobile"):
            return []
        limit = moves.allowance(self.state, unit, "charge")
        out = []
        for e in self.state.enemies_of(unit.player):
            if unit_gap(self.state, unit, e) <= limit:
                try:
                    self._charge_plan(unit, e)
                except IllegalAction:
                    continue
                out.append(e.id)
        return out

    def units_to_move(self, player: int) -> list[str]:
        """The unit being activated, while it may still take its action."""
        w = self.state.activation
        if isinstance(w, Warband) and w.stage == "action" and w.unit is not None and \
                self.state.units[w.unit].player == player and not self.state.units[w.unit].has("Immobile"):
            return [w.unit]
        return []

    def _charge_plan(self, unit: Unit, target: Unit) -> tuple[list[XY], moves.MoveReport]:
        """Where the charging models of ``unit`` end against ``target`` ("Melee", "Difficult Terrain": 6" at most
        when a model's path crosses it), raising ``IllegalAction`` when no model is within charge distance."""
        s = self.state
        limit = moves.allowance(self.state, unit, "charge")
        end = moves.charge_positions(s, unit, target, limit)
        if not unit.has("Strider") and not moves.ignores_terrain(unit) and limit > moves.DIFFICULT_CAP and \
                moves.crosses_difficult(s, unit, points_of(s, unit.id), end):
            limit = moves.DIFFICULT_CAP
            try:
                end = moves.charge_positions(s, unit, target, limit)
            except IllegalAction as e:
                raise IllegalAction("Difficult Terrain", f"{e.message}: the charge crosses difficult terrain") \
                    from None
        return end, moves.check_move(s, unit, end, limit, charging=True, coherent=unit.id not in self.w.incoherent,
                                     jumping=False)

    def _charge(self, action: DeclareCharge) -> list[Event]:
        w = self._expect(action, "action")
        unit = self._unit_now(action, w)
        if unit.has("Immobile"):
            raise IllegalAction("Immobile", f"{unit.name} may only use Hold actions")
        target = self.state.units.get(action.target)
        if target is None or not target.on_table or target.player == unit.player:
            raise IllegalAction("Melee", f"{action.target!r} is not an enemy unit on the table")
        s = self.state
        end, report = self._charge_plan(unit, target)
        unit.move_action = MoveAction.CHARGE
        self._put(unit, end)
        w.melee = [unit.id, target.id]
        events = [Event("charge", f"{unit.name} charges {target.name}", {"unit": unit.id, "target": target.id,
                                                                         "positions": [list(p) for p in end]})]
        events += self._dangerous(unit, list(report.dangerous), activating=False)
        if not unit.on_table:
            return events + self._end_activation()
        if not target.has("Immobile"):
            answer = moves.close_in(s, target, unit)
            if answer != points_of(s, target.id):
                self._put(target, answer)
                events.append(Event("move", f"{target.name} moves up to meet the charge",
                                    {"unit": target.id, "positions": [list(p) for p in answer]}))
        counter = [wp for wp in target.profile.melee_weapons if wp.has("Counter")]
        w.impact_cut = 0
        if counter and target.on_table and attacks.strikers(s, target, unit):
            # Counter: "Strikes first with this weapon when charged, and the charging unit gets -1 total Impact
            # rolls per model with Counter"
            w.impact_cut = target.models
            events.append(Event("melee", f"{target.name} strikes first (Counter)", {"unit": target.id}))
            first = attacks.strike(s, self.dice, target, unit, charging=False, fatigued=target.id in w.fatigued,
                                   weapons=counter)
            return events + self._with_pushes(first, target.player, "charger")
        return events + self._charger_strikes()

    def _charger_strikes(self) -> list[Event]:
        """"Melee": the charging models strike (after the Counter weapons struck first), then the charged unit may
        strike back."""
        s, w = self.state, self.w
        unit, target = (s.units[u] for u in w.melee)
        events: list[Event] = []
        if unit.on_table and target.on_table:
            events = attacks.strike(s, self.dice, unit, target, charging=True, fatigued=unit.id in w.fatigued,
                                    impact_penalty=w.impact_cut)
        if unit.id not in w.fatigued:
            w.fatigued.append(unit.id)
        return self._with_pushes(events, unit.player, "strike_back")

    def _offer_strike_back(self) -> list[Event]:
        """"Then defenders may choose to strike back, but don't have to" (decision ``strike_back``) while a model of
        theirs is within 2" of the chargers."""
        s, w = self.state, self.w
        unit, target = (s.units[u] for u in w.melee)
        if target.on_table and unit.on_table and self._strike_back_weapons(target) and \
                attacks.strikers(s, target, unit):
            w.stage = "strike_back"
            s.pending = Pending(target.player, "strike_back", target.id)
            return []
        return self._after_melee()

    def _strike_back(self, action: StrikeBack) -> list[Event]:
        w = self._expect(action, "strike_back")
        unit = self.own_unit(action)
        if len(w.melee) != 2 or unit.id != w.melee[1]:
            raise IllegalAction("Melee", "only the charged unit may strike back")
        charger = self.state.units[w.melee[0]]
        events = [Event("melee", f"{unit.name} strikes back", {"unit": unit.id})]
        hit = attacks.strike(self.state, self.dice, unit, charger, charging=False,
                             fatigued=unit.id in w.fatigued, weapons=self._strike_back_weapons(unit))
        if unit.id not in w.fatigued:
            w.fatigued.append(unit.id)
        return events + self._with_pushes(hit, unit.player, "after_melee")

    def _strike_back_weapons(self, unit: Unit) -> list[Weapon]:
        """The melee weapons a charged unit strikes back with: all but those that struck first (Counter)."""
        return [wp for wp in unit.profile.melee_weapons if not wp.has("Counter")
                and not (wp.has("Limited") and wp.name in unit.limited_used)]

    def _after_melee(self) -> list[Event]:
        """"If one of the units is destroyed, the other may move by up to 3", else chargers must move back and
        separate by 1" (if possible)"."""
        s, w = self.state, self.w
        charger, target = (s.units[u] for u in w.melee)
        if charger.on_table and target.on_table:
            end = moves.back_off(s, charger, target)
            if end is None:
                self._note_close(charger)
                self._note_close(target)
                return [Event("consolidate", f"{charger.name} cannot move back", {"unit": charger.id})] + \
                    self._end_activation()
            self._put(charger, end)
            self._note_close(charger)
            self._note_close(target)
            return [Event("consolidate", f"{charger.name} moves back", {"unit": charger.id, "kind": "back",
                                                                        "positions": [list(p) for p in end]})] + \
                self._end_activation()
        survivor = charger if charger.on_table else target if target.on_table else None
        if survivor is None:
            return self._end_activation()
        self._note_close(survivor)
        w.stage = "consolidate"
        s.pending = Pending(survivor.player, "consolidate", survivor.id)
        return []

    # --- "Caster(X)": tokens, spells within the activation (magic, activation_magic, skirmish.spells) -----------
    def activation_casts(self, player: int) -> list[CastSpell]:
        """"Caster(X)": the spells the activated caster of ``player`` may try now with its tokens ("At any point
        before attacking": before its action, or after Hold/Advance before it shoots), without extra tokens."""
        w = self.state.activation
        if not isinstance(w, Warband) or w.stage not in ("action", "shoot") or w.unit is None:
            return []
        unit = self.state.units[w.unit]
        if unit.player != player or (w.stage == "shoot" and w.targets):
            return []
        return activation_magic.token_cast_options(self.state, unit)

    def _casting_unit(self, action: CastSpell) -> Unit:
        w = self._expect(action, "action", "shoot")
        unit = self._unit_now(action, w)
        if w.stage == "shoot" and w.targets:
            raise IllegalAction("Caster(X)", f"{unit.name} has already shot: spells are cast \"at any point before "
                                "attacking\"")
        return unit

    @reports_illegal
    def check_magic(self, action: Action) -> None:
        """Why a proposed ``cast_spell`` or ``dispel`` is illegal now, or None (nothing changes)."""
        activation_magic.check_token_magic(self.state, action, self.check_turn, self._casting_unit,
                                           lambda a: self._expect(a, "dispel"))

    def _cast(self, action: CastSpell) -> list[Event]:
        """"Caster(X)": pay the spell's value (and ``boost``: tokens of friendly casters within 18" in line of
        sight, +1 each); the opponent may spend tokens of its casters in reach against it (decision ``dispel``, -1
        each), else it is rolled at once (4+)."""
        unit = self._casting_unit(action)
        w = self.w
        resume = w.stage
        events = magic.cast_spell(self.state, self.dice, action, in_activation=True)
        p = self.state.pending
        if p is not None and p.decision == "dispel":
            w.stage, w.resume = "dispel", resume
            return events
        w.resume = resume
        return self._with_pushes(events, unit.player, "cast")

    def _block(self, action: Dispel) -> list[Event]:
        """"Caster(X)": the opponent's tokens against the cast (-1 each; none: ``done``), then the roll."""
        self._expect(action, "dispel")
        cast = magic.magic_of(self.state).cast
        assert cast is not None
        events = magic.dispel(self.state, self.dice, action)
        return self._with_pushes(events, cast.player, "cast")

    def _after_cast(self) -> list[Event]:
        """Back to the activation where the cast was tried, or its end when the caster is gone or has nothing left
        to do after its move."""
        s, w = self.state, self.w
        unit = s.units[w.unit] if w.unit else None
        w.stage = w.resume or "action"
        if unit is None or not unit.on_table:
            return self._end_activation()
        if w.stage == "shoot" and not (self.shooting_targets(unit.id) or self.activation_casts(unit.player)):
            return self._end_activation()
        s.step = Step.ACTIVATION
        s.pending = Pending(unit.player, w.stage, unit.id)
        return []

    # --- "Pushing" (push) ----------------------------------------------------------------------------------------
    def _with_pushes(self, events: list[Event], attacker: int, then: str) -> list[Event]:
        """``events`` of an attack by ``attacker``'s unit; when an enemy model rolled a Shaken result the attacker
        may try to push it (decision ``push``, one per unit, in order) before the game goes on with ``then``."""
        w = self.w
        w.pushes = push.shaken_results(events, attacker, self.state)
        if w.pushes:
            w.push_by, w.push_then, w.stage = attacker, then, "push"
            self.state.pending = Pending(attacker, "push", w.pushes[0])
            return events
        return events + self._go_on(then)

    def _go_on(self, then: str) -> list[Event]:
        """The game after an attack and its pushes (``Warband.push_then``)."""
        steps = {"shoot": self._shoot_next, "charger": self._charger_strikes, "strike_back": self._offer_strike_back,
                 "after_melee": self._after_melee, "cast": self._after_cast}
        return steps[then]()

    def push_options(self) -> tuple[str, XY] | None:
        """The unit the attacker may push now and where its model stands (the window, the players), or None."""
        w = self.state.activation
        if not isinstance(w, Warband) or w.stage != "push" or not w.pushes:
            return None
        pts = points_of(self.state, w.pushes[0])
        return (w.pushes[0], pts[0]) if pts else None

    def check_push(self, action: PushModel) -> IllegalAction | None:
        """Why a proposed ``push_model`` is illegal now, or None (nothing changes): the window asks while dragging."""
        try:
            self._check_push(action)
        except IllegalAction as e:
            return e
        return None

    def _check_push(self, action: PushModel) -> tuple[Unit, moves.MoveReport]:
        w = self._expect(action, "push")
        if not w.pushes or action.unit != w.pushes[0]:
            raise IllegalAction(push.SECTION, f"the model to push now is {w.pushes[0] if w.pushes else 'none'}'s")
        unit = self.state.units[action.unit]
        return unit, push.check_push(self.state, unit, (action.x, action.y))

    def _push(self, action: PushModel) -> list[Event]:
        """"Pushing": one die; on a 4+ the model moves to the point (up to 2"); then dangerous terrain it crossed,
        then ``after_push`` (Falling, when elevation is played)."""
        unit, report = self._check_push(action)
        start = points_of(self.state, unit.id)[0]
        to = (action.x, action.y)
        purpose = f"Pushing {unit.name}"
        roll = self.dice.one(purpose)
        ok = roll >= push.PUSH_NEED
        events = [roll_event(purpose, [roll], push.PUSH_NEED, 0, int(ok), unit=unit.id)]
        if not ok:
            events.append(Event("info", f"{unit.name} is not pushed", {"unit": unit.id, "push": False}))
            return events + self._next_push()
        self._put(unit, [to])
        events.append(Event("move", f"{unit.name} is pushed {math.dist(start, to):.1f}\"",
                            {"unit": unit.id, "kind": "push", "positions": [list(to)]}))
        events += self.after_push(unit, start, to)
        if unit.on_table:
            events += self._dangerous(unit, list(report.dangerous), activating=False)
        return events + self._next_push()

    def after_push(self, unit: Unit, start: XY, end: XY) -> list[Event]:
        """Called once a pushed model stands at ``end`` (from ``start``, inches): "Falling": "If a model falls or is
        pushed off an elevated position at least 2" tall, it takes 1 hit with AP(X) ... Then place the model within
        2" of the bottom" (``elevation.fall``; a push never lifts a model, ``push.push_problem``). Returns the
        events (none when it dropped less than 2")."""
        drop = height_at(self.state, start) - height_at(self.state, end)
        if drop < elevation.FALL_MIN - 1e-9:
            return []
        return elevation.fall(self.state, self.dice, unit, 0, drop, end)

    def _next_push(self) -> list[Event]:
        """The next push the attacker may try, else the game goes on (``Warband.push_then``)."""
        s, w = self.state, self.w
        w.pushes = [u for u in w.pushes[1:] if s.units[u].on_table]
        if w.pushes:
            s.pending = Pending(w.push_by, "push", w.pushes[0])
            return []
        then, w.push_then = w.push_then, ""
        return self._go_on(then)

    # --- done ---------------------------------------------------------------------------------------------------
    def _done(self, action: Done) -> list[Event]:
        w = self._expect(action, "action", "shoot", "strike_back", "consolidate", "ambush", "dispel", "push")
        s = self.state
        if w.stage == "dispel":
            return self._block(Dispel(action.player))
        if w.stage == "push":
            pushed = s.units[w.pushes[0]]
            return [Event("info", f"Player {action.player} does not try to push {pushed.name}",
                          {"unit": pushed.id, "push": False})] + self._next_push()
        if w.stage == "ambush":
            w.ambush_passed.append(action.player)
            return [Event("info", f"Player {action.player} keeps its Ambush units waiting this round",
                          {"player": action.player})] + self._next_ambush(3 - action.player)
        if w.stage == "action":
            unit = s.units[w.unit] if w.unit else None
            assert unit is not None
            unit.move_action = MoveAction.HOLD
            return [Event("move", f"{unit.name} holds", {"unit": unit.id, "action": "hold"})] + self._to_shoot(unit)
        if w.stage == "strike_back":
            target = s.units[w.melee[1]]
            return [Event("melee", f"{target.name} does not strike back", {"unit": target.id})] + \
                self._after_melee()
        return self._end_activation()

    # --- the state file -----------------------------------------------------------------------------------------
    def state_keys(self) -> dict[str, Any]:
        """The state file's ``skirmish`` key (docs/formats.md "AoF: Skirmish"): the stage, edges, the round's
        activations, fatigue, and every unit's models ``{unit: [{x, y, wounds, command?}, ...]}``."""
        w = self.state.activation
        if not isinstance(w, Warband):
            return {}
        return {"skirmish": {
            "stage": w.stage, "edges": {str(p): e for p, e in sorted(w.edges.items())}, "first": w.first,
            "activated": list(w.activated), "unit": w.unit, "finished_first": w.finished_first,
            "fatigued": list(w.fatigued), "incoherent": list(w.incoherent), "ambush": list(w.ambush),
            "scouts": list(w.scouts),
            "arrived": dict(w.arrived),
            "close_pairs": [list(p) for p in w.close_pairs],
            "resume": w.resume, "pushes": list(w.pushes), "push_by": w.push_by, "push_then": w.push_then,
            "impact_cut": w.impact_cut,
            "inspired": {up: list(units) for up, units in w.inspired.items()},
            "models": {uid: [{"x": round(m.x, 4), "y": round(m.y, 4), "wounds": m.wounds}
                             | ({"command": m.command} if m.command else {}) for m in ms]
                       for uid, ms in w.models.items() if ms},
        }}


def attacks_succeeds(roll: int, quality: int) -> bool:
    """A Quality test: a 6 always passes, a 1 always fails ("Modifiers")."""
    return succeeds(roll, quality, 0)
