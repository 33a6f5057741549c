"""``SearchPlayer``: the computer opponent's decisions, by simulation on seat views with its own dice.

For the pending decision (``Game.pending``) the player:

1. makes a seat view of the game (``game.ai.view.seat_view``): a clone holding only what its seat may see, whose
   dice are its own, drawn from its seeded ``random.Random`` (never the game's dice object or stream);
2. lists candidate actions (``game.ai.candidates`` for moves and spell casts; the engine's own options for charges,
   targets, reactions, redirects, pursuit, follow-up, pivots and dispels; where the ruleset lists a decision's
   discrete answers, ``Ruleset.decision_options``, those: AoF:R 2.16's activations), legal by the engine's
   validators; a ruleset the AI has its own knowledge of (``game.ai.by_ruleset``: AoF: Skirmish's loose models)
   gives its candidates, set-up answers, evaluation and rollout policy instead;
3. judges each candidate: clones of the view, each rolling dice seeded from the same per-decision seeds (common
   random numbers: candidates are compared on the same luck), the candidate applied, then the fixed policy of
   ``game.ai.rollout`` to the end of the turn and (depth 2, which no level uses now) through the other player's
   next turn, whose units charge what they expect to beat (moves at depth 0 are scored right after they are made),
   then ``game.ai.evaluate.evaluate``; the mean is the candidate's value. A charge is worth the worse, for the
   charger, of its target holding and fleeing (the answer is the other player's; AoWFBR only, where the target
   may flee). Every candidate is first judged on ``FIRST_ROUND`` samples and only the better half on the rest
   (successive halving). Activating a unit is worth the best answer of that unit to the decision it leads to (its
   charge, move or idle);
4. returns the best (the earliest on a tie, so "do nothing" wins ties where it is listed first).

A decision with one candidate is answered without search. Set-up decisions (deployment, roll-off choices, Scout,
Ambush, objective markers, side-missions) use quick heuristics (``_setup``; the markers and the deployment edge,
``game.ai.markers``), and spell tokens are split two thirds spell, one third dispel when the enemy has casters.
The levels differ only by ``Budget``. The player keeps no memory between calls, so it may be asked about any game,
cloned or not.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from game.ai import magic_choice, markers
from game.ai.budget import Budget
from game.ai.by_ruleset import ruleset_ai
from game.ai.candidates import cast_candidates, move_candidates
from game.ai.consolidation import consolidation_candidates, facing_nearest
from game.ai.danger import PricedDangerDice, expected_cost, priced_dice
from game.ai.evaluate import charge_value, evaluate, still_to_move_caps
from game.ai.rollout import listed_policy, play_through_next_turn, play_to_turn_end
from game.ai.view import seat_view
from game.autoplay import RandomPlayer, point_shot
from game.engine import magic
from game.engine.actions import (
    Action,
    Activate,
    AllocateTokens,
    CastSpell,
    ChargeReaction,
    ChooseDeployment,
    ChooseFirstTurn,
    DeclareCharge,
    Deploy,
    Dispel,
    Done,
    FollowUp,
    Move,
    PivotToFace,
    Pursue,
    RallyPivot,
    Redirect,
    RollCharge,
    Shoot,
    TokenSpend,
    TokenSplit,
    rounded_pose,
)
from game.engine.deployment import zone_polygon
from game.engine.dice import Dice
from game.engine.errors import IllegalAction
from game.engine.game import Game
from geometry.pose import Pose, bearing_to

LEVELS: dict[str, Budget] = {
    # easy does not play its decisions out: each is scored at once, a charge by the evaluation's quick estimate
    # of the melee (``evaluate.charge_value``) rather than by melees rolled with its own dice
    "ai-easy": Budget(candidates=2, samples=2, moves=3, move_depth=0, move_samples=1, depth=0, per_unit=1),
    # ai judges its charges, shots and answers on 8 samples: 118 of 128 AoWFBR games against random where 4 samples
    # won 107 (docs/ai-measurements.md); a melee's dice decide too much for fewer
    "ai": Budget(candidates=5, samples=8, moves=7, move_depth=0, move_samples=1, depth=1, per_unit=2),
    # hard judges more candidates, on twice the samples, to the end of the turn: 20-12 against ai on 32 paired AoWFBR
    # games where hard through the other player's next turn (depth 2, moves too) won 13-19 and took 4 times as
    # long; its passive rollout of the other side's turn misled it (docs/ai-measurements.md)
    "ai-hard": Budget(candidates=8, samples=16, moves=10, move_depth=0, move_samples=1, depth=1, per_unit=3),
}
"""The levels by player name (``game.players``): the same search, different budgets."""

FIRST_ROUND = 2
"""Dice samples every candidate is judged on before the worse half is dropped (``SearchPlayer._best``)."""

DEPLOY_TRIES = 24
"""Legal placements sampled per unit deployed; the most forward one, away from friends' flanks, is kept."""


@dataclass
class SearchPlayer:
    """The computer opponent (see the module docstring): ``choose(game) -> Action`` for ``game.pending``."""

    seed: int = 1
    """Seed of the player's own generator (candidate sampling and its dice)."""
    budget: Budget = field(default_factory=lambda: LEVELS["ai"])
    """How much it thinks."""
    rng: random.Random = field(init=False, repr=False)
    _setup_player: RandomPlayer = field(init=False, repr=False)
    _caps: dict[tuple[str, str], float] | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self._setup_player = RandomPlayer(random.Random(self.seed ^ 0x5EED))

    # --- the decision --------------------------------------------------------------------------------------
    def choose(self, game: Game) -> Action:
        """A legal action answering ``game.pending``. Raises ``RuntimeError`` when the game is over."""
        p = game.pending
        if p is None:
            raise RuntimeError("the game is over")
        me = p.player
        view = seat_view(game, me, self.rng)
        return self._legal_or_fallback(view, self._decide(view, me))

    def _legal_or_fallback(self, view: Game, action: Action) -> Action:
        """``action`` if the engine accepts it (tried on a clone of the seat view, with the AI's own dice); else the
        random player's legal answer to the decision (a ruleset's rule the heuristics do not know, e.g. AoF:R's
        "the deployment roll-off winner deploys first"). The AI never proposes an illegal action."""
        try:
            view.clone().apply(action)
            return action
        except IllegalAction:
            return RandomPlayer(self.rng).choose(view)

    def _decide(self, view: Game, me: int) -> Action:
        setup = self._setup(view, me)
        if setup is not None:
            return setup
        cast = self._cast_first(view, me)
        if cast is not None:
            return cast
        candidates, depth = self._candidates(view, me)
        if not candidates:
            return Done(me)
        if len(candidates) == 1:
            return candidates[0]
        seeds = [self.rng.getrandbits(48) for _ in range(self.budget.samples)]
        p = view.pending
        # a move scored at once: the units still to move answer their own exposure (``still_to_move_caps``)
        self._caps = still_to_move_caps(view, me) if depth == 0 and p is not None and p.decision == "move" else None
        try:
            return self._best(view, candidates, me, seeds, depth)[0]
        finally:
            self._caps = None

    def _cast_first(self, view: Game, me: int) -> CastSpell | None:
        """Within an activation (AoF:R 2.16's Wizard(X), the quick rules' Caster(X)): the cast the activated unit
        should try before its action or its shots, or None. The casts (``magic_choice.cast_candidates``) and not
        casting are judged alike: each applied (not casting: the rollout policy's own answer, which is also what
        follows every cast), the activation played to its end by the rollout policy (so that both are judged from
        the same moment on), then played on and evaluated over the same samples of the AI's own dice, with what the
        unused try or tokens are worth (``magic_choice.in_hand``). The earliest wins a tie, so a cast must gain."""
        p = view.pending
        if p is None or p.decision not in ("action", "shoot") or ruleset_ai(view) is not None:
            return None     # a ruleset of its own (AoF: Skirmish's loose models) casts by its own knowledge
        listed = view.ruleset.decision_options()
        if listed is None:
            return None
        casts = magic_choice.cast_candidates(view, me, self.budget.candidates)
        if not casts:
            return None
        seeds = [self.rng.getrandbits(48) for _ in range(self.budget.samples)]
        # a cast must be rolled (and may wait for the other side's block) before it is worth anything: at least
        # to the end of the turn, whatever the level
        depth = max(self.budget.depth, 1)
        best = self._best(view, [listed_policy(view, listed), *casts], me, seeds, depth, finish=True)[0]
        if isinstance(best, CastSpell):
            return best
        self._restart()
        return None

    def _restart(self) -> None:
        """Hook called when a decision's first search (whether to cast) found nothing to do and the decision is
        searched again; ``game.ai.explain`` forgets the first search's figures."""

    def _seeds(self, game: Game, seeds: list[int], depth: int) -> list[int]:
        """The dice samples a decision of ``game`` is judged over: one when scored at once (depth 0), the move
        budget's for a move, all of ``seeds`` otherwise."""
        p = game.pending
        if depth == 0:
            return seeds[:1]
        if p is not None and p.decision == "move":
            return seeds[: self.budget.move_samples]
        return seeds

    def _best(self, view: Game, candidates: list[Action], me: int, seeds: list[int],
              depth: int, finish: bool = False) -> tuple[Action, float]:
        """The best of ``candidates`` (the earliest on a tie) and its value. With several dice samples and more
        than two candidates, a first round judges every candidate on the first ``FIRST_ROUND`` samples and only
        the better half (at least two) is judged on the rest (successive halving: the samples go where the choice
        is close). ``finish``: each candidate's activation is played to its end first (``_judge``)."""
        use = self._seeds(view, seeds, depth)
        n = len(candidates)
        totals = [0.0] * n
        counts = [0] * n
        live = list(range(n))
        start = 0
        step = FIRST_ROUND if len(use) > FIRST_ROUND + 1 and n > 2 else len(use)
        while live and start < len(use):
            batch = use[start:start + step]
            for i in list(live):
                value = self._judge(view, candidates[i], me, batch, depth, finish)
                if value is None:
                    live.remove(i)
                    continue
                totals[i] += value * len(batch)
                counts[i] += len(batch)
            start += len(batch)
            step = len(use) - start
            if start < len(use) and len(live) > 2:
                ranked = sorted(live, key=lambda i: (-totals[i] / counts[i], i))
                live = sorted(ranked[: max(2, (len(live) + 1) // 2)])
        if not live:
            return candidates[0], -math.inf
        best = max(live, key=lambda i: (totals[i] / counts[i], -i))
        return candidates[best], totals[best] / counts[best]

    def _judge(self, view: Game, action: Action, me: int, seeds: list[int], depth: int,
               finish: bool = False) -> float | None:
        """Mean evaluation of ``action`` over the sampled dice, or None if the engine refuses it. Activating a
        unit (``Activate``, no dice) is worth the best of that unit's answers to the decision it leads to.
        ``finish``: while ``me``'s activation goes on after ``action`` (a cast), the rollout policy plays it to its
        end before the look-ahead, so that every candidate is judged from the end of the activation."""
        if isinstance(action, Activate):
            twin = view.clone()
            try:
                twin.apply(action)
            except IllegalAction:
                return None
            if twin.pending is None or twin.pending.player != me:
                return self._value(twin, me, twin.state.active_player)
            nested, nested_depth = self._candidates(twin, me)
            if not nested:
                return self._value(twin, me, twin.state.active_player)
            return self._best(twin, nested, me, seeds, nested_depth)[1]
        if (isinstance(action, DeclareCharge) and depth >= 1
                and "flee" in view.ruleset.charge_reactions(action.unit, action.target)):
            # the charged unit's answer is the other player's (the engine's options: AoWFBR "Charge Reactions"):
            # the charge is worth the worse of Hold and Flee for it (a target that flees may leave the charger
            # short, stranded before the enemy's lines)
            held = self._samples(view, action, me, seeds, depth, finish, frozenset())
            fled = self._samples(view, action, me, seeds, depth, finish, frozenset({action.target}))
            if held is None or fled is None:
                return None
            worst = min(held, fled, key=lambda j: j[0])
        else:
            one = self._samples(view, action, me, seeds, depth, finish, frozenset())
            if one is None:
                return None
            worst = one
        for twin, value in worst[1]:
            self._observe(action, view, twin, value)
        return worst[0]

    def _samples(self, view: Game, action: Action, me: int, seeds: list[int], depth: int, finish: bool,
                 flee: frozenset[str]) -> tuple[float, list[tuple[Game, float]]] | None:
        """``action`` played on a clone of ``view`` per seed and looked ahead ``depth`` (``_judge``), the units in
        ``flee`` fleeing when charged: (mean value, [(clone, value)]), or None if the engine refuses it."""
        seen: list[tuple[Game, float]] = []
        turn = (view.state.round, view.state.active_player)    # the turn the decision belongs to
        # a charge is judged with the other charges its side would make this turn (AoWFBR "Multiple Units in
        # Combat"), not alone: the charges open to each unit now, found once (declaring one moves nothing)
        joint = (_open_charges(view, me) if isinstance(action, DeclareCharge) and depth >= 1
                 and view.pending is not None and view.pending.decision == "declare_charge" else {})
        for seed in seeds:
            twin = view.clone()
            # a move's dangerous terrain is priced at its expectation, not one sample's luck (``game.ai.danger``)
            dice = priced_dice(view, seed) if isinstance(action, Move) else Dice(seed=seed)
            twin.dice = dice
            try:
                twin.apply(action)
            except IllegalAction:
                return None
            s = twin.state
            if finish and twin.pending is not None and s.active_player == me:
                play_to_turn_end(twin, flee=flee)
            turned = False
            if joint:
                _declare_joint(twin, me, joint)
            if depth == 1:
                turned = play_to_turn_end(twin, turn=turn, flee=flee)
            elif depth >= 2:
                turned = play_through_next_turn(twin, turn=turn, flee=flee)
            # who acts next: the active player once the decision's turn is over (played out, or ended by the
            # candidate itself: AoF:R's idle ends the activation), else the other one, once this turn ends
            over = turned or (s.round, s.active_player) != turn
            value = self._value(twin, me, s.active_player if over else 3 - s.active_player)
            if depth == 0:
                value += _melee_estimate(view, twin, action)
            if isinstance(dice, PricedDangerDice):
                value -= expected_cost(twin, dice, me)
            seen.append((twin, value))
        return sum(v for _, v in seen) / len(seen), seen

    def _value(self, game: Game, me: int, next_to_act: int) -> float:
        """The evaluation (``game.ai.evaluate``; with the caps of the move decision being judged, if any) plus the
        worth of the magic not yet used this round within activations (``magic_choice.in_hand``: 0 under AoWFBR)."""
        return evaluate(game, me, next_to_act, self._caps) + magic_choice.in_hand(game, me)

    def _observe(self, action: Action, view: Game, twin: Game, value: float) -> None:
        """Hook called for each sample judged: ``action`` played on ``twin`` (a clone of ``view``, after the
        look-ahead) was evaluated ``value``. Does nothing here; ``game.ai.explain`` keeps these figures to say why
        the chosen action was chosen."""

    # --- candidates ----------------------------------------------------------------------------------------
    def _candidates(self, game: Game, me: int) -> tuple[list[Action], int]:
        """(candidates, depth) for the pending decision; depth 0 scores right after the action, 1 after the turn,
        2 after the other player's next turn too."""
        own = ruleset_ai(game)
        if own is not None:
            return own.candidates(game, me, self.budget, self.rng)
        p = game.pending
        assert p is not None
        s = game.state
        b = self.budget
        d = p.decision
        listed = game.ruleset.decision_options()
        if listed is not None:
            return self._listed(game, me, listed)
        out: list[Action] = []
        if d == "declare_charge":
            out.append(Done(me))
            for uid in game.chargers(me):
                targets = sorted(game.charge_targets(uid), key=lambda t: (_gap(game, uid, t), t))
                out += [DeclareCharge(me, uid, t) for t in targets[: b.per_unit]]
            return out[: b.candidates + 1], b.depth
        if d == "charge_reaction":
            assert p.unit is not None
            order = sorted(p.options, key=lambda r: r == "flee")      # fleeing is judged last (ties: stay)
            return [ChargeReaction(me, p.unit, r) for r in order], b.depth
        if d == "redirect":
            assert p.unit is not None
            out = [Redirect(me, p.unit, None)]
            out += [Redirect(me, p.unit, t) for t in game.redirect_targets(p.unit)[: b.per_unit]]
            return out, b.depth
        if d == "roll_charge":
            return [RollCharge(me, p.options[0])], 0
        if d == "move":
            for uid in game.units_to_move(me):
                unit = s.units[uid]
                if unit.pose is None:
                    continue
                return list(move_candidates(game, unit, b.moves)), b.move_depth
            return [Done(me)], 0
        if d == "shoot":
            return self._shots(game, me), b.depth
        if d == "pursue":
            assert p.unit is not None
            return [Pursue(me, p.unit, True), Pursue(me, p.unit, False)], b.depth
        if d == "pursue_target":
            assert p.unit is not None
            return [Pursue(me, p.unit, True, t) for t in p.options], b.depth
        if d == "follow_up":
            assert p.unit is not None
            out = [FollowUp(me, p.unit, True, t) for t in (p.options or (None,))]
            return out + [FollowUp(me, p.unit, False)], b.depth
        if d == "pivot_to_face":
            assert p.unit is not None
            return [Done(me)] + [PivotToFace(me, p.unit, t) for t in p.options], 0
        if d == "consolidate":
            assert p.unit is not None
            return consolidation_candidates(game, s.units[p.unit]), 0
        if d == "rally":
            for uid in p.options:
                face = facing_nearest(game, s.units[uid])
                if face is not None:
                    pivot = RallyPivot(me, uid, face.facing)
                    if game.check_rally_pivot(pivot) is None:
                        return [Done(me), pivot], 0
            return [Done(me)], 0
        if d == "strategy":
            return [Done(me), *cast_candidates(game, me, b.candidates)], max(b.depth, 1)   # as ``_cast_first``
        if d == "block_spell":
            return magic_choice.block_candidates(game, me), max(b.depth, 1)
        if d == "dispel" and magic_choice.token_rules(game):
            return magic_choice.dispel_candidates(game, me), max(b.depth, 1)
        if d == "dispel":
            assert p.unit is not None
            out = [Dispel(me)]
            sources = magic.token_sources(s, s.units[p.unit], me)
            if sources:
                spend = Dispel(me, tuple(TokenSpend(n, u) for u, n in sources if n > 0))
                if game.check_magic(spend) is None:
                    out.append(spend)
            return out, b.depth
        if d == "allocate_tokens":
            return [_split(game, me)], 0
        return [Done(me)], 0

    def _listed(self, game: Game, me: int, listed: list[Action]) -> tuple[list[Action], int]:
        """Candidates of a decision whose discrete answers the ruleset lists (``Ruleset.decision_options``: AoF:R
        2.16's activations): units to activate (nearest the enemy first), charges and shots (nearest targets first),
        striking back or not, plus the purposeful moves (``game.ai.candidates``) of a unit that may move and a
        pivot to face the nearest enemy where the rules take one (a Wavering unit's idle activation), each kept
        only if the engine accepts it; a consolidation's answers are ``game.ai.consolidation``'s."""
        s = game.state
        b = self.budget
        p = game.pending
        assert p is not None

        def gap(uid: str, target: str) -> tuple[float, str]:
            return (_gap(game, uid, target), target)

        acts = [a for a in listed if isinstance(a, Activate)]
        if acts:
            acts.sort(key=lambda a: (_nearest_enemy(game, a.unit), a.unit))
            return list(acts[: b.candidates]), b.depth
        if p.decision == "consolidate" and p.unit is not None:
            return consolidation_candidates(game, s.units[p.unit]), 0
        out: list[Action] = [a for a in listed if isinstance(a, Done)]
        charges = sorted((a for a in listed if isinstance(a, DeclareCharge)), key=lambda a: gap(a.unit, a.target))
        shots = sorted((a for a in listed if isinstance(a, Shoot)), key=lambda a: gap(a.unit, a.target))
        out += charges[: b.per_unit]
        out += shots[: max(b.per_unit, 2)]
        out += [a for a in listed if not isinstance(a, (Done, DeclareCharge, Shoot))]
        depth = b.depth
        for uid in game.units_to_move(me):
            unit = s.units[uid]
            if unit.pose is not None:
                moves = move_candidates(game, unit, b.moves)
                out += moves[1:] if any(isinstance(a, Done) for a in out) else moves   # Done is the idle hold
                if not charges:
                    depth = b.move_depth       # a move's outcome: scored as moves are (no dice before shooting)
            break
        if p.unit is not None and all(isinstance(a, Done) for a in out):
            unit = s.units[p.unit]
            face = facing_nearest(game, unit)
            if face is not None:
                pivot = RallyPivot(me, unit.id, face.facing)
                if game.ruleset.check(pivot) is None:
                    out.append(pivot)
        return out, depth

    def _shots(self, game: Game, me: int) -> list[Action]:
        """Shots of the first unit that may still shoot, at its nearest few targets; Done when none may."""
        s = game.state
        for unit in s.units_of(me):
            if unit.shot_targets:
                continue
            if game.point_shooter(unit.id):
                shot = point_shot(game, me, unit.id, None)
                if shot is not None:
                    return [shot]
                continue
            targets = sorted(game.shooting_targets(unit.id), key=lambda t: (s.scene.distance(unit.id, t), t))
            if targets:
                return [Shoot(me, unit.id, t) for t in targets[: max(self.budget.per_unit, 2)]]
        return [Done(me)]

    # --- set-up --------------------------------------------------------------------------------------------
    def _setup(self, game: Game, me: int) -> Action | None:
        """Heuristic answers to the set-up decisions, or None for a decision the search makes."""
        own = ruleset_ai(game)
        if own is not None:
            return own.setup(game, me, self.rng)
        p = game.pending
        assert p is not None
        d = p.decision
        if d == "deploy":
            return self._deploy(game, me, p.options[0])
        if d == "choose_first_turn":
            return ChooseFirstTurn(me, me)       # the first charge is worth more than the last word
        if d == "choose_deployment":
            # deploy second, to see theirs, where the rules let the winner choose (AoF:R 2.16: the winner deploys
            # first); the edge the objective markers lean toward
            edge = markers.deployment_edge(game.state, me, p.options)
            second = ChooseDeployment(me, 3 - me, edge)
            return second if game.ruleset.check(second) is None else ChooseDeployment(me, me, edge)
        if d == "set_aside":
            return Done(me)
        if d == "choose_objective_order":
            return markers.objective_order(me)
        if d == "place_objective":
            # the set-up generator (as the random placing it replaces), so the search's own draws stay as they were
            return markers.place_marker(game, me, self._setup_player.rng) or self._setup_player.choose(game)
        if d in ("scout_move", "ambush", "select_side_mission"):
            return self._setup_player.choose(game)
        return None

    def _deploy(self, game: Game, me: int, uid: str) -> Action:
        """A legal placement in the deployment zone, facing the table centre, as far forward as the samples
        allow (a lone model as far back) and a little apart from friends already placed."""
        s = game.state
        zone = zone_polygon(s, me)
        x0, y0, x1, y1 = zone.bounds
        centre = (s.table.width / 2, s.table.depth / 2)
        cx, cy = zone.centroid.x, zone.centroid.y
        facing = round(bearing_to((cx, cy), centre) / 45.0) * 45.0 % 360.0
        friends = [u.pose for u in s.units_of(me) if u.pose is not None]
        best: tuple[float, Action] | None = None
        for _ in range(DEPLOY_TRIES):
            pose = rounded_pose(Pose(self.rng.uniform(x0, x1), self.rng.uniform(y0, y1), facing))
            action = Deploy(me, uid, pose)
            if game.check_deploy(action) is not None:
                continue
            score = -math.hypot(pose.x - centre[0], pose.y - centre[1])
            if s.units[uid].starting_models == 1:
                score = -score        # a lone hero stays at the back, out of the first volleys
            score -= sum(3.0 for f in friends if math.hypot(f.x - pose.x, f.y - pose.y) < 6.0)
            if best is None or score > best[0]:
                best = (score, action)
        return best[1] if best is not None else self._setup_player.choose(game)


def _open_charges(game: Game, me: int) -> dict[str, list[str]]:
    """The charge targets (``Game.charge_targets``) of each unit of ``me`` that may still declare one now."""
    return {uid: game.charge_targets(uid) for uid in game.chargers(me)}


def _declare_joint(game: Game, me: int, options: dict[str, list[str]]) -> None:
    """While ``me`` declares charges in ``game`` (a clone), each unit not yet charging declares its best charge of
    ``options`` that the outlook expects to gain from (``evaluate.charge_value``), then the declarations end
    (``Done``); a declaration the engine refuses is skipped."""
    s = game.state
    for uid, targets in options.items():
        p = game.pending
        if p is None or p.decision != "declare_charge" or p.player != me:
            return
        unit = s.units.get(uid)
        if unit is None or any(c.unit == uid for c in s.charges):
            continue
        values = [(charge_value(game, unit, s.units[t]), t) for t in targets if t in s.units]
        value, target = max(values, default=(0.0, ""))
        if value <= 0.0:
            continue
        try:
            game.apply(DeclareCharge(me, uid, target))
        except IllegalAction:
            continue
    p = game.pending
    if p is not None and p.decision == "declare_charge" and p.player == me:
        game.apply(Done(me))


def _melee_estimate(view: Game, twin: Game, action: Action) -> float:
    """What a charge or a charge reaction scored at once (depth 0: ``ai-easy``) leaves out: the melee it leads to,
    when none was fought yet in ``twin`` (``view`` after ``action``; AoWFBR 1.4 fights in the Close Combat Phase,
    AoF:R 2.16 within the activation), priced by the evaluation's quick estimate (``evaluate.charge_value``) for
    the deciding side: + a declared charge's, - the charges a unit holding (or standing and shooting) awaits. A
    reaction that flees is scored by the fleeing position itself. Nothing for a ruleset the AI knows on its own
    (``game.ai.by_ruleset``)."""
    if ruleset_ai(view) is not None or any(e.kind == "resolution" for e in twin.log[len(view.log):]):
        return 0.0      # loose models (AoF: Skirmish) strike within the action: the position says it all
    units = view.state.units
    if isinstance(action, DeclareCharge):
        return charge_value(view, units[action.unit], units[action.target])
    if isinstance(action, ChargeReaction) and action.reaction != "flee":
        return -sum(charge_value(view, units[c.unit], units[action.unit]) for c in view.state.charges
                    if c.target == action.unit and c.unit in units)
    return 0.0


def _gap(game: Game, uid: str, target: str) -> float:
    """Inches from unit ``uid`` to ``target``, measured from its Transport while it is inside one (rulebook
    "Transport(X)": it charges out of it, and is not on the table itself)."""
    unit = game.state.units[uid]
    source = unit.embarked_in if unit.embarked_in is not None else uid
    return game.state.scene.distance(source, target)


def _nearest_enemy(game: Game, uid: str) -> float:
    """Inches from unit ``uid`` to the nearest enemy unit on the table (a large number when none is)."""
    s = game.state
    unit = s.units[uid]
    if unit.pose is None:
        return 1e9
    gaps = [s.scene.distance(uid, e.id) for e in s.enemies_of(unit.player) if e.pose is not None]
    return min(gaps, default=1e9)


def _split(game: Game, me: int) -> Action:
    """Spell tokens: two thirds spell, one third dispel when the enemy has casters, else all spell; the engine's
    default split if the engine refuses that."""
    s = game.state
    default = magic.default_allocation(s, me)
    if not magic.casters_of(s, 3 - me):
        return default
    if magic.mode_of(s) == "pooled":
        total = magic.allocation_total(s, me)
        action: Action = AllocateTokens(me, spell_tokens=total - total // 3, dispel_tokens=total // 3)
    else:
        splits = tuple(TokenSplit(t.unit, t.spell - t.spell // 3, t.spell // 3) for t in default.casters)
        action = AllocateTokens(me, casters=splits)
    return action if game.check_magic(action) is None else default


__all__ = ["LEVELS", "Budget", "SearchPlayer"]
