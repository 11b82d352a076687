"""The Python API: lint a table, array, sparse matrix or path, or a live scikit-learn pipeline, and get a Report.

``inputs`` turns what a user hands over into a table source; ``report`` runs the rules and
holds the :class:`Report`.
"""

from nblint.api.report import Report, check, check_pipeline

__all__ = ["Report", "check", "check_pipeline"]
