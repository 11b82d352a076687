from nblint.analysis.context import TableContext
from nblint.engine import Rule, Severity

#: Why the flags are not one encoded variable: their names, a measure per level name, another flag crossing
#: them, other flags filling their empty rows, or same-stem flags overlapping them.
_WHY = {
    "variables": "their names point to different variables ({variables:quoted}): a relation between variables, not "
    "one encoded variable",
    "measured": "the table measures {measured_per_level!r} for each of their level names too: one yes/no attribute "
    "per alternative (wide choice data), not the levels of one variable",
    "crossing": "{crossing_kin:names(3)} {crossing_kin:choose(never shares,each never share)} a row with one of them "
    "(beyond chance) but some rows with another: exclusion is one relation among overlapping facts here (no animal "
    "with both feathers and teeth), not a partition into the levels of one variable, and their names share no stem",
    "filling": "{filling_kin:names(3)} take the rows where none of them is set and share a few rows with them, far "
    "fewer than chance: flags that can overlap (multi-label), of which these happen to exclude each other",
    "overlapping": "they share a name stem with {overlapping_kin:names(3)}, which shares rows with some of them: "
    "flags that can overlap, of which these happen to exclude each other",
}
_MESSAGES = {
    f"{why}{exact}": "columns {columns:names} are exclusive flags: no row has two set"
    + (" (every row has exactly one)" if exact else "")
    + "; "
    + text
    + ". Read as independent bits they over-count evidence as a one-hot group does, but they are not an encoding "
    "of one variable"
    for why, text in _WHY.items()
    for exact in ("", "_exact")
}


class ExclusiveFlags(Rule):
    """Mutually exclusive 0/1 columns that are not one encoded variable, as their names or the other flags' values say.

    ## What it does
    Reports sets of 0/1 columns that never share a row, beyond chance, where the
    column names point away from one encoded variable: the names carry stems of two
    or more variables that other columns share too (``continent_Asia`` with the
    ``country_*`` columns of the other continents: one variable nested in another;
    ``disp.heinz28`` with ``feat.heinz32``: flags of two kinds that happen to exclude
    each other), or the set is an exclusive subset of same-stem flags that otherwise
    overlap (``disp.*`` flags of which two are set together on some rows), or the flags
    are one attribute per alternative of a choice: their level names recur under a stem
    the table measures (``feat.dannon, feat.yoplait`` beside the prices ``price.dannon,
    price.yoplait``). The values can say it too, whatever the names: other flags take the
    rows where none of the set is set (with it, at most ``max-violation-share`` of the rows
    have none) and share a few rows with its members, far fewer than chance (dispersal
    modes of plants, of which a few have two). Such sets
    are not reported as NB101/NB102 groups and get no invented variable name: names
    decide between a same-stem reading and a cross-stem one (DESIGN.md 4b).
    The values can say it in a second way: the levels of one variable exclude each other
    and nothing else needs to, so where another flag never meets one member beyond chance
    yet partly overlaps another (``hair`` never with ``feathers``, sometimes with
    ``toothed``), the set's exclusivity is one relation among overlapping facts (no
    animal has both feathers and teeth), not a partition into levels. Names that share
    a stem, a prefix or a suffix (``exhealth, goodhealth``) still say one variable, as do
    the two direction words of one axis with a step count (event-study dummies ``lead1``,
    ``lead2``, ``lag0``, ``lag1``: periods until and since treatment, one variable).
    Anonymised names (``c0, c1``) or names with no stem say nothing: there only the
    values make a set exclusive flags, and the other sets stay with NB101/NB102.

    ## Why is this bad?
    For Naive Bayes the over-count is the same as a group's: exclusive columns read
    as independent bits double-count the evidence where one rules the other out. But
    the set is not an encoding of one variable, so collapsing it into one categorical
    column is a modelling choice, not a repair.

    ## Severity
    A warning at most: exclusivity is measured, but what it means (nesting, a rule
    of the world, or flags of a design) is not for a linter to say.

    ## Example
    ```
    disp_a,disp_b,feat_a,feat_b,label   # feat_a excludes disp_b on every row
    1,1,0,0,x
    0,1,0,0,y
    1,0,1,0,x
    ```

    ## Use instead
    Keep the flags if they are distinct facts, and prefer a model that does not
    multiply their evidence as independent (one categorical feature over the joint
    states, or CategoricalNB over a combined column); where one variable is nested in
    another, keep the finer one or give each its own categorical column.
    """

    code = "NB107"
    status = "stable"
    since = "0.1.0"
    name = "exclusive-flags"
    severity = Severity.WARNING
    messages = _MESSAGES

    def check(self, ctx: TableContext):
        for flags in ctx.structure.flags:
            evidence = {"n_rows": flags.n_rows, "counts": dict(zip(flags.members, flags.counts)), **flags.evidence}
            reasons = ("variables", "measured_per_level", "crossing_kin", "filling_kin")
            why = next((r.split("_")[0] for r in reasons if r in evidence), "overlapping")
            if why == "overlapping":
                evidence.setdefault("overlapping_kin", [])
            exact = "_exact" if sum(flags.counts) == flags.n_rows else ""
            yield self.finding(
                ctx,
                why + exact,
                columns=flags.members,
                evidence=evidence,
                fix="Decide whether the flags are distinct facts; do not collapse them as if they were one variable's levels.",
            )
