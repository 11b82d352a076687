from itertools import repeat
from operator import itemgetter

import numpy as np

from nblint.analysis.context import TableContext
from nblint.engine import SUMMARIZE_ABOVE, Option, Rule, Severity
from nblint.readers import name_mask

from . import fmt_value


class RareLevel(Rule):
    """Levels seen on fewer rows than ``min-count``: unstable estimates, unseen at prediction time.

    ## What it does
    Lists the levels of categorical features (text, integer codes, 0/1 flags, group
    members; counts too when the declared model is categorical) that occur on fewer
    than ``min-count`` rows.

    ## Why is this bad?
    A level seen on two rows gives per-class estimates from one or two observations:
    the smoothing constant, not the data, decides them. Rare levels are also the ones
    most likely to be missing from a training split, so CategoricalNB meets them as
    unknown categories at prediction time.

    A column of a document-term block (NB209's ``term-block``) is a word: it is rare when
    it occurs (is non-zero) in fewer than ``min-count`` rows, whatever its counts; on a
    wide table the rare words are one finding with their share of the vocabulary.

    ## Severity
    Always ``info``: a rare level makes its estimates unstable, which smoothing
    tempers.

    ## Example
    ```
    country,label
    FR,a
    FR,b
    LU,a      # one row
    ```

    ## Use instead
    Merge rare levels into an "other" level (OneHotEncoder/OrdinalEncoder
    ``min_frequency`` does this), or collect more data.
    """

    code = "NB203"
    status = "stable"
    since = "0.1.0"
    name = "rare-level"
    severity = Severity.INFO
    needs_target = True
    options = (Option("min-count", 5, "Levels on fewer rows than this are rare.", minimum=0), SUMMARIZE_ABOVE)
    messages = {
        "levels": "column {column!r}: {n_rare} of {levels} levels have fewer than {min_count} rows: {listed}",
        "term": "term {column!r} occurs in {rows} rows only (fewer than {min_count})",
        "terms": "{instances:,} of {vocabulary:,} terms ({vocabulary_share:.0%} of the vocabulary) occur in fewer "
        "than {min_count} rows (documents): their per-class estimates rest on a handful of documents (consider min_df)",
        "summary": "{instances:,} columns ({share:.0%} of the features) have levels seen on fewer than {min_count} "
        "rows; the first: {examples[0][message]}",
    }

    def check(self, ctx: TableContext):
        kinds = ("binary", "group-member", "categorical") + (("count",) if ctx.model == "categorical" else ())
        minimum = self.option_values["min-count"]
        terms = ctx.term_columns
        supports = ctx.term_supports if terms else {}
        candidates = ctx.features_of_kind(*kinds, "count", "continuous")
        # The words at once (a vocabulary has thousands): their documents, in table order; a word whose
        # documents are unknown is not rare.
        named, is_term = np.array(candidates, dtype=object), name_mask(candidates, terms)
        words = named[is_term]
        documents = np.fromiter(map(supports.get, words.tolist(), repeat(-1)), dtype=np.int64, count=len(words))
        few = np.flatnonzero((documents > 0) & (documents < minimum))
        rare_terms = list(zip(words[few].tolist(), documents[few].tolist()))  # (word, documents)
        found = []
        for column in named[~is_term].tolist():
            if ctx.kinds[column].kind not in kinds:
                continue
            levels = ctx.column(column).levels or ctx.level_pairs(column)  # (past the cap: its non-empty cells)
            if levels is None:
                continue
            rare = [(k, int(t)) for k, t in zip(levels.keys, levels.totals) if t < minimum]
            if not rare:
                continue
            listed = ", ".join(f"{fmt_value(k)} ({t} rows)" for k, t in rare[:5])
            more = f" and {len(rare) - 5} more" if len(rare) > 5 else ""
            evidence = {
                "rare_levels": {fmt_value(k): t for k, t in rare},
                "levels": len(levels.keys),
                "min_count": minimum,
                "n_rare": len(rare),
                "listed": listed + more,
            }
            fix = "Merge rare levels into an 'other' level (encoder min_frequency), or collect more rows."
            found.append(self.finding(ctx, "levels", columns=[column], evidence=evidence, fix=fix))
        limit = self.option_values["summarize-above"]
        if len(found) + len(rare_terms) <= limit:
            found += [self._term_finding(ctx, column, occurs) for column, occurs in rare_terms]
            order = ctx.table_order
            yield from sorted(found, key=lambda f: order.get(f.columns[0], 0))
            return
        # A wide table: the rare words are one finding, as Rule.summarize would make it, with only the
        # shown words' findings built (a vocabulary has tens of thousands); the other columns by reason.
        yield from self.summarize(ctx, found, 0)
        if len(rare_terms) == 1:
            yield self._term_finding(ctx, *rare_terms[0])
        elif rare_terms:
            # Commonest first; ties stay in table order, as the words were found (a stable sort on the counts alone).
            rare_terms.sort(key=itemgetter(1), reverse=True)
            examples = [self._term_finding(ctx, column, occurs) for column, occurs in rare_terms[:10]]
            columns, occurs = zip(*rare_terms)
            yield self.summary_finding(ctx, "terms", examples, columns, occurs, self._terms_evidence(ctx, len(columns)))

    def _term_finding(self, ctx, column, occurs: int):
        minimum = self.option_values["min-count"]
        return self.finding(
            ctx,
            "term",
            columns=[column],
            evidence={"rows": occurs, "min_count": minimum, "term": True},
            fix="Drop words seen in few documents (CountVectorizer(min_df=...)), or collect more documents.",
        )

    def _terms_evidence(self, ctx, n_rare: int) -> dict:
        """What the rare words' summary shows beside their count: the vocabulary and their share of it."""
        vocabulary = len(ctx.term_columns)
        return {
            "min_count": self.option_values["min-count"],
            "vocabulary": vocabulary,
            "vocabulary_share": n_rare / vocabulary,
        }

    def reason(self, finding):
        return (finding.severity, bool(finding.evidence.get("term")))

    def summary_variant(self, ctx, findings):
        return "terms" if findings[0].evidence.get("term") else "summary"

    def summary_evidence(self, ctx, findings):
        if findings[0].evidence.get("term"):
            return self._terms_evidence(ctx, len(findings))
        return {"min_count": self.option_values["min-count"]}
