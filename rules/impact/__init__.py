"""NB4xx: the measured cost of reading one-hot and dummy groups as independent bits."""

#: What every rule of this family reads (keys of nblint.engine.rule.INPUTS): the engine imports the family's
#: modules only for a run that offers one of them (nblint.engine.registry.family_reads).
INPUTS = ("table",)
