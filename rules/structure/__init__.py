"""NB1xx: the structure of the table (one-hot and dummy groups, collinearity, duplicates)."""

#: What every rule of this family reads (keys of nblint.engine.rule.INPUTS): the engine imports the family's
#: modules only for a run that offers one of them (nblint.engine.registry.family_reads).
INPUTS = ("table",)


COLLAPSE_FIX = (
    "Collapse the group into one categorical column (pandas.from_dummies, or idxmax over the group) "
    "and give it to CategoricalNB as ordinal codes (OrdinalEncoder); do not feed the bits to "
    "BernoulliNB, MultinomialNB or GaussianNB as independent features."
)
