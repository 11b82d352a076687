"""nblint's version: one definition, read by the package, the CLI, reports and the build."""

__version__ = "0.1.0"
