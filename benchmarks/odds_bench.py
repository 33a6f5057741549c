"""Odds advisor timings, printed (run on demand: ``python benchmarks/odds_bench.py [SCENARIO ...]``).

Issue 15 "The odds before a decision": under 50 ms per target, so the odds can follow the mouse. For every
position of a few autoplayed games where a player picks shooting targets or charge targets, the time the window's
advisor (``game.ui.odds_panel.OddsAdvisor``, no pygame) takes the first time a target is hovered, per target:
exact shots, simulated shots, charges (all reactions; how many samples the first frame got), and one refining
frame of a charge. Also the pursue decision, and spells aimed at a point: for each point spell a caster may try, the
aiming note's work at each point of a 3" grid within its reach (``magic.point_problem``, ``units_in_area`` and the
exact ``game.odds.spells.spell_odds``). The AoF:R 2.16 scenario adds its charges (decision ``action``).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from game.autoplay import play_out  # noqa: E402
from game.engine import magic  # noqa: E402
from game.engine.actions import CastSpell, DeclareCharge, Shoot, TablePoint  # noqa: E402
from game.engine.dice import Dice  # noqa: E402
from game.engine.errors import IllegalAction  # noqa: E402
from game.engine.game import Game  # noqa: E402
from game.odds.exact import shot_odds  # noqa: E402
from game.odds.spells import spell_odds  # noqa: E402
from game.scenario import load_scenario, new_game_state  # noqa: E402
from game.ui.odds_panel import OddsAdvisor  # noqa: E402


def _ms(values: list[float]) -> str:
    if not values:
        return "none"
    return (f"median {statistics.median(values) * 1000:.1f} ms, max {max(values) * 1000:.1f} ms "
            f"({len(values)} targets)")


def main() -> None:
    paths = [Path(p) for p in sys.argv[1:]] or [ROOT / "scenarios" / "default.yaml",
                                                 ROOT / "scenarios" / "orcs_vs_dwarves.yaml",
                                                 ROOT / "scenarios" / "undead_vs_humans_1500.yaml",
                                                 ROOT / "scenarios" / "aofr_border_clash.yaml"]
    exact: list[float] = []
    simulated: list[float] = []
    charges: list[float] = []
    refine: list[float] = []
    pursue: list[float] = []
    first_samples: list[int] = []
    points: list[float] = []
    affected: list[int] = []
    for path in paths:
        scenario = load_scenario(path)
        for seed in (1, 2, 3):
            game = Game.start(new_game_state(scenario), Dice(seed=seed))
            actions = play_out(game, seed)
            replay = Game.start(new_game_state(scenario), Dice(seed=seed))
            for action in actions:
                p = replay.pending
                assert p is not None
                if p.decision == "shoot":
                    for uid in replay.shooters(p.player):
                        for target in replay.shooting_targets(uid):
                            shot = Shoot(p.player, uid, target)
                            t0 = time.perf_counter()
                            OddsAdvisor().shot(replay, shot)
                            took = time.perf_counter() - t0
                            (exact if shot_odds(replay.state, shot) is not None else simulated).append(took)
                elif p.decision == "strategy":
                    _point_spells(replay, p.player, points, affected)
                elif p.decision in ("declare_charge", "action"):
                    for uid in replay.chargers(p.player):
                        for target in replay.charge_targets(uid):
                            advisor = OddsAdvisor()
                            charge = DeclareCharge(p.player, uid, target)
                            t0 = time.perf_counter()
                            odds = advisor.charge(replay, charge)
                            charges.append(time.perf_counter() - t0)
                            first_samples.append(min(o.samples for o in odds))
                            t0 = time.perf_counter()
                            advisor.charge(replay, charge)
                            refine.append(time.perf_counter() - t0)
                elif p.decision == "pursue":
                    t0 = time.perf_counter()
                    OddsAdvisor().pursue(replay)
                    pursue.append(time.perf_counter() - t0)
                replay.apply(action)
    print(f"shot, exact (first hover):      {_ms(exact)}")
    print(f"shot, simulated (first hover):  {_ms(simulated)}")
    print(f"charge, every reaction (first): {_ms(charges)}; samples per reaction in that frame: "
          f"median {statistics.median(first_samples) if first_samples else 0}")
    print(f"charge, one refining frame:     {_ms(refine)}")
    print(f"pursue decision (first):        {_ms(pursue)}")
    print(f"spell at a point (per point):   {_ms(points)}; units in the area: max {max(affected, default=0)}")
    print("target: under 50 ms per target (issue 15)")


def _point_spells(game: Game, player: int, out: list[float], affected: list[int]) -> None:
    """Time the aiming note of every point spell a caster of ``player`` may try now, on a 3" grid of its reach."""
    s = game.state
    spells = magic.spells_of(s, player)
    for caster_id, name in magic.castable(s, player):
        spell = spells[name]
        caster = s.units.get(caster_id)
        if spell.target != "point" or spell.area is None or caster is None or caster.pose is None:
            continue
        cx, cy = caster.pose.xy
        reach = int(spell.range or 0)
        for dx in range(-reach, reach + 1, 3):
            for dy in range(-reach, reach + 1, 3):
                point = (round(cx + dx, 2), round(cy + dy, 2))
                t0 = time.perf_counter()
                if magic.point_problem(s, caster, spell, point) is None:
                    units = magic.units_in_area(s, caster, spell, point)
                    try:
                        spell_odds(s, CastSpell(player, caster_id, name, point=TablePoint(*point)))
                    except IllegalAction:
                        continue
                    out.append(time.perf_counter() - t0)
                    affected.append(len(units))


if __name__ == "__main__":
    main()
