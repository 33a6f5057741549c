"""The set-up's ruleset chooser: a drop-down of every ruleset the window can play (issue 14).

The rulesets come from the engine (``game.setup.ruleset_offer.playable``, ``game.engine.rulesets.RULESETS``), less
the ones the battle screen cannot present (``game.ui.decisions.window_refusal``) or the set-up cannot build
(``ruleset_offer.setup_refusal``); the planned ones
(``ruleset_offer.planned``) and the refused ones are named in the tooltip with the reason. Choosing one calls
``SetupState.set_ruleset``: everything else in the set-up then follows what that ruleset plays.
"""

from __future__ import annotations

import pygame
import pygame_gui

from game.setup.ruleset_offer import RulesetOffer, offer, planned, playable, setup_refusal
from game.ui.decisions import window_refusal
from game.ui.scenes.setup_state import SetupState
from game.ui.tip_drop_down import TipDropDown


def window_rulesets() -> tuple[list[RulesetOffer], list[tuple[str, str, str]]]:
    """The rulesets the set-up offers, and the ones it does not, as (id, title, why): planned ones (not playable
    yet) and playable ones the window cannot present."""
    offered, not_offered = [], []
    for rid in playable():
        why = window_refusal(rid) or setup_refusal(rid)
        if why is None:
            offered.append(offer(rid))
        else:
            not_offered.append((rid, offer(rid).title, why))
    return offered, not_offered + planned()


def ruleset_tip(state: SetupState) -> str:
    """The chooser's tooltip: what the chosen ruleset decides and which rulesets are not offered, and why."""
    o = offer(state.ruleset)
    words = (f"{o.title} ({o.id}): won by {o.score_words[0]}; morale: {o.morale_words or 'none'}. The missions, "
             "optional rules, deployment, side-missions, terrain and the units a list may use follow the ruleset.")
    _, missing = window_rulesets()
    if missing:
        words += " Not offered: " + "; ".join(f"{title}: {why}" for _, title, why in missing)
    return words


class RulesetChooser:
    """The drop-down choosing ``state.ruleset``, inside a set-up panel."""

    def __init__(self, state: SetupState, rect: pygame.Rect, manager: pygame_gui.UIManager,
                 container: pygame_gui.core.IContainerLikeInterface, short: bool = False) -> None:
        """The drop-down at ``rect`` in ``container``; ``short``: rulesets by their short titles (a narrow one)."""
        self.state = state
        offered, _ = window_rulesets()
        self.labels: dict[str, str] = {(o.short_title if short else o.title): o.id for o in offered}
        current = next((label for label, rid in self.labels.items() if rid == state.ruleset), None)
        if current is None:                      # a ruleset the window cannot present: show it, offer the others
            current = state.ruleset
            self.labels[current] = state.ruleset
        options: list[str | tuple[str, str]] = list(self.labels)
        self.menu = TipDropDown(options, current, rect, manager, container=container)
        self.menu.set_tooltip(ruleset_tip(state))

    def handle(self, event: pygame.event.Event) -> list[str] | None:
        """If ``event`` chose another ruleset: set it up (``SetupState.set_ruleset``) and return what changed, in
        words (possibly nothing); else None."""
        if event.type != pygame_gui.UI_DROP_DOWN_MENU_CHANGED or event.ui_element is not self.menu:
            return None
        rid = self.labels.get(event.text)
        if rid is None or rid == self.state.ruleset:
            return None
        notes = self.state.set_ruleset(rid)
        self.menu.set_tooltip(ruleset_tip(self.state))
        return notes


__all__ = ["RulesetChooser", "ruleset_tip", "window_rulesets"]
