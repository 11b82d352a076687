"""The measured cost of the one-hot mistake (NB401, ``nblint impact``).

For a table with a target and one-hot/dummy groups G_1..G_m (DESIGN.md section 5):

* model **CAT** reads each group as one categorical feature (for a dummy group the
  all-zero row is the reference level), the paper's eq. 2;
* model **PoB** reads every group bit as an independent Bernoulli feature, the
  product of Bernoullis of eqs. 1 and 3;
* every other column is read identically by both: discrete columns (flags, codes,
  text, counts with few values) as categorical features (a two-level categorical
  feature is exactly a Bernoulli one with the same alpha), continuous columns as
  Gaussian features; identifiers, constants and columns with missing values are
  left out.  Both use the same Lidstone smoothing ``alpha`` (``alpha = 0`` is the
  paper's maximum-likelihood setting, handled as the limit alpha -> 0+).

The table-level comparison is all groups as bits against all collapsed.  Each
group's own cost is measured against the correct model: every other group
collapsed in both, only this group read as bits in "PoB".

The package has one module per idea:

* :mod:`~nblint.impact.design`: which column feeds which component; rows encoded;
* :mod:`~nblint.impact.statistics`: count tables and moments, of all rows and per fold;
* :mod:`~nblint.impact.scoring`: the models fitted from statistics, rows scored;
* :mod:`~nblint.impact.comparison`: the streamed comparison, window by window;
* :mod:`~nblint.impact.sample`: which rows are scored (a sample on a many-class target);
* :mod:`~nblint.impact.measure`: the two passes.

Rendering (text, JSON, the plot) is in :mod:`nblint.report.formats`.
"""

from nblint.impact.measure import ImpactResult, ImpactSettings, impact_settings, measure_impact
from nblint.impact.sample import impact_limit

__all__ = ["ImpactResult", "ImpactSettings", "impact_limit", "impact_settings", "measure_impact"]
