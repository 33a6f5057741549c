"""Side-missions (AoF:R 2.16 "Side-Missions"), each completed one worth 100 VP in AoWFBR ("Victory Points":
"Multiply Victory Points from objectives/missions by 100").

* **Playstyles**: Shared ("Each player selects 1 side-mission openly, both players can complete any of the
  side-missions"), Hidden ("Each player selects 1 side-mission in secret, players can only complete their own"),
  Shared + Hidden ("Players roll-off, and the winner selects 1 side-mission openly, which both players can
  complete. Then each player selects 1 side-mission in secret, which only they can complete").
* **Selection methods**: Free (any side-mission of any category), Limited ("roll a D3 to get a category, and may
  then freely select any side-mission" of it), Randomized ("roll a D3 to get a random category, and then roll a D6
  to get a side-mission"). "If you roll a side-mission that cannot be completed, then you must re-roll until you
  get one that can be."
* **Categories** (the book's columns are interleaved in the text; the reconstruction and the order 1-6 of each
  category for the D6 are a ruling, docs/rulings.md "Side-missions"): ``CATEGORIES``.

Selections are made before the objective markers are placed, after the deployment style and the mission are known
(game.engine.deployment calls ``begin`` and, once ``waiting`` is False, goes on). A player's selection is the
record action ``select_side_mission {player, mission}`` (decision ``select_side_mission``; the side-missions offered
are ``offered``). Hidden selections and their rolls never appear in an event's text or data; ``visible_picks``
gives what one seat may see (the state file, the window). Side-missions are scored at the end of the game
(``completed``, ``side_mission_lines``); those decided by what happened during the game (Obliterate, Terrify,
Onslaught, Sorcerer Supreme) read ``GameState.removals`` and the melee wins ``observe`` is told of.

What depends on the ruleset's turn structure comes through the ruleset seam (``game.engine.rulesets.base``): its
``side_mission_rules`` (``SideMissionRules``: what a side-mission is worth, in which phases a rout is "in melee"
and a kill is a spell's), kept in ``SideMissionState.rules`` when the scenario is loaded, and its ``melee_wins``
(who won which melee by how many wounds), which ``Game.apply`` passes to ``observe``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

from shapely import LineString, Point, box

from game.engine import deployment_styles, magic
from game.engine.actions import Action, SelectSideMission
from game.engine.dice import Dice
from game.engine.errors import IllegalAction
from game.engine.events import Event, roll_event
from game.engine.state import GameState, Pending, Phase, Step, Unit
from geometry.shapes import footprint_polygon

VP = 100
"""Victory points for each side-mission completed (1 VP in AoF:R, times 100 in AoWFBR)."""
PLAYSTYLES: tuple[str, ...] = ("shared", "hidden", "shared_hidden")
"""The playstyles in the book's order (the D3 of ``random``)."""
SELECTIONS: tuple[str, ...] = ("free", "limited", "randomized")
"""The selection methods in the book's order (the D3 of ``random``)."""
RANDOM = "random"
"""``side_missions.playstyle`` or ``selection``: "or roll a D3 to randomly get one", when the game starts."""


@dataclass(frozen=True)
class SideMission:
    """One side-mission of AoF:R 2.16."""

    name: str
    """Its name in the book."""
    category: int
    """1 Combat Mastery, 2 Tactical Genius, 3 Heroic Intervention."""
    text: str
    """The book's condition."""


CATEGORIES: dict[int, tuple[str, tuple[str, ...]]] = {
    1: ("Combat Mastery", ("conserve", "linebreaker", "obliterate", "terrify", "onslaught", "attrition")),
    2: ("Tactical Genius", ("dominate", "ground_war", "overrun", "defend", "invade", "seize")),
    3: ("Heroic Intervention", ("slay", "sacrifice", "head_hunter", "sorcerer_supreme", "ancient_heirlooms",
                                "secret_mission")),
}
"""The three categories (D3) and their side-missions in the order of the D6 roll."""

_TEXT = {
    "conserve": ("Conserve", "At least 50% of friendly units alive."),
    "linebreaker": ("Linebreaker", "All enemies without Tough killed."),
    "obliterate": ("Obliterate", "Killed 3+ enemy units in one round."),
    "terrify": ("Terrify", "Enemy unit routs in melee."),
    "onslaught": ("Onslaught", "Won melee by 3+ wounds."),
    "attrition": ("Attrition", "At least 50% of enemy units killed."),
    "dominate": ("Dominate", "Enemy controls no objectives."),
    "ground_war": ("Ground War", "No enemy units within 6\" of the center."),
    "overrun": ("Overrun", "At least one friendly unit fully inside each table quarter."),
    "defend": ("Defend", "No enemy units fully inside friendly deployment zone."),
    "invade": ("Invade", "At least one friendly unit with 3+ models fully inside enemy deployment zone."),
    "seize": ("Seize", "Control most objective markers."),
    "slay": ("Slay", "Enemy hero with highest Tough value killed."),
    "sacrifice": ("Sacrifice", "Most expensive friendly hero killed."),
    "head_hunter": ("Head Hunter", "Most expensive enemy hero killed."),
    "sorcerer_supreme": ("Sorcerer Supreme", "Enemy hero killed by spell."),
    "ancient_heirlooms": ("Ancient Heirlooms", "Friendly hero within 6\" of the center of the table."),
    "secret_mission": ("Secret Mission", "Friendly hero within 3\" of enemy table edge inside deployment zone."),
}
SIDE_MISSIONS: dict[str, SideMission] = {
    key: SideMission(_TEXT[key][0], cat, _TEXT[key][1]) for cat, (_, keys) in CATEGORIES.items() for key in keys
}
"""Every side-mission by its record name (``select_side_mission.mission``)."""

CENTRE_DISTANCE = 6.0
"""Inches: Ground War and Ancient Heirlooms measure 6" from the centre of the table."""
EDGE_DISTANCE = 3.0
"""Inches: Secret Mission's hero is within 3" of the enemy table edge."""
MARGIN = 3
"""Onslaught: won melee by this many wounds or more."""
_EPS = 1e-6


@dataclass(frozen=True)
class SideMissionRules:
    """What the side-missions ask of a ruleset's turn structure (``Ruleset.side_mission_rules``)."""

    vp: int = VP
    """Victory points for each side-mission completed: "1 VP for each side-mission" (AoF:R), times 100 in AoWFBR."""
    melee_phases: frozenset[str] = frozenset({Phase.CLOSE_COMBAT.value})
    """The phases (``Phase`` values) in which a rout is a rout "in melee" (Terrify): AoWFBR's close combat phase."""
    spell_phases: frozenset[str] = frozenset({Phase.STRATEGY_1.value, Phase.STRATEGY_2.value})
    """The phases in which only spells wound, so that a hero killed then was "killed by spell" (Sorcerer Supreme);
    empty: the ruleset casts no spells, Sorcerer Supreme cannot be completed."""


AOWFBR_SIDE_MISSIONS = SideMissionRules()
"""AoWFBR 1.4's: 100 VP each, its close combat phase and strategy phases."""


@dataclass
class Pick:
    """One side-mission selected."""

    mission: str
    """Its record name."""
    player: int
    """Who selected it."""
    hidden: bool
    """True: selected in secret, only its player can complete it; False: shared, both can."""


@dataclass
class SideMissionState:
    """Side-missions in a game (``GameState.side_missions``)."""

    playstyle: str
    """``shared``, ``hidden`` or ``shared_hidden`` (``random`` until rolled)."""
    selection: str
    """``free``, ``limited`` or ``randomized`` (``random`` until rolled)."""
    picks: list[Pick] = field(default_factory=list)
    """The side-missions selected, in order."""
    queue: list[tuple[int, bool]] = field(default_factory=list)
    """Selections still to make, (player, hidden); the first is being made."""
    category: int | None = None
    """Limited: the category rolled for the selection being made."""
    started: bool = False
    """``begin`` has run (the selections are made or being made)."""
    onslaught: set[int] = field(default_factory=set)
    """Players who won a melee by 3+ wounds (Onslaught)."""
    rules: SideMissionRules = AOWFBR_SIDE_MISSIONS
    """The ruleset's answers (``Ruleset.side_mission_rules``), set when the scenario is loaded."""


# --- queries -----------------------------------------------------------------------------------------------------


def progress(state: GameState) -> SideMissionState | None:
    """The game's side-missions, or None when not played."""
    return cast(SideMissionState | None, state.side_missions)


def active(state: GameState) -> bool:
    """Side-missions are played in this game."""
    return progress(state) is not None


def waiting(state: GameState) -> bool:
    """A player must still select a side-mission (decision ``select_side_mission``)."""
    sm = progress(state)
    return sm is not None and bool(sm.queue) and state.step is Step.SIDE_MISSION


def heroes(state: GameState, player: int) -> list[tuple[str, str, int, int, bool, Unit]]:
    """``player``'s heroes: (id, name, cost, Tough, killed, the unit it is or joined), scenario order. A hero is
    killed once its unit left the game or, joined, once it died (docs/rulings.md "Side-missions")."""
    out: list[tuple[str, str, int, int, bool, Unit]] = []
    for u in state.units.values():
        if u.player != player:
            continue
        if u.hero is not None:
            h = u.hero
            out.append((h.id, h.name, h.cost, h.tough, h.killed or u.removed is not None, u))
        elif u.profile.is_hero:
            out.append((u.id, u.name, u.total_cost, u.tough, u.removed is not None, u))
    return out


def _hero_living_on_table(unit: Unit) -> bool:
    if not unit.on_table:
        return False
    return unit.hero_alive if unit.hero is not None else unit.profile.is_hero


def completable(state: GameState, mission: str, player: int) -> bool:
    """Whether ``player`` can complete ``mission`` in this game at all ("if you roll a side-mission that cannot be
    completed ... re-roll"): it needs the units, heroes, casters or markers it speaks of (docs/rulings.md)."""
    enemy = 3 - player
    own_units = [u for u in state.units.values() if u.player == player]
    enemy_units = [u for u in state.units.values() if u.player == enemy]
    if mission == "linebreaker":
        return any(u.tough == 1 for u in enemy_units)
    if mission == "obliterate":
        return len(enemy_units) >= 3
    if mission in ("dominate", "seize"):
        return state.mission is not None
    if mission == "overrun":
        return len(own_units) >= 4
    if mission == "invade":
        return any(u.starting_models >= 3 for u in own_units)
    if mission in ("slay", "head_hunter"):
        return bool(heroes(state, enemy))
    if mission in ("sacrifice", "ancient_heirlooms", "secret_mission"):
        return bool(heroes(state, player))
    if mission == "sorcerer_supreme":
        return bool(_rules(state).spell_phases) and bool(heroes(state, enemy)) and \
            bool(magic.casters_of(state, player)) and bool(magic.spells_of(state, player))
    return bool(own_units) and bool(enemy_units)


def offered(state: GameState) -> list[str]:
    """The side-missions the player selecting now may pick (empty when no selection is being made): those they can
    complete, of any category (Free) or of the category rolled (Limited)."""
    sm = progress(state)
    if sm is None or not waiting(state):
        return []
    player = sm.queue[0][0]
    keys = CATEGORIES[sm.category][1] if sm.category is not None else tuple(SIDE_MISSIONS)
    return [k for k in keys if completable(state, k, player)]


def visible_picks(state: GameState, seat: int | None) -> list[Pick | None]:
    """The picks ``seat`` may see (1 or 2; None for someone sitting in neither seat), one entry per pick: the pick,
    or None for the other player's hidden side-mission. Once the game is over every pick is shown."""
    sm = progress(state)
    if sm is None:
        return []
    return [p if (not p.hidden or p.player == seat or state.game_over) else None for p in sm.picks]


# --- the selections ------------------------------------------------------------------------------------------------


def begin(state: GameState, dice: Dice) -> list[Event]:
    """Start the selections (called once, before the objective markers): Shared + Hidden rolls off for who selects
    the shared side-mission. Sets the decision, or makes every selection by dice (Randomized)."""
    sm = progress(state)
    assert sm is not None
    sm.started = True
    events: list[Event] = []
    if sm.playstyle == RANDOM:      # "pick one of the following playstyles, or roll a D3 to randomly get one"
        sm.playstyle = _roll_d3(dice, "Side-mission playstyle", PLAYSTYLES, events)
    if sm.selection == RANDOM:      # "pick one of the following selection methods, or roll a D3"
        sm.selection = _roll_d3(dice, "Side-mission selection method", SELECTIONS, events)
    events.append(Event("side_mission", _intro(sm), {"playstyle": sm.playstyle, "selection": sm.selection}))
    if sm.playstyle == "shared":
        sm.queue = [(1, False), (2, False)]
    elif sm.playstyle == "hidden":
        sm.queue = [(1, True), (2, True)]
    else:
        winner, rolls = _roll_off(dice)
        events += rolls
        events.append(Event("side_mission", f"Player {winner} wins the side-mission roll-off and selects the shared "
                            "side-mission", {"roll_off": "side_missions", "winner": winner}))
        sm.queue = [(winner, False), (1, True), (2, True)]
    return events + _next(state, dice)


def check(state: GameState, action: Action) -> None:
    """Raise ``IllegalAction`` ("Side-Missions") unless ``action`` is the selection the game waits for and picks a
    side-mission that may be selected now."""
    if not isinstance(action, SelectSideMission) or not waiting(state):
        wanted = state.pending.decision if state.pending else "nothing"
        raise IllegalAction("Turn Sequence", f"'{action.type}' is not possible now; the game waits for: {wanted}")
    sm = progress(state)
    assert sm is not None
    if action.mission not in SIDE_MISSIONS:
        raise IllegalAction("Side-Missions", f"there is no side-mission {action.mission!r}; known: "
                            f"{', '.join(SIDE_MISSIONS)}")
    if action.mission not in offered(state):
        if sm.category is not None and SIDE_MISSIONS[action.mission].category != sm.category:
            raise IllegalAction("Side-Missions", f"Limited: the category rolled is {CATEGORIES[sm.category][0]}; "
                                f"{SIDE_MISSIONS[action.mission].name} is not in it")
        raise IllegalAction("Side-Missions", f"{SIDE_MISSIONS[action.mission].name} cannot be completed in this game "
                            f"({SIDE_MISSIONS[action.mission].text})")


def apply(state: GameState, dice: Dice, action: Action) -> list[Event]:
    """Apply a ``select_side_mission`` (``check`` first; the state is unchanged if it raises) and go on with the
    next selection; when none is left ``waiting`` is False and the caller goes on with the set-up."""
    check(state, action)
    assert isinstance(action, SelectSideMission)
    sm = progress(state)
    assert sm is not None
    player, hidden = sm.queue.pop(0)
    sm.category = None
    sm.picks.append(Pick(action.mission, player, hidden))
    return [_picked_event(sm.picks[-1], "selects")] + _next(state, dice)


def _next(state: GameState, dice: Dice) -> list[Event]:
    """The next selection: by dice (Randomized), or the decision (Free; Limited after the category roll)."""
    sm = progress(state)
    assert sm is not None
    events: list[Event] = []
    while sm.queue:
        player, hidden = sm.queue[0]
        if sm.selection == "randomized":
            mission, rolls = _roll_side_mission(state, dice, player, hidden)
            events += rolls
            sm.queue.pop(0)
            sm.picks.append(Pick(mission, player, hidden))
            if not hidden:     # a hidden roll already said "rolls for their hidden side-mission"
                events.append(_picked_event(sm.picks[-1], "rolls"))
            continue
        if sm.selection == "limited":
            events += _roll_category(state, dice, player, hidden)
        state.step = Step.SIDE_MISSION
        # A hidden selection lists no options: the category they come from would show (``offered`` has them).
        state.pending = Pending(player, "select_side_mission", None, () if hidden else tuple(offered(state)))
        return events
    state.pending = None
    state.step = Step.CHOOSE_DEPLOYMENT
    events.append(Event("side_mission", "The side-missions are selected", {"done": True}))
    return events


def _category_roll(state: GameState, dice: Dice, player: int, hidden: bool, events: list[Event]) -> int:
    """A D3 for the category (one D6 halved, rounding up), rolled again while ``player`` can complete none of its
    side-missions; a shared selection's rolls are added to ``events``, a hidden one's never are."""
    while True:
        die = dice.one(f"Side-mission category: player {player}")
        cat = (die + 1) // 2
        possible = any(completable(state, k, player) for k in CATEGORIES[cat][1])
        if not hidden:
            events.append(roll_event(f"Side-mission category: player {player}", [die], total=cat, player=player,
                                     details=[f"D3 = {cat}: {CATEGORIES[cat][0]}"
                                              + ("" if possible else ": none can be completed, re-roll")]))
        if possible:
            return cat


def _roll_category(state: GameState, dice: Dice, player: int, hidden: bool) -> list[Event]:
    """Limited: a D3 for the category, re-rolled when the player can complete none of its side-missions."""
    sm = progress(state)
    assert sm is not None
    events: list[Event] = []
    sm.category = _category_roll(state, dice, player, hidden, events)
    if hidden:
        events.append(Event("side_mission", f"Player {player} rolls for the category of their hidden side-mission",
                            {"player": player, "hidden": True}))
    return events


def _roll_side_mission(state: GameState, dice: Dice, player: int, hidden: bool) -> tuple[str, list[Event]]:
    """Randomized: a D3 for the category, then a D6 for the side-mission; a side-mission the player cannot complete
    is re-rolled (the D6; the D3 again when none of the category can be completed: docs/rulings.md)."""
    events: list[Event] = []
    keys = CATEGORIES[_category_roll(state, dice, player, hidden, events)][1]
    while True:
        d6 = dice.one(f"Side-mission: player {player}")
        key = keys[d6 - 1]
        possible = completable(state, key, player)
        if not hidden:
            events.append(roll_event(f"Side-mission: player {player}", [d6], total=d6, player=player,
                                     details=[f"{d6}: {SIDE_MISSIONS[key].name}"
                                              + ("" if possible else " cannot be completed: re-roll")]))
        if possible:
            if hidden:
                events.append(Event("side_mission", f"Player {player} rolls for their hidden side-mission",
                                    {"player": player, "hidden": True}))
            return key, events


def _roll_d3(dice: Dice, purpose: str, choices: tuple[str, ...], events: list[Event]) -> str:
    die = dice.one(purpose)
    pick = choices[(die + 1) // 2 - 1]
    events.append(roll_event(purpose, [die], total=(die + 1) // 2, details=[f"D3 = {(die + 1) // 2}: {pick}"]))
    return pick


def _roll_off(dice: Dice) -> tuple[int, list[Event]]:
    events: list[Event] = []
    while True:
        a, b = dice.one("Side-mission roll-off: player 1"), dice.one("Side-mission roll-off: player 2")
        events.append(roll_event("Side-mission roll-off: player 1", [a], player=1, total=a))
        events.append(roll_event("Side-mission roll-off: player 2", [b], player=2, total=b))
        if a != b:
            return (1 if a > b else 2), events
        events.append(Event("info", f"Side-mission roll-off: a tie ({a} each), both players roll again", {}))


def _intro(sm: SideMissionState) -> str:
    style = {"shared": "Shared", "hidden": "Hidden", "shared_hidden": "Shared + Hidden"}[sm.playstyle]
    return f"Side-missions: {style}, {sm.selection} selection; each one completed is worth {sm.rules.vp} VP"


def _picked_event(pick: Pick, verb: str) -> Event:
    if pick.hidden:   # never the side-mission itself: the other seat reads the log
        return Event("side_mission", f"Player {pick.player} selects a hidden side-mission",
                     {"player": pick.player, "hidden": True})
    sm = SIDE_MISSIONS[pick.mission]
    return Event("side_mission", f"Player {pick.player} {verb} the shared side-mission {sm.name}: {sm.text}",
                 {"player": pick.player, "hidden": False, "mission": pick.mission})


# --- during the game ---------------------------------------------------------------------------------------------


def observe(state: GameState, wins: list[tuple[int, int]]) -> None:
    """Note what the end of the game cannot see any more: a melee won by 3+ wounds (Onslaught). ``wins``: the
    melees an action decided, as (winning player, wounds its side caused minus the enemy's), as the ruleset reads
    them from its events (``Ruleset.melee_wins``). Called by the game after every action."""
    sm = progress(state)
    if sm is None:
        return
    for winner, margin in wins:
        if winner in (1, 2) and margin >= MARGIN:
            sm.onslaught.add(winner)


# --- scoring at the end of the game --------------------------------------------------------------------------------


def completed(state: GameState, mission: str, player: int) -> bool:
    """Whether ``player`` has completed ``mission`` at the end of the game (AoF:R 2.16 "Side-Missions"; readings in
    docs/rulings.md "Side-missions"). Killed = out of the game (destroyed, routed or fled), as for victory
    points."""
    s = state
    enemy = 3 - player
    own_units = [u for u in s.units.values() if u.player == player]
    enemy_units = [u for u in s.units.values() if u.player == enemy]
    centre = Point(s.table.width / 2, s.table.depth / 2)
    if not completable(s, mission, player):
        return False
    if mission == "conserve":
        return 2 * sum(1 for u in own_units if u.removed is None) >= len(own_units)
    if mission == "linebreaker":
        return all(u.removed is not None for u in enemy_units if u.tough == 1)
    if mission == "obliterate":
        per_round: dict[int, int] = {}
        for r in s.removals:
            if r.player == enemy and r.how != "hero_killed":
                per_round[r.round] = per_round.get(r.round, 0) + 1
        return max(per_round.values(), default=0) >= 3
    if mission == "terrify":
        return any(r.player == enemy and r.how == "routed" and r.phase in _rules(s).melee_phases
                   for r in s.removals)
    if mission == "onslaught":
        sm = progress(s)
        return sm is not None and player in sm.onslaught
    if mission == "attrition":
        return 2 * sum(1 for u in enemy_units if u.removed is not None) >= len(enemy_units)
    if mission == "dominate":
        return not any(o.controller == enemy and not o.destroyed for o in s.objectives)
    if mission == "seize":
        held = {p: sum(1 for o in s.objectives if o.controller == p and not o.destroyed) for p in (1, 2)}
        return held[player] > held[enemy]
    if mission == "ground_war":
        return all(s.scene.distance_to_point(u.id, centre) > CENTRE_DISTANCE + _EPS for u in s.units_of(enemy))
    if mission == "overrun":
        w, d = s.table.width, s.table.depth
        quarters = [box(x, y, x + w / 2, y + d / 2).buffer(_EPS) for x in (0, w / 2) for y in (0, d / 2)]
        return all(any(q.covers(s.scene.footprint(u.id)) for u in s.units_of(player)) for q in quarters)
    if mission == "defend":
        zone = deployment_styles.zone_of(s, player).buffer(_EPS)
        return not any(zone.covers(s.scene.footprint(u.id)) for u in s.units_of(enemy))
    if mission == "invade":
        zone = deployment_styles.zone_of(s, enemy).buffer(_EPS)
        return any(u.models >= 3 and zone.covers(s.scene.footprint(u.id)) for u in s.units_of(player))
    if mission in ("slay", "head_hunter", "sacrifice"):
        side = player if mission == "sacrifice" else enemy
        hs = heroes(s, side)
        if mission == "slay":
            top = max(h[3] for h in hs)
            return any(h[4] for h in hs if h[3] == top)
        top = max(h[2] for h in hs)
        return any(h[4] for h in hs if h[2] == top)
    if mission == "sorcerer_supreme":
        # the hero's own record, or its unit's when the whole unit went with it
        ids = {h[0] for h in heroes(s, enemy)} | {h[5].id for h in heroes(s, enemy)}
        return any(r.id in ids and r.phase in _rules(s).spell_phases for r in s.removals)
    if mission == "ancient_heirlooms":
        return any(_hero_living_on_table(h[5]) and s.scene.distance_to_point(h[5].id, centre)
                   <= CENTRE_DISTANCE + _EPS for h in heroes(s, player))
    if mission == "secret_mission":
        zone = deployment_styles.zone_of(s, enemy)
        a, b = deployment_styles.edge_line(s.table, deployment_styles.home_edge(s, enemy))
        edge = LineString([a, b]).intersection(zone.buffer(_EPS))
        for h in heroes(s, player):
            unit = h[5]
            if not _hero_living_on_table(unit) or unit.pose is None:
                continue
            body = footprint_polygon(unit.pose, unit.formation)
            if body.intersects(zone) and body.distance(edge) <= EDGE_DISTANCE + _EPS:
                return True
        return False
    raise KeyError(f"unknown side-mission {mission!r}")


def _rules(state: GameState) -> SideMissionRules:
    sm = progress(state)
    return sm.rules if sm is not None else AOWFBR_SIDE_MISSIONS


def side_mission_lines(state: GameState) -> dict[int, list[tuple[str, int]]]:
    """Each player's victory points from side-missions, once the game is over (before, nothing: hidden ones must
    not show, and they are scored "at the end of the game"): ``("side-mission Conserve completed", 100)``."""
    out: dict[int, list[tuple[str, int]]] = {1: [], 2: []}
    sm = progress(state)
    if sm is None or not state.game_over:
        return out
    for pick in sm.picks:
        who = (pick.player,) if pick.hidden else (1, 2)
        kind = "hidden" if pick.hidden else "shared"
        for p in who:
            if completed(state, pick.mission, p):
                out[p].append((f"{kind} side-mission {SIDE_MISSIONS[pick.mission].name} completed", sm.rules.vp))
    return out


def state_dict(state: GameState, seat: int | None) -> dict[str, object] | None:
    """The state file's ``side_missions`` as ``seat`` may see it (None: no seat, only what both players see):
    ``{playstyle, selection, picks: [{player, hidden, mission?}]}``; the other player's hidden side-mission has no
    ``mission`` until the game is over. None when side-missions are not played."""
    sm = progress(state)
    if sm is None:
        return None
    picks: list[dict[str, object]] = []
    for pick, seen in zip(sm.picks, visible_picks(state, seat), strict=True):
        entry: dict[str, object] = {"player": pick.player, "hidden": pick.hidden}
        if seen is not None:
            entry["mission"] = pick.mission
            if state.game_over:
                entry["completed"] = [p for p in ((pick.player,) if pick.hidden else (1, 2))
                                      if completed(state, pick.mission, p)]
        picks.append(entry)
    return {"playstyle": sm.playstyle, "selection": sm.selection, "picks": picks}


def reveal(state: GameState) -> list[Event]:
    """At the end of the game: every side-mission shown, hidden ones too, with who completed it."""
    sm = progress(state)
    if sm is None or not state.game_over:
        return []
    events: list[Event] = []
    for pick in sm.picks:
        info = SIDE_MISSIONS[pick.mission]
        who = [p for p in ((pick.player,) if pick.hidden else (1, 2)) if completed(state, pick.mission, p)]
        done = " and ".join(f"player {p}" for p in who) + " completed it" if who else "nobody completed it"
        kind = f"player {pick.player}'s hidden" if pick.hidden else "the shared"
        events.append(Event("side_mission", f"Side-mission: {kind} {info.name} ({info.text}): {done}",
                            {"player": pick.player, "hidden": pick.hidden, "mission": pick.mission,
                             "completed": who}))
    return events
