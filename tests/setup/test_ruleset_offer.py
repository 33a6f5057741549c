"""What the battle set-up offers under each ruleset (game/setup/ruleset_offer.py, issue 14) is what the scenario
loader accepts for it: everything offered writes a scenario that loads, what is not offered is refused, and a list
entry is flagged with the loader's own message."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.engine.rulesets import RULESETS
from game.engine.rulesets.aowfbr import AoWFBR
from game.scenario import ScenarioError, load_scenario
from game.setup.ruleset_offer import (
    MISSION_KEYS,
    fit_terrain,
    force_org_problems,
    force_org_words,
    list_problems,
    offer,
    planned,
    playable,
    rules_not_played,
    setup_refusal,
)
from game.ui.scenes.setup_state import SetupState


def _state(ruleset: str, seed: int = 3) -> SetupState:
    """A set-up under ``ruleset`` with two lists of units that ruleset plays (no upgrades)."""
    st = SetupState(seed=seed)
    st.set_ruleset(ruleset)
    st.ensure_table()
    for player in (1, 2):
        lst = st.army_list(player)
        fit = [n for n, p in lst.army.profiles.items()
               if p.size > 1 and not p.is_hero and not rules_not_played(p, ruleset)]
        lst.add(fit[0])
        lst.add(fit[-1])
        assert st.problems(player) == [], (ruleset, st.problems(player))
    return st


@pytest.mark.parametrize("ruleset", sorted(r for r in RULESETS if setup_refusal(r) is None))
def test_everything_offered_loads(ruleset: str, tmp_path: Path) -> None:
    """Each mission offered, each deployment style offered, every optional rule and side-missions when offered,
    and tables of every generation style: the scenario written loads under the ruleset."""
    o = offer(ruleset)
    st = _state(ruleset)
    st.options = {k: True for k in o.options}
    st.side_missions = ("shared", "free") if o.side_missions else None
    for i, mission in enumerate(o.missions):
        st.mission = mission
        st.deployment = o.deployments[i % len(o.deployments)]
        assert st.write(tmp_path / f"m{i}.yaml").ruleset == ruleset
    for i, style in enumerate(o.deployments):
        st.deployment = style
        st.mission = o.missions[0]
        st.write(tmp_path / f"d{i}.yaml")
    for style in ("guidelines", "random", "roll"):
        st.generate(11, style)
        assert all(p.kind in o.kinds for p in st.terrain)
        st.write(tmp_path / f"t-{style}.yaml")
    assert load_scenario(tmp_path / "t-roll.yaml").ruleset == ruleset


def test_what_aofr_does_not_offer_the_loader_refuses(tmp_path: Path) -> None:
    """AoF:R 2.16: every mission but none (its mission decides the winner), side-missions, no AoWFBR optional rules
    (every terrain kind); each of the others is refused by the loader, naming the ruleset: the offer is the
    loader's, not a second list."""
    o = offer("aofr-2.16")
    assert o.missions == tuple(m for m in MISSION_KEYS if m != "none") and "random" in o.missions
    assert o.options == () and o.side_missions and not o.force_org
    assert "hill" in o.kinds and "forest" in o.kinds and o.deployments[0] == "front_line"
    refused = {"mission": "none", "options": {"random_charge_distance": True}}
    for key, value in refused.items():
        st = _state("aofr-2.16")
        st.mission = "standard"
        setattr(st, key, value)
        with pytest.raises(ScenarioError, match="Age of Fantasy: Regiments 2.16"):
            st.write(tmp_path / f"{key}.yaml")


def test_aowfbr_offers_everything() -> None:
    o = offer(AoWFBR.id)
    assert o.missions == MISSION_KEYS and set(o.options) == {"random_charge_distance", "artillery_scatter"}
    assert o.side_missions and o.force_org and "hill" in o.kinds and "river" in o.kinds
    assert "1500" in o.points_guideline and "1500" not in offer("aofr-2.16").points_guideline


def test_a_flagged_entry_carries_the_loaders_message(tmp_path: Path) -> None:
    """A unit with Counter under AoF:R 2.16: ``list_problems`` gives the very message the loader refuses the
    written scenario with (file and line aside)."""
    st = _state("aofr-2.16")
    lst = st.army_list(1)
    name = next(n for n, p in lst.army.profiles.items() if "Counter" in rules_not_played(p, "aofr-2.16"))
    lst.add(name)
    flagged = list_problems(lst, "aofr-2.16")
    assert len(flagged) == 1 and flagged[0] in st.problems(1)
    st.ruleset = "aofr-2.16"
    from game.ui.scenes.setup_state import write_scenario
    with pytest.raises(ScenarioError) as refused:
        write_scenario(tmp_path / "x.yaml", "x", (72, 48), st.terrain, [st.army_list(1), st.army_list(2)],
                       mission="standard", ruleset="aofr-2.16")
    assert any(p.endswith(flagged[0]) for p in refused.value.problems)


def test_changing_the_ruleset_keeps_what_it_plays_and_says_what_changed() -> None:
    st = SetupState(seed=5)
    st.ensure_table()
    st.mission, st.deployment, st.options = "seize_ground", "spearhead", {"artillery_scatter": True}
    st.side_missions, st.force_org = ("hidden", "limited"), True
    kinds = [p.kind for p in st.terrain]
    notes = st.set_ruleset("aofr-2.16")
    assert (st.mission, st.deployment, st.options, st.side_missions, st.force_org) == (
        "seize_ground", "spearhead", {}, ("hidden", "limited"), False)
    assert any("optional rules" in n or "artillery" in n.lower() for n in notes), notes
    assert [p.kind for p in st.terrain] == kinds         # AoF:R 2.16 plays every kind: the table is kept
    assert st.set_ruleset("aowfbr-1.4") == []            # everything AoF:R plays, AoWFBR plays too
    with pytest.raises(ValueError, match="start a skirmish from its scenarios"):
        st.set_ruleset("aof-skirmish")             # loose models: the set-up builds regiments


def test_a_new_ruleset_is_offered_from_its_class(monkeypatch, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Nothing is hard-coded: a ruleset registered in RULESETS is offered by what its class says."""
    class Narrow(AoWFBR):
        id = "narrow-1"
        title = "Narrow Rules"
        missions = frozenset({"none", "standard"})
        deployment_styles = frozenset({"front_line", "long_haul"})
        terrain_traits = frozenset({"cover", "difficult"})
    monkeypatch.setitem(RULESETS, "narrow-1", Narrow)
    o = offer("narrow-1")
    assert o.missions == ("none", "standard") and o.deployments == ("front_line", "long_haul")
    assert set(o.kinds) == {"barricade", "field", "lake", "rubble", "swamp"} and o.short_title == "Narrow Rules"
    assert "narrow-1" in playable()
    pieces, notes = fit_terrain(SetupState(seed=5).generate(5, "guidelines"), "narrow-1")
    assert all(p.traits <= o.traits for p in pieces) and notes
    st = _state("narrow-1")
    for mission in o.missions:
        st.mission = mission
        st.write(tmp_path / f"{mission}.yaml")               # no mission ("none") too
    st.deployment = "spearhead"                              # not offered: the loader refuses it
    with pytest.raises(ScenarioError, match="Narrow Rules \\(narrow-1\\) has no spearhead deployment"):
        st.write(tmp_path / "spearhead.yaml")


def test_planned_rulesets_are_named_with_the_reason(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from game.engine import rulesets
    monkeypatch.setitem(rulesets.PLANNED, "aof-horde", "Age of Fantasy: Horde")
    assert playable()[0] == AoWFBR.id
    names = {rid: why for rid, _, why in planned()}
    assert "aof-horde" in names and "not playable yet" in names["aof-horde"]
    assert not set(names) & set(RULESETS)


def test_the_setup_does_not_offer_loose_models() -> None:
    """AoF: Skirmish is played from its scenarios: the set-up builds regiments in formation."""
    from game.ui.scenes.setup_ruleset import window_rulesets
    offered, not_offered = window_rulesets()
    assert "aof-skirmish" not in {o.id for o in offered}
    assert any(rid == "aof-skirmish" and "scenarios" in why for rid, _, why in not_offered)


def test_the_quick_rules_force_org_is_offered_applied_and_written(tmp_path: Path) -> None:
    """The AoF:R quick rules' "Force Org. (optional)" ("up to 1 hero per 375pts ... max. 1 unit per 150pts", at
    the army's points): the set-up's check box offers the ruleset's own limits (not AoWFBR's), flags a list with the
    loader's message, and the battle is written with ``force_org: true`` so the loader checks it too."""
    o = offer("aofr-quick")
    assert o.force_org and o.own_force_org and not offer("aowfbr-1.4").own_force_org
    st = _state("aofr-quick")
    lst = st.army_list(1)
    unit = next(n for n, p in lst.army.profiles.items() if p.size > 1 and not p.is_hero
                and not rules_not_played(p, "aofr-quick") and p.cost <= 150)
    for _ in range(4):          # 6 units at under 900 pts: over "max. 1 unit per 150pts"
        lst.add(unit)
    assert st.problems(1) == []           # not agreed: no limits
    st.force_org = True
    flagged = force_org_problems(lst, "aofr-quick")
    assert flagged and all(f in st.problems(1) for f in flagged)
    assert any("one unit too many" in f and "Force Org." in f for f in flagged)
    assert not any("(Force Organisation)" in p for p in st.problems(1))     # AoWFBR's limits are not applied
    with pytest.raises(ScenarioError) as refused:
        st.write(tmp_path / "over.yaml")
    assert any(p.endswith(flagged[0]) for p in refused.value.problems)
    st.set_points(1500)
    for player in (1, 2):       # five different units of two combined copies, alike costs: within every limit
        armies = Path(__file__).resolve().parents[2] / "scenarios" / "armies"
        army = "ironroot_hold.yaml" if player == 1 else "free_cantons_of_aldmark.yaml"
        each = st.choose_army(player, armies / army)
        fit = sorted((p.cost, n) for n, p in each.army.profiles.items()
                     if p.size in (5, 10) and not p.is_hero and p.cost < 130
                     and not rules_not_played(p, "aofr-quick") and 2 in each.copy_options(n))
        window = min((fit[i:i + 5] for i in range(len(fit) - 4)), key=lambda w: w[-1][0] / sum(c for c, _ in w))
        each.entries.clear()
        for _, name in window:
            each.add(name, 2)
    assert st.problems(1) == [] and st.problems(2) == [], (st.problems(1), st.problems(2))
    st.write(tmp_path / "ok.yaml")
    assert "force_org: true" in (tmp_path / "ok.yaml").read_text()
    words = force_org_words(lst.points_used, "aofr-quick")
    assert words is not None and force_org_words(750, "aowfbr-1.4") is None
    assert force_org_words(900, "aofr-quick") == ("Army's 900 pts: at most 2 heroes, 6 units, 2 of a unit, none over "
                                                  "315 pts.")


def test_switching_to_the_quick_rules_says_the_force_org_changes() -> None:
    """A set-up with AoWFBR's Force Organisation agreed keeps it under the quick rules, as their own "Force Org."
    (their limits, not AoWFBR's), and says so."""
    st = SetupState(seed=5)
    st.ensure_table()
    st.force_org = True
    notes = st.set_ruleset("aofr-quick")
    assert st.force_org and any("Force Organisation" in n and "own" in n for n in notes)
    assert any("AoWFBR limits" in n for n in st.set_ruleset("aowfbr-1.4"))
