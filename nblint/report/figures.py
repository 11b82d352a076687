"""The data behind the pictures of the HTML report, taken from the analyses when a rule reports.

Rules attach these dicts to their findings (:attr:`nblint.engine.findings.Finding.figure`);
:mod:`nblint.report.html` draws them. They are plain data (lists, ints, floats, strings),
small whatever the table: a group's matrix has one row per member, a contingency
table at most :data:`MAX_LEVELS` levels, NB401's scatter at most :data:`MAX_POINTS`
rows. They never enter JSON or the other formats.
"""

from __future__ import annotations

import numpy as np

#: Levels of a contingency table drawn at most (those with a highlighted cell first).
MAX_LEVELS = 30
#: Rows of NB401's scatter drawn at most (every flipped row among them first).
MAX_POINTS = 2000


def group_pattern(ctx, members: list[str], row_sums: dict) -> dict:
    """A group's co-occurrence pattern: ``matrix[i][j]`` rows where members i and j are both 1.

    The diagonal is each member's count of ones; a one-hot or dummy group has zeros
    everywhere else. ``row_sums`` maps a row sum (``"0"``, ``"1"``, ``"2+"``) to its rows.
    """
    gram = ctx.profile.gram
    index = [gram.binary.index(m) for m in members]
    block = gram.block(index)
    return {
        "kind": "group",
        "members": list(members),
        "matrix": block.astype(int).tolist(),
        "row_sums": {str(k): int(v) for k, v in row_sums.items()},
        "n_rows": int(ctx.n_rows),
    }


def contingency(
    column: str, keys: list[str], classes: list[str], counts: np.ndarray, zero: list[tuple[int, int]]
) -> dict:
    """A contingency table with its zero cells: ``counts[level][class]``, ``zero`` the (level, class) cells to mark.

    Levels with a marked cell come first when there are more than :data:`MAX_LEVELS`.
    """
    marked = {level for level, _ in zero}
    order = sorted(range(len(keys)), key=lambda i: (i not in marked, i))[:MAX_LEVELS]
    order.sort()
    position = {level: k for k, level in enumerate(order)}
    return {
        "kind": "contingency",
        "column": column,
        "levels": [keys[i] for i in order],
        "classes": list(classes),
        "counts": np.asarray(counts)[order].astype(int).tolist(),
        "zero": [[position[level], c] for level, c in zero if level in position],
        "levels_total": len(keys),
    }


def impact_scatter(result) -> dict:
    """NB401's picture: each row's top posterior under PoB (every group as bits) against CAT, flips marked.

    The paper's Figure 3 for this table; ``points`` are ``[cat, pob, flipped]``, every
    flipped row kept first, the others evenly thinned to :data:`MAX_POINTS` in all.
    """
    points = np.asarray(result.plot_points)
    flipped = np.flatnonzero(points[:, 2] > 0)[:MAX_POINTS] if len(points) else np.zeros(0, dtype=int)
    same = np.flatnonzero(points[:, 2] == 0) if len(points) else np.zeros(0, dtype=int)
    room = MAX_POINTS - len(flipped)
    if len(same) > room:
        same = same[np.linspace(0, len(same) - 1, room).astype(int)] if room > 0 else same[:0]
    keep = np.sort(np.concatenate([same, flipped]))
    return {
        "kind": "impact",
        "classes": len(result.design.classes),
        "rows": int(result.table["rows"]),
        "points": [[round(float(a), 4), round(float(b), 4), int(c)] for a, b, c in points[keep]],
        "groups": [
            {
                "group": g["group"],
                "flips": g["map_differs_share"],
                "excess_mean": g["excess_mean"],
                "excess_p95": g["excess_p95"],
            }
            for g in result.groups
        ],
    }
