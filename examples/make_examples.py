"""Regenerate the bundled example tables (seeded, so the files never change).

python examples/make_examples.py
"""

from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).parent


def customers(rng: np.random.Generator, n: int = 400) -> pd.DataFrame:
    """A churn table with the classic encoding mistakes nblint is built to find."""
    churned = rng.random(n) < 0.3
    plan = np.where(churned, rng.choice(3, n, p=[0.6, 0.3, 0.1]), rng.choice(3, n, p=[0.3, 0.4, 0.3]))
    region = rng.choice(4, n, p=[0.25, 0.3, 0.25, 0.2])
    channel = rng.choice(3, n, p=[0.5, 0.3, 0.2])
    spend_online = rng.gamma(2.0, 30.0, n).round(2)
    spend_store = rng.gamma(2.0, 20.0, n).round(2)
    frame = pd.DataFrame(
        {
            "customer_age": rng.normal(41, 12, n).round(1),
            # one-hot: every row has exactly one plan
            "plan_basic": (plan == 0).astype(int),
            "plan_pro": (plan == 1).astype(int),
            "plan_team": (plan == 2).astype(int),
            # drop-first dummies: region_east is the dropped reference level
            "region_north": (region == 1).astype(int),
            "region_south": (region == 2).astype(int),
            "region_west": (region == 3).astype(int),
            # an integer code column next to its own one-hot indicators
            "channel": channel,
            "channel_web": (channel == 0).astype(int),
            "channel_app": (channel == 1).astype(int),
            "channel_phone": (channel == 2).astype(int),
            "support_calls": rng.poisson(np.where(churned, 3.0, 1.0)),
            "spend_online": spend_online,
            "spend_store": spend_store,
            # a derived column: exactly the sum of two others
            "spend_total": (spend_online + spend_store).round(2),
            "is_member": (rng.random(n) < 0.4).astype(int),
            "churned": np.where(churned, "yes", "no"),
        }
    )
    return frame


def clean(rng: np.random.Generator, n: int = 300) -> pd.DataFrame:
    """A table with nothing structural to report."""
    label = rng.choice(["a", "b"], n)
    return pd.DataFrame(
        {
            "age": rng.normal(40, 10, n).round(1),
            "visits": rng.poisson(3, n),
            "is_member": (rng.random(n) < 0.5).astype(int),
            "color": rng.choice(["red", "green", "blue"], n),
            "label": label,
        }
    )


def messages(rng: np.random.Generator, n: int = 200) -> pd.DataFrame:
    """Short messages (a column of documents) with their class and a one-hot channel, for ``--text``."""
    common = ["the", "a", "to", "you", "and", "is", "for", "on", "this", "we", "call", "today", "now", "please"]
    topic = {
        "spam": ["free", "winner", "cheap", "offer", "prize", "click", "cash"],
        "ham": ["meeting", "lunch", "report", "tomorrow", "thanks", "agenda", "see"],
    }
    label = rng.choice(["spam", "ham"], n, p=[0.3, 0.7])
    weights = 1.0 / np.arange(1, len(common) + 1)
    body = [
        " ".join(
            rng.permutation(
                list(rng.choice(common, rng.integers(1, 8), p=weights / weights.sum()))
                + list(rng.choice(topic[c], rng.integers(1, 4)))
            )
        )
        for c in label
    ]
    channel = rng.choice(["email", "sms", "chat"], n)
    frame = pd.DataFrame({"body": body, "label": label})
    for level in ("email", "sms", "chat"):
        frame[f"channel_{level}"] = (channel == level).astype(int)
    return frame


if __name__ == "__main__":
    rng = np.random.default_rng(20261122)
    customers(rng).to_csv(HERE / "customers.csv", index=False)
    clean(rng).to_csv(HERE / "clean.csv", index=False)
    # (beside the test data, not in examples/: the folder-wide goldens and CI commands lint examples/)
    messages(np.random.default_rng(20260421)).to_csv(HERE.parent / "tests" / "data" / "messages.csv", index=False)
