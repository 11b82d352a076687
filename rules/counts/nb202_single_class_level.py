from nblint.analysis.context import TableContext
from nblint.engine import SUMMARIZE_ABOVE, Option, Rule, Severity

from . import fmt_class, fmt_value


class SingleClassLevel(Rule):
    """A value seen with one class only, where chance cannot explain it; a word that gives a class away.

    ## What it does
    Scans the levels of discrete features (binary, categorical codes, group members,
    counts with few values; never many-valued measurements) for levels on at least
    ``separation-min-rows`` rows, all of them in the same class. Small levels fall in
    one class by chance, so each is weighed: under independence the ``r`` rows of a
    level share one class with probability ``sum_c C(n_c, r) / C(n, r)``; multiplied
    by the number of levels tested (over every column), it must stay below
    ``separation-max-chance``. Columns that decide the target outright are NB208's.

    The words of a document-term block (counts, bits or tf-idf weights: their non-zero
    pattern) are weighed by the documents they occur in. A word *gives a class away*
    when it is present in at least ``giveaway-share`` of the class's documents (half by
    default; the one-sided 95% Clopper-Pearson lower bound of its share, so a small
    class's sample must show it) and (nearly) absent from the others: at most ``1 - decides-share`` of the
    word's documents lie in other classes, and at most that share of the other classes'
    documents hold it; the hypergeometric chance of the class holding that many of the
    word's documents, times the (word, class) pairs tested, must stay below
    ``separation-max-chance``. Each class's giveaways are one warning that says the
    shares. Words seen in one class only beyond chance that are not giveaways are the
    class's own vocabulary: one info finding for the table.

    ## Why is this bad?
    Perfect separation makes Naive Bayes certain: the other classes' estimates for the
    value are zero (or only alpha), so the value overrides every other feature. When a
    value is that predictive it is often the label leaking into a feature (a status
    written after the outcome, an ID range per class), and the model will fail on data
    collected before the label is known. Naive Bayes *learns from* class-specific
    words (``nhl`` in hockey posts); what leaks is an artefact that marks most of one
    class's documents and none of the others: a header, a signature, markup, a
    placeholder, a source's boilerplate. The model then learns the artefact, not the text.

    ## Severity
    A warning: the level certainly separates the classes in this table, but whether
    that is leakage or a genuinely decisive value needs a person who knows how the
    column is produced. Class-specific vocabulary is info: it is what the model is for.

    ## Example
    ```
    refund_status,churned
    issued,yes      # 40 rows, every one of them churned
    none,no
    ```
    or a token ``unsubscribe_footer`` present in 100% of the ``spam`` documents and in
    none of the ``ham`` ones.

    ## Use instead
    Check how the column is produced; drop it if it is set after the label, otherwise
    keep smoothing on so one value cannot veto the other classes. For a giveaway word,
    strip the artefact from the documents (or add it to the vectorizer's ``stop_words``)
    before training.
    """

    code = "NB202"
    status = "stable"
    since = "0.1.0"
    name = "single-class-level"
    severity = Severity.WARNING
    needs_target = True
    options = (
        Option(
            "separation-min-rows",
            5,
            "Rows a level needs before its single class counts as separation.",
            shared=True,
            minimum=1,
        ),
        Option(
            "separation-max-chance",
            0.01,
            "Largest chance (corrected for the number of levels tested) of a level this size falling in one class "
            "by accident for it to be reported.",
            shared=True,
            minimum=0,
            maximum=1,
        ),
        Option(
            "giveaway-share",
            0.5,
            "Share of a class's documents a word must be present in to give the class away.",
            shared=True,
            minimum=0,
            maximum=1,
        ),
        SUMMARIZE_ABOVE,
    )
    _LEVEL = (
        "column {column!r}: value {strongest[value]} appears only with class {strongest[class]!r} "
        "({strongest[rows]} rows; by chance {strongest[chance]:chance}): the value alone decides the class"
    )
    messages = {
        "level": _LEVEL,
        "levels": _LEVEL + "; {more_levels} more such values",
        "giveaways": "{words:plural(word)} {words:choose(gives,give)} class {class!r} away: present in a large share "
        "of its {class_rows:,} documents and (nearly) none of the other {other_rows:,} (by chance "
        "{words[0][chance]:chance}): {listed}",
        "vocabulary": "{words:,} words occur in one class's documents only, beyond chance, in {classes_with_words} of "
        "the {classes} classes: the classes' own vocabulary, which Naive Bayes learns from (none is in a large share "
        "of its class); the commonest: {listed}",
        "summary": "{instances:,} columns have a value that appears only with class {class!r}, beyond chance "
        "({share:.1%} of the features): the value alone decides the class; the strongest: {listed}",
    }

    def check(self, ctx: TableContext):
        classes = ctx.profile.classes
        single = ctx.single_class_levels  # (one look-up, not one per word of a vocabulary)
        for column in ctx.profile.features if single else ():
            found = single.get(column)
            if not found:
                continue
            levels = [
                {
                    "value": fmt_value(level.value),
                    "class": fmt_value(classes[level.klass]),
                    "rows": level.rows,
                    "chance": level.chance,
                    "one_in": 1 / level.chance if level.chance > 0 else None,
                    "corrected_chance": level.corrected,
                }
                for level in found
            ]
            strongest = min(range(len(found)), key=lambda k: (found[k].corrected, -found[k].rows))
            evidence = {"levels": levels, "strongest": levels[strongest], "more_levels": len(found) - 1}
            fix = f"Check whether {column!r} is known before the label; drop it if it leaks the label."
            yield self.finding(
                ctx, "levels" if len(found) > 1 else "level", columns=[column], evidence=evidence, fix=fix
            )
        yield from self._words(ctx)

    def _words(self, ctx: TableContext):
        """One warning per class with giveaway words; one info for the classes' own vocabulary."""
        classes = ctx.profile.classes
        vocabulary = ctx.class_vocabulary
        by_class: dict[int, list] = {}
        for word in vocabulary.giveaways:
            by_class.setdefault(word.klass, []).append(word)
        for klass in sorted(by_class, key=lambda k: fmt_value(classes[k])):
            words = by_class[klass]
            first = words[0]
            shown = ", ".join(
                f"{w.column!r} ({w.share:.0%} of them, {w.share_elsewhere:.1%} of the others)" for w in words[:5]
            )
            more = f" and {len(words) - 5} more" if len(words) > 5 else ""
            evidence = {
                "class": fmt_value(classes[klass]),
                "class_rows": first.class_rows,
                "other_rows": first.other_rows,
                "words": [_word_evidence(w) for w in words],
                "tested": vocabulary.tested,
                "listed": shown + more,
            }
            fix = (
                "Look at these words in the documents: an artefact (a header, signature, markup, placeholder or a "
                "source's boilerplate) should be stripped before vectorizing, or added to stop_words."
            )
            yield self.finding(ctx, "giveaways", columns=[w.column for w in words], evidence=evidence, fix=fix)
        specific = vocabulary.specific
        if specific:
            per_class: dict[str, int] = {}
            for word in specific:
                label = fmt_value(classes[word.klass])
                per_class[label] = per_class.get(label, 0) + 1
            shown = ", ".join(
                f"{w.column!r} (in {w.present} of the {w.class_rows:,} {fmt_class(classes[w.klass])} documents)"
                for w in specific[:5]
            )
            evidence = {
                "words": len(specific),
                "classes_with_words": len(per_class),
                "classes": len(classes),
                "per_class": dict(sorted(per_class.items())),
                "examples": [_word_evidence(w) for w in specific[:20]],
                "tested": vocabulary.tested,
                "listed": shown,
            }
            yield self.finding(
                ctx,
                "vocabulary",
                columns=[w.column for w in specific],
                evidence=evidence,
                severity=Severity.INFO,
                fix="Nothing to do unless a word is an artefact of how the documents were collected.",
            )

    def summarize(self, ctx, findings, limit):
        """The words of a document-term block are already one finding per class (:meth:`_words`)."""
        words = [f for f in findings if "words" in f.evidence]
        return super().summarize(ctx, [f for f in findings if "words" not in f.evidence], limit) + words

    def reason(self, finding):
        """Per class: on a wide table, the words that give each class away are one finding."""
        return (finding.severity, finding.evidence["strongest"]["class"])

    def cost(self, finding):
        return float(max(level["rows"] for level in finding.evidence["levels"]))

    def summary_evidence(self, ctx, findings):
        """The class the columns' values give, and the strongest columns with their rows."""
        return {
            "class": self.reason(findings[0])[1],
            "listed": ", ".join(f"{f.columns[0]!r} ({int(self.cost(f))} rows)" for f in findings[:10]),
        }


def _word_evidence(word) -> dict:
    """The numbers behind one word's finding."""
    return {
        "word": word.column,
        "present": word.present,
        "class_rows": word.class_rows,
        "share": word.share,
        "elsewhere": word.elsewhere,
        "other_rows": word.other_rows,
        "share_elsewhere": word.share_elsewhere,
        "chance": word.chance,
        "one_in": 1 / word.chance if word.chance > 0 else None,
        "corrected_chance": word.corrected,
    }
