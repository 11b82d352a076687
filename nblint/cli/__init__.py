"""The ``nblint`` command line: the group and what its commands share (:mod:`~nblint.cli.base`), a module per command group."""

from nblint.cli import catalogue, columns, fix, impact, lint, schema  # noqa: F401 (each registers its commands on main)
from nblint.cli.base import main

__all__ = ["main"]
