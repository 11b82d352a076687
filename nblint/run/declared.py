"""What a spec declares of the table it names: its target, model, smoothing and test table.

An nblint spec (or a pipeline config) that names its data file has that file linted
right after it, with what the spec declares filled in where the command line and the
configuration are silent (:func:`declared_by_spec`); :func:`with_named_data` adds the
named files to the run, once each, and refuses those a spec may not name
(:mod:`nblint.run.confine`).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Literal, TypedDict

from nblint.core.errors import NblintError
from nblint.run.config import FileSettings

if TYPE_CHECKING:
    from nblint.pipelines import ConfigFile, PipelineSpec
    from nblint.run.overrides import Overrides


class _Declared(TypedDict, total=False):
    """What a spec fills in of a table's settings."""

    target: str
    model: str
    alpha: float


def declared_by_spec(
    settings: FileSettings, spec: PipelineSpec, path: str, overrides: Overrides, warnings: list[str]
) -> FileSettings:
    """A table's settings with what the spec naming it declares, where nothing stronger does.

    The command line and the configuration decide first (``settings`` holds
    both); the spec fills in the target and the model (with its smoothing) that
    neither gives.  Where the configuration overrides the spec, a warning says
    so (``--target``/``--model`` are asked for and need none).
    """
    changes: _Declared = {}
    keys: tuple[Literal["target", "model"], ...] = ("target", "model")
    for key, declared in zip(keys, (spec.target, spec.model)):
        current = getattr(settings, key)
        if not declared:
            continue
        if current is None:
            changes[key] = declared
        elif current != declared and getattr(overrides, key) is None:
            warnings.append(
                f"{spec.path}:{spec.data_line or 1}: warning: {path} is checked with {key} {current!r} "
                f"from {settings.source or 'the configuration'}, not the spec's {declared!r}"
            )
    if changes.get("model") and settings.alpha is None and spec.alpha is not None:
        changes["alpha"] = spec.alpha
    resolved = settings.replace(**changes)
    if spec.test and settings.test is None:
        # The spec's test table, beside the spec, confined as its data is (open_test refuses it otherwise).
        test = os.path.normpath(os.path.join(os.path.dirname(spec.path), spec.test))
        resolved = resolved.replace(test=test, test_named_by=spec.path, test_line=spec.test_line)
    if resolved.test:
        from nblint.run.pairing import strict_encoders

        minimum = spec.estimator.value("min_categories") if spec.estimator is not None else None
        raises, planned = strict_encoders(spec)
        resolved = resolved.replace(unknown_raises=raises, unknown_planned=planned, min_categories=minimum)
    return resolved


def path_key(path: str) -> str:
    return path if path == "-" else os.path.abspath(path)


def with_named_data(
    files: list[str],
    configs: dict[str, ConfigFile | NblintError | None],
    unreadable: dict[str, str],
    allow_outside: bool,
    engine: str,
) -> tuple[list[str], dict[str, PipelineSpec]]:
    """The run's files with each data file a spec names added after the spec (once), and who names what.

    A named file that may not be read (:mod:`nblint.run.confine`: outside the spec's project, or not
    named as a table) is listed with its error line in ``unreadable``, and never opened.
    """
    from nblint.pipelines import ConfigFile
    from nblint.run.confine import refusal

    present = {path_key(path) for path in files}
    out: list[str] = []
    named: dict[str, PipelineSpec] = {}
    for path in files:
        out.append(path)
        config = configs.get(path)
        for data_path, spec in config.data_paths() if isinstance(config, ConfigFile) else ():
            if path_key(data_path) in present:
                named.setdefault(path_key(data_path), spec)
                continue
            present.add(path_key(data_path))
            out.append(data_path)
            refused = refusal(data_path, spec.path, spec.data_line, allow_outside=allow_outside, engine=engine)
            if refused is not None:
                unreadable[data_path] = refused
            else:
                named[path_key(data_path)] = spec
    return out, named
