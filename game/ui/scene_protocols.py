"""What the battle scene's helper modules use of the scene, as Protocols (issue 14: imports only point downwards).

The battle scene (game/ui/scenes/battle.py) hands itself to the modules it is split into: ``battle_draw``
(drawing), ``decisions`` (the action bar's buttons), ``spell_aim`` (spells aimed at a point) and
``artillery_tool`` (artillery aimed at a point). They type it as ``BattleSceneLike`` instead of importing
``BattleScene``, which imports them; mypy checks that ``BattleScene`` and its subclasses (the replay viewer, the
lesson) fit wherever they are passed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import pygame

    from game.engine.actions import Action
    from game.engine.errors import IllegalAction
    from game.engine.game import Game
    from game.ui.action_bar import ButtonSpec
    from game.ui.animation import Animations
    from game.ui.draw_terrain import StaticLayer
    from game.ui.draw_units import UnitPainter
    from game.ui.insight import Insight
    from game.ui.label_layout import LabelLayout
    from game.ui.move_tool import MoveTool
    from game.ui.table_view import TableView
    from game.ui.trails import CombatTrails
    from game.ui.view_tools import ViewTools


class ArtilleryAim(Protocol):
    """The scene's artillery aiming (``game.ui.artillery_tool.ArtilleryTool``) as drawing and buttons use it."""

    def buttons(self) -> list[ButtonSpec]:
        """The action bar's buttons for the selected artillery."""
        ...

    def run(self, key: str) -> bool:
        """Do what button ``key`` stands for; True if it was one of these buttons."""
        ...

    def draw(self, screen: pygame.Surface, labels: LabelLayout | None = None) -> bool:
        """Draw the aim and the last shots; True if a note was drawn."""
        ...


class BattleSceneLike(Protocol):
    """A battle scene as its helper modules read and change it (``game.ui.scenes.battle.BattleScene``).

    Table coordinates are inches, screen ones pixels; unit ids are the scenario's.
    """

    game: Game
    """The game shown (undo may replace it)."""
    view: TableView
    static: StaticLayer
    painter: UnitPainter
    anims: Animations
    insight: Insight
    trails: CombatTrails
    tools: ViewTools | None
    tool: MoveTool | None
    """The move ghost being dragged, if any."""
    selected: str | None
    hover: str | None
    hover_terrain: int | None
    actors: set[str]
    """Units that can act on the decision at hand."""
    casts: list[Any]
    """The spells that can be cast now (``CastSpell`` actions)."""
    spell: str | None
    """The spell chosen on the action bar, waiting for its target."""
    spell_menu: bool
    """Within an activation (AoF:R 2.16 "Wizard(X)"): the action bar shows the wizard's spells instead of its
    moves."""
    fire: dict[str, set[str]]
    """Weapon groups chosen to fire, by shooter."""
    breath: bool
    """AoF:R 2.16 "Breath Attack": the activated unit's next charge uses its breath (toggled on the action bar)."""
    side_category: int | None
    mouse: tuple[int, int]
    panning: bool
    measure: bool
    show_arcs: bool
    show_sight: bool
    show_trails: bool
    error: IllegalAction | None
    banner: tuple[str, tuple[int, int, int], float] | None
    time: float
    """Seconds since the scene opened."""
    last_exception: BaseException | None
    watch_only: bool
    """A replay: it shows the game and never acts."""

    @property
    def artillery(self) -> ArtilleryAim:
        """The artillery's aiming (read-only here, so that the scene's own ``ArtilleryTool`` fits)."""
        ...

    @property
    def pending(self) -> Any:
        """The decision the engine waits for."""
        ...

    @property
    def seat(self) -> int | None:
        """The player alone at the screen, None while both players watch."""
        ...

    def act(self, action: Action) -> bool:
        """Send ``action`` to the engine; True if it was applied."""
        ...

    def show_error(self, error: IllegalAction) -> None:
        """Show a broken rule."""
        ...

    def show_banner(self, text: str, colour: tuple[int, int, int], seconds: float = 4.0) -> None:
        """A message over the bottom of the table for a few seconds."""
        ...

    def show_results(self) -> None:
        """Go to the results of this game."""
        ...

    def next_deploy_unit(self) -> None:
        """Deploy another of the waiting units."""
        ...

    def targets_of(self, uid: str) -> list[str]:
        """Valid targets of ``uid`` for the decision at hand."""
        ...

    def side_mission_category(self) -> int | None:
        """The category of side-missions the deciding player sees."""
        ...

    def zone_outline(self, player: int) -> tuple[list[tuple[float, float]], tuple[float, float]]:
        """``player``'s deployment zone as drawn (inches) and where its label goes."""
        ...
