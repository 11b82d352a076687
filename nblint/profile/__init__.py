"""The profile: a table's sufficient statistics, gathered in one pass over row chunks and merged exactly.

``table`` holds :class:`~nblint.profile.table.TableProfile` and the pass; its blocks have a
module each: ``levels`` (distinct values and per-class level counts), ``numeric``
(per-class moments), ``gram`` (co-occurrences of 0/1 columns and co-moments for VIF) and
``sparse`` (the same statistics from a sparse matrix, visiting only its non-zeros).
"""
