"""Render the impact measurement of ``nblint impact``: its table, its JSON and its plot.

The input is an :class:`~nblint.impact.ImpactResult` (NB401's measurement in
full); the findings' renderers are in :mod:`nblint.report.formats`.
"""

from __future__ import annotations


def render_impact_text(result, path: str) -> str:
    """The full impact table (:class:`~nblint.impact.ImpactResult`): one line per group and one for all groups."""
    header = (
        f"{'group':<16} {'K':>3} {'rows':>7} {'flips':>7} {'more conf.':>10} {'excess':>8} {'p95':>7}  "
        f"{'log-loss CAT/PoB (in | cv)':<31} {'accuracy CAT/PoB (cv)':<21}"
    )
    lines = [
        f"{path}: impact of reading one-hot/dummy groups as independent bits "
        f"(alpha={result.settings.alpha:g}, {result.settings.folds}-fold cv, seed {result.settings.seed})",
        header,
    ]
    for row in result.groups + [dict(result.table, group="all groups", levels=None)]:
        cat, pob = row["cat"], row["pob"]
        k = "" if row.get("levels") is None else str(row["levels"])
        lines.append(
            f"{row['group'][:16]:<16} {k:>3} {row['rows']:>7} {row['map_differs_share']:>7.2%} "
            f"{row['pob_more_confident_share']:>10.1%} {row['excess_mean']:>+8.4f} {row['excess_p95']:>+7.3f}  "
            f"{_impact_pair(cat['in_sample']['log_loss'], pob['in_sample']['log_loss'])} | "
            f"{_impact_pair(cat['cross_validated']['log_loss'], pob['cross_validated']['log_loss'])}  "
            f"{cat['cross_validated']['accuracy']:.1%}/{pob['cross_validated']['accuracy']:.1%}"
        )
    lines.append(
        "flips: rows whose predicted class differs; more conf.: rows where the bits model's top posterior is higher;"
    )
    lines.append(
        "excess: that top posterior minus the collapsed model's (mean, 95th percentile). Each group row reads only"
    )
    lines.append("that group as bits; 'all groups' reads every group as bits.")
    lines += [f"note: {note}" for note in result.notes]
    return "\n".join(lines) + "\n"


def _impact_pair(a, b) -> str:
    if a is None or b is None:
        return f"{'-':>13}"
    return f"{a:.4f}/{b:.4f}"


def impact_json(result, path: str, weights: dict | None = None, with_weights: bool = False) -> dict:
    """The impact result as plain JSON data.

    ``result`` may be ``None`` (no group to measure: ``groups`` is empty).  With
    ``with_weights``, ``weights`` (:func:`nblint.estimators.explain.explain_weights`'s
    answer) is added under ``"weights"``.
    """
    from nblint.engine.rule import jsonable

    if result is None:
        data: dict = {"path": path, "groups": [], "note": "no one-hot or dummy groups found: nothing to measure"}
    else:
        data = {
            "path": path,
            "alpha": result.settings.alpha,
            "folds": result.settings.folds,
            "seed": result.settings.seed,
            "table": result.table,
            "groups": result.groups,
            "left_out": result.design.left_out,
        }
        if result.design.terms:
            data["terms"] = {"words": len(result.design.terms), "read_as": result.design.term_model}
    if with_weights:
        data["weights"] = weights
    return jsonable(data)


def plot_impact(result, path: str, title: str) -> None:
    """Draw the paper's Figure 3 for this table and the per-group excess, to a PNG.

    Left: each row's maximum posterior under PoB (all groups as bits) against CAT,
    rows whose predicted class flips in red. Right: per group, the mean and 95th
    percentile of the excess confidence and the share of flipped rows.

    Raises
    ------
    ImportError
        When matplotlib is not installed (``pip install "naive-bayes-lint[plot]"``).
    """
    import matplotlib
    import numpy as np

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    points = result.plot_points
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 5), gridspec_kw={"width_ratios": [1, 1.2]})
    same, flipped = points[points[:, 2] == 0], points[points[:, 2] == 1]
    left.scatter(same[:, 0], same[:, 1], s=6, alpha=0.5, color="tab:blue", label="same MAP class")
    left.scatter(flipped[:, 0], flipped[:, 1], s=14, alpha=0.9, color="tab:red", label="MAP class differs")
    lo = 1.0 / max(len(result.design.classes), 1)  # a maximum posterior is at least 1/C
    left.plot([lo, 1], [lo, 1], color="grey", lw=1, ls="--")
    left.set_xlim(lo - 0.02, 1.01)
    left.set_ylim(lo - 0.02, 1.01)
    left.set_xlabel("max posterior, categorical model (CAT)")
    left.set_ylabel("max posterior, product of Bernoullis (PoB)")
    left.set_title("each row (all groups as bits)")
    left.legend(loc="lower right", fontsize=8)
    names = [g["group"] for g in result.groups]
    x = np.arange(len(names))
    right.bar(x - 0.2, [g["excess_mean"] for g in result.groups], width=0.4, label="mean excess")
    right.bar(x + 0.2, [g["excess_p95"] for g in result.groups], width=0.4, label="95th percentile")
    right.plot(x, [g["map_differs_share"] for g in result.groups], "o", color="tab:red", label="share of rows flipped")
    right.axhline(0, color="grey", lw=1)
    right.set_xticks(x, names, rotation=30, ha="right")
    right.set_title("per group (only that group as bits)")
    right.legend(fontsize=8)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def render_weights_text(weights: dict) -> str:
    """The weights section of ``nblint impact``: one line per feature of the recommended MixedNB, sorted by name.

    ``weights`` is :func:`nblint.estimators.explain.explain_weights`'s answer.
    """
    from nblint.estimators import explain

    lines = [
        "",
        f"weights of the recommended MixedNB (nblint columns --pipeline; WANBIA, fitted on {weights['rows']} rows): "
        f"'*' marks a weight below {explain.DISCOUNTED:g}, a feature counted as less than one",
    ]
    if weights["note"]:
        return "\n".join(lines + [f"not measured: {weights['note']}"]) + "\n"
    width = max([len("feature")] + [len(r["feature"]) for r in weights["features"]])
    lines.append(f"  {'feature':<{width}} {'model':<11} {'weight':>6}  why")
    for r in weights["features"]:
        mark = "*" if r["discounted"] else " "
        lines.append(f"{mark} {r['feature']:<{width}} {r['model']:<11} {r['weight']:>6.2f}  {r['why']}")
    lines.append(
        "shares evidence: the correlation over rows of two features' class-centred log-likelihoods (cross-fitted); "
        "cost: the conditional log-likelihood per row (of cross-fitted log-likelihoods) lost if that weight alone were 1; "
        "reading scores: held-out conditional log-likelihood per row of each reading of a measurement."
    )
    lines += [f"left out: {column} ({why})" for column, why in sorted(weights["left_out"].items())]
    return "\n".join(lines) + "\n"


def render_heldout_text(result, test_path: str) -> str:
    """``nblint impact --test``: each model's test-set log-loss and accuracy, and the rows the findings touch.

    ``result`` is a :class:`~nblint.impact.heldout.HeldOutResult`.
    """
    from nblint.report.summary import plural

    lines = [
        f"{test_path}: the models fitted on the training table, scored on the test table "
        f"({result.scored_rows} of {result.test_rows} test rows scored)"
    ]
    if result.models:
        lines.append(f"{'model':<12} {'fitted':<32} {'rows':>7} {'log-loss':>9} {'accuracy':>9}")
    for score in result.models:
        loss = "-" if score.log_loss is None else f"{score.log_loss:.4f}"
        accuracy = "-" if score.accuracy is None else f"{score.accuracy:.1%}"
        lines.append(f"{score.name:<12} {score.model[:32]:<32} {score.rows:>7} {loss:>9} {accuracy:>9}")
    touched = result.touched
    if touched["findings"]:
        bound = (
            f"{touched['at_least']}"
            if touched["at_least"] == touched["at_most"]
            else f"between {touched['at_least']} and {touched['at_most']}"
        )
        lines.append(f"test rows the train/test findings touch: {bound} of {result.test_rows}")
        for item in touched["findings"]:
            where = f" ({', '.join(item['columns'][:3])})" if item["columns"] else ""
            lines.append(f"  {item['code']}{where}: {plural(item['rows'], 'row')}")
    else:
        lines.append("test rows the train/test findings touch: 0 (no train/test finding counts rows)")
    lines += [f"note: {score.name}: {score.note}" for score in result.models if score.note]
    lines += [f"note: {note}" for note in result.notes]
    return "\n".join(lines) + "\n"


def heldout_json(result, test_path: str) -> dict:
    """The test-table measurement (:class:`~nblint.impact.heldout.HeldOutResult`) as plain JSON data."""
    import dataclasses

    from nblint.engine.rule import jsonable

    data = {"path": test_path, **dataclasses.asdict(result)}
    return jsonable(data)
