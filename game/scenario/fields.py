"""Field types of the scenario and army file models, with plain-language messages (docs/formats.md).

``Number``, ``Int``, ``Text`` and their refinements (``Score``: 2 to 6, rulebook "Unit Stats"; ``RuleText``: a
special rule as written, ``Tough(3)``; ``KindText``, ``TraitText``: terrain kinds and traits, ``game/terrain_kinds.py``)
raise ``ValueError`` with the words a player reads (``must be 2 to 6, got 7``); ``_hint`` adds ``(did you mean X?)``.
"""

from __future__ import annotations

import difflib
import math
import re
import typing
from typing import Annotated, Any

from pydantic import AfterValidator, BeforeValidator

from game.engine.profiles import KNOWN_RULES, UPGRADES, parse_rule
from game.engine.rulesets import RULESETS as ENGINE_RULESETS
from game.engine.rulesets import unplayable
from game.engine.state import Phase
from game.scenario.yaml_doc import _show
from game.terrain_kinds import KIND_TRAITS, KINDS, KNOWN_TRAITS


def _number(v: Any) -> Any:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise ValueError(f"must be a number, got {_show(v)}")
    if not math.isfinite(v):
        raise ValueError(f"must be a finite number, got {_show(v)}")
    return v


def _integer(v: Any) -> Any:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise ValueError(f"must be a whole number, got {_show(v)}")
    if isinstance(v, float):
        if not (math.isfinite(v) and v.is_integer()):
            raise ValueError(f"must be a whole number, got {_show(v)}")
        return int(v)
    return v


def _text(v: Any) -> Any:
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return str(v)
    if not isinstance(v, str):
        raise ValueError(f"must be text, got {_show(v)}")
    if not v.strip():
        raise ValueError("must not be empty")
    return v


def _between(lo: float, hi: float) -> AfterValidator:
    def check(v: Any) -> Any:
        if not lo <= v <= hi:
            raise ValueError(f"must be {lo:g} to {hi:g}, got {_show(v)}")
        return v

    return AfterValidator(check)


def _at_least(lo: float) -> AfterValidator:
    def check(v: Any) -> Any:
        if v < lo:
            raise ValueError(f"must be at least {lo:g}, got {_show(v)}")
        return v

    return AfterValidator(check)


def _positive(v: Any) -> Any:
    if v <= 0:
        raise ValueError(f"must be greater than 0, got {_show(v)}")
    return v


def _hint(word: str, choices: typing.Iterable[str]) -> str:
    """`` (did you mean X?)`` for a near miss, else empty."""
    close = difflib.get_close_matches(word, sorted(choices), n=1, cutoff=0.6)
    return f" (did you mean {close[0]}?)" if close and close[0] != word else ""


def _rule(v: str) -> str:
    """A special rule as written in the rulebook, ``Fearless`` or ``Tough(3)``; checked with ``parse_rule``."""
    try:
        name, value = parse_rule(v)
    except ValueError as e:
        m = re.match(r"\s*([A-Za-z][A-Za-z ]*?)\s*(?:\(|$)", v)
        hint = _hint(m.group(1), KNOWN_RULES) if m and m.group(1) not in KNOWN_RULES else ""
        raise ValueError(f"{e}{hint}") from None
    if value is not None and value < 1:
        raise ValueError(f"special rule {name}({value}) needs a value of at least 1")
    return v


def _upgrade(v: str) -> str:
    if v not in UPGRADES:
        raise ValueError(f"unknown upgrade {v!r} (upgrades: {', '.join(sorted(UPGRADES))})")
    return v


def _kind(v: str) -> str:
    if v not in KIND_TRAITS:
        raise ValueError(f"unknown terrain kind {v!r}{_hint(v, KINDS)} (kinds: {', '.join(KINDS)})")
    return v


def _trait(v: str) -> str:
    if v not in KNOWN_TRAITS:
        raise ValueError(f"unknown terrain trait {v!r}{_hint(v, KNOWN_TRAITS)} "
                         f"(traits: {', '.join(sorted(KNOWN_TRAITS))})")
    return v


def _unit_id(v: str) -> str:
    if any(c.isspace() for c in v):
        raise ValueError(f"a unit id may not contain spaces, got {v!r}")
    return v


def _player(v: int) -> int:
    if v not in (1, 2):
        raise ValueError(f"must be 1 or 2, got {v}")
    return v


def _one_of(*choices: str) -> AfterValidator:
    def check(v: str) -> str:
        if v not in choices:
            raise ValueError(f"must be one of {', '.join(choices)}; got {v!r}")
        return v

    return AfterValidator(check)


def _playable_ruleset(v: str) -> str:
    """A ruleset the engine can play; a planned one is refused saying it is not playable yet (issue 14)."""
    if v not in ENGINE_RULESETS:     # the registry itself: a ruleset registered later is accepted too
        raise ValueError(unplayable(v))
    return v


def _not_playable_yet(rule: str) -> AfterValidator:
    """Refuse ``true`` for an optional rule the engine cannot play: a switch that changes nothing would make the
    players believe the rule is applied."""
    def check(v: bool) -> bool:
        if v:
            raise ValueError(f"{rule} cannot be played yet; remove the key or set it to false")
        return v

    return AfterValidator(check)


def _base(v: list[float]) -> list[float]:
    if len(v) != 2:
        raise ValueError(f"must be [width, depth] in millimetres, got {len(v)} numbers")
    if v[0] <= 0 or v[1] <= 0:
        raise ValueError(f"base sizes must be greater than 0 mm, got [{v[0]:g}, {v[1]:g}]")
    return v


def _point(v: list[float]) -> list[float]:
    if len(v) != 2:
        raise ValueError(f"a point must be [x, y] in inches, got {len(v)} numbers")
    return v


Number = Annotated[float, BeforeValidator(_number)]
Int = Annotated[int, BeforeValidator(_integer)]
Text = Annotated[str, BeforeValidator(_text)]
Score = Annotated[Int, _between(2, 6)]
RuleText = Annotated[Text, AfterValidator(_rule)]
UpgradeText = Annotated[Text, AfterValidator(_upgrade)]
KindText = Annotated[Text, AfterValidator(_kind)]
TraitText = Annotated[Text, AfterValidator(_trait)]
UnitId = Annotated[Text, AfterValidator(_unit_id)]
PlayerNo = Annotated[Int, AfterValidator(_player)]
Positive = Annotated[Number, AfterValidator(_positive)]
PhaseText = Annotated[Text, _one_of(*(p.value for p in Phase))]
