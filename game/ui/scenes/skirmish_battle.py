"""The battle screen of AoF: Skirmish (issue 18): loose models on a 4'x4' table, hotseat.

Every decision of ``game.engine.rulesets.skirmish`` is answered here: the edge (buttons), objective markers (click
the table), deployment (the unit's models follow the mouse; click to place), activation (click a unit), the action
(drag the unit as a group, Shift-drag one model, Spread/Tighten, then Advance or Rush; Hold; click an enemy to
charge), shooting (click a target), strike back and consolidation (buttons, the move tool). "Caster(X)": while the
activated caster may cast ("Cast a spell ▸": a spell, the tokens of friendly casters in reach for +1 each, then
click a yellow target); against an enemy cast, the tokens spent (decision ``dispel``: a button per caster and count,
or none). "Pushing" (decision ``push``): click or drag where the Shaken model goes (up to 2", the ring), then Push
(Enter) or Don't push (Space). Every change goes
through ``SkirmishBattleScene.act`` -> ``Game.apply``; drawing only reads (``game.ui.draw_loose``).

Undo (Ctrl+Z) takes back the last action while no die was rolled since, Save (Ctrl+S) writes the record now and
Menu leaves with the game saved, as on the regiments screen (one implementation: ``game.ui.record_controls``);
hotseat, the seat changes with a banner in the player's colour, not a hand-over screen
(everything in AoF: Skirmish is open information: docs/rulings.md "AoF Skirmish", "The seat in hotseat"). Against
the computer (``computer``), its seat is played by ``game.ui.computer_play.ComputerTurns`` through the regiments
screen's ``ComputerSide`` (a pause per decision, a log line with the reason its search computed:
``game.ai.explain``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.engine import magic
from game.engine.actions import (
    Action,
    Activate,
    CastSpell,
    ChooseDeployment,
    DeclareCharge,
    Dispel,
    Done,
    PlaceModels,
    PlaceObjective,
    PushModel,
    SetAside,
    Shoot,
    StrikeBack,
    TablePoint,
    TokenSpend,
)
from game.engine.errors import IllegalAction
from game.engine.events import Event
from game.engine.rulesets.skirmish import EDGES, SCOUT_REACH, ZONE_DEPTH, AoFSkirmish
from game.engine.skirmish import moves
from game.engine.skirmish.loose import XY, base_radius, warband_of
from game.engine.skirmish.push import PUSH_REACH
from game.skirmish_play import grid
from game.ui import draw_loose, palette, record_controls
from game.ui.acting import announce, apply_action
from game.ui.action_bar import ButtonSpec
from game.ui.assets import font
from game.ui.draw_objectives import draw_objectives
from game.ui.layout import BattleLayout
from game.ui.loose_tool import SPREAD_STEP, LooseMoveTool
from game.ui.overlays import draw_news
from game.ui.scenes.table_scene import TableScene
from game.ui.stats_draw import fit_text

if TYPE_CHECKING:
    from game.computer_seat import ComputerSeat
    from game.engine.game import Game
    from game.engine.state import Pending
    from game.ui.window import Window

ROWS = (5, 2, 1)
"""Models per row of a unit being deployed (the Formation button cycles them)."""


class SkirmishBattleScene(TableScene):
    """A game of AoF: Skirmish in progress: hotseat, or against the computer playing ``computer``'s seat."""

    def __init__(self, app: Window, game: Game, scenario_path: str | None = None,
                 kinds: list[str] | None = None, computer: ComputerSeat | None = None) -> None:
        super().__init__(app, game, scenario_path, kinds, computer)
        self.tool: LooseMoveTool | None = None
        self.deploy_unit: str | None = None
        self.rows = ROWS[0]
        self.seat_banner: tuple[str, tuple[int, int, int], float] | None = None
        """Whose decision it is now, over the top of the table for a few seconds after the seat changed."""
        # self.anims: loose models do not glide, always empty (the computer's pacing asks it); self._seat: the
        # player the screen was last given to (a banner shows each change of seat)
        if computer is not None:
            self._seat = computer.person
        self.results_shown = False
        """The results were shown once (coming back looks at the table)."""
        self._target_cache: tuple[object, set[str]] = (None, set())
        self.spell_menu = False
        """"Caster(X)": the spell buttons are shown instead of the unit's moves."""
        self.spell: str | None = None
        """The spell chosen: the next click on a yellow unit casts it."""
        self.boost: dict[str, int] = {}
        """Tokens of friendly casters in reach added to the chosen spell's roll (+1 each), per caster."""
        self.push_at: XY | None = None
        """"Pushing": where the pushed model would go (the click or drag), inches."""
        self.push_drag = False

    @property
    def ruleset(self) -> AoFSkirmish:
        """The game's ruleset."""
        rs = self.game.ruleset
        assert isinstance(rs, AoFSkirmish)
        return rs

    # --- widgets --------------------------------------------------------------------------------------------
    def build_ui(self) -> None:
        """Top bar, action bar, unit card, dice panel and log laid out for the window size."""
        lay = BattleLayout.for_size(self.app.size)
        self.view.set_rect(lay.table)
        self._build_panels(lay)
        self._pending_key = None
        self._sync()

    # --- the game ---------------------------------------------------------------------------------------------
    def act(self, action: Action) -> bool:
        """Send ``action`` to the engine; show the rule it breaks if it is illegal. True if it was applied.
        While the computer decides, the person's actions are refused (it answers for its seat)."""
        if self._person_waits():
            return False
        events = apply_action(self, action, self._illegal)
        if events is None:
            return False
        self._applied(events, None)
        return True

    def _illegal(self, e: IllegalAction) -> None:
        """An illegal action: the rule it breaks in the banner and in the log."""
        self.show_banner(f"{e.rule}: {e.message}", palette.ILLEGAL, 6.0)
        self.feed.note(f"Not allowed — {e.rule}: {e.message}", "illegal", self.log)

    def _applied(self, events: list[Event], placed: str | None) -> None:
        """After an action was applied (the person's or the computer's): log, dice, banner, record, snapshot for
        Undo, the next decision. ``placed`` is unused (no glides here)."""
        self._add_events(events)
        announce(self, events)
        record_controls.keep_record(self)
        self._sync()

    # --- take back (shared with the regiments screen: game/ui/record_controls.py) --------------------------------
    def _taker(self) -> int:
        """Who takes back in hotseat: the player who made the last action (the seat changes without a hand-over
        screen, so they may take it back while the other player has not acted since); else the deciding one."""
        if self.game.history:
            return self.game.history[-1].player
        p = self.game.pending
        return p.player if p is not None else self.game.state.active_player

    def undo_refusal(self) -> str | None:
        """Why the last action may not be taken back now (``game.replay.take_back_refusal``: never across dice),
        or None. Against the computer: why the person may not take back their last own action."""
        if self.computer is not None:
            return self._computer_undo()[0]
        return record_controls.hotseat_refusal(self.game, self.rewinder, self._taker())

    def undo(self) -> bool:
        """Ctrl+Z / Undo: take back the last action while no die has been rolled since (against the computer: the
        person's last own action and the computer's answers since). The game is replayed without it and the
        record rewritten. True if done."""
        why = self.undo_refusal()
        if self.computer is not None:
            if why is not None:
                self.show_banner(f"Cannot take back: {why}", palette.SHAKEN, 5.0)
                return False
            return self._undo_against_computer()
        return record_controls.take_back_hotseat(self, self._taker(), why, self._keep_seat)

    def _keep_seat(self, player: int) -> None:
        """The one who took back keeps the seat: no seat banner."""
        self._seat = player

    def _reset_view_of_game(self) -> None:
        """After the game object was replaced (a take-back): log, dice and widgets start again from the new game."""
        game = self.game
        self.tool = None
        self._target_cache = (None, set())
        self.feed.reset(game.log, self._rolls_here())
        if self.hud is not None and self.app.scene is self:    # else they are built when it is entered again
            self.kill_ui()
            self.build_ui()

    def _rolls_here(self) -> list[Event] | None:
        """The rolls the dice panel shows after the game was replaced (None: the log's last ones)."""
        return None

    def _sync(self) -> None:
        """React to a new pending decision: results, tool, deploy unit, the seat's banner, texts and buttons."""
        p = self.game.pending
        key = (p, len(self.game.history))
        if key != self._pending_key:
            self._pending_key = key
            self.tool = None
            self.spell_menu, self.spell, self.boost, self.push_at, self.push_drag = False, None, {}, None, False
            if p is None:
                if not self.results_shown:     # once: "Look at the table" comes back here
                    self.results_shown = True
                    self.app.show_results(self.game, back=self)
                return
            if self.computer_deciding:      # the computer answers: nothing of the person's to prepare
                self.deploy_unit = None
                if p.unit is not None:
                    self.selected = p.unit
                self._refresh()
                return
            if p.player != self._seat:
                if self._seat is not None:    # open information: a banner, not a hand-over screen
                    self.seat_banner = (f"Player {p.player}, your turn: {self._hint(p)}", palette.PLAYER[p.player],
                                        self.time + 3.0)
                self._seat = p.player
            else:       # the same player's next decision: the banner's words are out of date
                self.seat_banner = None
            if p.unit is not None:
                self.selected = p.unit
            if p.decision == "action" and p.unit is not None and self.ruleset.units_to_move(p.player):
                self.tool = LooseMoveTool(self.game, p.unit, p.player)
            elif p.decision == "consolidate" and p.unit is not None:
                self.tool = LooseMoveTool(self.game, p.unit, p.player, consolidate=True)
            self.deploy_unit = p.options[0] if p.decision in ("deploy", "ambush") and p.options else None
        self._refresh()

    def _targets(self) -> set[str]:
        """The enemies the unit being activated may charge (action) or shoot (shoot), asked of the engine once per
        decision (a charge's reach is a whole charge move worked out)."""
        p = self.game.pending
        key = (p, len(self.game.history), id(self.game), self.spell)
        if self._target_cache[0] == key:
            return self._target_cache[1]
        out: set[str] = set()
        if p is not None and p.unit is not None:
            cast = magic.magic_of(self.game.state).cast if p.decision == "dispel" else None
            if cast is not None and cast.target is not None:
                out = {cast.target}         # what the enemy's spell aims at
            elif self.spell is not None:
                out = {c.target for c in self._casts() if c.spell == self.spell and c.target is not None}
            elif p.decision == "action":
                out = set(self.ruleset.charge_targets(p.unit))
            elif p.decision == "shoot":
                out = set(self.ruleset.shooting_targets(p.unit))
        self._target_cache = (key, out)
        return out

    # --- "Caster(X)" -------------------------------------------------------------------------------------------
    def _casts(self) -> list[CastSpell]:
        """The spells the activated caster may try now (empty while it may not)."""
        p = self.game.pending
        if p is None or p.decision not in ("action", "shoot") or self.computer_deciding:
            return []
        return self.ruleset.activation_casts(p.player)

    def _spare(self) -> list[tuple[str, int]]:
        """Friendly casters in reach of the chosen spell's caster and the tokens each may add (the caster: beyond
        the spell's value)."""
        p = self.game.pending
        if p is None or p.unit is None or self.spell is None:
            return []
        s = self.game.state
        spell = magic.spells_of(s, p.player).get(self.spell)
        caster = s.units[p.unit]
        value = spell.value if spell is not None else 0
        out = []
        for uid, n in magic.token_sources(s, caster, p.player):
            left = n - (value if uid == caster.id else 0)
            if uid is not None and left > 0:
                out.append((uid, left))
        return out

    def _spell_buttons(self) -> list[ButtonSpec]:
        """The caster's spells (value in brackets), the tokens to add once one is chosen, and Back."""
        p = self.game.pending
        assert p is not None
        s = self.game.state
        out: list[ButtonSpec] = []
        names: list[str] = []
        for c in self._casts():
            if c.spell not in names:
                names.append(c.spell)
        for name in names:
            spell = magic.spells_of(s, p.player).get(name)
            on = self.spell == name
            out.append(ButtonSpec(f"spell:{name}", ("✦ " if on else "") + f"{name} ({spell.value if spell else '?'})",
                                  spell.summary() if spell is not None else None, "#toggle_on" if on else None,
                                  short=("✦ " if on else "") + name))
        for uid, left in self._spare():
            k = self.boost.get(uid, 0)
            who = s.units[uid].profile.name
            out.append(ButtonSpec(f"boost:{uid}", f"+{k} token{'s' if k != 1 else ''} ({who})",
                                  f"Spend tokens of {who} on the roll: +1 each (it may spend {left}); click again for "
                                  "more", "#toggle_on" if k else None, short=f"+{k} ({who.split()[-1]})"))
        out.append(ButtonSpec("spell_menu", "◂ Back", "Back to the unit's action (no spell) (Esc)"))
        return out

    def _dispel_buttons(self) -> list[ButtonSpec]:
        """"Caster(X)": a button per caster in reach and count (up to 3) spent against the enemy's cast, and none."""
        p = self.game.pending
        assert p is not None
        s = self.game.state
        caster = s.units.get(p.unit or "")
        out: list[ButtonSpec] = []
        for uid, held in magic.token_sources(s, caster, p.player) if caster is not None else []:
            if uid is None:
                continue
            for n in range(1, min(held, 3) + 1):
                out.append(ButtonSpec(f"dispel:{uid}:{n}", f"{s.units[uid].profile.name}: -{n}",
                                      f"Spend {n} token{'s' if n > 1 else ''} against the cast: -{n} to its roll"))
        out.append(ButtonSpec("done", "Spend none (Space)", "Let the roll go ahead without your tokens",
                              "#primary_button", short="None"))
        return out

    def _push_action(self) -> PushModel | None:
        p = self.game.pending
        if p is None or p.decision != "push" or p.unit is None or self.push_at is None:
            return None
        return PushModel(p.player, p.unit, round(self.push_at[0], 3), round(self.push_at[1], 3))

    def _push_problem(self) -> str | None:
        """Why the push to ``push_at`` is refused (None: legal; "no spot" before a click)."""
        action = self._push_action()
        if action is None:
            return "click or drag where the model goes"
        why = self.ruleset.check_push(action)
        return None if why is None else f"{why.rule}: {why.message}"

    def _refresh(self) -> None:
        """Texts of the top bar, the buttons of the decision, the card."""
        p = self.game.pending
        if p is None or self.hud is None or self.actions is None:
            return
        s = self.game.state
        title = f"Round {s.round} of {s.rounds} — Player {p.player}" if s.round else f"Player {p.player}"
        hint = self._computer_hint() if self.computer_deciding else self._hint(p)
        self.hud.show(f"{title} — AoF: Skirmish", hint, p.player)
        self.actions.set_buttons(self._buttons())
        if self.card is not None:
            self.card.show(s, self.selected if self.selected in s.units else None)

    def _hint(self, p: Pending) -> str:
        """What the deciding player does now, in a line."""
        s = self.game.state
        unit = s.units[p.unit].profile.name if p.unit is not None else ""
        hints = {
            "choose_deployment": "You won the deployment roll-off: pick your table edge",
            "place_objective": "Click the table to place an objective marker (outside deployment zones, 9\" apart)",
            "deploy": f"Click inside your zone to place {s.units[self.deploy_unit].profile.name}"
                      + (" (Scout: up to 12\" beyond it)" if self.ruleset.w.scouting else "")
                      if self.deploy_unit else "Deploy",
            "ambush": f"Ambush: click anywhere over 9\" from the enemy to place "
                      f"{s.units[self.deploy_unit].profile.name}, or keep it waiting" if self.deploy_unit else "Ambush",
            "activate": "Click one of your units (green) to activate it",
            "action": f"{unit}: drag to move the group (Shift-drag: one model), then Advance or Rush; "
                      "Hold; or click a yellow enemy to charge" + ("; or Cast a spell first" if self._casts() else ""),
            "shoot": f"{unit}: click a yellow enemy to shoot, or Done",
            "strike_back": f"{unit} was charged: strike back?",
            "consolidate": f"{unit} may move up to 3\" (drag), or stay",
            "push": f"{unit} rolled Shaken: click or drag where to push it (up to 2\", 4+ to push), then Push; or "
                    "don't",
        }
        if p.decision == "dispel":
            cast = magic.magic_of(s).cast
            what = f"{cast.spell} of {s.units[cast.caster].profile.name}" if cast is not None else "a spell"
            return f"Enemy spell: {what}. Spend tokens against it (-1 each), or none"
        if p.decision in ("action", "shoot") and self.spell is not None:
            return f"{self.spell}: click a yellow unit to cast it on (Esc: no spell)"
        if p.decision == "shoot" and self._casts() and not self.ruleset.shooting_targets(p.unit or ""):
            return f"{unit}: cast a spell before attacking, or Done"
        return hints.get(p.decision, p.decision)

    def _buttons(self) -> list[ButtonSpec]:
        """The decision's buttons (the computer's pace and Skip while it decides), then Undo, Save and Menu at the
        right end (``game.ui.record_controls``)."""
        if self.game.pending is None:
            return []
        if self.computer_deciding:
            return self._computer_buttons() + record_controls.record_buttons(self.undo_refusal())
        return self._decision_buttons() + record_controls.record_buttons(self.undo_refusal())

    def _decision_buttons(self) -> list[ButtonSpec]:
        p = self.game.pending
        if p is None:
            return []
        d = p.decision
        if d == "choose_deployment":
            return [ButtonSpec(f"edge:{e}", f"{e.title()} edge") for e in EDGES]
        if d in ("deploy", "ambush"):
            out_ = [ButtonSpec("next_unit", "Next unit", "Place another of your units (Tab)"),
                    ButtonSpec("rows", f"{self.rows} per row", "The group's shape while you place it")]
            unit = self.game.state.units.get(self.deploy_unit or "")
            if d == "deploy" and unit is not None and not self.ruleset.w.scouting:
                if unit.has("Ambush"):
                    out_.append(ButtonSpec("set_aside:Ambush", "Set aside (Ambush)", "It arrives from round 2, "
                                           "anywhere over 9\" from the enemy"))
                if unit.has("Scout"):
                    out_.append(ButtonSpec("set_aside:Scout", "Set aside (Scout)", "It deploys after all other units, "
                                           "anywhere within 12\" of your zone"))
            if d == "ambush":
                out_.append(ButtonSpec("done", "Keep waiting", "Place no Ambush unit this round", "#primary_button"))
            return out_
        out: list[ButtonSpec] = []
        casts = bool(self._casts())
        if casts and self.spell_menu and d in ("action", "shoot"):
            return self._spell_buttons()
        if casts and d in ("action", "shoot"):
            out.append(ButtonSpec("spell_menu", "Cast a spell ▸", "Pick one of the caster's spells (4+ to cast; tokens "
                                  "of casters within 18\" add +1/-1 each), then click its target", "#primary_button",
                                  short="Cast ▸"))
        if d == "dispel":
            return self._dispel_buttons()
        if d == "push":
            why = self._push_problem()
            return [ButtonSpec("push", "Push (Enter)", why or "Roll one die: on a 4+ the model is pushed there",
                               "#primary_button", enabled=why is None, short="Push"),
                    ButtonSpec("done", "Don't push (Space)", "Leave the model where it stands", short="Don't")]
        if d == "action":
            out.append(ButtonSpec("done", "Hold", "Stay where it is (it may shoot after)", "#primary_button"))
            t = self.tool
            if t is not None:
                for kind in ("advance", "rush"):
                    ok = t.moved() and t.problem(kind) is None
                    out.append(ButtonSpec(kind, kind.title(), f"{kind.title()} to the ghost (Enter); drag the unit "
                                          "first (why a move is refused shows under the ghost)", enabled=ok))
                out += [ButtonSpec("spread", "Spread", "Open the group up (+)"),
                        ButtonSpec("tighten", "Tighten", "Close the group up (-)"),
                        ButtonSpec("reset", "Reset", "Back to where the models stand")]
        elif d == "shoot":
            out.append(ButtonSpec("done", "Done", "Stop shooting", "#primary_button"))
        elif d == "strike_back":
            out += [ButtonSpec("strike_back", "Strike back", "Strike back (hits only on 6s: fatigued)",
                               "#primary_button"), ButtonSpec("done", "Don't")]
        elif d == "consolidate":
            t = self.tool
            ok = t is not None and t.moved() and t.problem() is None
            out += [ButtonSpec("consolidate", "Move", "Move to the ghost", enabled=ok),
                    ButtonSpec("done", "Stay", "Don't move", "#primary_button"),
                    ButtonSpec("reset", "Reset")]
        return out

    # --- commands -------------------------------------------------------------------------------------------
    def command(self, key: str) -> None:
        """Run a button's command."""
        p = self.game.pending
        if p is None:
            return
        if key == "undo":
            self.undo()
            return
        if key == "save":
            self.save()
            return
        if key == "menu":
            record_controls.leave_to_menu(self)
            return
        if self._computer_command(key) or self.computer_deciding or key.startswith("computer_"):
            self._refresh()
            return         # a decision's button while the computer decides: not the person's to answer
        if key.startswith("edge:"):
            self.act(ChooseDeployment(p.player, p.player, key.split(":", 1)[1]))
        elif key == "done":
            self.act(Done(p.player))
        elif key == "strike_back" and p.unit is not None:
            self.act(StrikeBack(p.player, p.unit))
        elif key == "spell_menu":
            self.spell_menu, self.spell, self.boost = not self.spell_menu, None, {}
        elif key.startswith("spell:"):
            self._choose_spell(key.split(":", 1)[1])
        elif key.startswith("boost:"):
            uid = key.split(":", 1)[1]
            left = dict(self._spare()).get(uid, 0)
            self.boost[uid] = (self.boost.get(uid, 0) + 1) % (left + 1)
        elif key.startswith("dispel:"):
            _, uid, n = key.split(":")
            self.act(Dispel(p.player, (TokenSpend(int(n), uid),)))
        elif key == "push":
            action = self._push_action()
            if action is not None:
                self.act(action)
        elif key in ("advance", "rush", "consolidate") and self.tool is not None:
            self.act(self.tool.action(key))
        elif key == "spread" and self.tool is not None:
            self.tool.spread(SPREAD_STEP)
        elif key == "tighten" and self.tool is not None:
            self.tool.spread(1 / SPREAD_STEP)
        elif key == "reset" and self.tool is not None:
            self.tool.reset()
        elif key.startswith("set_aside:") and self.deploy_unit is not None:
            self.act(SetAside(p.player, self.deploy_unit, key.split(":", 1)[1]))
        elif key == "next_unit" and p.decision in ("deploy", "ambush") and p.options:
            opts = list(p.options)
            i = opts.index(self.deploy_unit) if self.deploy_unit in opts else -1
            self.deploy_unit = opts[(i + 1) % len(opts)]
        elif key == "rows":
            self.rows = ROWS[(ROWS.index(self.rows) + 1) % len(ROWS)]
        self._refresh()

    def _choose_spell(self, name: str) -> None:
        """Pick (or drop) a spell; a spell on the caster only is cast at once."""
        if self.spell == name:
            self.spell, self.boost = None, {}
            return
        self.spell, self.boost = name, {}
        p = self.game.pending
        options = [c for c in self._casts() if c.spell == name]
        spell = magic.spells_of(self.game.state, p.player).get(name) if p is not None else None
        if spell is not None and spell.target == "self" and options and options[0].target is not None:
            self._cast_on(options[0].target)

    def _cast_on(self, target: str) -> bool:
        """Cast the chosen spell on ``target`` with the tokens added."""
        p = self.game.pending
        if p is None or p.unit is None or self.spell is None:
            return False
        boost = tuple(TokenSpend(k, uid) for uid, k in self.boost.items() if k > 0)
        return self.act(CastSpell(p.player, p.unit, self.spell, target, boost))

    def _placement(self, at: XY) -> list[XY]:
        assert self.deploy_unit is not None
        unit = self.game.state.units[self.deploy_unit]
        return grid(unit.models, base_radius(unit.profile), at, per_row=self.rows)

    def _placement_action(self, at: XY) -> PlaceModels | None:
        p = self.game.pending
        if p is None or self.deploy_unit is None:
            return None
        pts = self._placement(at)
        return PlaceModels(p.player, self.deploy_unit, tuple(TablePoint(round(x, 3), round(y, 3)) for x, y in pts))

    def _unit_at(self, point: XY) -> str | None:
        s = self.game.state
        w = warband_of(s)
        for unit in s.units.values():
            if not unit.on_table:
                continue
            r = base_radius(unit.profile)
            if any((m.x - point[0]) ** 2 + (m.y - point[1]) ** 2 <= (r + 0.1) ** 2 for m in w.models.get(unit.id, [])):
                return unit.id
        return None

    def _click(self, point: XY, shift: bool) -> None:
        p = self.game.pending
        if p is None:
            return
        d = p.decision
        if d == "place_objective":
            self.act(PlaceObjective(p.player, round(point[0], 3), round(point[1], 3)))
            return
        if d in ("deploy", "ambush"):
            action = self._placement_action(point)
            if action is not None:
                self.act(action)
            return
        if d == "push":
            self.push_at, self.push_drag = point, True
            self._refresh()
            return
        if d in ("action", "shoot") and self.spell is not None:
            uid = self._unit_at(point)
            if uid is not None and uid in self._targets():
                self._cast_on(uid)
            elif uid is not None:
                self.show_banner(f"{self.spell} can't be cast on {self.game.state.units[uid].profile.name}: out of "
                                 "range or line of sight", palette.ILLEGAL, 4.0)
            self._refresh()
            return
        if self.tool is not None and self.tool.begin(point, shift):
            return
        uid = self._unit_at(point)
        if uid is None:
            return
        self.selected = uid
        if d == "activate" and uid in p.options:
            self.act(Activate(p.player, uid))
        elif d == "action" and p.unit is not None and uid in self._targets():
            self.act(DeclareCharge(p.player, p.unit, uid))
        elif d == "shoot" and p.unit is not None and uid in self._targets():
            self.act(Shoot(p.player, p.unit, uid))
        self._refresh()

    # --- input ----------------------------------------------------------------------------------------------
    def _unit_under(self, point: XY) -> str | None:
        return self._unit_at(point)

    def _drag(self, pos: tuple[int, int]) -> None:
        """The move tool's drag (Advance and Rush follow the ghost), or where the pushed model goes."""
        if self.tool is not None and self.tool.dragging:
            self.tool.drag_to(self.view.to_table(pos))
            self._refresh()
        elif self.push_drag:
            self.push_at = self.view.to_table(pos)
            self._refresh()

    def _release(self) -> None:
        if self.tool is not None and self.tool.dragging:
            self.tool.end_drag()
            self._refresh()
        elif self.push_drag:
            self.push_drag = False
            self._refresh()

    def _key(self, event: pygame.event.Event) -> None:
        p = self.game.pending
        if p is None:
            return
        shared = record_controls.record_key(event) or self._computer_key(event)
        if shared is not None:
            self.command(shared)
        elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and p.decision == "push":
            why = self._push_problem()
            if why is None:
                self.command("push")
            else:
                self.show_banner(why, palette.ILLEGAL, 5.0)
        elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and self.tool is not None and self.tool.moved():
            kind = self.tool.kind()
            if self.tool.problem(kind) is None:
                self.act(self.tool.action(kind))
            else:
                self.show_banner(str(self.tool.problem(kind)), palette.ILLEGAL, 5.0)
        elif event.key == pygame.K_SPACE:
            if p.decision in ("action", "shoot", "strike_back", "consolidate", "ambush", "dispel", "push"):
                self.act(Done(p.player))
        elif event.key in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
            self.command("spread")
        elif event.key in (pygame.K_MINUS, pygame.K_KP_MINUS):
            self.command("tighten")
        elif event.key == pygame.K_TAB:
            self.command("next_unit")
        elif event.key == pygame.K_ESCAPE and (self.spell_menu or self.spell is not None):
            self.spell_menu, self.spell, self.boost = False, None, {}
            self._refresh()
        elif event.key == pygame.K_ESCAPE and self.tool is not None:
            self.tool.reset()
            self._refresh()

    def update(self, dt: float) -> None:
        """Advance the clock (banners), the computer's turn (against it) and the log panel."""
        self.time += dt
        if self.turns is not None:
            self._computer_turn()
        if self.log is not None:
            self.log.update()

    # --- drawing --------------------------------------------------------------------------------------------
    def draw(self, screen: pygame.Surface) -> None:
        """Table, terrain, zones, markers, models, ranges, the ghost, the banner."""
        s = self.game.state
        screen.fill(palette.BACKGROUND)
        clip = screen.get_clip()
        screen.set_clip(self.view.rect)
        # each player's edge in their colour once it is chosen (a scenario that places the units: south for player 1)
        self.static.home = warband_of(s).edges.get(1, None if s.phase.value == "deployment" else "south")
        self.static.draw(screen, self.view)
        heights = draw_loose.draw_elevation(screen, self.view, s)
        p = self.game.pending
        if s.phase.value == "deployment" and warband_of(s).edges:
            scouting = warband_of(s).scouting
            draw_loose.draw_zones(screen, self.view, s, ZONE_DEPTH + (SCOUT_REACH if scouting else 0.0))
        draw_objectives(screen, self.view, s)
        actors = set(p.options) if p is not None and p.decision == "activate" else \
            ({p.unit} if p is not None and p.unit else set())
        shown = self.selected if self.selected in s.units and s.units[self.selected].on_table else None
        on_table = self.view.rect.clip(self.view.table_rect)
        screen.set_clip(on_table)       # reaches end at the table's edges: never over the band round it
        spell = magic.spells_of(s, p.player).get(self.spell) if p is not None and self.spell is not None else None
        if spell is not None and p is not None and p.unit is not None and spell.range:
            # the chosen spell's range from the caster's models (base edge to base edge), instead of its weapons'
            draw_loose.draw_reach(screen, self.view, s, p.unit, spell.range, (*palette.TARGET, 255))
        elif shown is not None and p is not None and p.decision in ("action", "shoot", "activate"):
            unit = s.units[shown]
            reach = (moves.allowance(self.game.state, unit, "charge") if p.decision == "action" and shown == p.unit
                     else None)
            draw_loose.draw_ranges(screen, self.view, s, shown, reach)
        if p is not None and p.decision == "ambush":
            for enemy in s.enemies_of(p.player):
                draw_loose.draw_reach(screen, self.view, s, enemy.id, 9.0, (255, 120, 100, 255))
        screen.set_clip(self.view.rect)
        shy = list(heights)
        pushed = p.unit if p is not None and p.decision == "push" and p.unit in s.units else None
        if pushed is not None and s.units[pushed].on_table:     # the names keep off the push ring
            cx, cy = self.view.to_screen(warband_of(s).models[pushed][0].xy)
            r = self.view.length(PUSH_REACH + base_radius(s.units[pushed].profile))
            shy.append(pygame.Rect(int(cx - r), int(cy - r), int(2 * r) + 1, int(2 * r) + 1))
        draw_loose.draw_models(screen, self.view, s, shown, actors, self._targets(), self.hover,
                               hide=self.tool.unit_id if self.tool is not None and self.tool.moved() else None,
                               shy_of=shy)
        if self.tool is not None and (self.tool.moved() or self.tool.dragging):
            draw_loose.draw_ghost(screen, self.view, self.tool, self.tool.problem() is None)
        if p is not None and p.decision == "push" and p.unit in s.units and s.units[p.unit].on_table:
            start = warband_of(s).models[p.unit][0].xy
            draw_loose.draw_push(screen, self.view, start, self.push_at, base_radius(s.units[p.unit].profile),
                                 PUSH_REACH, self._push_problem() is None)
        if p is not None and p.decision in ("deploy", "ambush") and self.deploy_unit and \
                self.view.rect.collidepoint(self.mouse):
            at = self.view.to_table(self.mouse)
            action = self._placement_action(at)
            ok = action is not None and self.ruleset.check_deploy(action) is None
            draw_loose.draw_placement(screen, self.view, self._placement(at),
                                      base_radius(s.units[self.deploy_unit].profile), ok)
        if self.hover_terrain is not None and not (self.tool is not None and self.tool.moved()):
            # not over the move tool's ghost and its words (climbs, jumps)
            lines = self.static.describe(self.hover_terrain)
            x, y = self.mouse[0] + 14, self.mouse[1] + 10
            for k, line in enumerate(lines[:3]):
                text = font(13, k == 0).render(line, True, (240, 240, 230))
                bg = pygame.Surface((text.get_width() + 8, text.get_height() + 2), pygame.SRCALPHA)
                bg.fill((0, 0, 0, 170))
                screen.blit(bg, (x - 4, y - 1))
                screen.blit(text, (x, y))
                y += text.get_height() + 2
        if self.seat_banner is not None and self.time < self.seat_banner[2]:
            line = fit_text(self.seat_banner[0], 18, self.view.rect.w - 40, bold=True)     # never off the table
            text = font(18, True).render(line, True, (250, 250, 245))
            bg = pygame.Surface((text.get_width() + 20, text.get_height() + 10), pygame.SRCALPHA)
            bg.fill((*self.seat_banner[1], 225))
            x = self.view.rect.centerx - bg.get_width() // 2
            screen.blit(bg, (x, self.view.rect.top + 10))
            screen.blit(text, (x + 10, self.view.rect.top + 15))
        screen.set_clip(clip)
        draw_news(screen, self.view.rect, self.banner, self.time, self.last_exception)


def is_loose(game: Game) -> bool:
    """The game is played with loose models (its battle screen is this one, not ``BattleScene``)."""
    return isinstance(game.ruleset, AoFSkirmish)
