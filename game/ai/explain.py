"""Why the computer opponent chose what it chose, in words taken from what its search computed.

``ExplainedPlayer`` is ``game.ai.search.SearchPlayer`` keeping the figures of its last decision (``Thinking``): for
each candidate it judged, every sample's evaluation and what happened in that sample (through the search's
``_observe`` hook: the melee won or lost, the target fled, the side a charge reached, wounds and models removed by
the action itself). ``reason`` turns them into a short line for the battle log, e.g. "flank charge: 70% to win the
melee, 20% the target flees (10 samples of its own dice; best of 4)". Nothing is estimated here: every figure is a count
or a mean over the samples the search played, or a difference of its evaluations (in points of its position
score, ``game.ai.evaluate``). A decision answered without search says so (a set-up rule, a single option, the
random player's legal answer after the rules refused its choice).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from game.ai import markers
from game.ai.by_ruleset import ruleset_ai
from game.ai.consolidation import marker_step
from game.ai.evaluate import win_chance
from game.ai.melee_outlook import side_of
from game.ai.search import SearchPlayer
from game.engine import magic
from game.engine.actions import (
    Action,
    Activate,
    CastSpell,
    ChargeReaction,
    Consolidate,
    DeclareCharge,
    Dispel,
    Done,
    FollowUp,
    Move,
    MoveModels,
    Pursue,
    Redirect,
    Shoot,
)
from game.engine.events import Event
from game.engine.game import Game
from game.replay import action_text

SETUP_DECISIONS = frozenset({"deploy", "choose_first_turn", "choose_deployment", "set_aside", "scout_move", "ambush",
                             "choose_objective_order", "place_objective", "select_side_mission",
                             "allocate_tokens"})
"""Decisions the search answers by a quick rule, not by look-ahead (``SearchPlayer._setup``, ``_split``)."""


@dataclass(frozen=True)
class Sample:
    """What one sample of a candidate gave."""

    value: float
    """The evaluation of the position the sample reached (points, good for the deciding player when positive)."""
    melee: bool | None
    """The first melee the acting unit fought in the sample: True won, False lost or tied, None no melee."""
    fled: bool
    """The other unit of the action (the target; for a charge reaction, the reacting unit) fled in the sample."""
    side: str | None
    """The side of the target a charge of the acting unit reached (front, flank, rear), if it did."""
    wounds: int
    """Wounds the action's own events caused to its target (shooting)."""
    killed: int
    """Models the action's own events removed from its target."""
    out: bool = False
    """The action's own events removed its target from the game (AoF: Skirmish: Knocked Out, every model killed)."""
    shaken: bool = False
    """The action's own events left its target Shaken (AoF: Skirmish's wound effects)."""
    cast: bool | None = None
    """A cast, or a block of or tokens against one: whether the spell's effects were resolved (None: not magic)."""
    spell_wounds: int = 0
    """Wounds the spell's hits caused (every unit they fell on)."""
    caught: bool = False
    """The unit that fled (``fled``) was run down by a charger in the sample (rulebook "Flee")."""


@dataclass
class Candidate:
    """A candidate action and its samples."""

    action: Action
    samples: list[Sample] = field(default_factory=list)
    unit: str | None = None
    """The unit of the decision it answered (``Pending.unit``): the same answer (``done``) of two units activated in
    look-ahead is two candidates."""

    @property
    def value(self) -> float:
        """Mean evaluation over the samples."""
        return sum(s.value for s in self.samples) / len(self.samples)

    def share(self, test: bool | None, attr: str) -> float:
        """Share (0..1) of the samples whose ``attr`` is ``test``."""
        return sum(1 for s in self.samples if getattr(s, attr) is test) / len(self.samples)


@dataclass
class Thinking:
    """The figures of one decision."""

    decision: str
    """The decision answered (``Pending.decision``)."""
    player: int
    """The seat deciding."""
    candidates: list[Candidate] = field(default_factory=list)
    """The candidates judged, in the order the search judged them."""
    chosen: Action | None = None
    """What was chosen."""
    fallback: bool = False
    """The engine refused the search's choice; the random player's legal answer was taken."""
    estimated: bool = False
    """The level scores its decisions at once (``Budget.depth`` 0: ``ai-easy``): a melee not fought yet was priced
    by the evaluation's quick estimate (``game.ai.search._melee_estimate``), not rolled."""

    def candidate(self, action: Action, unit: str | None = None) -> Candidate | None:
        """The figures of ``action`` answering a decision about ``unit``, if it was judged."""
        return next((c for c in self.candidates if c.action == action and c.unit == unit), None)


class ExplainedPlayer(SearchPlayer):
    """``SearchPlayer`` that keeps the figures of its last decision in ``thinking`` (see the module docstring)."""

    thinking: Thinking | None = None
    """The last decision's figures (None before the first)."""

    def choose_explained(self, game: Game) -> tuple[Action, str]:
        """``choose(game)`` and the reason for it (``reason``). Raises ``RuntimeError`` when the game is over."""
        action = self.choose(game)
        return action, reason(self.thinking, game, action)

    def _decide(self, view: Game, me: int) -> Action:
        p = view.pending
        self.thinking = Thinking(p.decision if p is not None else "", me, estimated=self.budget.depth == 0)
        action = super()._decide(view, me)
        self.thinking.chosen = action
        return action

    def _legal_or_fallback(self, view: Game, action: Action) -> Action:
        out = super()._legal_or_fallback(view, action)
        if out != action and self.thinking is not None:
            self.thinking.fallback = True
            self.thinking.chosen = out
        return out

    def _restart(self) -> None:
        if self.thinking is not None:
            self.thinking.candidates.clear()

    def _observe(self, action: Action, view: Game, twin: Game, value: float) -> None:
        if self.thinking is None:
            return
        unit = view.pending.unit if view.pending is not None else None
        cand = self.thinking.candidate(action, unit)
        if cand is None:
            cand = Candidate(action, unit=unit)
            self.thinking.candidates.append(cand)
        cand.samples.append(sample_of(action, view, twin, value, self.thinking.player))


def sample_of(action: Action, view: Game, twin: Game, value: float, me: int) -> Sample:
    """The figures of one sample: ``twin`` is ``view`` after ``action`` and the look-ahead."""
    n = len(view.history)
    start = twin.log_index[n] if n < len(twin.log_index) else len(view.log)
    own_end = twin.log_index[n + 1] if n + 1 < len(twin.log_index) else len(twin.log)
    own, later = twin.log[start:own_end], twin.log[start:]
    unit = getattr(action, "unit", None)
    target = getattr(action, "target", None)
    other = unit if isinstance(action, ChargeReaction) else target
    hit = [e for e in own if e.kind == "wounds" and e.data.get("unit") == target]
    spell = _spell_of(action, view)
    cast, spell_wounds = _spell_outcome(later, spell) if spell is not None else (None, 0)
    return Sample(value, _melee(later, unit, me), _fled(later, other), _side(later, unit),
                  sum(int(e.data.get("wounds") or 0) for e in hit), sum(int(e.data.get("killed") or 0) for e in hit),
                  any(e.kind == "destroyed" and e.data.get("unit") == target for e in own),
                  any(e.kind == "shaken" and e.data.get("unit") == target for e in own),
                  cast, spell_wounds, _caught(later, other))


def _spell_of(action: Action, view: Game) -> str | None:
    """The spell a cast names, or the one a block or tokens against it answer (the cast waiting in ``view``)."""
    if isinstance(action, CastSpell):
        return action.spell
    p = view.pending
    if p is None or p.decision not in ("block_spell", "dispel") or not isinstance(action, (Dispel, Done)):
        return None
    waiting = getattr(view.state.activation, "cast", None)       # AoF:R 2.16's block_spell
    if waiting is None:
        waiting = magic.magic_of(view.state).cast                 # tokens against a cast
    return None if waiting is None else str(waiting.spell)


def _spell_outcome(events: list[Event], spell: str) -> tuple[bool | None, int]:
    """Whether ``spell``'s effects were resolved (its first ``spell`` event saying so) and the wounds its hits
    caused (the first ``wounds`` event on each unit its ``hits`` fell on)."""
    cast: bool | None = None
    wounds = 0
    for i, e in enumerate(events):
        if e.data.get("spell") != spell:
            continue
        if e.kind == "spell" and "cast" in e.data and cast is None:
            cast = bool(e.data["cast"])
        if e.kind == "hits":
            target = e.data.get("target")
            for later in events[i + 1:]:
                if later.kind == "hits" or (later.kind == "spell" and later.data.get("spell") != spell):
                    break
                if later.kind == "wounds" and later.data.get("unit") == target:
                    wounds += int(later.data.get("wounds") or 0)
                    break
    return cast, wounds


def _melee(events: list[Event], unit: object, me: int) -> bool | None:
    for e in events:
        if e.kind == "resolution" and unit in (e.data.get("units") or ()):
            return e.data.get("winner") == me
    return None


def _fled(events: list[Event], unit: object) -> bool:
    return unit is not None and any(e.kind == "flee" and e.data.get("unit") == unit for e in events)


def _caught(events: list[Event], unit: object) -> bool:
    return unit is not None and any(e.kind == "charge" and e.data.get("ran_down") and e.data.get("target") == unit
                                    for e in events)


def _side(events: list[Event], unit: object) -> str | None:
    for e in events:
        if e.kind == "charge" and e.data.get("unit") == unit and isinstance(e.data.get("side"), str):
            return str(e.data["side"])
    return None


# --- the words -------------------------------------------------------------------------------------------------
def _damage_words(c: Candidate) -> str:
    """"1.6 wounds and 0.8 models removed on average, 25% it is out, 40% Shaken" from a shot's or a charge's
    samples (the last two only where they happened: AoF: Skirmish's wound effects)."""
    n = len(c.samples)
    w = sum(s.wounds for s in c.samples) / n
    k = sum(s.killed for s in c.samples) / n
    text = f"{w:.1f} wounds and {k:.1f} models removed on average"
    out, shaken = c.share(True, "out"), c.share(True, "shaken")
    if out:
        text += f", {_pct(out)} the target is out"
    if shaken:
        text += f", {_pct(shaken)} it is Shaken"
    return text


def _activation_words(t: Thinking, game: Game, action: Activate) -> str:
    """Why this unit is activated: each unit judged was worth its best answer (the figures of those answers)."""
    best: dict[str, Candidate] = {}
    for c in t.candidates:
        uid = c.unit
        if isinstance(uid, str) and c.samples and (uid not in best or c.value > best[uid].value):
            best[uid] = c
    mine = best.get(action.unit)
    if mine is None:
        p = game.pending
        if not best and p is not None and len(p.options) > 1:
            return "its unit nearest the enemy or a marker it does not hold (its level judges one unit)"
        return "the only unit it has left to activate" if not best else "the only unit it judged"
    others = [c.value for uid, c in best.items() if uid != action.unit]
    lead = ""
    if others:
        ahead = mine.value - max(others)
        lead = (f", {ahead:.0f} points ahead of the next unit's best" if ahead >= 0.5
                else ", tied with the next unit's best: the first listed is kept")
    done = " (hold)" if isinstance(mine.action, Done) else ""
    return (f"best of {len(best)} units judged by their best answers; its own: {_short(game, mine.action)}{done}"
            f"{lead}")


def _pct(x: float) -> str:
    return f"{round(100 * x)}%"


def _name(game: Game, uid: object) -> str:
    unit = game.state.units.get(uid) if isinstance(uid, str) else None
    return unit.profile.name if unit is not None else str(uid)


def _melee_words(c: Candidate, game: Game | None = None) -> str:
    """"70% to win the melee, 20% it flees" from the samples of a charge or a reaction; with ``game`` (the
    decision's, when the level scores at once: ``Thinking.estimated``) and no melee fought in the samples, the
    evaluation's quick estimate of the melee to come (``evaluate.win_chance``)."""
    parts = []
    fought = [s for s in c.samples if s.melee is not None]
    if fought:
        parts.append(f"{_pct(c.share(True, 'melee'))} to win the melee")
    elif game is not None and isinstance(c.action, (DeclareCharge, ChargeReaction)):
        words = _estimate_words(game, c.action)
        if words:
            return words
    fled = c.share(True, "fled")
    caught = c.share(True, "caught")
    if fled and isinstance(c.action, DeclareCharge):
        parts.append(f"{_pct(fled)} the target flees" + (f" ({_pct(caught)} run down)" if caught else ""))
    elif fled:
        if fled > caught:
            parts.append(f"{_pct(fled - caught)} it gets away")
        if caught:
            parts.append(f"{_pct(caught)} it is run down")
    if not parts:
        parts.append("no melee in its look-ahead")
    return ", ".join(parts)


def _estimate_words(game: Game, action: DeclareCharge | ChargeReaction) -> str:
    """The quick estimate's words for a charge ("62% to win the melee by its quick estimate") or a reaction (against
    the best charger, also for a unit that flees: its chance had it stayed), or "" when there is nothing to say."""
    units = game.state.units
    if isinstance(action, DeclareCharge):
        if action.unit not in units or action.target not in units:
            return ""
        won = win_chance(game, units[action.unit], units[action.target])
        return f"{_pct(won)} to win the melee by its quick estimate"
    if action.unit not in units:
        return ""
    odds = [win_chance(game, units[c.unit], units[action.unit]) for c in game.state.charges
            if c.target == action.unit and c.unit in units]
    if not odds:
        return "flees rather than meet the charge" if action.reaction == "flee" else ""
    chance = _pct(1.0 - max(odds))
    if action.reaction == "flee":
        return f"flees rather than meet the charge: {chance} to win the melee had it stayed, by its quick estimate"
    return f"{chance} to win the melee against the charge by its quick estimate"


def _basis(c: Candidate, game: Game | None) -> str:
    """What a charge's figures rest on: the samples, or "scored at once" where the level priced the melee by its
    quick estimate (``game`` given: ``Thinking.estimated``) and none was fought in the samples."""
    if game is not None and not any(s.melee is not None for s in c.samples):
        return "scored at once, no dice rolled"
    return _samples(c)


def _samples(c: Candidate) -> str:
    n = len(c.samples)
    return f"{n} sample{'s' if n != 1 else ''} of its own dice"


def _short(game: Game, action: Action) -> str:
    """An action in a few words without the player ("Ember Warlock casts Bone Armour on ...")."""
    return action_text(game, action).partition(": ")[2]


def _runner_up(t: Thinking, chosen: Candidate) -> Candidate | None:
    others = [c for c in t.candidates if c.action != chosen.action and c.samples]
    return max(others, key=lambda c: c.value) if others else None


def reason(t: Thinking | None, game: Game, action: Action) -> str:
    """Why ``action`` was chosen, from the figures ``t`` of the decision (see the module docstring); ``game`` is the
    game before the action (for names)."""
    if t is None:
        return "no figures kept for this decision"
    if t.fallback:
        return "the rules refused its own choice, so it plays a legal answer at random"
    chosen = t.candidate(action, game.pending.unit if game.pending is not None else None)
    if isinstance(action, Activate):
        return _activation_words(t, game, action)
    if chosen is None or not chosen.samples:
        if t.decision in SETUP_DECISIONS:
            return markers.reason(game, action) or "by a quick rule of thumb (no look-ahead)"
        if isinstance(action, Done) and t.decision == "declare_charge":
            return "no unit of its has a charge worth judging"
        known = ruleset_ai(game)
        if known is not None:
            return known.rule_of_thumb(game, action)
        if isinstance(action, Shoot):
            return "its only target in range and in sight"
        return "nothing else it could do here"
    est = game if t.estimated else None
    n_judged = sum(1 for c in t.candidates if c.samples)
    best_of = f"best of {n_judged}" if n_judged > 1 else "the only option judged"
    rival = _runner_up(t, chosen)
    margin = ""
    if rival is not None:
        ahead = chosen.value - rival.value
        margin = (f", {ahead:.0f} points ahead of the next" if ahead >= 0.5
                  else ", tied with the next: the first listed is kept")
    if isinstance(action, CastSpell):
        return _cast_words(t, chosen, action, best_of)
    if isinstance(action, (Dispel, Done)) and t.decision in ("block_spell", "dispel"):
        return _block_words(t, chosen, action)
    if isinstance(action, DeclareCharge) and not any(s.melee is not None or s.fled for s in chosen.samples) and (
            est is None or ruleset_ai(game) is not None):
        # a melee without resolution (AoF: Skirmish): what the strikes did
        return f"charge: {_damage_words(chosen)} ({_samples(chosen)}; {best_of}{margin})"
    if isinstance(action, DeclareCharge):
        side = max((s.side for s in chosen.samples if s.side), key=lambda v: sum(
            1 for s in chosen.samples if s.side == v), default=None)
        if side is None and est is not None and ruleset_ai(game) is None:
            units = game.state.units
            side = side_of(units[action.target], units[action.unit])    # where it is aimed: nothing moved yet
        where = f"{side} charge" if side else "a charge it may not complete"
        if all(s.fled and s.melee is None for s in chosen.samples):
            # the search kept the target's worse answer for the charger (``SearchPlayer._judge``): its flight
            where = "charge, judged on the target fleeing (its worse answer for the charger)"
        return f"{where}: {_melee_words(chosen, est)} ({_basis(chosen, est)}; {best_of})"
    if isinstance(action, ChargeReaction):
        return f"{_melee_words(chosen, est)} ({_basis(chosen, est)}; {best_of}{margin})"
    if isinstance(action, Done) and t.decision == "declare_charge" and rival is not None:
        charge = rival.action
        if isinstance(charge, DeclareCharge):
            return (f"declares no more charges: its best charge ({_name(game, charge.unit)} on "
                    f"{_name(game, charge.target)}: {_melee_words(rival, est)}) scored "
                    f"{chosen.value - rival.value:.0f} "
                    f"points lower than holding back ({_basis(rival, est)})")
    if isinstance(action, Done) and t.decision == "action" and rival is not None:
        ahead = chosen.value - rival.value
        if ahead < 0.5:
            return f"holds: nothing else scored better ({_short(game, rival.action)} tied; {_samples(chosen)})"
        return (f"holds: the best alternative ({_short(game, rival.action)}) scored {ahead:.0f} points lower "
                f"({_samples(chosen)})")
    if isinstance(action, Done) and rival is not None:
        ahead = chosen.value - rival.value
        what = _short(game, rival.action)
        if ahead < 0.5:
            return f"ends the step: nothing else scored better ({what} tied; {_samples(chosen)})"
        return f"ends the step: the best alternative ({what}) scored {ahead:.0f} points lower ({_samples(rival)})"
    if isinstance(action, Shoot):
        return f"{_damage_words(chosen)} ({_samples(chosen)}; {best_of} targets{margin})"
    if isinstance(action, MoveModels):
        hold = next((c for c in t.candidates if isinstance(c.action, Done) and c.samples), None)
        vs = f", {chosen.value - hold.value:+.0f} points against holding" if hold is not None else ""
        return f"{best_of} options by its position score over {_samples(chosen)}{vs}"
    if isinstance(action, Move):
        hold = next((c for c in t.candidates if isinstance(c.action, Move) and c.action.action == "hold"
                     and not c.action.path and c.samples), None)
        vs = (f", {chosen.value - hold.value:+.0f} points against holding still" if hold is not None
              and hold is not chosen else "")
        return f"{best_of} moves by its position score{vs}"
    if isinstance(action, (Pursue, FollowUp, Redirect)):
        return f"{best_of} by its position score over {_samples(chosen)}{margin}"
    if isinstance(action, Consolidate) and game.pending is not None and game.pending.unit in game.state.units and \
            action == marker_step(game, game.state.units[game.pending.unit]):
        return (f"steps within 3\" of an objective marker to seize or contest it ({best_of} by its position score, "
                f"{_samples(chosen)}{margin})")
    return f"{best_of} by its position score ({_samples(chosen)}{margin})"


def _cast_share(c: Candidate) -> float:
    return sum(1 for s in c.samples if s.cast) / len(c.samples)


def _cast_words(t: Thinking, chosen: Candidate, action: CastSpell, best_of: str) -> str:
    """"2.1 wounds expected, cast in 75% (4 samples of its own dice; best of 5, +9 points against not casting)": the
    log line names the cast itself (the action's text) before this reason."""
    boost = sum(b.tokens for b in action.boost)
    extra = f" with {boost} extra token{'s' if boost != 1 else ''}" if boost else ""
    wounds = sum(s.spell_wounds for s in chosen.samples) / len(chosen.samples)
    gain = f"{wounds:.1f} wounds expected, " if any(s.spell_wounds for s in chosen.samples) else ""
    base = next((c for c in t.candidates if not isinstance(c.action, CastSpell) and c.samples), None)
    versus = f", {chosen.value - base.value:+.0f} points against not casting" if base is not None else ""
    return f"{gain}cast in {_pct(_cast_share(chosen))}{extra} ({_samples(chosen)}; {best_of}{versus})"


def _block_words(t: Thinking, chosen: Candidate, action: Action) -> str:
    """Why a spell was blocked (or tokens spent against it) or let through: how often it is cast either way."""
    spent = isinstance(action, Dispel) and bool(action.tokens)
    other = [c for c in t.candidates if c is not chosen and c.samples and
             (isinstance(c.action, Dispel) and bool(c.action.tokens)) != spent]
    if not other:
        return f"nothing else it could do here ({_samples(chosen)})"
    rival = max(other, key=lambda c: c.value)
    verb = "blocks" if t.decision == "block_spell" else "spends tokens against"
    if spent:
        return (f"{verb} the spell: cast in {_pct(_cast_share(chosen))} so, {_pct(_cast_share(rival))} if let "
                f"through; {chosen.value - rival.value:+.0f} points ({_samples(chosen)})")
    doing = "blocking it" if t.decision == "block_spell" else "spending tokens against it"
    return (f"lets the spell through: {doing} scored {chosen.value - rival.value:.0f} points lower (cast in "
            f"{_pct(_cast_share(rival))} so, {_pct(_cast_share(chosen))} let through; its own magic is worth more "
            "later)")


__all__ = ["Candidate", "ExplainedPlayer", "Sample", "Thinking", "reason", "sample_of"]
