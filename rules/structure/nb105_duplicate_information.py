from math import exp

from nblint.analysis.context import TableContext
from nblint.analysis.duplicate_information import MAX_IDENTICAL_SETS, MAX_IMPLICATIONS, duplicate_information
from nblint.engine import Rule, Severity

from ..wording import fmt_columns


def _implication_templates() -> dict[str, str]:
    """NB105's implication messages: one, two, three or more implied columns, the chance shown or past a float's range."""
    templates = {}
    for listed, name in ((1, "1"), (2, "2"), (3, "3"), (3, "more")):
        items = " and ".join(f"{{implies[{i}]!r}} ({{implied_counts[{i}]}} rows)" for i in range(listed))
        more = " and {more} more" if name == "more" else ""
        subject, whose = ("{implies[0]!r}", "its") if name == "1" else ("each of them", "their")
        for suffix, chance in (("", "{chance:.1e}"), ("_tiny", "< {chance_below:.0e}")):
            templates[f"implied_{name}{suffix}"] = (
                f"column {{column!r}} implies {items}{more}: on each of the {{rows_set}} rows where {{column!r}} is "
                f"set, {subject} is set too (chance would do that with probability {chance}), so Naive Bayes counts "
                f"{whose} evidence again on those rows"
            )
    return templates


class DuplicateInformation(Rule):
    """Columns that repeat each other: identical columns, or a code column next to its own group.

    ## What it does
    Finds sets of columns whose values are identical on every row (decided exactly
    from co-occurrence counts for 0/1 columns, and by a 64-bit hash of the whole
    column for others), and columns that carry the same information as a one-hot or
    dummy group: an integer or text code column whose every value maps to exactly
    one member of the group and back (``color`` beside ``color_red``,
    ``color_green``, ...), verified row by row; and pairs of discrete columns (three
    or more levels) whose values map one to one, one a recoding of the other
    (``STORE`` 0..4 beside ``StoreID`` 1, 2, 3, 4, 7; numeric codes beside the words
    they code, ``cowcode2`` beside ``ctryname``, however the codes read), found from equal
    level counts and verified row by row; and one group nested in another: each level of a finer group
    (states) lies within one level of a coarser one (regions), so the coarse variable is a
    function of the fine one (found exactly from co-occurrence counts: every row of the fine
    level has the coarse level set; a drop-first coarse group's reference counts as a level),
    where chance cannot explain it (levels seen on a row or two lie within some level of
    any group: the levels' chances of falling within one coarse level must multiply to
    under ``exp(-min-evidence)``); a lone 0/1 column set exactly on some levels of a group
    (``democracy_Non-democracy`` on the military, monarchy and civilian regimes' rows), that
    variable coarsened; and one categorical column nested in another: each value of
    the fine column goes with one value of the coarse one (``un_region_name`` within
    ``un_continent_name``, ``regime`` within ``democracy``), verified row by row and weighed
    against chance the same way (where countries lie in regions and regions in continents,
    countries within continents follows and is not said again); and a 0/1 column that implies
    another: every row with it set has the other set (``employ`` within ``inwf``, an
    interaction ``afhigh = afchnge * highearn`` within its factor ``afchnge``), found exactly
    from co-occurrence counts (``O_ab = s_a < s_b``) for columns outside every group (the
    implied one may be a group's level: a finer flag within it, never one more level of that
    group), where chance cannot explain it: ``s_a`` random rows fall inside ``s_b`` given rows
    of ``n`` with probability ``C(s_b, s_a) / C(n, s_a)``, and over the pairs tried the expected
    number of such chance implications must be under ``exp(-min-evidence)``; the implying
    column needs ``separation-min-rows`` rows (NB202's). Where ``a`` implies ``b`` and ``b``
    implies ``c``, ``a`` within ``c`` is not said again; more than five columns implying others
    (one flag gating many, questions only its rows were asked) are one finding.

    ## Why is this bad?
    Naive Bayes multiplies in every feature as independent evidence. A copy of a
    column, or a variable given both as codes and as indicators, is counted twice:
    its influence on the posterior is squared and the model is over-confident.

    Words of a document-term block that always occur together (a phrase, a name, a
    signature) are not reported: text is full of them, every text model counts them once
    per word, and there is nothing in the table to change (names sharing a stem, an
    encoding, still are). Words seen together in fewer than ``separation-min-rows``
    documents (NB202's) are never reported, whatever their names: the documents, not the
    words, are the independent draws, and two product codes of one message or two say
    what that message says, not how the table is encoded.

    ## Severity
    A warning: the information is certainly counted twice, but how much that moves the
    posteriors depends on the column. A column implying another is `info`: the other's
    evidence is counted again only on the implying column's rows, and a sub-condition or an
    interaction beside its factor is often what the analyst meant to give the model; the
    finding says so, and the reader decides.

    ## Example
    ```
    color,color_red,color_green,label
    0,1,0,a
    1,0,1,b
    ```

    ## Use instead
    Keep one representation: the code column for CategoricalNB, or drop the copy. For a
    column implying another, read the two as one categorical column of the combinations
    that occur (neither, the implied one alone, both).
    """

    code = "NB105"
    status = "stable"
    since = "0.1.0"
    name = "duplicate-information"
    severity = Severity.WARNING
    _CODE = (
        "column {code_column!r} carries the same information as the KIND group {group:names}: each of its {levels} "
        "values maps to exactly one level of the group"
    )
    _KNOWN = " (on the {rows_known} rows where both are known)"
    _DERIVED = (
        "column {derived!r} is a function of the {fine_kind} group {from_group:names(3)} (variable {fine_variable!r}, "
        "{fine_levels} levels): it is set exactly on the rows of {levels_set:names(3)}REFERENCE, so it is "
        "{fine_variable!r} coarsened and counted twice"
    )
    messages = {
        "identical": "columns {columns:names} are identical on every row: the same information counted "
        "{columns:plural(time)}",
        "identical_sets": "{sets} sets of identical columns ({columns:plural(column)} in all; the largest: "
        "{largest:names}): the same information counted {extra_copies} extra times",
        "code_onehot": _CODE.replace("KIND", "one-hot"),
        "code_onehot_known": _CODE.replace("KIND", "one-hot") + _KNOWN,
        "code_dummy": _CODE.replace("KIND", "dummy"),
        "code_dummy_known": _CODE.replace("KIND", "dummy") + _KNOWN,
        "nested_group": "the {fine_kind} group {nested:names(3)} (variable {fine_variable!r}, {fine_levels} levels) is "
        "nested in the {coarse_kind} group {within:names(3)} (variable {coarse_variable!r}, {coarse_levels} levels): "
        "each of its levels lies within one of {coarse_variable!r}'s, so {coarse_variable!r} is a function of "
        "{fine_variable!r} and counted twice",
        "nested_column": "column {nested!r} ({fine_levels} levels) is nested in column {within!r} ({coarse_levels} "
        "levels): each value of {nested!r} goes with exactly one value of {within!r}, so {within!r} is a function of "
        "{nested!r} and counted twice",
        "derived": _DERIVED.replace("REFERENCE", ""),
        "derived_reference": _DERIVED.replace("REFERENCE", " and the group's reference rows"),
        "recodes": "columns {recoded[0]!r} and {recoded[1]!r} carry the same information: each of the {levels} values "
        "of one goes with exactly one value of the other (one recodes the other)",
        **_implication_templates(),
        "implications": "{implying_columns} 0/1 columns each imply other 0/1 columns ({pairs} pairs; the most implied: "
        "{most_implied!r}, by {implied_by_most} columns): on every row where one is set, the columns it implies are set "
        "too, so Naive Bayes counts their evidence again on those rows",
    }

    def check(self, ctx: TableContext):
        cases = duplicate_information(ctx)
        yield from self._identical(ctx, cases.identical)
        for column, group in cases.codes:
            yield self._code_column(ctx, column, group)
        for nesting in cases.nested:
            lone = nesting.coarse.evidence.get("lone_column")
            yield self._derived_column(ctx, nesting) if lone else self._nesting(ctx, nesting)
        for column_nesting in cases.nested_columns:
            yield self._column_nesting(ctx, column_nesting)
        for a, b, levels in cases.recodes:
            evidence = {"recoded": [a, b], "levels": levels}
            fix = f"Keep one of {a!r} and {b!r}: read together, the variable is counted twice."
            yield self.finding(ctx, "recodes", columns=[a, b], evidence=evidence, fix=fix)
        if len(cases.implied) > MAX_IMPLICATIONS:
            yield implications_summary(self, ctx, cases.implied)
        for implication in cases.implied if len(cases.implied) <= MAX_IMPLICATIONS else ():
            yield implied_finding(self, ctx, implication)

    def _identical(self, ctx, identical: list[list[str]]):
        if len(identical) > MAX_IDENTICAL_SETS:
            # A table of sparse indicators on few rows: one redundancy to look at, not dozens.
            columns = [c for cols in identical for c in cols]
            largest = max(identical, key=len)
            evidence = {
                "identical": identical,
                "sets": len(identical),
                "extra_copies": len(columns) - len(identical),
                "n_rows": ctx.n_rows,
                "largest": largest,
            }
            yield self.finding(
                ctx,
                "identical_sets",
                columns=columns,
                evidence=evidence,
                fix="Keep one column of each set and drop the others.",
            )
        for columns in identical if len(identical) <= MAX_IDENTICAL_SETS else ():
            evidence = {"identical": columns, "n_rows": ctx.n_rows}
            fix = f"Keep {columns[0]!r} and drop {fmt_columns(columns[1:])}."
            yield self.finding(ctx, "identical", columns=columns, evidence=evidence, fix=fix)

    def _code_column(self, ctx, column, group):
        variant = "code_onehot" if group.kind == "one-hot" else "code_dummy"
        variant += "_known" if group.evidence.get("missing_rows") else ""
        evidence = {
            "code_column": column,
            "group": group.members,
            "group_kind": group.kind,
            "levels": group.n_levels,
            "rows_known": group.n_rows,
        }
        fix = f"Keep {column!r} (as a categorical feature) and drop the indicator columns, or the reverse."
        return self.finding(ctx, variant, columns=[column] + group.members, evidence=evidence, fix=fix)

    def _nesting(self, ctx, nesting):
        fine, coarse = nesting.fine, nesting.coarse
        evidence = {
            "nested": fine.members,
            "within": coarse.members,
            "fine_variable": fine.label,
            "coarse_variable": coarse.label,
            "fine_columns": len(fine.members),
            "coarse_columns": len(coarse.members),
            "fine_levels": fine.n_levels,
            "coarse_levels": coarse.n_levels,
            "nesting_evidence": round(nesting.evidence, 3),
            "level_within": nesting.within,
            "fine_kind": fine.kind,
            "coarse_kind": coarse.kind,
        }
        fix = _keep_one(fine.label, coarse.label)
        return self.finding(ctx, "nested_group", columns=fine.members + coarse.members, evidence=evidence, fix=fix)

    def _column_nesting(self, ctx, column_nesting):
        """A categorical column nested in another: each of its values within one of the other's."""
        inner, outer = column_nesting.fine, column_nesting.coarse
        evidence = {
            "nested": inner,
            "within": outer,
            "fine_levels": column_nesting.fine_levels,
            "coarse_levels": column_nesting.coarse_levels,
            "nesting_evidence": round(column_nesting.evidence, 3),
        }
        fix = _keep_one(inner, outer)
        return self.finding(ctx, "nested_column", columns=[inner, outer], evidence=evidence, fix=fix)

    def _derived_column(self, ctx, nesting):
        """A lone 0/1 column that is a function of a group: a coarsening of its variable, counted twice."""
        fine, [column] = nesting.fine, nesting.coarse.members
        inside = [m for m, c in nesting.within.items() if c is not None]
        inside_rows = sum(fine.counts[fine.members.index(m)] for m in inside)
        reference = " and the group's reference rows" if nesting.coarse.counts[0] > inside_rows else ""
        evidence = {
            "derived": column,
            "from_group": fine.members,
            "fine_columns": len(fine.members),
            "fine_variable": fine.label,
            "fine_levels": fine.n_levels,
            "levels_set": inside,
            "reference_set": bool(reference),
            "nesting_evidence": round(nesting.evidence, 3),
            "fine_kind": fine.kind,
        }
        fix = f"Drop {column!r} (the group holds it), or keep it and collapse the group to what it says."
        variant = "derived_reference" if reference else "derived"
        return self.finding(ctx, variant, columns=fine.members + [column], evidence=evidence, fix=fix)


def _keep_one(fine: str, coarse: str) -> str:
    """The fix of a variable nested in another: either one, the finer alone if both."""
    return (
        f"Keep one of {fine!r} and {coarse!r} (the finer keeps more, the coarser is better "
        "estimated), or give the model the finer one alone."
    )


# --------------------------------------------------------------------------- a 0/1 column implying another
# (issue 37 item 3)


def implied_finding(rule, ctx, implication):
    """A 0/1 column set only where other 0/1 columns are set: their evidence counted again on its rows (info)."""
    column, count = implication.column, implication.rows
    implied = [name for name, _, _ in implication.implied]
    weakest = min(nats for _, _, nats in implication.implied)
    one = len(implied) == 1
    evidence = {
        "implies": implied,
        "column": column,
        "rows_set": count,
        "implied_rows": {name: rows for name, rows, _ in implication.implied},
        "implied_counts": [rows for _, rows, _ in implication.implied[:3]],
        "more": max(len(implied) - 3, 0),
        "implication_evidence": {name: round(nats, 3) for name, _, nats in implication.implied},
        "n_rows": ctx.n_rows,
    }
    # The chance the message shows: the weakest implication's (beyond a float's range, its bound).
    evidence.update({"chance": exp(-weakest)} if weakest < TINY_CHANCE_NATS else {"chance_below": 1e-300})
    levels = f" (neither set, {implied[0]!r} alone, both)" if one else ""
    fix = (
        f"Read {column!r} and {', '.join(map(repr, implied))} as one categorical column of the combinations "
        f"that occur{levels}, or drop the one that says least."
    )
    variant = f"implied_{len(implied) if len(implied) <= 3 else 'more'}" + ("" if "chance" in evidence else "_tiny")
    return rule.finding(ctx, variant, columns=[column] + implied, evidence=evidence, fix=fix, severity=Severity.INFO)


def implications_summary(rule, ctx, implications):
    """Many 0/1 columns implying others (a flag that gates many): one finding with the count, every pair in the evidence."""
    implied_by: dict[str, list[str]] = {}
    for implication in implications:
        for name, _, _ in implication.implied:
            implied_by.setdefault(name, []).append(implication.column)
    most = min(implied_by, key=lambda name: (-len(implied_by[name]), name))
    pairs = sum(len(i.implied) for i in implications)
    evidence = {
        "implying_columns": len(implications),
        "pairs": pairs,
        "most_implied": most,
        "implied_by_most": len(implied_by[most]),
        "implications": {i.column: [name for name, _, _ in i.implied] for i in implications},
        "n_rows": ctx.n_rows,
    }
    involved = {i.column for i in implications} | set(implied_by)
    columns = sorted(involved, key=lambda c: ctx.table_order.get(c, 0))
    fix = (
        f"Look at what {most!r} gates: columns set only where it is set may be answers to a question only "
        "its rows were asked; read each with the columns it implies as one categorical column, or drop one."
    )
    return rule.finding(ctx, "implications", columns=columns, evidence=evidence, fix=fix, severity=Severity.INFO)


#: Nats beyond which a chance is shown as ``< 1e-300`` (``exp(-690)`` is about 1e-300).
TINY_CHANCE_NATS = 690.0
