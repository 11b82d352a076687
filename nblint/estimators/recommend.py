"""The Naive Bayes nblint recommends for a table: one event model per feature, groups collapsed.

Read from the analyses context, never re-inferred here: the column kinds
(:attr:`TableContext.kinds`, where declared kinds win) and the one-hot/dummy
groups (:attr:`TableContext.structure`).  Each group becomes one categorical
feature (the collapsed variable, whose level is the member that is set; for a
dummy group the all-zero rows are the reference level), and every other column
takes the event model of its kind (:data:`nblint.structure.kinds.MODEL_FOR_KIND`), with three
refinements a fitted model needs:

* a count column is a categorical feature when it has at most
  :data:`COUNT_LEVELS` values, else a Gaussian one, not part of a
  multinomial: one multinomial over a table's unrelated counts (ages, weights,
  visits) compares their proportions within each row, which means nothing across
  such columns, and the largest numbers swamp the rest.  On the real-data corpus
  that block made MixedNB's cross-validated log-loss up to 40 times worse
  (``bench/bench_mixednb.py``).  A multinomial is the model for counts of one kind,
  such as words: a sparse ``X``, columns declared ``multinomial``, or count columns on
  one shared 0..H scale (pixel intensities: :func:`nblint.structure.kinds._shared_scale`),
  which together are one multinomial block;
* a binary column whose values are not 0 and 1 (``yes``/``no``, 1/2) is a
  two-level categorical feature, which is exactly a Bernoulli one with the same
  alpha, without asking which value means "on";
* a column with missing values is left out unless it is categorical (a missing
  level gives no evidence), since the Bernoulli, multinomial and Gaussian parts
  cannot take them;
* a code column that carries the same variable as a group (NB105) is left out,
  the group read in its place: reading both counts that variable twice.

:class:`nblint.MixedNB` with ``kinds="auto"`` fits exactly these features, and
``nblint columns --pipeline`` prints them as code (:func:`recommended_kinds`, the
``kinds`` of that MixedNB) that ``nblint impact`` fits for its weights: one model,
whose measurements take the reading MixedNB chooses when it is fitted, and whose
groups carry the names nblint gives them.  The printed code adds two things an
estimator's ``fit`` cannot do for its user: a column NB208 finds deciding the target
is left out (a leak to check before it is trusted; commented with how much it
decides), and a column whose kind is ambiguous says so in a comment beside the
reading it was given.
"""

from __future__ import annotations

from dataclasses import dataclass

#: A count column with at most this many values is read as categorical (each value its own level).
COUNT_LEVELS = 20
#: The printed code's comment on a measurement (``"continuous"`` in :func:`recommended_kinds`).
READING_NOTE = "read normal, log-normal or binned, whichever predicts best held out"


#: Event models one feature of a mixed model can have, in the order they are listed: those of
#: :data:`nblint.core.models.MODELS` but ComplementNB, whose weights are fitted over every feature at once.
FEATURE_MODELS = ("categorical", "bernoulli", "multinomial", "gaussian")


@dataclass(frozen=True)
class Feature:
    """One feature of the mixed model.

    Attributes
    ----------
    model : {"categorical", "bernoulli", "multinomial", "gaussian"}
    columns : tuple of str
        One column, or the members of a group (in table order).
    group : {"one-hot", "dummy"} or None
        For a group collapsed into one categorical feature.
    label : str
        The column's name, or the group's label.
    """

    model: str
    columns: tuple[str, ...]
    group: str | None = None
    label: str = ""


def recommended_features(ctx, leaks_out: bool = False) -> tuple[list[Feature], dict[str, str]]:
    """The features of the recommended model, and the columns left out with why.

    Parameters
    ----------
    ctx : nblint.analysis.context.TableContext
    leaks_out : bool, default False
        Leave out the columns that decide the target (NB208), as the printed code does.

    Returns
    -------
    features : list of Feature
        In table order of each feature's first column.
    left_out : dict
        Column -> reason, in table order.
    """
    from nblint.structure.kinds import shared_scale

    profile = ctx.profile
    order = ctx.source_order
    scale = shared_scale(profile)
    features: list[Feature] = []
    in_group: set[str] = set()
    for group in ctx.structure.groups:
        members = tuple(sorted(group.members, key=order.__getitem__))
        in_group.update(members)
        features.append(Feature("categorical", members, group.kind, group.label))
    left_out = {}
    for column, group in ctx.structure.code_columns.items():
        left_out[column] = f"the same variable as the group {group.label!r} (NB105)"
    if leaks_out:
        for column, deciding in ctx.deciding_columns.items():
            if column not in in_group:
                left_out[column] = (
                    f"gives the class on {deciding.share:.0%} of rows (NB208): a leak unless it is known "
                    "before the label; put it back only then"
                )
    for column in profile.features:
        if column in in_group or column in left_out:
            continue
        kind = ctx.kinds[column]
        model = feature_model(profile, column, kind.kind, kind.model, kind.n_distinct, scale)
        if model is None:
            left_out[column] = kind.kind
            continue
        if profile.n_missing(column) and model != "categorical":
            left_out[column] = "missing values"
            continue
        features.append(Feature(model, (column,), None, column))
    features.sort(key=lambda f: order[f.columns[0]])
    return features, dict(sorted(left_out.items(), key=lambda item: order[item[0]]))


def feature_model(
    profile, column: str, kind: str, model: str | None, n_distinct: float | None, scale: float | None
) -> str | None:
    """The event model a column of kind ``kind`` read by ``model`` gets in the recommended model (None: left out).

    The refinements of this module's docstring: a binary column not coded 0/1 is a
    two-level categorical feature, and a count is one multinomial block only on the
    table's shared scale, otherwise categorical with at most :data:`COUNT_LEVELS`
    values and Gaussian beyond.
    """
    if model == "bernoulli" and not _zero_one(profile, column):
        model = "categorical"
    if model == "multinomial" and not (kind == "count" and _on_scale(profile, column, scale)):
        few = n_distinct is not None and n_distinct <= COUNT_LEVELS
        model = "categorical" if few else "gaussian"
    return model


def _on_scale(profile, column: str, scale: float | None) -> bool:
    """The column is a count on the table's shared 0..H scale (one of a family of pixels, say)."""
    if scale is None or column in profile.text:
        return False
    numeric = profile.numeric
    j = numeric.names.index(column)
    return bool(numeric.minimum[j] == 0 and numeric.maximum[j] <= scale)


def recommended_kinds(features: list[Feature]) -> dict:
    """The ``kinds`` of :class:`nblint.MixedNB` that fits ``features``: what ``columns --pipeline`` prints.

    A group is its tuple of members -> ``"one-hot"`` or ``"dummy"``; a Gaussian
    feature is ``"continuous"``, a measurement whose reading (a normal density, of
    ``log x``, or bins) MixedNB chooses when fitted, as it does for ``kinds="auto"``;
    any other feature its event model.  In the order of ``features``.
    """
    kinds: dict = {}
    for feature in features:
        if feature.group:
            kinds[feature.columns] = feature.group
        else:
            kinds[feature.columns[0]] = "continuous" if feature.model == "gaussian" else feature.model
    return kinds


def recommended_models(ctx) -> dict[str, str]:
    """Column -> the event model of the feature it belongs to in the recommended model ("-": left out).

    What ``nblint columns`` shows in its model column, so that it and ``--pipeline`` agree.
    """
    features, left_out = recommended_features(ctx, leaks_out=True)
    models = {c: f.model for f in features for c in f.columns}
    return {c: models.get(c, "-") for c in ctx.source.names} | dict.fromkeys(left_out, "-")


def _zero_one(profile, column: str) -> bool:
    """Every value of the column is 0 or 1 (a numeric column)."""
    if column in profile.text:
        return False
    numeric = profile.numeric
    return bool(numeric.zero_one[numeric.names.index(column)])


def frame_context(frame, target: str | None = None):
    """The analyses context of an in-memory pandas DataFrame (one thread, default settings).

    Parameters
    ----------
    frame : pandas.DataFrame
        Column names must be strings.
    target : str, optional
        The class column, one of ``frame``'s.
    """
    from nblint.run.config import parse_settings
    from nblint.run.runner import make_context
    from nblint.run.tables import open_table

    settings = parse_settings({"target": target} if target is not None else {})
    return make_context(open_table(frame)[0], settings, jobs=1)


def read_code(path: str, encoding: str = "utf-8", sheet: str | None = None, delimiter: str | None = None) -> str:
    """The pandas call that reads ``path`` as nblint reads it: the same format, delimiter and encoding.

    From :func:`nblint.readers.table_format` (the one suffix-to-format helper), so a
    ``.tab`` or ``.tsv.gz`` gets ``sep='\\t'`` and any name nblint reads as CSV is read
    as CSV here too; an Excel workbook gets ``read_excel`` with its sheet. ``delimiter``
    is the one nblint found in the file, where it differs from what the name says (a
    ``.csv`` written with ``;``).
    """
    from nblint.readers import TableFormat, table_format
    from nblint.readers.excel import is_excel_path

    if is_excel_path(path):
        return f"pd.read_excel({path!r}{'' if sheet is None else f', sheet_name={sheet!r}'})"
    form = table_format(path) or TableFormat("csv")
    if form.kind == "parquet":
        return f"pd.read_parquet({path!r})"
    delimiter = delimiter or form.delimiter
    sep = "" if delimiter == "," else f", sep={delimiter!r}"
    # pandas infers gzip from the .gz suffix, as nblint does
    enc = "" if encoding.lower().replace("_", "-") in ("utf-8", "utf8") else f", encoding={encoding!r}"
    return f"pd.read_csv({path!r}{sep}{enc})"


def pipeline_code(ctx, path: str, encoding: str = "utf-8", sheet: str | None = None) -> str:
    """Python code that builds and fits the recommended model on the table at ``path``.

    :class:`nblint.MixedNB` with every column's kind written out
    (:func:`recommended_kinds`, so the code does not depend on nblint inferring them
    again), even where one scikit-learn class would read every feature: it is the
    model whose weights ``nblint impact`` shows, and its measurements' readings and
    WANBIA weights are what a plain ``GaussianNB`` or ``BernoulliNB`` would lack.
    """
    features, left_out = recommended_features(ctx, leaks_out=True)
    target = ctx.target
    from nblint.readers.csvfile import CsvSource

    found = ctx.source.delimiter if isinstance(ctx.source, CsvSource) else None  # (a ';' file named .csv)
    read = read_code(path, encoding, sheet, found)
    lines = [f"# The Naive Bayes nblint recommends for {path} (nblint columns --pipeline).", "import pandas as pd"]
    lines += [
        "from nblint import MixedNB",
        "",
        f"table = {read}",
        f"X, y = table.drop(columns=[{target!r}]), table[{target!r}]",
        "model = MixedNB(kinds={",
    ]
    guesses = _guesses(ctx, features)
    entries = [(ctx.source_order[f.columns[0]], _kind_line(f, ctx.kinds, guesses)) for f in features]
    entries += [(ctx.source_order[c], f"    {c!r}: 'drop',  # {why}") for c, why in left_out.items()]
    lines += [line for _, line in sorted(entries)]
    lines += ["})", "model.fit(X, y)"]
    return "\n".join(lines) + "\n"


def _guesses(ctx, features: list[Feature]) -> dict[str, str]:
    """Column -> a comment, for the columns whose model is a guess: an ambiguous kind whose
    other reading would give the column another model (a count of five values and five
    categorical codes are both a categorical feature: no guess there)."""
    from nblint.structure.kinds import MODEL_FOR_KIND, shared_scale

    scale = shared_scale(ctx.profile)
    guesses = {}
    for feature in features:
        if feature.group:
            continue
        column = feature.columns[0]
        kind = ctx.kinds[column]
        if not kind.ambiguous or kind.declared:
            continue
        other = feature_model(
            ctx.profile, column, kind.alternative, MODEL_FOR_KIND.get(kind.alternative), kind.n_distinct, scale
        )
        if other != feature.model:
            guesses[column] = (
                f"ambiguous: read as {kind.kind} ({feature.model}); as {kind.alternative} it would be "
                f"{other or 'left out'}: declare its kind ([columns] in the config) to decide"
            )
    return guesses


def _kind_line(feature: Feature, kinds, guesses: dict[str, str]) -> str:
    ((key, declared),) = recommended_kinds([feature]).items()
    if feature.group:
        return f"    {key!r}: {declared!r},  # one categorical feature, not {len(feature.columns)} independent bits"
    kind = kinds[feature.columns[0]]
    notes = []
    if feature.model == "multinomial":
        notes.append("counts on one shared scale: one multinomial block")
    elif kind.kind == "count":
        notes.append("counts, on their own: not one multinomial with unrelated counts")
    if declared == "continuous":
        notes.append(READING_NOTE)
    if feature.columns[0] in guesses:
        notes.append(guesses[feature.columns[0]])
    return f"    {key!r}: {declared!r}," + (f"  # {'; '.join(notes)}" if notes else "")
