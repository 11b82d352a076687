"""The structure of a table's columns, as pure functions of its profile.

* :mod:`~nblint.structure.names`: what column names say (stems, complete enumerations);
* :mod:`~nblint.structure.groups`: the :class:`Group` record and exclusivity evidence;
* :mod:`~nblint.structure.onehot`: exact one-hot groups (order-free choice among covers);
  :mod:`~nblint.structure.onehot_sparse`: the same from a wide table's sparse 0/1 block;
* :mod:`~nblint.structure.exclusive`: drop-first dummy groups and broken groups;
  :mod:`~nblint.structure.dummy_search`: the drop-first search's cliques, pruned and chosen;
* :mod:`~nblint.structure.cliques`: the maximal cliques those searches start from;
* :mod:`~nblint.structure.kin`: the columns around an exclusive set (its name family, flags that say it is no variable);
* :mod:`~nblint.structure.implication`: 0/1 columns that imply another (NB105);
* :mod:`~nblint.structure.duplicates`: identical columns, code columns beside their indicators;
* :mod:`~nblint.structure.vif`: variance inflation factors;
* :mod:`~nblint.structure.kinds`: what each column is, and its event model;
  :mod:`~nblint.structure.wordkinds`: a document-term block's kinds as arrays (a word's kind made when asked);
* :mod:`~nblint.structure.budget`: the search budget they share.

Nothing here reads rows: everything works on the merged profile (exact 0/1
co-occurrence counts, centred co-moments, level tables).
"""

from typing import TYPE_CHECKING

from nblint.core.lazy import lazy_exports

if TYPE_CHECKING:
    from nblint.structure.budget import SEARCH_BUDGET, Budget
    from nblint.structure.groups import Group, exclusivity_evidence
    from nblint.structure.names import name_stem
    from nblint.structure.onehot import GroupSearch, find_onehot_groups
    from nblint.structure.onehot_sparse import find_onehot_groups_sparse
    from nblint.structure.vif import RANK_TOLERANCE, VifResult, variance_inflation

#: Each name from its module, imported on first use: a module of the room (``nblint.structure.kinds``) imports
#: only what it uses, so a document-term block's check never loads the sparse one-hot search (nor its families).
__getattr__ = lazy_exports(
    __name__,
    {
        "SEARCH_BUDGET": "nblint.structure.budget",
        "Budget": "nblint.structure.budget",
        "Group": "nblint.structure.groups",
        "exclusivity_evidence": "nblint.structure.groups",
        "name_stem": "nblint.structure.names",
        "GroupSearch": "nblint.structure.onehot",
        "find_onehot_groups": "nblint.structure.onehot",
        "find_onehot_groups_sparse": "nblint.structure.onehot_sparse",
        "RANK_TOLERANCE": "nblint.structure.vif",
        "VifResult": "nblint.structure.vif",
        "variance_inflation": "nblint.structure.vif",
    },
)

__all__ = [
    "SEARCH_BUDGET",
    "Budget",
    "Group",
    "GroupSearch",
    "RANK_TOLERANCE",
    "VifResult",
    "exclusivity_evidence",
    "find_onehot_groups",
    "find_onehot_groups_sparse",
    "name_stem",
    "variance_inflation",
]
