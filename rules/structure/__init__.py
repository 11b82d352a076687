"""NB1xx: the structure of the table (one-hot and dummy groups, collinearity, duplicates)."""

COLLAPSE_FIX = (
    "Collapse the group into one categorical column (pandas.from_dummies, or idxmax over the group) "
    "and give it to CategoricalNB as ordinal codes (OrdinalEncoder); do not feed the bits to "
    "BernoulliNB, MultinomialNB or GaussianNB as independent features."
)
