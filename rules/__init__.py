"""nblint's built-in rule pack (imported as ``nblint_rules``).

One module per rule, grouped by family in sub-packages; the engine finds every
:class:`nblint.engine.Rule` subclass here through the ``nblint.rules`` entry point.
"""
