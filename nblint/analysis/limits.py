"""What was not checked on a table, or checked only in part: the notes NB106 reports.

Each note says which check was limited, on how many columns, and why (a wide table's
searches among its most frequent 0/1 columns, the words VIF leaves out, a search cut at
its budget, columns past the memory budget); :func:`incomplete_notes` are those that say a
finding may be missing, a warning rather than information.
"""

from __future__ import annotations

import math
from typing import cast

import numpy as np

from nblint.readers import Names, name_mask
from nblint.structure import Budget, searched
from nblint.structure.duplicates import MAX_RECODE_PAIRS
from nblint.structure.kinds import is_documents


def table_limits(ctx) -> list[str]:
    """What was not checked, or checked only in part, on a table (``ctx``, its context), as NB106 reports it."""
    gram = ctx.profile.gram
    notes = []
    if gram.wide:
        notes.append(
            f"wide table: {len(gram.binary)} complete 0/1 columns (more than {ctx.wide_binary}): one-hot groups "
            "and identical 0/1 columns are found exactly from sparse co-occurrence counts; dummy and broken "
            f"groups (NB102, NB103) are searched among its {ctx.FREQUENT_BINARY} most frequent 0/1 columns only, and VIF "
            "(NB104) covers the "
            f"{len(gram.names)} other complete numeric columns only"
        )
        shown = ctx.shown_exclusive
        if shown is not None:
            floor = searched.evidence_floor(gram.diagonal(), gram.n, ctx.settings.min_evidence)
            notes.append(
                f"one-hot groups (NB101) are searched among the {int(shown.sum()):,} 0/1 columns set on at least "
                f"{math.ceil(floor):,} rows or outside the document-term block: its {int((~shown).sum()):,} rarer "
                f"words cannot be shown exclusive of another column (min-evidence)"
            )
    notes.extend(ctx.source.limits)
    # (the words the profile gathered no co-moments for too; a wide table's 0/1 words are said above)
    wide_words = cast(Names, gram.binary).positions() if gram.wide else {}
    vif_words = len(ctx.term_columns.difference(wide_words))  # (one set difference: a vocabulary is tens of thousands)
    if vif_words:
        notes.append(
            f"VIF (NB104) leaves out the {vif_words:,} words of the document-term block: linear "
            "dependencies among words are what any bag of words has"
        )
    notes += ctx.incomplete
    notes += [f"column {name!r} not checked: it holds {why}" for name, why in ctx.source.skipped.items()]
    notes += [
        f"column {name!r} holds documents, read as one value per row (not checked as words): lint their "
        f"words with --text {name} (text = {name!r} in the config)"
        for name in sorted(ctx.profile.text)
        if name != ctx.target and is_documents(ctx.profile, name)
    ]
    if ctx.target is not None and ctx.structure.groups:  # (else nothing is measured: no import)
        from nblint.impact import impact_limit

        notes += [note for note in [impact_limit(ctx)] if note]
    return notes + list(ctx.profile.limits)


def incomplete_notes(ctx) -> list[str]:
    """The notes of :func:`table_limits` that say a finding may be missing (NB106 reports them as warnings).

    The levels past the profile's cap are counted by the pass over their (value, class)
    pairs; only a column with more pairs than the memory budget lets that pass hold is
    not, and then its per-level findings may be missing: the run says it is incomplete.
    So does a search for recodings (NB105) cut at :data:`MAX_RECODE_PAIRS` candidate pairs,
    and a group search that ran out of its node budget (:data:`~nblint.structure.budget.SEARCH_BUDGET`).
    """
    notes = []
    if ctx.structure.capped:  # (a group the search did not reach is a finding that may be missing)
        notes.append(f"group search stopped at its budget of {Budget().left} nodes; some groups may be missing")
    candidates = ctx.recode_candidates.total
    if candidates > MAX_RECODE_PAIRS:
        notes.append(
            f"columns recoding each other (NB105) checked among the first {MAX_RECODE_PAIRS} of {candidates:,} "
            "candidate pairs of categorical columns (by name): each pair is a set of its (value, value) pairs "
            "in one more pass"
        )
    if ctx.target is None or not (ctx.association.past_level_cap or ctx.association.past_cap_candidates):
        return notes  # (no column past the cap: no pass, nothing left out)
    scan = ctx.association.past_cap_scan
    dropped = np.array(scan.columns, dtype=object)[name_mask(scan.columns, scan.dropped)].tolist()  # (table order)
    if not dropped:
        return notes
    listed = ", ".join(repr(c) for c in dropped[:5]) + (f" and {len(dropped) - 5:,} more" if len(dropped) > 5 else "")
    plural = "s" if len(dropped) > 1 else ""
    return notes + [
        f"{len(dropped):,} discrete column{plural} with more distinct (value, class) pairs than the memory budget "
        f"lets one pass count ({scan.max_pairs:,} per column): {listed}: zero-count cells (NB201), levels seen in "
        "one class (NB202), rare levels (NB203) and whether they decide the target (NB208) are not checked there "
        "(raise memory-budget in the configuration)"
    ]
