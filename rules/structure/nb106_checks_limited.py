from nblint.analysis.context import TableContext
from nblint.engine import Option, Rule, Severity
from nblint.profile.table import WIDE_BINARY


class ChecksLimited(Rule):
    """Structure checks that were capped or skipped on this table, and why.

    ## What it does
    Reports, as information, what the structure rules (NB101-NB105) did not check
    in full on this table. A *wide* table (more complete 0/1 columns than
    ``wide-columns``, typically a bag-of-words table) is profiled without a dense
    columns x columns matrix: its one-hot groups and identical 0/1 columns are still
    found exactly, from sparse co-occurrence counts, but dummy and broken groups are
    searched among its most frequent 0/1 columns only (and among name-stem
    families, each read whole from its rows) and the VIF covers the other
    numeric columns only. A group search
    that ran out of its node budget is reported here too, and so are a discrete
    column with more (value, class) pairs than the memory budget lets the per-level
    rules count (past the profile's cap on distinct values they count a column's
    pairs in a pass of their own) and a column of documents read as one value per
    row (lint its words with ``--text COLUMN``).

    ## Why is this bad?
    A clean report means nothing was found among what was checked. Without this
    note, "no NB102 findings" on a 20,000-column table would read as "no dummy
    groups", when they were not looked for.

    ## Severity
    ``info``: it says what was not checked, not what is wrong. A ``warning`` where a
    per-level rule's findings may be missing from the run: a column past the cap on
    distinct values is counted by its (value, class) pairs in one more pass, at any number
    of levels, unless it has more pairs than the memory budget lets that pass hold.
    Then zero cells, single-class levels, rare levels and leaks (NB201-NB203, NB208) are
    unchecked on it, and at the default ``--fail-on warning`` the exit status says the
    check was incomplete (1) instead of passing a table that was not read in full. So
    does a search for columns recoding each other (NB105) cut at its 200 candidate pairs.

    ## Example
    ```
    w0,w1,...,w19999,label     (20,000 sparse 0/1 word columns)
    ```

    ## Use instead
    Check the 0/1 columns that matter on their own (``--select`` with a config
    listing them, or a narrower table), or raise ``wide-columns`` when the
    machine has memory for the dense ``8 b^2``-byte matrices.
    """

    code = "NB106"
    status = "stable"
    since = "0.1.0"
    name = "checks-limited"
    severity = Severity.INFO
    options = (
        Option(
            "wide-columns",
            WIDE_BINARY,
            "More complete 0/1 columns than this make the table wide: sparse co-occurrences, the dummy/broken "
            "group search among the most frequent ones only, VIF over the other columns only.",
            shared=True,
            minimum=0,
        ),
    )
    #: A note is the analysis's own sentence (``ctx.limits``); a block of words says its notes in one finding.
    messages = {
        "note": "{note}",
        "notes": "checks limited on this table ({notes:plural(limit)}): {notes_joined}",
    }

    def check(self, ctx: TableContext):
        evidence = {
            "binary_columns": len(ctx.profile.gram.binary),
            "wide": ctx.profile.gram.wide,
            "wide_columns": ctx.wide_binary,
            "vif_columns": len(ctx.profile.gram.names),
        }
        if ctx.profile.gram.wide:
            evidence["group_search_columns"] = ctx.FREQUENT_BINARY
        notes = list(ctx.limits)
        incomplete = set(ctx.incomplete)
        if ctx.term_columns and len(notes) > 1:
            # A document-term block: what was limited is one thing to know about the table, said once.
            severity = Severity.WARNING if incomplete else Severity.INFO
            notes_evidence = {"notes": notes, "notes_joined": "; ".join(notes)}
            yield self.finding(ctx, "notes", evidence=evidence | notes_evidence, severity=severity)
            return
        for note in notes:
            severity = Severity.WARNING if note in incomplete else Severity.INFO
            yield self.finding(ctx, "note", evidence=evidence | {"note": note}, severity=severity)
