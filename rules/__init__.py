"""nblint's built-in rule pack (imported as ``nblint_rules``).

One module per rule, grouped by family in sub-packages; the engine finds every
:class:`nblint.engine.Rule` subclass here through the ``nblint.rules`` entry point.
"""

#: The code prefix this pack owns (a third-party pack declares its own: see nblint.engine.registry).
CODE_PREFIX = "NB"
#: Within it, the prefix left to third-party packs: no built-in code starts with it.
LEFT_TO_PACKS = "NB9"
