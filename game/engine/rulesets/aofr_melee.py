"""AoF:R 2.16 "Melee" within an activation: charge targets and the charge, the Phalanx test, Impact hits, the
Breath Attack, strikes, the strike back and the melee result ("Combat Resolution"; ``aofr.AoFR216`` is built on it).
"""

from __future__ import annotations

from game.engine import charge as charging
from game.engine.actions import DeclareCharge, StrikeBack
from game.engine.attacks import Modifier, roll_to_hit
from game.engine.casualties import apply_wounds
from game.engine.errors import IllegalAction
from game.engine.events import Event
from game.engine.melee import front_two_rows
from game.engine.profiles import Profile, Weapon
from game.engine.random_charge import charge_allowance
from game.engine.rulesets import aofr_breath, aofr_rules
from game.engine.rulesets.aofr_consolidation import AoFRConsolidation
from game.engine.shooting import sergeant_index
from game.engine.special_rules import (
    RENDING_AP,
    ap_modifier,
    attack_quality,
    blast_multiplier,
    block_hits,
    deadly_wounds,
    defense_profile,
    rending_hits,
    sergeant_modifier,
    weapon_value,
)
from game.engine.spell_effects import effect_modifiers, melee_attacks
from game.engine.state import Pending, Unit
from geometry.arcs import Arc


class AoFRMelee(AoFRConsolidation):
    """A charge and its melee, fought within the charger's activation."""

    def breath_in_melee(self, unit_id: str) -> bool:
        """"Breath Attack" in melee: whether ``unit_id`` may breathe in the melee of the charge it declares now
        (decision ``action``) or of its strike back (decision ``strike_back``): it has models with the rule in its
        two front rows and has not breathed this round."""
        a, p = self._current(), self.state.pending
        unit = self.state.units.get(unit_id)
        if a is None or p is None or unit is None or p.unit != unit_id or unit.id in a.breath_used:
            return False
        if p.decision not in ("action", "strike_back"):
            return False
        return bool(aofr_breath.melee_breathers(self.state, unit))

    def _check_breath_melee(self, unit: Unit) -> None:
        """Raises ``IllegalAction`` ("Breath Attack") when ``unit`` may not breathe in this melee."""
        a = self.act
        if unit.id in a.breath_used:
            raise IllegalAction(aofr_breath.RULE, f"{unit.name} has used its Breath Attack this round (once per "
                                "round)")
        if not aofr_breath.melee_breathers(self.state, unit):
            raise IllegalAction(aofr_breath.RULE, f"{unit.name} has no model with Breath Attack in its two front "
                                "rows")

    def charge_targets(self, unit_id: str) -> list[str]:
        """"Melee: Picking Targets": enemies the activated unit can reach with a clear path (no sight needed)."""
        s = self.state
        a = self._current()
        unit = s.units.get(unit_id)
        if a is None or a.stage != "action" or a.unit != unit_id or unit is None or charging.can_charge(unit):
            return []
        reach = charge_allowance(s, unit)
        out = []
        for enemy_id in s.scene.units_within(unit.id, reach, players=[3 - unit.player]):
            try:
                self._plan(unit, s.units[enemy_id], explain=False)
            except IllegalAction:
                continue
            out.append(enemy_id)
        return [u for u in s.units if u in out]

    def _charge(self, action: DeclareCharge) -> list[Event]:
        a = self._expect(action, "action")
        s = self.state
        unit = self._active_unit(action, a)
        target = s.units.get(action.target)
        if target is None:
            raise IllegalAction("Picking Targets", f"there is no unit {action.target!r}")
        self._plan(unit, target)   # raises when it is not a valid charge
        if action.breath:
            self._check_breath_melee(unit)
        events = [Event("charge", f"{unit.name} charges {target.name}", {"unit": unit.id, "target": target.id,
                                                                          "declared": True})]
        events += charging.make_charge_move(s, self.dice, unit, target)
        if not (unit.on_table and target.on_table and target.id in unit.engaged_with):
            return events + self._end_activation()
        a.melee = [unit.id, target.id]
        a.caused = {unit.id: 0, target.id: 0}
        # "Phalanx": the test is resolved (casualties removed) before impact hits and strikes, and the charger
        # does not count as having charged for special rules (Impact, Furious)
        phalanx = aofr_rules.phalanx_front(s, unit, target) > 0
        events += aofr_rules.phalanx_test(s, self.dice, unit, target)
        if not unit.on_table:
            return events + self._melee_result()
        a.breathing = unit.id if action.breath else None
        events += self._strike(unit, target, charging_now=not phalanx)
        if target.on_table and unit.on_table and self._strikers(target, unit):
            a.stage = "strike_back"
            s.pending = Pending(target.player, "strike_back", target.id)
            return events
        return events + self._melee_result()

    def _plan(self, unit: Unit, target: Unit, explain: bool = True) -> charging.ChargePlan:
        """"Charging": a clear path within charge distance (no line of sight needed), ending in contact with the
        target only. Raises ``IllegalAction`` naming the rule."""
        plan = charging.plan_charge(self.state, unit, target, need_sight=False, explain=explain)
        if plan.also_contacts:
            others = ", ".join(self.state.units[u].name for u in plan.also_contacts)
            raise IllegalAction("Charging", f"the charge would end in base contact with {others} too; a Charge "
                                "brings the unit into contact with its target only (docs/rulings.md)")
        return plan

    def charge_plan(self, unit_id: str, target_id: str) -> charging.ChargePlan:
        """How the charge would go (the window's preview); ``IllegalAction`` when it is not a valid charge."""
        return self._plan(self.state.units[unit_id], self.state.units[target_id])

    def _strikers(self, unit: Unit, enemy: Unit) -> int:
        """"Who Can Strike": models of the two front rows, only at targets in their front facing."""
        if not unit.on_table or unit.contact_arcs.get(enemy.id) is not Arc.FRONT:
            return 0
        return front_two_rows(self.state, unit)

    def _strike(self, unit: Unit, enemy: Unit, charging_now: bool) -> list[Event]:
        """"The Melee Sequence" for ``unit`` against ``enemy``: Impact hits (charging, not fatigued), then each
        melee weapon of the striking models (Furious: +1 attack each when charging), hits, blocks, casualties.
        Fatigued or Wavering units hit only on unmodified 6s. A joined "Hero" in the two front rows strikes with
        its own weapons, Quality and rules, after the unit's own models (``aofr_rules.strike_kinds``); "Poison":
        each unmodified 6 to hit becomes 3 hits."""
        s, a = self.state, self.act
        n = self._strikers(unit, enemy)
        events: list[Event] = []
        only = "Fatigue" if unit.id in a.fatigued else ("Wavering" if unit.shaken else None)
        kinds = aofr_rules.strike_kinds(s, unit) if n else []
        for prof, hero, count in kinds:
            if charging_now and not only and prof.value("Impact") and count and enemy.on_table:
                hits = count * prof.value("Impact")
                who = self._who(unit, hero)
                events.append(Event("hits", f"{who} Impact hits on {enemy.name}: {hits}",
                                    {"unit": unit.id, "target": enemy.id, "weapon": "Impact", "hits": hits,
                                     "hero": hero}))
                events += self._wound(unit, enemy, hits, None, 0, prof)
        if a.breathing == unit.id:
            events += self._breath_strike(unit, enemy) if n else []
            a.breathing = None
        sarge = sergeant_index(unit)
        sarge_strikes = sarge is not None and int(s.scene.model_rows(unit.id)[sarge]) <= 1 if unit.on_table \
            else False
        for prof, hero, count in kinds:
            who = self._who(unit, hero)
            for i, weapon in enumerate(sorted(prof.melee_weapons, key=lambda w: not w.has("Deadly"))):
                if not enemy.on_table or count == 0:
                    break
                per_model = melee_attacks(unit, weapon.attacks) + (1 if charging_now and prof.has("Furious")
                                                                   and i == 0 else 0)   # spells: magic
                attacks = count * per_model
                label = f"{who} strikes {enemy.name} with {weapon.name}"
                events.append(Event("info", f"{label}: {attacks} attacks" + (f" (hit only on 6: {only})" if only
                                                                               else ""),
                                    {"unit": unit.id, "target": enemy.id, "weapon": weapon.name, "attacks": attacks,
                                     "hero": hero}))
                quality, need = attack_quality(prof, weapon, False)
                sarge_here = sarge_strikes and not hero
                spells = effect_modifiers(unit, "to_hit")   # spells (game.engine.magic)
                batches: list[tuple[int, list[Modifier], str]] = [(attacks - (per_model if sarge_here else 0),
                                                                   list(spells), "to hit")]
                if sarge_here:
                    batches.append((per_model, [sergeant_modifier(), *spells], "to hit (Sergeant)"))
                hits = sixes = 0
                for cnt, mods, what in batches:
                    if cnt > 0:
                        hr = roll_to_hit(self.dice, cnt, quality, mods, f"{label}: {what}", only_sixes=only,
                                         need_text=need)
                        events += hr.events
                        hits, sixes = hits + hr.hits, sixes + hr.sixes
                rending = rending_hits(prof, weapon, sixes)
                poison = aofr_rules.poison_extra(prof, weapon, sixes)
                blast = blast_multiplier(weapon, enemy.models)
                total_hits = (hits + poison) * blast
                note = f" (Poison 6s x{aofr_rules.POISON_MULTIPLIER}: +{poison})" if poison else ""
                events.append(Event("hits", f"{label}: {total_hits} hit{'s' if total_hits != 1 else ''}{note}",
                                    {"unit": unit.id, "target": enemy.id, "weapon": weapon.name,
                                     "hits": total_hits}))
                normal = hits - rending + (0 if rending else poison)
                rend = rending + (poison if rending else 0)
                events += self._wound(unit, enemy, normal * blast, weapon, rend * blast, prof)
        if n and unit.id not in a.fatigued:
            a.fatigued.append(unit.id)
        return events

    def _breath_strike(self, unit: Unit, enemy: Unit) -> list[Event]:
        """"Breath Attack" in melee: 3 automatic hits with AP(1) per model with the rule in the two front rows,
        after Impact hits and before the unit's strikes; the wounds count toward the melee result (docs/rulings.md).
        Used once this round."""
        a = self.act
        a.breath_used.append(unit.id)
        events: list[Event] = []
        for prof, hero, count in aofr_breath.melee_breathers(self.state, unit):
            if not enemy.on_table:
                break
            hits = aofr_breath.BREATH_HITS * count
            events.append(Event("hits", f"{self._who(unit, hero)} Breath Attack on {enemy.name}: {hits} automatic "
                                f"hits (AP({aofr_breath.BREATH_AP}))",
                                {"unit": unit.id, "target": enemy.id, "weapon": aofr_breath.RULE, "hits": hits,
                                 "hero": hero}))
            events += self._wound(unit, enemy, hits, aofr_breath.BREATH, 0, prof)
        return events

    @staticmethod
    def _who(unit: Unit, hero: bool) -> str:
        return f"{unit.hero.name} with {unit.name}" if hero and unit.hero is not None else unit.name

    def _wound(self, unit: Unit, enemy: Unit, hits: int, w: Weapon | None, rending: int,
               attacker: Profile | None = None) -> list[Event]:
        """Roll to Block and Remove Casualties for ``hits`` (and ``rending`` Rending 6s at AP(4)) on ``enemy`` by
        ``attacker`` models (default the unit's own). "Hero": the unit blocks with its own Defense until all
        non-hero models are killed (``special_rules.defense_profile``); the hero takes wounds last."""
        if hits + rending <= 0:
            return []
        ap = w.ap if w is not None else 0

        def mods(x: int) -> list[Modifier]:
            m = ap_modifier(x)
            return ([m] if m is not None else []) + effect_modifiers(enemy, "defense")   # spells: magic

        batches = [(hits, mods(ap), "Defense")]
        if rending:
            batches.append((rending, mods(max(ap, RENDING_AP)), "Defense against Rending 6s"))
        defender = defense_profile(enemy)
        defense = defender.defense
        who = w.name if w is not None else "Impact"
        wounds, events = block_hits(self.dice, batches, defender, attacker or unit.profile, w,
                                    lambda what: f"{enemy.name} {what} against {unit.name} ({who})",
                                    f"{enemy.name} against {unit.name}", f"Defense {defense}+", enemy.id,
                                    aowfbr_poison=False)
        if wounds and w is not None and w.has("Deadly"):
            wounds = deadly_wounds(enemy, wounds, weapon_value(w, "Deadly"))
        a = self.act
        a.caused[unit.id] = a.caused.get(unit.id, 0) + wounds
        return events + apply_wounds(self.state, enemy, wounds, f"melee with {unit.name}", self.dice)

    def _strike_back(self, action: StrikeBack) -> list[Event]:
        a = self._expect(action, "strike_back")
        unit = self.own_unit(action)
        if len(a.melee) != 2 or unit.id != a.melee[1]:
            raise IllegalAction("Return Strikes", "only the charged unit may strike back")
        charger = self.state.units[a.melee[0]]
        if action.breath:
            self._check_breath_melee(unit)
        events = [Event("melee", f"{unit.name} strikes back", {"unit": unit.id})]
        a.breathing = unit.id if action.breath else None
        return events + self._strike(unit, charger, charging_now=False) + self._melee_result()

    def full_rows(self, unit: Unit) -> int:
        """"Combat Resolution": the unit's full rows (a single model counts as one)."""
        if not unit.on_table or unit.models <= 0:
            return 0
        if unit.starting_models == 1:
            return 1
        return unit.models // max(unit.per_row, 1)

    def melee_result_extra(self, unit: Unit, charged: bool, side: str) -> float:
        """AoF:R 2.16 "Combat Resolution", as expected before any die (see ``Ruleset.melee_result_extra``): the
        unit's full rows, "Fear" +D3 (2 expected), "Musician / Battle Standard" +1; nothing for charging nor for
        the side a charge hits."""
        fear = 2.0 if aofr_rules.has_fear(unit) else 0.0
        return float(self.full_rows(unit) + aofr_rules.command_wounds(unit)) + fear

    def strikers_estimate(self, unit: Unit, enemy: Unit, side: str) -> tuple[int, bool]:
        """AoF:R 2.16 "Who Can Strike" (see ``Ruleset.strikers_estimate``): models strike only at targets in their
        front facing, the two front rows; none at an enemy in the flank or rear."""
        if side != "front":
            return 0, False
        return min(unit.models, 2 * max(unit.per_row, 1)), False

    def _melee_result(self) -> list[Event]:
        """"Combat Resolution" (wounds caused + full rows; "Fear" +D3, rolled charger first; "Musician / Battle
        Standard" +1) and "Consolidation Moves"."""
        s, a = self.state, self.act
        charger, target = (s.units[u] for u in a.melee)
        events: list[Event] = []
        extra: dict[str, list[str]] = {charger.id: [], target.id: []}
        score = {u.id: a.caused.get(u.id, 0) + self.full_rows(u) for u in (charger, target)}
        for u in (charger, target):
            if not (charger.on_table and target.on_table):
                break                      # a destroyed unit: no melee result ("Consolidation Moves")
            fear, evs = aofr_rules.fear_wounds(self.dice, u)   # "Fear": +D3 wounds
            events += evs
            if fear:
                score[u.id] += fear
                extra[u.id].append(f"Fear +{fear}")
            if aofr_rules.command_wounds(u):                  # "Musician / Battle Standard": +1 wound
                score[u.id] += 1
                extra[u.id].append("Battle Standard +1")
        # units / winner (player) / caused (wounds by unit): the keys every ruleset's melee result carries
        # (docs/formats.md "Events"), read by the odds advisor and the statistics
        winner = None if score[charger.id] == score[target.id] else \
            (charger.player if score[charger.id] > score[target.id] else target.player)
        words = {u.id: f"{u.name} {score[u.id]}" + (f" ({', '.join(extra[u.id])})" if extra[u.id] else "")
                 for u in (charger, target)}
        events.append(Event("melee", f"Melee result: {words[charger.id]}, {words[target.id]} "
                            f"(wounds caused + full rows)",
                            {"scores": dict(score), "units": [charger.id, target.id], "winner": winner,
                             "caused": {u: a.caused.get(u, 0) for u in (charger.id, target.id)}}))
        loser: Unit | None = None
        if charger.on_table and target.on_table and score[charger.id] != score[target.id]:
            loser = target if score[charger.id] > score[target.id] else charger
        if loser is not None:
            events += self._lost_melee(loser, [])
        if charger.on_table and target.on_table:
            return events + self._back_off(charger, target) + self._end_activation()
        for u in (charger, target):
            for other in list(u.engaged_with):
                s.disengage(u, s.units[other])
        survivor = charger if charger.on_table else target if target.on_table else None
        if survivor is None:
            return events + self._end_activation()
        a.stage = "consolidate"
        s.pending = Pending(survivor.player, "consolidate", survivor.id)
        return events

    def melee_played_out(self, round_: int, player: int) -> bool:
        """AoF:R 2.16 "Melee": the charge is fought within the charger's activation; it is played out once that
        activation has ended (the next one is asked for) or the round or the game has."""
        s = self.state
        return s.pending is None or s.round != round_ or s.pending.decision == "activate"
