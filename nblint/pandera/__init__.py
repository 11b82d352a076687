"""nblint's table rules as pandera checks, and pandera schemas written for a table.

Importing this module registers, with :func:`pandera.extensions.register_check_method`,
one dataframe check per installed table rule and one row-level structure check:

* ``nblint_nb101``, ``nblint_nb102``, ... (:func:`check_name` of each rule code):
  runs that rule on the validated frame.  Statistics: ``target``, ``model``,
  ``kinds`` (declared column kinds, as ``[tool.nblint.columns]``) and
  the rule's options in snake case (``vif_threshold`` for NB104's
  ``vif-threshold``), all optional.  When the rule finds something the check
  fails with an ordinary :class:`pandera.errors.SchemaError` whose ``check.name``
  is the check name (:func:`rule_code` maps it back to the code) and whose
  message is ``CODE name: <the finding's message>``.  With pandera's
  ``raise_warning=True`` the same text is a :class:`pandera.errors.SchemaWarning`
  instead and validation goes on.
* ``nblint_sum_to_one(columns=[...])``: the columns of a one-hot group sum to
  exactly one on every row.  A vectorised row check, so pandera's failure cases
  are the rows that break the group (NB103's finding).

For a new table (a test or serving table, issue 38), :func:`schema_for_new_rows` writes a
schema from the *training* table's profile with pandera's own checks only: ``isin`` of the
training levels per discrete column (a level never seen in training is a failure case) and
``in_range`` per measurement column (a value out of the training support, see
:data:`SUPPORT_SDS`, is one).

They are used like pandera's own checks, in a ``DataFrameSchema``::

    import nblint.pandera  # registers the checks
    import pandera.pandas as pa

    schema = pa.DataFrameSchema(checks=[pa.Check.nblint_nb101(target="y", model="bernoulli")])

or in a ``DataFrameModel``'s ``Config`` (``nblint_nb101 = {"target": "y"}``), and
they round-trip through ``schema.to_yaml()`` / ``DataFrameSchema.from_yaml``.
pandera resolves a check by its registered name when it reads YAML, so a schema
that uses these checks must be loaded after ``import nblint.pandera`` — pandera
refuses it otherwise (``AttributeError``, "Make sure any custom checks have been
registered") — which :func:`load_schema` guarantees.

One profile per validation: the nblint checks of one ``validate`` call share the
table's profile (the one pass over every row), however many of them the schema
holds; each still runs its own rule with its own statistics.  pandera's
dataframe backends are wrapped on import so that their ``run_checks`` (the checks
of one validation, run on one frame) opens a scope that holds the profiles.

Backends: pandas DataFrames (pandera's pandas API) and polars DataFrames and
LazyFrames (``pandera.polars``).  Under polars, pandera turns any exception
raised by a check into a ``check_error``, so a failing rule check is reported as
pandera's "Error while executing check function" whose text carries the
finding; ``raise_warning`` and ``nblint_sum_to_one`` behave as under pandas.
"""

from nblint.pandera.checks import (
    SUM_TO_ONE,
    check_name,
    register,
    rule_code,
    share_profiles_within_validations,
    table_rules,
)
from nblint.pandera.schemas import (
    SUPPORT_SDS,
    load_schema,
    read_frame,
    schema_for_new_rows,
    schema_for_table,
    schema_yaml,
)

__all__ = [
    "SUPPORT_SDS",
    "SUM_TO_ONE",
    "check_name",
    "load_schema",
    "register",
    "rule_code",
    "schema_for_new_rows",
    "schema_for_table",
    "read_frame",
    "schema_yaml",
    "table_rules",
]

register()
share_profiles_within_validations()
