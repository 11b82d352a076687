"""nblint's checks in a pandera schema and in a DataFrameModel (the pandera page's snippet, docs/pandera.md).

python examples/schema.py
"""

import warnings

import pandas as pd
import pandera.pandas as pa
from pandera.errors import SchemaError, SchemaWarning

import nblint.pandera  # registers the nblint_* checks with pandera

schema = pa.DataFrameSchema(
    {"churned": pa.Column(str), "support_calls": pa.Column(int, pa.Check.ge(0))},
    checks=[
        # rows where the plan_* columns do not sum to one fail (NB103's finding)
        pa.Check.nblint_sum_to_one(columns=["plan_basic", "plan_pro", "plan_team"]),
        # nblint rules with their statistics; warning-level ones warn instead of failing
        pa.Check.nblint_nb101(target="churned", model="bernoulli", raise_warning=True),
        pa.Check.nblint_nb104(vif_threshold=5.0, raise_warning=True),
    ],
)


class Customers(pa.DataFrameModel):
    class Config:
        nblint_nb101 = {"target": "churned", "model": "bernoulli"}


frame = pd.read_csv("examples/customers.csv")
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always", SchemaWarning)
    schema.validate(frame)  # passes, warning about the one-hot groups and spend_total
for warning in caught:
    print("warning:", str(warning.message).splitlines()[0])

try:
    Customers.validate(frame)
except SchemaError as error:
    print("error:", nblint.pandera.rule_code(error), str(error).splitlines()[0])
