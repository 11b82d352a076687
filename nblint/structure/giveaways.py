"""Words that give a class away, told apart from the vocabulary a class is entitled to.

Naive Bayes learns from words that are specific to a class: ``nhl`` in hockey posts,
``qtr`` in earnings reports. That is the model working, not leakage. What leaks is an
artefact that marks *most* of one class's documents and (nearly) none of the others: a
header, a signature, markup, a placeholder, a source's boilerplate. Both are read from
the documents each word occurs in, per class (the non-zero pattern: counts, bits and
tf-idf weights alike), ``a`` of the ``n_c`` documents of class c and ``b`` of the
``n - n_c`` others. A word is a **giveaway** of class c when

* it is present in a large share of the class, shown by the sample: the one-sided 95%
  Clopper-Pearson lower bound on ``a / n_c`` is at least ``share`` (half by default), so
  16 of a class's 28 documents (57%, bound 40%) is not yet "most of the class", while 30
  of 30 (bound 90%) is;
* it is (nearly) absent from the other classes, both ways round: at most ``1 - purity``
  of the word's documents lie outside c (``b <= (1 - purity) (a + b)``: seeing the word,
  the class is known), and at most ``1 - purity`` of the other classes' documents hold it
  (``b <= (1 - purity) (n - n_c)``: a class of 99% of the rows does not make every
  common word "pure");
* chance cannot explain it: under independence the word's ``d = a + b`` documents are a
  random draw of the ``n``, and the class's count among them is hypergeometric; the
  chance of ``a`` or more, multiplied by the (word, class) pairs tested (Bonferroni),
  must stay below ``max_chance``.

A word seen in one class only, beyond chance (``one_class_chance``, as for any level of a
table), that is not a giveaway is **class vocabulary**: said once per table, for
information.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import exp

import numpy as np

from nblint.core.records import Record
from nblint.structure.chance import log_comb
from nblint.structure.leakage import one_class_chance


class ClassWord(Record):
    """A word and the class it goes with: a giveaway or class vocabulary.

    (Written out: a named tuple's class costs a fresh process ~0.4 ms to create; none reads this as a tuple.)
    """

    __slots__ = ("column", "klass", "present", "class_rows", "elsewhere", "other_rows", "chance", "corrected")

    def __init__(
        self,
        column: str,
        klass: int,
        present: int,
        class_rows: int,
        elsewhere: int,
        other_rows: int,
        chance: float,
        corrected: float,
    ) -> None:
        self.column = column
        self.klass = klass  # index into profile.classes
        #: Documents of the class that hold the word, and the class's documents.
        self.present = present
        self.class_rows = class_rows
        #: Documents of the other classes that hold the word, and the other classes' documents.
        self.elsewhere = elsewhere
        self.other_rows = other_rows
        #: Probability under independence of the class holding this many of the word's documents.
        self.chance = chance
        #: ``chance`` times the number of (word, class) pairs tested, capped at 1.
        self.corrected = corrected

    @property
    def share(self) -> float:
        """Share of the class's documents that hold the word."""
        return self.present / self.class_rows

    @property
    def share_elsewhere(self) -> float:
        """Share of the other classes' documents that hold the word."""
        return self.elsewhere / self.other_rows if self.other_rows else 0.0


class ClassVocabulary(Record):
    """What the per-class document frequencies of a block of words say about leakage.

    (Written out: a named tuple's class costs a fresh process ~0.4 ms to create; none reads this as a tuple.)
    """

    __slots__ = ("giveaways", "specific", "tested")

    def __init__(self, giveaways: list[ClassWord], specific: list[ClassWord], tested: int) -> None:
        #: Words that give a class away, strongest (largest share) first.
        self.giveaways = giveaways
        #: Words seen in one class only beyond chance that are not giveaways, commonest first.
        self.specific = specific
        #: (word, class) pairs tested for a giveaway.
        self.tested = tested


def class_vocabulary(
    names: Sequence[str],
    presence: np.ndarray,
    class_rows: np.ndarray,
    share: float,
    purity: float,
    min_rows: int,
    max_chance: float,
) -> ClassVocabulary:
    """Giveaways and class vocabulary of a block of words (see the module docstring).

    Parameters
    ----------
    names : sequence of str
        The words (columns), in table order.
    presence : ndarray of shape (n_classes, n_words)
        Documents of each class in which each word is non-zero.
    class_rows : ndarray of shape (n_classes,)
        Documents of each class.
    share : float
        Smallest share of a class's documents a giveaway is present in.
    purity : float
        ``1 - purity`` is the largest share of the word's documents, and of the other
        classes' documents, that may hold a giveaway outside its class.
    min_rows : int
        Documents a word needs in the class before it is weighed.
    max_chance : float
        Largest chance, corrected for the pairs tested, of a finding this strong by accident.
    """
    presence = np.asarray(presence, dtype=np.int64)
    class_rows = np.asarray(class_rows, dtype=np.int64)
    n_classes = len(class_rows)
    n = int(class_rows.sum())
    if n_classes < 2 or presence.size == 0:
        return ClassVocabulary([], [], 0)
    documents = presence.sum(axis=0)  # each word's documents (its document frequency)
    others = n - class_rows[:, None]
    elsewhere = documents[None, :] - presence
    weighed = presence >= min_rows
    tested = int(weighed.sum())
    # Candidates first (a few of a vocabulary's hundreds of thousands of pairs), their chances after.
    large = weighed & (presence >= share * class_rows[:, None])
    absent = (elsewhere <= (1 - purity) * documents[None, :]) & (elsewhere <= (1 - purity) * others)
    giveaways = [
        _word(
            names,
            presence,
            class_rows,
            documents,
            c,
            j,
            at_least(presence[c, j], n, class_rows[c], documents[j]),
            tested,
        )
        for c, j in zip(*np.nonzero(large & absent))
        if share_lower_bound(int(presence[c, j]), int(class_rows[c])) >= share
    ]
    giveaways = [w for w in giveaways if w.corrected <= max_chance]
    given = {(w.column, w.klass) for w in giveaways}
    # The words seen in one class only: their chances by their documents (a vocabulary's one-class words
    # share a few sizes), corrected for the pairs tested, at once; a word is made only for those kept.
    one_class, word_at = np.nonzero(weighed & (elsewhere == 0))
    rows = presence[one_class, word_at]
    sizes, size_of = np.unique(rows, return_inverse=True)
    chances = [one_class_chance(int(r), class_rows) for r in sizes.tolist()]
    kept = np.minimum(1.0, np.array(chances, dtype=np.float64)[size_of.reshape(-1)] * max(tested, 1)) <= max_chance
    specific = [
        word
        for word in (
            _word(names, presence, class_rows, documents, c, j, chances[k], tested)
            for c, j, k in zip(one_class[kept].tolist(), word_at[kept].tolist(), size_of.reshape(-1)[kept].tolist())
        )
        if (word.column, word.klass) not in given
    ]
    giveaways.sort(key=lambda w: (-w.share, w.corrected, w.column))
    specific.sort(key=lambda w: (-w.present, w.column))
    return ClassVocabulary(giveaways, specific, tested)


#: One-sided confidence of the lower bound on a word's share of its class.
CONFIDENCE = 0.95


def share_lower_bound(present: int, rows: int) -> float:
    """One-sided Clopper-Pearson lower bound on a share seen ``present`` times in ``rows``.

    The ``p`` with ``P(X >= present | p) = 1 - CONFIDENCE`` for ``X ~ Binomial(rows, p)``:
    the ``1 - CONFIDENCE`` quantile of ``Beta(present, rows - present + 1)``.
    """
    if present <= 0:
        return 0.0
    from scipy.special import betaincinv

    return float(betaincinv(present, rows - present + 1, 1 - CONFIDENCE))


def at_least(present: int, n: int, class_rows: int, documents: int) -> float:
    """``P(X >= present)`` for ``X`` hypergeometric: the class's count among ``documents`` drawn of ``n``.

    ``sum_k C(n_c, k) C(n - n_c, d - k) / C(n, d)`` over ``k`` from ``present`` up.
    """
    n, n_c, d = int(n), int(class_rows), int(documents)
    top = min(n_c, d)
    log_total = log_comb(n, d)
    terms = [
        log_comb(n_c, k) + log_comb(n - n_c, d - k) - log_total
        for k in range(int(present), top + 1)
        if d - k <= n - n_c
    ]
    return min(1.0, sum(exp(t) for t in terms))


def _word(names, presence, class_rows, documents, c, j, chance: float, tested: int) -> ClassWord:
    c, j = int(c), int(j)
    n = int(class_rows.sum())
    return ClassWord(
        names[j],
        c,
        int(presence[c, j]),
        int(class_rows[c]),
        int(documents[j] - presence[c, j]),
        n - int(class_rows[c]),
        chance,
        min(1.0, chance * max(tested, 1)),
    )


__all__ = ["ClassVocabulary", "ClassWord", "at_least", "class_vocabulary", "share_lower_bound"]
