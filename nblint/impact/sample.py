"""Which rows NB401 scores: every row, or a fixed sample of a many-class target's rows.

The models are always fitted on every row; only the scoring, linear in rows x classes
x terms, is bounded (:data:`IMPACT_WORK`).  The sample is a hash of each row's number,
so it is the same whatever the chunking.
"""

from __future__ import annotations

import numpy as np

from nblint.core.hashing import mix64
from nblint.impact.design import Design, make_design
from nblint.impact.scoring import FIRST_GROUP

#: Targets with more classes than this may be scored on a sample of rows (below);
#: ordinary targets are always scored on every row.
MANY_CLASSES = 100
#: Class-term evaluations both passes may take on a many-class target: rows x classes x
#: (features + models) x 2.  Beyond it, a fixed sample of rows is scored (10,000
#: classes over 100,000 rows would be about 3e10, minutes of scoring).
IMPACT_WORK = 1e9


def score_share(design: Design, n_rows: int) -> float | None:
    """The share of rows scored (a sample within :data:`IMPACT_WORK`), or None: every row.

    The cost of scoring is linear in rows x classes x terms; with at most
    :data:`MANY_CLASSES` classes it is the table's own size and every row is scored.
    """
    C, G = len(design.classes), len(design.groups)
    work = (
        2.0 * n_rows * C * (2 * G + FIRST_GROUP + len(design.categorical) + len(design.gaussian) + bool(design.terms))
    )
    if C <= MANY_CLASSES or work <= IMPACT_WORK:
        return None
    return IMPACT_WORK / work


def sample_note(design: Design, n_rows: int, scored: int | None = None) -> str:
    """What the sample leaves out, in words (for NB106 and the impact report)."""
    if scored is None:
        share = score_share(design, n_rows)
        assert share is not None  # a note only for a table scored on a sample
        scored = int(round(share * n_rows))
    return (
        f"NB401/impact scored a fixed sample of about {scored:,} of {n_rows:,} rows: scoring every row against "
        f"{len(design.classes):,} classes would take more than {IMPACT_WORK:.0e} class-term evaluations "
        "(the models are still fitted on every row)"
    )


def impact_limit(ctx) -> str | None:
    """NB106's note when the impact measurement of this table scores a sample (None: every row)."""
    if ctx.target is None or len(ctx.profile.classes) <= MANY_CLASSES or not ctx.structure.groups:
        return None
    design = make_design(ctx)
    return sample_note(design, ctx.profile.n_rows) if score_share(design, ctx.profile.n_rows) else None


def is_sampled(rows: np.ndarray, share: float) -> np.ndarray:
    """Whether each row (by its global number, so whatever the chunking) is in the sample."""
    return (mix64(rows.astype(np.uint64) ^ np.uint64(0x5DEECE66D)) >> np.uint64(11)) < np.uint64(int(share * 2**53))
