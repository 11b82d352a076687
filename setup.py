"""Package discovery that pyproject.toml cannot express: the rule pack is ``rules/`` imported as ``nblint_rules``.

Every package under ``nblint/`` and every rule family under ``rules/`` is found here, so a
new subpackage or rule family cannot be silently left out of the wheel.
"""

from setuptools import find_packages, setup

RULE_PACK = "nblint_rules"

setup(
    packages=find_packages(include=["nblint", "nblint.*"])
    + [RULE_PACK]
    + [f"{RULE_PACK}.{family}" for family in find_packages("rules")],
)
