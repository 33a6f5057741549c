"""Odds by simulation: the engine itself plays the decision out on clones of the game, with dice of its own.

Used where the dice do not convolve simply: a charge (its reaction, the charge move, the melee, the morale test and
the flight, pursuit and follow up after it), the pursue choice, spells cast on a unit (if the opponent does not
dispel), and shots whose weapons change each other's dice (``game.odds.exact``). Each sample is ``Game.clone()``
with its ``dice`` replaced by ``Dice(seed=...)`` seeded from ``advisor_seed``: a hash of the position
(``game.state_file.state_to_dict``, which holds no dice) and of the question. So the same position gives the same
odds, and the game's own dice, past or future, are never read or advanced (docs/rulings.md "Odds before a decision").

The fixed policy answering the simulation's other decisions (``fixed_policy``), so a sample ends when the melee is
resolved: no more charges, moves, spells or shots (``done``); the charged unit reacts as asked (other charged units
Hold); a charger whose target fled runs it down (no redirect); Random Charge Distances: the first charge left is
rolled; after the melee the winner pursues and follows up (the first candidate), makes no consolidation move and no
pivot to face; the opponent spends no dispel tokens. A charge or pursuit sample stops when the Close Combat Phase is
over (or the turn or game ends), a spell's once the cast is resolved. The part every sample shares (no die rolled
yet: the reaction, a charge move without dangerous terrain) is played once (``deterministic_prefix``). Samples are drawn
until a time budget is spent (``BUDGET_S``), at least ``MIN_SAMPLES``, at most ``MAX_SAMPLES``; results carry the
sample count.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from game.engine.actions import (
    Action,
    CastSpell,
    ChargeReaction,
    DeclareCharge,
    Done,
    FollowUp,
    Pursue,
    Redirect,
    RollCharge,
    Shoot,
    StrikeBack,
)
from game.engine.casualties import remaining_strength
from game.engine.dice import Dice, DiceExhausted
from game.engine.events import Event
from game.engine.game import Game
from game.engine.special_rules import wound_capacities
from game.engine.state import Removal
from game.odds.exact import morale_fail_chance, rules_of
from game.state_file import state_to_dict

BUDGET_S = 0.040
"""Time budget of one question, in seconds (the issue: under 50 ms per target, to follow the mouse)."""
MIN_SAMPLES = 8
"""Samples drawn whatever the budget (a slow machine still gets an answer, noisier)."""
MAX_SAMPLES = 400
"""Samples drawn at most (enough for percentages; more would only cost time)."""
MAX_STEPS = 200
"""Actions a sample may take before it is abandoned (a policy loop would be a bug; it is counted out)."""


def advisor_seed(game: Game, question: str) -> int:
    """A seed for the advisor's own dice: a hash of the position (no dice in it) and of ``question``."""
    payload = json.dumps(state_to_dict(game), sort_keys=True, default=str) + "|" + question
    return int.from_bytes(hashlib.sha256(payload.encode("utf-8")).digest()[:8], "big")


def fixed_policy(game: Game, reaction: str) -> Action:
    """The simulation's answer to ``game.pending`` (see the module docstring); ``reaction`` for the charged unit
    asked about (the first reaction asked; later ones Hold)."""
    p = game.pending
    assert p is not None
    if p.decision == "charge_reaction":
        assert p.unit is not None
        return ChargeReaction(p.player, p.unit, reaction if reaction in p.options else "hold")
    if p.decision == "redirect":
        assert p.unit is not None
        return Redirect(p.player, p.unit, None)
    if p.decision == "roll_charge":
        return RollCharge(p.player, p.options[0])
    if p.decision in ("pursue", "pursue_target"):
        assert p.unit is not None
        return Pursue(p.player, p.unit, True, p.options[0] if p.decision == "pursue_target" else None)
    if p.decision == "follow_up":
        assert p.unit is not None
        return FollowUp(p.player, p.unit, True, p.options[0] if p.options else None)
    if p.decision == "strike_back":     # AoF:R 2.16 "Return Strikes": the charged unit strikes back
        assert p.unit is not None
        return StrikeBack(p.player, p.unit)
    return Done(p.player)


@dataclass
class Samples:
    """What the samples of one question gave."""

    n: int = 0
    """Samples drawn."""
    counts: dict[str, int] = field(default_factory=dict)
    """How many samples had each outcome (keys per question, e.g. ``won``)."""
    sums: dict[str, float] = field(default_factory=dict)
    """Sums of numbers per sample (keys per question, e.g. ``wounds``), for means."""
    squares: dict[str, float] = field(default_factory=dict)
    """Sums of squares of the same numbers, for spreads."""

    def count(self, key: str, yes: bool = True) -> None:
        if yes:
            self.counts[key] = self.counts.get(key, 0) + 1

    def add(self, key: str, value: float) -> None:
        self.sums[key] = self.sums.get(key, 0.0) + value
        self.squares[key] = self.squares.get(key, 0.0) + value * value

    def chance(self, key: str) -> float:
        """Share of the samples counted under ``key``."""
        return self.counts.get(key, 0) / self.n if self.n else 0.0

    def mean_sd(self, key: str) -> tuple[float, float]:
        """Mean and standard deviation of ``key``."""
        if not self.n:
            return 0.0, 0.0
        mean = self.sums.get(key, 0.0) / self.n
        var = self.squares.get(key, 0.0) / self.n - mean * mean
        return mean, max(0.0, var) ** 0.5


Over = Callable[[Game], bool]
"""When a sample is over (``melee_over``, ``cast_over``)."""


def melee_over(game: Game) -> Over:
    """A sample is over when the charge or pursuit asked about in ``game`` has been played out, as the game's
    ruleset says (``Ruleset.melee_played_out``: AoWFBR's Close Combat Phase of this turn is over; AoF:R 2.16's
    activation has ended)."""
    player, rnd = game.state.active_player, game.state.round

    def over(twin: Game) -> bool:
        return twin.ruleset.melee_played_out(rnd, player)

    return over


def melee_results(events: list[Event], *units: str) -> list[Event]:
    """The melee results among ``events`` of a melee fought by all of ``units``: every ruleset's result event
    carries ``units``, ``winner`` (a player, None for a tie) and ``caused`` (wounds by unit) (docs/formats.md
    "Events": AoWFBR's ``resolution``, AoF:R 2.16's ``melee`` result)."""
    return [e for e in events if "winner" in e.data and isinstance(e.data.get("units"), (list, tuple))
            and all(u in e.data["units"] for u in units)]


def cast_over(twin: Game) -> bool:
    """A spell's sample is over once the cast is resolved (no dispel decision left)."""
    return twin.pending is None or twin.pending.decision != "dispel"


def deterministic_prefix(game: Game, first: Action, reaction: str, over: Over
                         ) -> tuple[Game, list[Event], Action | None]:
    """Play ``first`` and then ``fixed_policy`` on a clone of ``game`` for as long as no die is rolled (a charge
    move, the reactions, the moves and phases with nothing to do): every sample shares that part, so it is played
    once. Returns (the position reached, its events, the action that rolls the first die or None if the sample is
    already ``over``). A clone is tried before each action: an action that asks for a die is left for the samples."""
    cur = game.clone()
    cur.dice = Dice(sequence=[])     # no dice at all: an action needing one stops the prefix
    events: list[Event] = []
    action: Action | None = first
    for _ in range(MAX_STEPS):
        if action is None:
            if over(cur):
                return cur, events, None
            action = fixed_policy(cur, reaction)
        trial = cur.clone()
        try:
            got = trial.apply(action)
        except DiceExhausted:
            return cur, events, action
        cur, action = trial, None
        events += got
    raise RuntimeError("odds simulation: the fixed policy did not finish the sample")


class Study:
    """The samples of one question, drawn a few at a time (``advance``) so that the window can refine them frame
    after frame. Sample ``i`` rolls ``Dice(seed=seed + i)``: the first ``n`` samples are the same whatever the
    budget, so the odds depend on the position, the question and the sample count only.

    ``first`` is the decision asked about; then ``fixed_policy`` (with ``reaction``) answers until ``over`` says
    the sample is over (None: ``first`` alone); ``sample(twin, events, samples)`` records what happened."""

    def __init__(self, game: Game, seed: int, first: Action, sample: Callable[[Game, list[Event], Samples], None],
                 reaction: str = "hold", over: Over | None = None) -> None:
        self.seed = seed
        self.reaction = reaction
        self.over = over
        if over is not None:
            self.start, self.prefix, self.next = deterministic_prefix(game, first, reaction, over)
        else:
            self.start, self.prefix, self.next = game.clone(), [], first
        self.sample = sample
        self.samples = Samples()
        """What the samples drawn so far gave."""

    @property
    def finished(self) -> bool:
        """``MAX_SAMPLES`` have been drawn."""
        return self.samples.n >= MAX_SAMPLES

    def advance(self, budget_s: float = BUDGET_S, at_least: int = 0, at_most: int = MAX_SAMPLES) -> Samples:
        """Draw samples for about ``budget_s`` seconds (at least ``at_least`` of them, up to ``at_most`` in all)."""
        begin = time.perf_counter()
        drawn = 0
        while self.samples.n < min(at_most, MAX_SAMPLES):
            if drawn >= at_least and time.perf_counter() - begin > budget_s:
                break
            twin = self.start.clone()
            twin.dice = Dice(seed=(self.seed + self.samples.n) % (1 << 63))
            events = list(self.prefix)
            if self.next is not None:
                events += twin.apply(self.next)
                if self.over is not None:
                    events += play_until(twin, self.reaction, self.over)
            self.sample(twin, events, self.samples)
            self.samples.n += 1
            drawn += 1
        return self.samples


def advance_together(studies: list[Study], budget_s: float, at_least: int = 0, at_most: int = MAX_SAMPLES) -> None:
    """Draw samples one at a time for the study with the fewest, until ``budget_s`` seconds are spent and each has
    ``at_least`` more (or ``at_most`` in all): one sample can take several milliseconds, so a frame's small budget
    costs about one sample, whatever the number of studies."""
    begin = time.perf_counter()
    floor = {id(st): st.samples.n + at_least for st in studies}
    while True:
        open_ = [st for st in studies if st.samples.n < min(at_most, MAX_SAMPLES)]
        if not open_:
            return
        short = [st for st in open_ if st.samples.n < floor[id(st)]]
        if not short and time.perf_counter() - begin > budget_s:
            return
        st = min(short or open_, key=lambda x: x.samples.n)
        st.advance(0.0, at_least=1, at_most=st.samples.n + 1)


def play_until(twin: Game, reaction: str, over: Over) -> list[Event]:
    """Answer decisions with ``fixed_policy`` until ``over``; returns the events."""
    events: list[Event] = []
    for _ in range(MAX_STEPS):
        if over(twin):
            return events
        events += twin.apply(fixed_policy(twin, reaction))
    raise RuntimeError("odds simulation: the fixed policy did not finish the sample")


def shot_study(game: Game, action: Shoot) -> Study:
    """Samples of ``action`` (for a shot ``exact`` cannot do): ``hits``, ``wounds`` and ``morale_fail`` (sums; the
    last is the chance each sample's morale test fails, computed exactly) and ``destroyed``, ``morale_test``
    (counts). The first ``advance`` raises ``IllegalAction`` if the shot is illegal."""

    start = game.state.units.get(action.target)
    most = sum(wound_capacities(start)) if start is not None else 0
    rules = rules_of(game.state)
    fail = morale_fail_chance(start, rules) if start is not None else 0.0   # the target as it stands now (exact)

    def sample(twin: Game, events: list[Event], out: Samples) -> None:
        target = twin.state.units[action.target]
        out.add("hits", sum(e.data.get("hits", 0) for e in events if e.kind == "hits"))
        wounds = min(most, sum(e.data.get("wounds", 0) for e in events   # as exact.capped
                               if e.kind == "wounds" and e.data.get("unit") == action.target))
        out.add("wounds", wounds)
        out.count("destroyed", target.removed is not None)
        tests = start is not None and target.removed is None and \
            rules.tests_morale_after_shot(start, wounds, remaining_strength(target))
        out.count("morale_test", tests)
        out.add("morale_fail", fail if tests else 0.0)

    return Study(game, advisor_seed(game, f"shoot {action.to_dict()}"), action, sample)


class StudyGroup:
    """Studies of the answers to one decision (``studies``, by answer), sampled together."""

    studies: Mapping[Any, Study]

    @property
    def finished(self) -> bool:
        """Every answer has all its samples."""
        return all(st.finished for st in self.studies.values())

    def advance(self, budget_s: float = BUDGET_S, at_least: int = 0, at_most: int = MAX_SAMPLES) -> None:
        """Draw more samples, the budget shared between the answers (``advance_together``)."""
        advance_together(list(self.studies.values()), budget_s, at_least, at_most)


@dataclass(frozen=True)
class ChargeOdds:
    """What a charge may bring, for one reaction of the charged unit."""

    reaction: str
    """``hold``, ``stand_and_shoot`` or ``flee``."""
    samples: int
    """Samples drawn."""
    contact: float
    """The charge reaches the target and a melee with it is fought."""
    won: float
    """The charger's side wins that melee."""
    tied: float
    """The melee is a tie."""
    target_breaks: float
    """The target ends the Close Combat Phase fleeing or off the table (it fled from the charge or lost)."""
    target_destroyed: float
    """The target is destroyed, routed or fled the table by the end of the phase."""
    charger_lost: float
    """The charger is off the table or fleeing by the end of the phase."""
    wounds: tuple[float, float]
    """Mean and spread of the wounds the charger caused in that melee."""
    target_shaken: float = 0.0
    """The target is on the table and Shaken (AoF:R 2.16: Wavering) at the end."""


def charge_reaction_options(game: Game, action: DeclareCharge) -> tuple[str, ...]:
    """The reactions the charged unit would be offered (the engine's own options), found on a clone; ("hold",)
    when it gets no choice. Raises ``IllegalAction`` if the charge may not be declared."""
    twin = game.clone()
    twin.dice = Dice(sequence=[])   # the game's dice are never touched; a die asked for means no reaction is asked
    try:
        twin.apply(action)
        for _ in range(MAX_STEPS):
            p = twin.pending
            if p is None or p.decision != "declare_charge":
                break
            twin.apply(Done(p.player))
    except DiceExhausted:           # the charges went ahead at once (the target had no choice)
        return ("hold",)
    p = twin.pending
    if p is not None and p.decision == "charge_reaction" and p.unit == action.target:
        return tuple(p.options)
    return ("hold",)


class ChargeStudy(StudyGroup):
    """The odds of declaring a charge, one ``Study`` per reaction the charged unit may choose."""

    def __init__(self, game: Game, action: DeclareCharge) -> None:
        """Raises ``IllegalAction`` if the charge may not be declared."""
        me, foe = action.unit, action.target
        self.studies: dict[str, Study] = {}     # by reaction

        def sample(twin: Game, events: list[Event], acc: Samples) -> None:
            s = twin.state
            charger, target = s.units[me], s.units[foe]
            fought = melee_results(events, me, foe)
            acc.count("contact", bool(fought))
            caused = 0.0
            if fought:
                winner = fought[0].data.get("winner")
                acc.count("won", winner == charger.player)
                acc.count("tied", winner is None)
                caused = float(fought[0].data.get("caused", {}).get(me, 0))
            acc.add("wounds", caused)
            acc.count("target_breaks", target.removed is not None or target.fleeing)
            acc.count("target_destroyed", target.removed is not None)
            acc.count("target_shaken", target.removed is None and target.shaken)
            acc.count("charger_lost", charger.removed is not None or charger.fleeing)

        for reaction in charge_reaction_options(game, action):
            seed = advisor_seed(game, f"charge {me} {foe} {reaction}")
            self.studies[reaction] = Study(game, seed, action, sample, reaction, melee_over(game))

    def odds(self) -> list[ChargeOdds]:
        """The odds so far, one per reaction (the engine's order: hold, stand and shoot, flee)."""
        out = []
        for reaction, st in self.studies.items():
            got = st.samples
            out.append(ChargeOdds(reaction, got.n, got.chance("contact"), got.chance("won"), got.chance("tied"),
                                  got.chance("target_breaks"), got.chance("target_destroyed"),
                                  got.chance("charger_lost"), got.mean_sd("wounds"), got.chance("target_shaken")))
        return out


@dataclass(frozen=True)
class PursueOdds:
    """What pursuing (or not) may bring, after a won melee."""

    pursue: bool
    """The choice asked about."""
    samples: int
    """Samples drawn."""
    catches: float
    """An enemy it fought is routed (caught) or destroyed by the end of the phase (not one that fled off the
    table)."""
    holds_back: float
    """The unit takes a morale test and passes it (not pursuing: it holds back; rulebook "Consolidation
    Moves")."""


class PursueStudy(StudyGroup):
    """The odds of both answers to a pending ``pursue`` decision."""

    def __init__(self, game: Game) -> None:
        """Raises ``ValueError`` when no ``pursue`` decision is pending."""
        p = game.pending
        if p is None or p.decision != "pursue" or p.unit is None:
            raise ValueError("no pursue decision is pending")
        unit = p.unit
        # the enemies it fought (their flight moves come after this decision) and any already fleeing
        fled = sorted(set(game.state.units[unit].engaged_with)
                      | {u.id for u in game.state.units.values() if u.fleeing and u.player != p.player})

        def sample(twin: Game, events: list[Event], acc: Samples) -> None:
            s = twin.state
            acc.count("catches", any(s.units[f].removed in (Removal.ROUTED, Removal.DESTROYED) for f in fled))
            tested = [e for e in events if e.kind == "morale" and e.data.get("unit") == unit and "passed" in e.data]
            acc.count("holds", bool(tested) and bool(tested[0].data["passed"]))

        self.studies: dict[bool, Study] = {choice: Study(game, advisor_seed(game, f"pursue {unit} {choice}"),
                                      Pursue(p.player, unit, choice), sample, over=melee_over(game))
                        for choice in (True, False)}

    def odds(self) -> list[PursueOdds]:
        """The odds so far: pursue, then do not pursue."""
        return [PursueOdds(choice, st.samples.n, st.samples.chance("catches"), st.samples.chance("holds"))
                for choice, st in self.studies.items()]


def spell_study(game: Game, action: CastSpell) -> Study:
    """Samples of casting ``action`` on a unit, if the opponent spends no dispel tokens (``fixed_policy``: Done):
    ``cast`` (count: the casting roll succeeded), ``wounds`` (sum, on the target), ``destroyed``, ``morale_test``
    (counts: at half strength after wounds this turn, ``shooting.needs_shooting_morale_test``) and ``morale_fail``
    (sum of exact chances). The first ``advance`` raises ``IllegalAction`` if the cast is illegal."""
    target_id = action.target
    rules = rules_of(game.state)
    target_start = game.state.units.get(target_id) if target_id is not None else None
    fail = morale_fail_chance(target_start, rules) if target_start is not None else 0.0

    def sample(twin: Game, events: list[Event], out: Samples) -> None:
        cast = [e for e in events if e.kind == "spell" and e.data.get("unit") == action.unit]
        out.count("cast", any(e.data.get("cast") is True for e in cast))
        if target_id is None or target_id not in twin.state.units:
            return
        target = twin.state.units[target_id]
        out.add("wounds", sum(e.data.get("wounds", 0) for e in events
                              if e.kind == "wounds" and e.data.get("unit") == target_id))
        out.count("destroyed", target.removed is not None)
        wounds = sum(e.data.get("wounds", 0) for e in events if e.kind == "wounds" and e.data.get("unit") == target_id)
        tests = target_start is not None and target.removed is None and \
            rules.tests_morale_after_shot(target_start, wounds, remaining_strength(target))
        out.count("morale_test", tests)
        out.add("morale_fail", fail if tests else 0.0)

    return Study(game, advisor_seed(game, f"cast {action.to_dict()}"), action, sample, over=cast_over)
