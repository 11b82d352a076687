"""NB1xx: the structure of the table (one-hot and dummy groups, collinearity, duplicates)."""


def fmt_columns(columns, limit: int = 6) -> str:
    """``a, b, c`` (or ``a, b, ... (12 columns)``) for messages."""
    columns = list(columns)
    shown = ", ".join(columns[:limit])
    return shown + (f", ... ({len(columns)} columns)" if len(columns) > limit else "")


COLLAPSE_FIX = (
    "Collapse the group into one categorical column (pandas.from_dummies, or idxmax over the group) "
    "and give it to CategoricalNB as ordinal codes (OrdinalEncoder); do not feed the bits to "
    "BernoulliNB, MultinomialNB or GaussianNB as independent features."
)
