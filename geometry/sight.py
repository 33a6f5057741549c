"""Line of sight and cover (rulebook "Line of Sight", "Unit Facing", "Cover Terrain", terrain guidelines).

Definitions (inches, degrees):

* A *sight line* is a straight segment. It is blocked by the footprint (perimeter) of any unit other than the
  looking and target units, by ``blocking`` terrain it touches (also when an end lies inside the piece), and
  by ``see_into_not_through`` terrain (forests) it crosses when neither end lies inside that piece. Shapes are
  shrunk by ``CONTACT_TOL`` first, so a line grazing a perimeter is not blocked.
* A looker whose footprint lies more than half on ``elevated`` terrain (a hill) ignores one obstacle: a line is
  clear for it when it crosses at most one blocking unit or terrain piece.
* A looker *model* sees a target *model* when one of the target base's sample points (its centre and its four
  corners pulled 2% toward the centre) lies in the looker base's 45 degree front arc (``geometry.arcs``) and the
  sight line from the looker base's centre to that point is clear.
* Cover: see ``in_cover``.

All functions take a ``Scene`` and unit ids; unknown ids raise ``KeyError``.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

import numpy as np
import shapely

from geometry._vec import rect_distance, segments_hit
from geometry.pose import Point, forward_vector, right_vector
from geometry.terrain import BLOCKING, COVER

if TYPE_CHECKING:
    from geometry.scene import Scene

SAMPLE_INSET = 0.98
"""Target base corners are pulled toward the base centre to this fraction before sight lines are drawn."""


def _obstacle_hits(
    scene: Scene, p: np.ndarray, q: np.ndarray, ignore_units: Collection[str], with_cover: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """For segments p[i]-q[i] (n, 2): (number of sight obstacles each crosses, whether each crosses cover).

    The cover flag is True when the segment crosses another unit, sight-blocking terrain, or a ``cover`` piece
    that does not contain its start ``p`` (the looker's end). Computed only when ``with_cover``.
    """
    n = len(p)
    counts = np.zeros(n, dtype=int)
    covered = np.zeros(n, dtype=bool)
    if n == 0:
        return counts, covered
    lo = np.minimum(p.min(axis=0), q.min(axis=0))
    hi = np.maximum(p.max(axis=0), q.max(axis=0))
    arrays = scene.arrays()
    if len(arrays.ids):
        bb = arrays.bboxes
        near = (bb[:, 0] <= hi[0]) & (bb[:, 2] >= lo[0]) & (bb[:, 1] <= hi[1]) & (bb[:, 3] >= lo[1])
        unit_sel = [int(k) for k in np.flatnonzero(near) if arrays.ids[int(k)] not in ignore_units]
    else:
        unit_sel = []
    positions = scene.cover_terrain if with_cover else []
    terrain_sel = []
    for pos in sorted(set(scene.los_terrain) | set(positions)):
        g = scene.terrain_geo(pos)
        if g.bbox[0] <= hi[0] and g.bbox[2] >= lo[0] and g.bbox[1] <= hi[1] and g.bbox[3] >= lo[1]:
            terrain_sel.append(pos)
    if not unit_sel and not terrain_sel:
        return counts, covered
    a_parts: list[np.ndarray] = []
    b_parts: list[np.ndarray] = []
    starts: list[int] = []
    e = 0
    if unit_sel:
        cores = arrays.cores[unit_sel]
        a_parts.append(cores.reshape(-1, 2))
        b_parts.append(np.roll(cores, -1, axis=1).reshape(-1, 2))
        starts.extend(range(0, 4 * len(unit_sel), 4))
        e = 4 * len(unit_sel)
    for pos in terrain_sel:
        g = scene.terrain_geo(pos)
        a_parts.append(g.edges_a)
        b_parts.append(g.edges_b)
        starts.append(e)
        e += len(g.edges_a)
    hit = segments_hit(p, q, np.concatenate(a_parts), np.concatenate(b_parts))
    per = np.logical_or.reduceat(hit, np.array(starts), axis=1)  # (n, obstacles)
    nu = len(unit_sel)
    blocking = per[:, :nu]
    counts += blocking.sum(axis=1)
    if with_cover:
        covered |= blocking.any(axis=1)
    for col, pos in enumerate(terrain_sel, start=nu):
        piece = scene.terrain[pos]
        crossed = per[:, col]
        in_p = shapely.contains_xy(piece.shape, p[:, 0], p[:, 1])
        if pos in scene.los_terrain:
            in_q = shapely.contains_xy(piece.shape, q[:, 0], q[:, 1])
            if BLOCKING in piece.traits:
                blocked = crossed | in_p | in_q
            else:  # see into and out of, not through
                blocked = crossed & ~(in_p | in_q)
            counts += blocked
            if with_cover:
                covered |= blocked
        if with_cover and COVER in piece.traits:
            covered |= crossed & ~in_p
    return counts, covered


def _allowed(scene: Scene, looker_id: str | None) -> int:
    """Obstacles a sight line may cross: 1 for a looker on elevated terrain, else 0."""
    return 1 if looker_id is not None and scene.is_elevated(looker_id) else 0


def line_clear(
    scene: Scene, p: Point, q: Point, ignore_units: Collection[str] = (), looker_id: str | None = None
) -> bool:
    """True if the sight line from ``p`` to ``q`` (inches) is clear (module docstring; rulebook "Line of Sight").

    Units in ``ignore_units`` and the looker's own unit never block. When ``looker_id`` is on elevated terrain
    one obstacle is ignored. Symmetric in ``p`` and ``q`` for the same ignore set.
    """
    ignore = set(ignore_units)
    if looker_id is not None:
        ignore.add(looker_id)
    counts, _ = _obstacle_hits(scene, np.array([p], dtype=float), np.array([q], dtype=float), ignore)
    return bool(counts[0] <= _allowed(scene, looker_id))


def _target_samples(scene: Scene, target_id: str) -> np.ndarray:
    """Sample points of every target base: array (models, 5, 2) - centre then the four inset corners."""
    corners = scene.model_corners(target_id)
    centres = scene.model_centres(target_id)
    inset = centres[:, None, :] + (corners - centres[:, None, :]) * SAMPLE_INSET
    out: np.ndarray = np.concatenate([centres[:, None, :], inset], axis=1)
    return out


def _front_mask(scene: Scene, looker_id: str, eyes: np.ndarray, points: np.ndarray) -> np.ndarray:
    """For looker bases centred at ``eyes`` (n, 2) and points (m, k, 2): which lie in each base's front arc."""
    u = scene._unit(looker_id)
    f = np.array(forward_vector(u.pose.facing))
    r = np.array(right_vector(u.pose.facing))
    bw, bd = u.formation.base_width, u.formation.base_depth
    rel = points[None, :, :, :] - eyes[:, None, None, :]
    uu = rel[..., 0] * r[0] + rel[..., 1] * r[1]
    vv = rel[..., 0] * f[0] + rel[..., 1] * f[1]
    ahead = vv - bd / 2
    out: np.ndarray = (ahead >= np.abs(uu) - bw / 2) & (vv >= 0)
    return out


def _seeing(
    scene: Scene, looker_id: str, target_id: str, rows: int | None, max_range: float | None, first_only: bool
) -> list[int]:
    """Indices of looker models that see the target (all of them, or just one when ``first_only``)."""
    eyes_all = scene.model_centres(looker_id)
    idx = np.arange(len(eyes_all))
    if rows is not None:
        idx = idx[scene.model_rows(looker_id) < rows]
    if len(idx) == 0 or len(scene.model_centres(target_id)) == 0:
        return []
    eyes = eyes_all[idx]
    samples = _target_samples(scene, target_id)
    cand = _front_mask(scene, looker_id, eyes, samples)  # (n, m, 5)
    if max_range is not None:
        dist = rect_distance(scene.model_corners(looker_id)[idx], scene.model_corners(target_id))
        cand &= (dist <= max_range + 1e-9)[:, :, None]
    ignore = {looker_id, target_id}
    allowed = _allowed(scene, looker_id)
    sees = np.zeros(len(idx), dtype=bool)
    for ks in ((0,), (1, 2, 3, 4)):
        sub = cand[:, :, list(ks)] & ~sees[:, None, None]
        ii, jj, kk = np.nonzero(sub)
        if len(ii) == 0:
            continue
        p = eyes[ii]
        q = samples[jj, np.array(ks)[kk]]
        counts, _ = _obstacle_hits(scene, p, q, ignore)
        clear = counts <= allowed
        sees[np.unique(ii[clear])] = True
        if first_only and sees.any():
            break
    return [int(i) for i in idx[sees]]


def models_with_sight(
    scene: Scene, looker_id: str, target_id: str, rows: int | None = None, max_range: float | None = None
) -> list[int]:
    """Indices (``model_centres`` order) of looker models that see at least one target model.

    Only models in the first ``rows`` rows count (None = all). A model sees a target model when a sample point of
    the target base is in its base's front arc and the sight line to it is clear (module docstring), ignoring the
    looker's and the target's own units; with ``max_range`` that target model must also be within ``max_range``
    inches (closest points of the two bases). Rulebook "Line of Sight", "Who Can Shoot", "Measuring Distances".
    """
    return _seeing(scene, looker_id, target_id, rows, max_range, first_only=False)


def unit_has_sight(scene: Scene, looker_id: str, target_id: str) -> bool:
    """True if any model of the looker sees any model of the target (front arcs of the models).

    Rulebook "Line of Sight", "Picking Targets" (charge and shooting targets need sight).
    """
    return bool(_seeing(scene, looker_id, target_id, None, None, first_only=True))


def in_cover(scene: Scene, looker_id: str, target_id: str, shooters: Collection[int] | None = None) -> bool:
    """True if the target unit counts as in cover against the looker (rulebook "Cover Terrain").

    A target model is *covered* when its base is fully inside a ``cover`` piece, or when it is *behind a sight
    blocker*: some line from the centre of a looking model to the target base's centre crosses another unit's
    footprint, sight-blocking terrain, or a ``cover`` piece that does not contain the looking model's centre.
    The looking models are ``shooters`` (indices in ``model_centres`` order; default: all models of the looker)
    that have the target model in their front arc, or all of them if none has. The unit is in cover when more
    than half of its models are covered; a single-model unit when more than half of its base area is inside
    cover terrain, or it is behind a sight blocker. Elevated lookers get no exemption from cover.
    """
    eyes_all = scene.model_centres(looker_id)
    idx = np.arange(len(eyes_all)) if shooters is None else np.array(sorted(shooters), dtype=int)
    targets = scene.model_centres(target_id)
    m = len(targets)
    if m == 0 or len(idx) == 0:
        return False
    eyes = eyes_all[idx]
    covered = np.zeros(m, dtype=bool)
    cover_pieces = [scene.terrain[pos] for pos in scene.cover_terrain]
    if cover_pieces:
        polys = np.array(scene.model_polygons(target_id), dtype=object)
        if m == 1:
            union = shapely.union_all([t.shape for t in cover_pieces])
            covered[0] = shapely.intersection(polys[0], union).area > 0.5 * polys[0].area
        else:
            for t in cover_pieces:
                covered |= shapely.within(polys, t.shape)
    front = _front_mask(scene, looker_id, eyes, _target_samples(scene, target_id)).any(axis=2)  # (n, m)
    use = np.where(front.any(axis=0)[None, :], front, True)
    ii, jj = np.nonzero(use & ~covered[None, :])
    if len(ii):
        _, crossed = _obstacle_hits(scene, eyes[ii], targets[jj], {looker_id, target_id}, with_cover=True)
        covered[np.unique(jj[crossed])] = True
    return bool(covered.sum() * 2 > m)
