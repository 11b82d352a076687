"""Pipeline configs: read them (never executed or unpickled) into :class:`PipelineSpec`.

Forms accepted (README, "Pipeline configs"):

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

from nblint.pipelines.calls import Param
from nblint.pipelines.configs import ConfigFile, is_config_path, lint_specs, read_config
from nblint.pipelines.context import PipelineContext
from nblint.pipelines.spec import PipelineSpec, Step

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
