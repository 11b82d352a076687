"""Pipeline configs: read them (never executed or unpickled) into :class:`PipelineSpec`.

Forms accepted (docs/pipelines.md):

* YAML, JSON or TOML in the Hydra/OmegaConf style (``_target_`` nodes at any
  depth) -- :mod:`nblint.pipelines.mapping`;
* the nblint spec (``model``, ``params``, ``encoders``, ``data``, ``target``)
  in YAML, JSON or TOML -- :mod:`nblint.pipelines.mapping`;
* Python sources building scikit-learn pipelines, read with :mod:`ast` --
  :mod:`nblint.pipelines.pysource`;
* live scikit-learn objects through the API -- :mod:`nblint.pipelines.live`.

All become :class:`~nblint.pipelines.calls.Call` records, then pipelines
(:func:`~nblint.pipelines.spec.build_specs`); :mod:`nblint.pipelines.flow` works out
what kind of values reach the final estimator, which the NB5xx rules read
through a :class:`~nblint.pipelines.context.PipelineContext`.
"""

from typing import TYPE_CHECKING

from nblint.core.lazy import lazy_exports

if TYPE_CHECKING:
    from nblint.pipelines.calls import Param
    from nblint.pipelines.configs import ConfigFile, is_config_path, read_config
    from nblint.pipelines.context import PipelineContext
    from nblint.pipelines.lint import lint_specs
    from nblint.pipelines.spec import PipelineSpec, Step

#: Every name, imported on first use: the config readers load YAML, TOML and the Python-source
#: parsers, which the NB5xx rules (and ``nblint.check`` on a table) never need, and a run of tables
#: asks only :func:`is_config_path` of each path (the calls, flows and specs are a pipeline's).
__getattr__ = lazy_exports(
    __name__,
    {
        "Param": "nblint.pipelines.calls",
        "PipelineContext": "nblint.pipelines.context",
        "PipelineSpec": "nblint.pipelines.spec",
        "Step": "nblint.pipelines.spec",
        "ConfigFile": "nblint.pipelines.configs",
        "is_config_path": "nblint.pipelines.configs",
        "read_config": "nblint.pipelines.configs",
        "lint_specs": "nblint.pipelines.lint",
    },
)


__all__ = [
    "ConfigFile",
    "Param",
    "PipelineContext",
    "PipelineSpec",
    "Step",
    "is_config_path",
    "lint_specs",
    "read_config",
]
