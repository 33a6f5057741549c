"""The battle: the table, the units, and the decision at hand turned into actions for the engine.

Input is read here and routed by the pending decision (``Game.pending``): dragging a unit builds a move ghost
(``MoveTool``), clicking a target declares a charge or shoots, buttons answer reactions and close-combat
choices. Every change to the game goes through ``BattleScene.act`` -> ``Game.apply``; drawing only reads.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import pygame
from shapely import Point as ShapelyPoint

from game.computer_seat import ComputerSeat
from game.engine.actions import (
    Action,
    Activate,
    DeclareCharge,
    Deploy,
    PlaceObjective,
    Redirect,
    RollCharge,
    Shoot,
)
from game.engine.deployment import zone_polygon
from game.engine.deployment_styles import home_edge
from game.engine.errors import IllegalAction
from game.engine.events import Event
from game.engine.movement import can_move
from game.engine.objectives import placement_point
from game.engine.shooting import shooting_restriction
from game.ui import battle_draw, decisions, describe, palette, spell_aim
from game.ui.acting import announce, apply_action
from game.ui.action_bar import ButtonSpec
from game.ui.animation import Animations
from game.ui.artillery_tool import ArtilleryTool
from game.ui.dice_panel import short_purpose
from game.ui.draw_terrain import StaticLayer
from game.ui.draw_units import UnitPainter
from game.ui.insight import Insight
from game.ui.layout import BattleLayout
from game.ui.log_panel import event_html
from game.ui.move_tool import MoveTool
from game.ui.picking import point_in_unit, unit_at
from game.ui.record_controls import (
    hotseat_refusal,
    keep_record,
    leave_to_menu,
    record_buttons,
    record_key,
    take_back_hotseat,
)
from game.ui.scenes.handover import HandoverScene
from game.ui.scenes.table_scene import TableScene
from game.ui.trails import CombatTrails
from game.ui.view_tools import ViewTools, view_below
from geometry.formation import hero_index
from geometry.pose import Point, Pose, bearing_to
from geometry.shapes import model_polygons

if TYPE_CHECKING:
    from game.engine.game import Game
    from game.ui.window import Window

PIVOT_STEP = 5.0
"""Degrees per Q/E press or wheel notch."""
PIVOT_STEP_SHIFT = 15.0
"""Degrees per press with Shift held."""
VIEW_COMMANDS = frozenset({"fit", "turn", "measure", "arcs", "sight", "trails"})
"""Commands that only change the view: allowed while the computer decides."""
OPEN_DECISIONS = frozenset({"deploy", "scout_move", "set_aside", "place_objective"})
"""Decisions of the deployment that hide nothing from the other player: the seat changes without a hand-over
screen (a banner says whose placement it is)."""



class BattleScene(TableScene):
    """A hotseat battle in progress."""

    watch_only = False
    """Only shows the game, never acts (the replay viewer): nothing is aimed then (artillery_tool.py)."""

    def __init__(self, app: Window, game: Game, scenario_path: str | None = None,
                 kinds: list[str] | None = None, computer: ComputerSeat | None = None) -> None:
        super().__init__(app, game, scenario_path, kinds, computer)
        s = game.state
        self.static.home = home_edge(s, 1)
        self.painter = UnitPainter()
        self.layout: BattleLayout | None = None
        # what the table shows (see game/ui/insight.py, game/ui/trails.py, game/ui/battle_draw.py)
        self.insight = Insight(self)
        """Cached geometry answers about the selected unit: reach, sight, shooters, arcs, distances."""
        self.trails = CombatTrails()
        """Flight, pursuit, retreat, follow-up and charge moves, and who was caught or routed."""
        self.trails.add(game.state, game.log, 0.0, fresh=False)
        self.show_arcs = False
        """A: draw the selected unit's facing arcs."""
        self.show_sight = False
        """V: draw sight lines from the selected unit to the enemies it sees; dim the others."""
        self.show_trails = False
        """C: keep the last combat's moves drawn."""
        # interaction state (never game state)
        self.tool: MoveTool | None = None
        self.measure = False
        self.turn_with_seat = True
        """Turn the table so that the deciding player's edge is at the bottom at every hand-over."""
        self.error: IllegalAction | None = None
        self._private: int | None = None
        """The player alone at the screen: handed it behind a hand-over screen (or who took back); None while
        both players watch (the open decisions of deployment change the seat without a hand-over)."""
        self._handover_from = 0 if not game.history else len(game.log)   # a new game: its first hand-over
        # shows the roll-offs made at the start (the deployment roll-off)
        self._movable: set[str] = set()
        self.actors: set[str] = set()
        """Units of the deciding player that can act in this step (outlined green)."""
        self._targets: dict[str, list[str]] = {}
        self._deploy_index = 0
        self._held: set[int] = set()
        self.casts: list[Any] = []
        """Spells the deciding player may try now (strategy step), from ``decisions.cast_options``."""
        self.spell: str | None = None
        self.spell_menu = False
        """Within an activation: the action bar shows the wizard's spells ("Cast a spell ▸")."""
        self.breath = False
        """AoF:R 2.16 "Breath Attack": the activated unit's next charge uses its breath (the action bar's toggle)."""
        """The spell picked for the selected caster; the next click on a highlighted unit casts it."""
        self.side_category: int | None = None
        """Side-missions, Free selection: the category the deciding player is looking at (None: the three)."""
        self.fire: dict[str, set[str]] = {}
        """Weapon groups chosen per shooting unit (rulebook "Multiple Weapon Types"); absent = every weapon."""
        self.artillery = ArtilleryTool(self)
        """Random Scatter for Artillery: aiming at target points and the last shots (game/ui/artillery_tool.py)."""
        if computer is not None:
            self._seat = self._private = computer.person      # the person keeps the seat: no hand-over screens
            self.view.set_flipped(computer.person == 2)

    # --- widgets --------------------------------------------------------------------------------------------
    def build_ui(self) -> None:
        """Top bar, action bar, unit card, dice panel and log laid out for the window size."""
        self.layout = lay = BattleLayout.for_size(self.app.size)
        self.view.set_rect(view_below(lay.table))     # the view tools' band above it
        self._build_panels(lay)
        self.tools = ViewTools(self.app.manager, lay.table)
        self._refresh_widgets()

    def enter(self) -> None:
        """Build the widgets and catch up with the game (hand-over if another player must decide)."""
        self._held.clear()
        super().enter()
        self._sync()

    # --- the game ---------------------------------------------------------------------------------------------
    @property
    def pending(self) -> Any:
        """The decision the engine waits for."""
        return self.game.pending

    def act(self, action: Action) -> bool:
        """Send ``action`` to the engine; show the rule it breaks if it is illegal. True if it was applied.
        While the computer decides, the person's actions are refused (the computer answers for its seat)."""
        if self._person_waits():
            return False
        events = apply_action(self, action, self.show_error)
        if events is None:
            return False
        self._applied(events, getattr(action, "unit", None))
        return True

    def _applied(self, events: list[Event], placed: str | None) -> None:
        """After an action was applied: log, dice, animations (``placed``: a unit put by hand, no glide), record,
        banner, the next decision."""
        self.error = None
        self.tool = None
        self._add_events(events)
        self.anims.add(events, self.time, skip=placed)
        self.trails.add(self.game.state, events, self.time)
        announce(self, events)
        keep_record(self)
        self._sync()

    def show_error(self, error: IllegalAction) -> None:
        """Show a broken rule: in the banner, in the log and at its place on the table."""
        self.error = error
        self.show_banner(f"{error.rule}: {error.message}", palette.ILLEGAL, 6.0)
        self.feed.note(f"Not allowed — {error.rule}: {error.message}", "illegal", self.log)

    def show_results(self) -> None:
        """Go to the results of this game (its table one click away, "Look at the table")."""
        self.app.show_results(self.game, back=self)

    def _sync(self) -> None:
        """React to a new pending decision: game over, hand-over, selection, ghosts, buttons."""
        pending = self.game.pending
        key = (pending, len(self.game.history))
        if key == self._pending_key:
            return
        self._pending_key = key
        s = self.game.state
        self._targets.clear()
        if pending is None or pending.decision != "shoot":
            self.fire.clear()
        self.spell = None
        self.spell_menu = False
        self.breath = False
        if list(s.terrain) != self.static.terrain:    # the deployment roll-off may turn the table
            self.static = StaticLayer(s.table.width, s.table.depth, s.terrain, self.static.kinds, names=False)
            self.static.home = home_edge(s, 1)
        if s.game_over or pending is None:
            self.app.record(self.game, self.scenario_path)
            self.show_results()
            return
        d = pending.decision
        if self.computer_deciding:     # the computer answers: nothing of the person's to prepare, no hand-over
            self._movable, self.actors, self.casts, self.tool = set(), set(), [], None
            if self.selected is not None and not (s.units.get(self.selected) and s.units[self.selected].on_table):
                self.selected = None
            self._refresh_widgets()
            return
        self._movable = set(self.game.units_to_move(pending.player)) if d in ("move", "action") else set()
        if d == "activate":        # an activation ruleset (AoF:R 2.16): the units that may activate
            self.actors = set(pending.options)
        elif d == "declare_charge":
            self.actors = set(self.game.chargers(pending.player))
        elif d == "shoot":
            self.actors = set(self.game.shooters(pending.player))
        elif d == "rally":
            self.actors = set(pending.options)
        elif d == "strategy":
            self.casts = decisions.cast_options(self)
            self.actors = {c.unit for c in self.casts} | spell_aim.point_casters(self)
        else:
            self.actors = set(self._movable)
        if d in decisions.ACTIVATION_CASTING:     # AoF:R 2.16 "Wizard(X)": the activated wizard may cast first
            self.casts = decisions.cast_options(self)
        elif d != "strategy":
            self.casts = []
        if pending.unit is not None:
            self.selected = pending.unit
        elif self.selected is not None and not (s.units.get(self.selected) and s.units[self.selected].on_table):
            self.selected = None
        self.tool = None
        if d == "consolidate" and pending.unit in s.units and s.units[pending.unit].on_table:
            self.tool = MoveTool(self.game, s.units[pending.unit], pending.player, "consolidate")
        elif d in ("deploy", "ambush"):
            self._deploy_index = 0
            self._start_deploy_tool()
        elif d == "scout_move" and pending.unit in s.units and s.units[pending.unit].on_table:
            self.tool = MoveTool(self.game, s.units[pending.unit], pending.player, "scout")
        elif d == "wavering" and pending.unit in s.units and s.units[pending.unit].on_table:
            self.tool = MoveTool(self.game, s.units[pending.unit], pending.player, "rally")
        self._refresh_widgets()
        if pending.player != self._seat:
            if d in OPEN_DECISIONS and self._seat is not None:
                self._change_seat(pending.player)
            else:
                self._hand_over(pending.player)

    def _change_seat(self, player: int) -> None:
        """Placing units and markers is open information (rulebook "Deploying Armies"): the keys change hands
        with a banner in the player's colour, not a hand-over screen per unit."""
        self._seat = player
        self._private = None
        if self.turn_with_seat:
            self.view.set_flipped(player == 2)
        self.show_banner(f"Player {player}: {describe.instruction(self.game.state, self.game.pending)}",
                         palette.PLAYER[player], 3.0)

    def _hand_over(self, player: int) -> None:
        s = self.game.state
        # what happened since, with the roll-offs' dice (the other rolls are in the log and the dice panel)
        recent = [event_html(e) for e in self.game.log[self._handover_from:]
                  if e.kind != "roll" or "roll-off" in str(e.data.get("purpose", "")).lower()][-14:]
        self._seat = player
        self._private = player
        self._handover_from = len(self.game.log)
        if self.turn_with_seat:
            self.view.set_flipped(player == 2)
        self.app.switch(HandoverScene(self.app, self, player, describe.position(s),
                                      describe.instruction(s, self.game.pending), recent))

    def _start_deploy_tool(self) -> None:
        pending = self.game.pending
        s = self.game.state
        if pending is None:
            return
        options = [u for u in (pending.options or ()) if u in s.units]
        if pending.unit:
            options = [pending.unit]
        if not options:
            return
        uid = options[self._deploy_index % len(options)]
        unit = s.units[uid]
        if pending.decision == "ambush":    # within 6" of a table edge: start at the middle of one's own edge
            y = 3.0 if unit.player == 1 else s.table.depth - 3.0
            start = Pose(s.table.width / 2, y, 0.0 if unit.player == 1 else 180.0)
        else:                               # inside the zone of the deployment style, facing the table centre
            start = self._free_spot(unit.id, pending.player)
        self.selected = uid
        self.tool = MoveTool(self.game, unit, pending.player, "deploy", start=start)

    def _free_spot(self, uid: str, player: int) -> Pose:
        """Where the deploy tool starts: the first legal place, nearest the middle of the player's zone, on a 3"
        grid (facing the table centre); the middle when the zone has no room left."""
        s = self.game.state
        zone = zone_polygon(s, player)
        mid = zone.representative_point()
        facing = round(bearing_to((mid.x, mid.y), (s.table.width / 2, s.table.depth / 2)) / 45.0) * 45.0 % 360.0
        x0, y0, x1, y1 = zone.bounds
        grid = [(x0 + 1.5 + 3 * i, y0 + 1.5 + 3 * j) for i in range(int((x1 - x0) // 3))
                for j in range(int((y1 - y0) // 3))]
        grid.sort(key=lambda p: math.hypot(p[0] - mid.x, p[1] - mid.y))
        for x, y in [(mid.x, mid.y), *grid][:120]:
            pose = Pose(round(x, 3), round(y, 3), facing)
            if self.game.check_deploy(Deploy(player, uid, pose)) is None:
                return pose
        return Pose(mid.x, mid.y, facing)

    def next_deploy_unit(self) -> None:
        """Tab / "Next unit": deploy another of the waiting units."""
        self._deploy_index += 1
        self._start_deploy_tool()

    @property
    def seat(self) -> int | None:
        """The player alone at the screen (handed it behind a hand-over screen), None while both players watch
        (before the first hand-over, and while deployment's open decisions pass the seat without one). The window
        shows a hidden side-mission only to its player, and only then (game.ui.draw_side_missions)."""
        return self._private

    def side_mission_category(self) -> int | None:
        """The category of side-missions the deciding player sees: the one rolled (Limited) or opened (Free)."""
        from game.engine import side_missions
        sm = side_missions.progress(self.game.state)
        rolled = sm.category if sm is not None else None
        return rolled or self.side_category

    def zone_outline(self, player: int) -> tuple[list[tuple[float, float]], tuple[float, float]]:
        """``player``'s deployment zone as drawn: its outline (inches) and where its label goes, just outside the
        zone's point nearest the table centre, where no unit of the zone stands (AoF:R 2.16 "Deployment Styles";
        game.engine.deployment_styles)."""
        s = self.game.state
        zone = zone_polygon(s, player)
        cx, cy = s.table.width / 2, s.table.depth / 2
        near = zone.exterior.interpolate(zone.exterior.project(ShapelyPoint(cx, cy)))
        gap = math.hypot(cx - near.x, cy - near.y) or 1.0
        step = min(1.5, gap / 2)
        label = (near.x + (cx - near.x) / gap * step, near.y + (cy - near.y) / gap * step)
        return [(float(x), float(y)) for x, y in zone.exterior.coords[:-1]], label

    def targets_of(self, uid: str) -> list[str]:
        """Valid targets of ``uid`` for the decision at hand (cached until the next action)."""
        pending = self.game.pending
        d = pending.decision if pending else None
        if d == "strategy" or (d in decisions.ACTIVATION_CASTING and self.spell is not None):
            return decisions.spell_targets(self, uid, self.spell) if self.spell is not None else []
        if uid in self._targets:
            return self._targets[uid]
        targets: list[str] = []
        if d in ("declare_charge", "action"):
            targets = self.game.charge_targets(uid)
        elif d == "shoot":
            targets = self.game.shooting_targets(uid)
        elif d == "redirect" and pending is not None and uid == pending.unit:
            targets = self.game.redirect_targets(uid)
        self._targets[uid] = targets
        return targets

    # --- commands (buttons and keys): see game/ui/decisions.py ---------------------------------------------
    def _button_specs(self) -> list[ButtonSpec]:
        if self.computer_deciding:       # the person cannot answer for the computer: its pace and Skip only
            return self._computer_buttons() + self._record_buttons()
        return decisions.button_specs(self) + self._record_buttons()

    def command(self, key: str) -> None:
        """Run a button or key command (``game.ui.decisions.run``; undo, save and menu here)."""
        if self._computer_command(key):
            return
        if self.computer_deciding and key not in VIEW_COMMANDS and key not in ("undo", "save", "menu"):
            return       # a decision's button or key while the computer decides: not the person's to answer
        if key == "undo":
            self.undo()
        elif key == "save":
            self.save()
        elif key == "menu":
            leave_to_menu(self)
        else:
            decisions.run(self, key)

    # --- the game record: take back, save, leave (issue "Game records: replay, save and undo") ---------------
    def _record_buttons(self) -> list[ButtonSpec]:
        """Undo, Save and Menu at the right end of the action bar (``game.ui.record_controls``)."""
        return record_buttons(self.undo_refusal())

    def _undo_player(self) -> int:
        pending = self.game.pending
        return pending.player if pending is not None else self.game.state.active_player

    def undo_refusal(self, player: int | None = None) -> str | None:
        """Why ``player`` (default: the one at the table) may not take back the last action now, or None.
        Against the computer: why the person may not take back their last own action (``game.computer_seat``)."""
        if self.computer is not None:
            return self._computer_undo()[0]
        return hotseat_refusal(self.game, self.rewinder, self._undo_player() if player is None else player)

    def undo(self, player: int | None = None) -> bool:
        """Take back the deciding player's last action (Ctrl+Z) while no die has been rolled since.

        ``player``: the player taking back, when it is not the one deciding now (from the hand-over screen, the
        player who just passed the seat); they keep the seat. The game is replayed without the action
        (``Rewinder.take_back``) and the record file rewritten. True if done.
        """
        if self.computer is not None:
            why = self.undo_refusal(player)     # a scene may refuse every take-back (a lesson)
            if why is not None:
                self.show_banner(f"Cannot take back: {why}", palette.SHAKEN, 5.0)
                return False
            return self._undo_against_computer()
        taker = self._undo_player() if player is None else player
        return take_back_hotseat(self, taker, self.undo_refusal(player),
                                 self._keep_seat if player is not None else None)

    def _keep_seat(self, player: int) -> None:
        """The player who took back from the hand-over screen keeps the seat: no hand-over."""
        self._seat = player
        self._private = player
        self._handover_from = len(self.game.log)

    def _reset_view_of_game(self) -> None:
        """After the game object was replaced (undo, a replay's jump): log, dice, animations, trails and the
        widgets start again from the new game (keep in step with ``__init__``)."""
        game = self.game
        self.tool = None
        self.error = None
        self._targets.clear()
        self.anims = Animations()
        self.feed.reset(game.log)
        self.trails = CombatTrails()
        self.trails.add(game.state, game.log, self.time, fresh=False)
        if self.layout is not None and self.app.scene is self:   # else they are built when it is entered again
            self.kill_ui()
            self.build_ui()

    # --- input ------------------------------------------------------------------------------------------------
    def _widget_event(self, event: pygame.event.Event) -> bool:
        """The action bar's and view strip's buttons, the log's links, then the unit card's unit links."""
        if super()._widget_event(event):
            return True
        if self.card is not None:
            picked = self.card.clicked_unit(event)
            if picked is not None:
                self._pick_from_card(picked)
                return True
        return False

    def _unit_under(self, point: Point) -> str | None:
        return unit_at(self.game.state, point)

    def _drag(self, pos: tuple[int, int]) -> None:
        if self.tool is not None and self.tool.dragging:
            self.tool.drag_to(self.view.to_table(pos))

    def _release(self) -> None:
        if self.tool is not None:
            self.tool.end_drag()

    def _right_click(self) -> None:
        self._cancel()

    def _wheel(self, event: pygame.event.Event) -> bool:
        """Over the ghost (or while dragging it, or rallying): the wheel pivots it (Shift: bigger steps)."""
        t = self.tool
        if t is None or not (t.dragging or t.kind == "rally"
                             or point_in_unit(t.unit, self.view.to_table(self.mouse), pose=t.ghost, slack=0.5)):
            return False
        step = PIVOT_STEP_SHIFT if pygame.key.get_mods() & pygame.KMOD_SHIFT else PIVOT_STEP
        t.pivot(-step * event.y)
        return True

    def _key_up(self, event: pygame.event.Event) -> None:
        self._held.discard(event.key)

    def _key(self, event: pygame.event.Event) -> None:
        k = event.key
        if k in (pygame.K_SPACE, pygame.K_RETURN, pygame.K_KP_ENTER):
            if k in self._held:
                return          # key repeat: Done and Confirm need a fresh press
            self._held.add(k)
        shift = bool(event.mod & pygame.KMOD_SHIFT)
        step = PIVOT_STEP_SHIFT if shift else PIVOT_STEP
        shared = record_key(event) or self._computer_key(event)
        if shared is not None:
            self.command(shared)
        elif k == pygame.K_SPACE:
            self.command("done")
        elif k in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.command("confirm")
        elif k == pygame.K_ESCAPE:
            self._cancel()
        elif k in (pygame.K_q, pygame.K_e):
            if self.tool is None:
                self._tool_for_selected()
            if self.tool is not None:
                self.tool.pivot(-step if k == pygame.K_q else step)
        elif k == pygame.K_BACKSPACE and self.tool is not None:
            self.tool.undo()
        elif k == pygame.K_m:
            self.command("measure")
        elif k == pygame.K_a:
            self.command("arcs")
        elif k == pygame.K_v:
            self.command("sight")
        elif k == pygame.K_c:
            self.command("trails")
        elif k in (pygame.K_f, pygame.K_HOME):
            self.command("fit")
        elif k == pygame.K_t:
            self.command("turn")
        elif k in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
            self.view.zoom_at(self.view.rect.center, 1.25)
        elif k in (pygame.K_MINUS, pygame.K_KP_MINUS):
            self.view.zoom_at(self.view.rect.center, 0.8)
        elif k == pygame.K_TAB:
            if self.game.pending is not None and self.game.pending.decision in ("deploy", "ambush"):
                self.command("next_unit")
            else:
                self._cycle_units()

    def _cancel(self) -> None:
        """Esc / right click: drop the ghost, else the selection."""
        self.error = None
        if self.tool is not None and self.tool.kind in ("move", "rally"):
            self.tool = None
        elif self.tool is not None:
            self.tool.reset()
        elif self.pending is None or self.selected != self.pending.unit:
            self.selected = None

    def _cycle_units(self) -> None:
        """Tab: select the next unit that can act now."""
        order = [u for u in self.game.state.units if u in self.actors]
        if not order:
            return
        i = order.index(self.selected) + 1 if self.selected in order else 0
        self.selected = order[i % len(order)]
        self.tool = None
        s = self.game.state
        unit = s.units[self.selected]
        where = s.units[unit.embarked_in] if unit.embarked_in in s.units else unit  # inside: its Transport
        if where.pose is not None:
            self.view.centre_on(where.pose.xy)

    def _tool_for_selected(self) -> None:
        """Q/E with a unit selected but no ghost yet: start one (move or rally pivot)."""
        pending = self.pending
        uid = self.selected
        if pending is None or uid is None:
            return
        unit = self.game.state.units[uid]
        if pending.decision in ("move", "action") and uid in self._movable:
            self.tool = MoveTool(self.game, unit, pending.player, "move")
        elif pending.decision == "rally" and uid in pending.options:
            self.tool = MoveTool(self.game, unit, pending.player, "rally")
        elif pending.decision == "wavering" and uid == pending.unit:
            self.tool = MoveTool(self.game, unit, pending.player, "rally")

    def _click(self, point: Point, shift: bool = False) -> None:
        """Left click on the table at ``point`` (inches); ``shift`` is not used here."""
        pending = self.pending
        if pending is None:
            return
        s = self.game.state
        uid = unit_at(s, point)
        d = pending.decision
        t = self.tool
        if self.measure and uid is not None:
            self.selected = uid     # measuring: a click only picks the unit to measure from
            return
        if self.computer_deciding:  # while the computer decides a click only selects (to look at a unit)
            self.selected = uid
            return
        if d in decisions.ACTIVATION_CASTING and self.spell is not None:   # AoF:R 2.16 "Wizard(X)"
            if spell_aim.click(self, point):
                return
            if uid is not None and self.selected and uid in decisions.spell_targets(self, self.selected, self.spell):
                decisions.cast_spell(self, uid)
                return
            self.spell = None
        if t is not None and t.kind in ("move", "consolidate") and point_in_unit(t.unit, point, pose=t.ghost):
            t.begin_drag(point)
            return
        if d in ("deploy", "ambush"):
            if t is not None:
                t.translate_to(point)
                t.begin_drag(point)
            return
        if d == "scout_move":
            if t is not None:
                t.begin_drag(point)
            return
        if d == "place_objective":     # the engine says whether it may go there (game.engine.objectives)
            x, y = placement_point(s, pending.player, round(point[0], 2), round(point[1], 2))
            self.act(PlaceObjective(player=pending.player, x=x, y=y))
            return
        if d == "strategy":
            if spell_aim.click(self, point):      # a spell aimed at a point of the table (game/ui/spell_aim.py)
                return
            if uid is not None and self.spell is not None and self.selected \
                    and uid in decisions.spell_targets(self, self.selected, self.spell):
                decisions.cast_spell(self, uid)
                return
            if uid != self.selected:
                self.spell = None
            self._select(uid)
            return
        if d == "activate":      # an activation ruleset (AoF:R 2.16): click a unit that may activate
            if uid is not None and uid in pending.options:
                self.act(Activate(player=pending.player, unit=uid))
                return
            if uid is not None and s.units[uid].player == pending.player:
                self.show_banner(f"{s.units[uid].profile.name} has already been activated this round.",
                                 palette.SHAKEN)
            self._select(uid)
            return
        if d == "action" and uid is not None and pending.unit is not None and s.units[uid].player != pending.player:
            if uid in self.targets_of(pending.unit):
                self.act(DeclareCharge(player=pending.player, unit=pending.unit, target=uid,
                                       model=self._hero_clicked(pending.unit, uid, point),
                                       breath=self.breath and self.game.breath_in_melee(pending.unit)))
            else:
                self.show_banner(self._no_target_text(pending.unit, "declare_charge"), palette.SHAKEN, 6.0)
            return
        if d in ("move", "action"):
            if uid is not None and uid in self._movable:
                if t is not None and t.changed and t.unit.id != uid:
                    self.show_banner(f"Move of {t.unit.profile.name} cancelled (not confirmed).", palette.SHAKEN)
                self.selected = uid
                self.tool = MoveTool(self.game, s.units[uid], pending.player, "move")
                self.tool.begin_drag(point)
                return
            if uid is not None and s.units[uid].player == pending.player:
                why = can_move(s, s.units[uid]) or "it cannot move now"
                self.show_banner(f"{s.units[uid].profile.name} cannot move: {why}.", palette.SHAKEN)
            self._select(uid)
            return
        if d == "shoot" and self.artillery.click(point):    # artillery fires at a target point
            return
        if d in ("declare_charge", "shoot"):
            sel = self.selected
            own = sel is not None and sel in s.units and s.units[sel].player == pending.player
            if uid is not None and own and s.units[uid].player != pending.player:
                assert sel is not None
                if d == "declare_charge":
                    self.act(DeclareCharge(player=pending.player, unit=sel, target=uid))
                else:
                    weapons = decisions.shot_weapons(self, sel)
                    if self.act(Shoot(player=pending.player, unit=sel, target=uid, weapons=weapons)):
                        self.fire.pop(sel, None)
                return
            self._select(uid)
            if uid is not None and s.units[uid].player == pending.player and not self.targets_of(uid) \
                    and not self.game.point_shooter(uid):
                self.show_banner(self._no_target_text(uid, d), palette.SHAKEN, 6.0)
            return
        if d == "roll_charge":       # Random Charge Distances: clicking a charger rolls its charge next
            if uid is not None and uid in pending.options:
                self.act(RollCharge(player=pending.player, unit=uid))
            else:
                self._select(uid)
            return
        if d == "redirect":
            if uid is not None and s.units[uid].player != pending.player:
                self.act(Redirect(player=pending.player, unit=pending.unit, target=uid))
            return
        if d == "wavering":
            if t is None and pending.unit in s.units:
                self.tool = MoveTool(self.game, s.units[pending.unit], pending.player, "rally")
            return
        if d == "rally":
            if uid is not None and uid in pending.options:
                self.selected = uid
                if t is None or t.unit.id != uid:
                    self.tool = MoveTool(self.game, s.units[uid], pending.player, "rally")
                return
            self._select(uid)
            return
        self._select(uid)

    def _pick_from_card(self, uid: str) -> None:
        """A unit link on the unit card (a Transport's passenger, a passenger's Transport) selects that unit, as
        a click on it would; with a charge or a shot to declare, an own unit without target says why."""
        s = self.game.state
        pending = self.pending
        if uid not in s.units:
            return
        self.selected = uid
        self.tool = None
        d = pending.decision if pending is not None else None
        if d in ("declare_charge", "shoot") and pending is not None and s.units[uid].player == pending.player \
                and not self.targets_of(uid):
            self.show_banner(self._no_target_text(uid, d), palette.SHAKEN, 6.0)

    def _hero_clicked(self, uid: str, enemy_id: str, point: Point) -> str | None:
        """The enemy's joined hero when the click ``point`` (inches) is on its base and ``uid`` may pick it in the
        melee ("Takedown": ``Game.melee_pick``), else None."""
        hero = self.game.melee_pick(uid, enemy_id)
        enemy = self.game.state.units[enemy_id]
        if hero is None or enemy.pose is None:
            return None
        index = hero_index(enemy.formation)
        bases = model_polygons(enemy.pose, enemy.formation)
        if index is None or index >= len(bases):
            return None
        return hero if bases[index].buffer(0.2).contains(ShapelyPoint(point)) else None

    def _no_target_text(self, uid: str, decision: str | None) -> str:
        """Why ``uid`` has no target: for each of the nearest enemies the one reason the engine gives (out of
        range, out of arc, no line of sight, engaged...). A unit inside a Transport is measured from it."""
        s = self.game.state
        unit = s.units[uid]
        name = unit.profile.name
        if decision == "shoot":
            restriction = shooting_restriction(unit)
            if restriction is not None:
                return f"{name} cannot shoot — {restriction[0]}: {restriction[1]}."
        origin = unit.embarked_in if unit.embarked_in in s.units and not unit.on_table else uid
        if not s.scene.has_unit(origin):
            return f"{name} is not on the table."
        enemies = sorted((e for e in s.enemies_of(unit.player) if e.on_table),
                         key=lambda e: s.scene.distance(origin, e.id))[:3]
        reasons = []
        for e in enemies:
            if decision == "declare_charge":
                problem = self.insight.charge_problem(uid, e.id)
                why = problem.message if problem is not None else None
            else:
                shot = self.insight.shot(uid, e.id)
                why = shot.reason if shot is not None else None
            if why:       # the engine's words name the enemy already; without the ids, for a banner
                reasons.append(short_purpose(why))
        reasons = list(dict.fromkeys(reasons))     # one reason for every enemy (the unit itself cannot) said once
        done = [s.units[c.target].profile.name for c in s.charges if c.unit == uid and c.target in s.units]
        shooters_targets = [s.units[t].profile.name for t in s.units[uid].shot_targets if t in s.units]
        if decision == "declare_charge" and done:      # say what it did, not "no target"
            return f"{name} has declared its charge this phase (against {', '.join(done)})."
        if decision == "shoot" and shooters_targets:
            return f"{name} has shot this phase (at {', '.join(shooters_targets)})."
        if len(reasons) == 1 and len(enemies) > 1:     # a reason of the unit's own (Shaken, rushed...): once
            return f"{name}: {reasons[0]}."
        what = "no enemy within charge reach" if decision == "declare_charge" else "no valid target"
        rules = {r.partition(": ")[0] for r in reasons if ": " in r}
        if len(rules) == 1 and all(": " in r for r in reasons):      # one rule for all: named once
            what += f" ({rules.pop()})"
            reasons = [r.partition(": ")[2] for r in reasons]
        return f"{name}: {what}" + (" — " + "; ".join(reasons) if reasons else "") + "."

    def _select(self, uid: str | None) -> None:
        pending = self.pending
        if uid is None and pending is not None and pending.unit is not None:
            return  # the unit the decision is about stays selected
        self.selected = uid
        if self.tool is not None and self.tool.kind == "move" and not self.tool.changed:
            self.tool = None

    # --- frame ---------------------------------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        """Catch up with the game, re-evaluate the ghost, refresh the widgets."""
        self.time += dt
        self._sync()
        if self.app.scene is not self:
            return
        self._computer_turn()
        if self.app.scene is not self:
            return
        if self.tool is not None:
            self.tool.evaluate()
        self._refresh_widgets()
        if self.banner is not None and self.time > self.banner[2]:
            self.banner = None

    def _refresh_widgets(self) -> None:
        s = self.game.state
        pending = self.game.pending
        if self.hud is not None:
            player = pending.player if pending else s.active_player
            focus = self.tool.unit.id if self.tool is not None else None
            if self.computer_deciding:
                hint = self._computer_hint()
            else:
                hint = describe.instruction(s, pending, self.tool is not None, focus,
                                            bool(self.casts) or bool(spell_aim.point_casters(self)))
            title = describe.position(s)
            if self.computer is not None:
                title += f" · vs {self.computer.words} as player {self.computer.player}"
            self.hud.show(title, hint, player)
        if self.card is not None:
            self.card.show(s, self.selected or self.hover, self.hover if self.selected else None,
                           self.insight.stamp)
        if self.tools is not None:
            on = {"measure": self.measure, "arcs": self.show_arcs, "sight": self.show_sight,
                  "trails": self.show_trails}
            self.tools.sync(frozenset(k for k, v in on.items() if v))
        if self.actions is not None:
            self.actions.set_buttons(self._button_specs())
        if self.log is not None:
            self.log.update()

    def draw(self, screen: pygame.Surface) -> None:
        """Table, units, highlights, ghost, labels, tapes and notes (``game.ui.battle_draw``)."""
        battle_draw.clear_band(self, screen)
        battle_draw.draw(self, screen)
