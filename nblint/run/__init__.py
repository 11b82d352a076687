"""Running nblint over inputs: the configuration (files, overrides, per-file settings) and the runner.

The runner walks paths, reads each table or pipeline config, runs the selected rules and
collects the findings; the CLI, the API and pre-commit all go through it.
"""
