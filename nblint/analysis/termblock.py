"""The document-term block of a table: which columns are words, their documents, and what is chance among them.

Most Naive Bayes models read bag-of-words matrices.  A :class:`TermBlock` reads, from
one table's profile, which numeric columns form such a block (a vectorizer's output, or a
dense file's rare, non-negative columns), in how many documents each word is present, and
whether an exact relation among words (two identical, some covering the rows) is what
independent sparse columns produce by chance (:mod:`nblint.structure.chance`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import cached_property
from itertools import chain, repeat

import numpy as np

from nblint.engine.settings import AnalysisSettings
from nblint.profile.levels import key_counts, level_sizes
from nblint.profile.table import TableProfile
from nblint.readers import name_mask
from nblint.readers.words import encoded_names, indicator_encoding, levels_repeat, rare_typical_word, sparse_candidates
from nblint.structure import chance
from nblint.structure.ngrams import one_span, word_stem
from nblint.structure.terms import row_count_sums


class TermBlock:
    """The words of one table, read from its profile.

    Parameters
    ----------
    profile : TableProfile
    words : frozenset of str or None
        The declared words (a vectorizer's output, ``--text``); None: read from the values.
    settings : AnalysisSettings
    row_lengths : callable
        Returns the non-zero cells of each row (documents' lengths), or None where unknown;
        called only when a pairwise relation is weighed (it costs a pass over the rows).
    """

    def __init__(
        self,
        profile: TableProfile,
        words: frozenset[str] | None,
        settings: AnalysisSettings,
        row_lengths: Callable[[], np.ndarray | None],
        array: bool = False,
    ):
        self.profile, self.words, self.settings = profile, words, settings
        self._row_lengths = row_lengths
        #: Whether the table is a 2-D array given as such (its block takes its frequent words, as a sparse matrix's).
        self.array = array

    @cached_property
    def nonzero(self) -> np.ndarray:
        """Rows where each of the profile's numeric columns is non-zero, -1 where unknown (levels past the cap)."""
        numeric = self.profile.numeric
        n_rows = numeric.class_n.sum(axis=0)  # (p,) non-missing rows
        nonzero = np.full(len(numeric.names), -1, dtype=np.int64)
        zero_one = numeric.zero_one  # (only their sums are counts: other columns' may be infinite)
        nonzero[zero_one] = np.rint((numeric.class_mean[:, zero_one] * numeric.class_n[:, zero_one]).sum(axis=0))
        # The other columns with a table: the rows that are not at the level 0.
        tabled = ~zero_one & (level_sizes(numeric.levels) >= 0)
        zeros = key_counts(numeric.levels, 0.0, numeric.class_n.shape[0]).sum(axis=0)
        nonzero[tabled] = n_rows[tabled] - zeros[tabled]
        return nonzero

    @cached_property
    def nonzero_rows(self) -> dict[str, int]:
        """Rows where each non-negative numeric feature is non-zero, where the profile tells (its levels)."""
        numeric = self.profile.numeric
        nonzero = self.nonzero
        target = self.profile.target
        # (every column at once: a vocabulary has tens of thousands)
        at = np.flatnonzero((numeric.minimum >= 0) & (nonzero >= 0)).tolist()
        rows = dict(zip(map(numeric.names.__getitem__, at), nonzero[at].tolist()))
        if target is not None:
            rows.pop(target, None)  # (the target is no feature)
        return rows

    @cached_property
    def columns(self) -> frozenset[str]:
        """The columns of a document-term block (a bag of words, n-gram counts, tf-idf weights), or none.

        A term column is a numeric feature with no negative value (or whole, a count with a
        negative cell) that is zero on at least half of its rows: a word absent from most documents; beside a block of counts, also a
        whole count from 0 (not 0/1) that is present in more: a frequent word. Only a block is text:
        at least ``term-block`` such columns (the setting), so a lone count beside measurements
        is never one, whose typical column is rare (Zipf's law: :func:`nblint.readers.words.rare_typical_word`); and a block of 0/1 columns whose rows each set one column per variable (a
        one-hot encoding, however many levels) is indicators, not words (:mod:`nblint.readers.words`).
        Declared words (a vectorizer's output, ``--text``) are the block whatever their number.
        Rules read a term column the way text models do: Bernoulli NB's
        binarisation at 0 is word presence (the multivariate Bernoulli event model), and a
        rare term is one seen in few rows, whatever its counts.
        """
        numeric = self.profile.numeric
        n_rows = numeric.class_n.sum(axis=0)
        nonzero, target = self.nonzero, self.profile.target
        if self.words is not None:
            return self.words - {target}
        # (whole counts with a negative cell are words too: a corrupted count, a hashing vectorizer's sign)
        signed_counts = numeric.integral & ~(numeric.minimum >= 0) & (nonzero >= 0) & (2 * nonzero <= n_rows)
        at = np.flatnonzero(sparse_candidates(numeric.minimum, nonzero, n_rows) | signed_counts).tolist()
        sparse = [name for name in (numeric.names[j] for j in at) if name != target]
        if len(sparse) < self.settings.term_block or not rare_typical_word(nonzero[at], self.profile.n_rows):
            return frozenset()
        zero_one = numeric.zero_one[at]
        if zero_one.all() and ((levels_repeat(nonzero[at]) and self._indicators(sparse)) or encoded_names(sparse)):
            return frozenset()
        # A sparse matrix given as such (a vectorizer's output) is one block: its frequent words
        # ('the', in 93% of documents) are terms too, and so are words with a negative cell (an
        # error in the counts, or a hashing vectorizer's signs: NB302 says so once for the block).
        # In a dense file only the sparse columns are.
        if numeric.fingerprints is not None:
            return frozenset(numeric.names) - {target}  # (declared words returned above)
        common = 2 * nonzero > n_rows  # (set on more than half of the rows: not sparse candidates)
        if self.array:
            # A 2-D array given as such is one block, as a sparse matrix is (readers.words.matrix_words): its
            # frequent words are words whatever their values ('the' in every long document, read as present).
            frequent = common & (numeric.minimum >= 0)
        elif (numeric.integral[at] & (numeric.maximum[at] > 1)).any():
            # In a dense file, a frequent word of a block of counts is a count absent from some
            # documents ('it' in 60 of 100, 'the' in 95): whole, from 0, not 0/1 (an indicator beside
            # the words may be as frequent); only where the block's words are counts too.
            frequent = common & (numeric.minimum == 0) & numeric.integral & (numeric.maximum > 1)
        else:
            return frozenset(sparse)
        sparse += [name for name in (numeric.names[j] for j in np.flatnonzero(frequent).tolist()) if name != target]
        return frozenset(sparse)

    def _indicators(self, columns: list[str]) -> bool:
        """Whether the rows of these 0/1 columns say they are indicators of variables, not words (:mod:`nblint.structure.terms`).

        Read over the complete ones (those with the co-occurrence counts); with none, not an encoding.
        """
        gram = self.profile.gram
        binary = gram.binary.positions()
        complete = [c for c in columns if c in binary]
        if not complete:
            return False
        ones, squares = row_count_sums(gram, complete)
        return indicator_encoding(ones, squares, gram.n, self.settings.max_violation_share) is not None

    @cached_property
    def supports(self) -> dict[str, int]:
        """Rows where each term column is non-zero (its document frequency), where known.

        A word's documents are its non-zero rows whatever their sign (a sign hash's negative words too).
        """
        nonzero, terms = self.nonzero_rows, self.columns
        if terms == nonzero.keys():  # (a vectorizer's matrix: every column is a term, copied at once)
            return dict(nonzero)
        # Every term at once, by mask over the numeric columns (a signed hash's words are not all non-negative
        # features): a vocabulary's tens of thousands, never looked up one by one. (Read by look-up: any order.)
        names = self.profile.numeric.names
        at = np.flatnonzero(name_mask(names, terms) & (self.nonzero >= 0)).tolist()
        return dict(zip(map(names.__getitem__, at), self.nonzero[at].tolist()))

    @cached_property
    def _support_peers(self) -> Counter:
        return Counter(self.supports.values())

    @cached_property
    def _length_spread(self) -> float:
        """``n * sum(q_d^2)`` for row weights ``q`` proportional to the rows' non-zero cells (1 when all are equal).

        Under independence with rows drawn in proportion to their lengths, two words of
        support ``s`` coincide about ``spread^s`` times more often than with rows drawn
        uniformly: long documents share their words.
        """
        found = self._row_lengths()
        lengths = np.zeros(0) if found is None else found.astype(np.float64)
        if not len(lengths) or lengths.sum() == 0:
            return 1.0
        q = lengths / lengths.sum()
        return float(max(1.0, len(q) * np.dot(q, q)))

    def identical_by_chance(self, sets: list[list[str]]) -> list[bool]:
        """:meth:`by_chance` of each set of identical columns (``relation`` ``"identical"``), in their order.

        A hashed or rare vocabulary has thousands of such sets (two words of one document): the sets
        resting on fewer than ``separation-min-rows`` documents are chance, decided for all at once
        from their members' documents; only the others are weighed one by one.
        """
        sizes = np.fromiter(map(len, sets), dtype=np.int64, count=len(sets))
        chance = [False] * len(sets)
        filled = np.flatnonzero(sizes > 0)  # (an empty set is never chance)
        if not len(filled):
            return chance
        # Each set's fewest documents; -1 where a member is not a word of the block (never chance).
        documents = np.fromiter(
            map(self.supports.get, chain.from_iterable(sets), repeat(-1)), dtype=np.int64, count=int(sizes.sum())
        )
        starts = (np.cumsum(sizes) - sizes)[filled]
        least = np.minimum.reduceat(documents, starts)
        few = least < self.settings.separation_min_rows
        for k in filled[(least >= 0) & few].tolist():
            chance[k] = True
        for k in filled[(least >= 0) & ~few].tolist():
            chance[k] = self.by_chance(sets[k], "identical")
        return chance

    def by_chance(self, members: list[str], relation: str) -> bool:
        """Whether an exact relation among term columns is what independent sparse columns produce by chance.

        Only relations whose members are all terms of a document-term block are weighed
        (:mod:`nblint.structure.chance`); ``relation`` is ``"cover"`` (the members sum to one
        on every row) or ``"identical"``. Identical words seen in fewer than
        ``separation-min-rows`` documents rest on those few documents: chance, whatever
        their names and the other rare words of the corpus. Identical words that are n-grams
        of one span (:func:`~nblint.structure.ngrams.one_span`: ``puerto`` and ``puerto rico``,
        a character n-gram inside a longer one) are the vectorizer's construction, not an
        encoding: counted as chance too. Past that, names that share a stem say it is an encoding,
        unless the stem names a family of columns rather than them (a hashing vectorizer's
        ``hash_<bucket>``, the ``x0 .. x{p-1}`` of a matrix without names) or is an n-gram's
        first word (:func:`~nblint.structure.ngrams.word_stem`).
        """
        if not members:
            return False
        try:
            least = min(map(self.supports.__getitem__, members))
        except KeyError:  # (a member that is not a word of the block)
            return False
        supports = self.supports
        # The documents are the independent draws, not the words: a document's words come together (a
        # name, a bigram, two product codes of one message), so a relation seen in fewer documents than a
        # level needs to count as evidence (``separation-min-rows``) is what those documents say, not
        # structure, whatever the names or the other rare words of the corpus.
        # (A cover's evidence is every row it partitions: it is weighed below.)
        if relation == "identical" and least < self.settings.separation_min_rows:
            return True
        if relation == "identical" and one_span(members):
            return True  # (n-grams of one span: identical by the vectorizer's construction, whatever the documents)
        if word_stem(members, self.profile.names):  # (not hash_*, x0 .., nor an n-gram's first word)
            return False
        peers = self._support_peers
        n = self.profile.n_rows
        if relation == "cover":
            expected = chance.expected_covers([supports[m] for m in members], n, peers)
        else:
            # Pairwise: a long document's own words coincide as a set; the chance of one pair of them is
            # what independence can speak to, with rows drawn in proportion to the documents' lengths.
            support = supports[members[0]]
            expected = chance.expected_identical(support, 2, n, peers, self._length_spread)
        return expected >= chance.MAX_EXPECTED
