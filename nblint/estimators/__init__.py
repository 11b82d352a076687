"""The fix nblint hands over: MixedNB, CollapseGroups, the recommended model per column, and ``nblint fix``.

The scikit-learn estimators import scikit-learn, so nothing outside this folder imports
them at start-up (``nblint.MixedNB`` loads on first use).
"""
