"""Group detection from values alone, and VIF against statsmodels (the oracle)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from statsmodels.stats.outliers_influence import variance_inflation_factor
from statsmodels.tools import add_constant
from tables import mixed_table, onehot

import nblint
from nblint import testing


def context(frame, target=None):
    return testing.context(frame, target=target)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 100_000))
def test_groups_found_from_values_with_meaningless_shuffled_names(seed):
    frame, truth = mixed_table(seed)
    structure = context(frame, "target").structure
    assert {frozenset(g.members) for g in structure.onehot} == {frozenset(s) for s in truth["onehot"]}
    assert {frozenset(g.members) for g in structure.dummy} == {frozenset(s) for s in truth["dummy"]}
    assert any(set(cols) == truth["identical"] for cols in structure.identical)


def test_group_members_are_exact_even_with_rare_levels_and_few_rows():
    # 12 rows, a level seen once: chance exclusivity is everywhere, the exact cover is unique.
    codes = np.array([0, 1, 2, 0, 1, 2, 0, 1, 3, 0, 1, 2])
    frame = onehot(codes, 4, ["a", "b", "c", "d"])
    frame["noise"] = [1, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 0]
    groups = context(frame).structure.onehot
    assert [g.members for g in groups] == [["a", "b", "c", "d"]]


def test_names_label_the_variable_but_never_decide():
    rng = np.random.default_rng(1)
    codes = rng.integers(0, 3, 200)
    frame = onehot(codes, 3, ["color_red", "color_green", "color_blue"])
    frame["color_extra"] = (rng.random(200) < 0.5).astype(int)  # same stem, not a member
    (group,) = context(frame).structure.onehot
    assert group.members == ["color_blue", "color_green", "color_red"]  # listed in name order
    assert group.stem == "color"


def test_shuffling_columns_does_not_change_the_groups():
    frame, truth = mixed_table(7)
    for seed in range(3):
        shuffled = frame[np.random.default_rng(seed).permutation(frame.columns)]
        found = {frozenset(g.members) for g in context(shuffled, "target").structure.onehot}
        assert found == {frozenset(s) for s in truth["onehot"]}


def statsmodels_vif(frame: pd.DataFrame) -> dict[str, float]:
    exog = add_constant(frame.to_numpy(dtype=float), has_constant="add")
    return {c: variance_inflation_factor(exog, i + 1) for i, c in enumerate(frame.columns)}


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 100_000), p=st.integers(2, 8))
def test_vif_matches_statsmodels_on_random_tables(seed, p):
    rng = np.random.default_rng(seed)
    n = 50 + 10 * p
    base = rng.normal(size=(n, p)) @ rng.normal(size=(p, p))  # correlated, full rank
    frame = pd.DataFrame(base * rng.uniform(0.1, 1000, p) + rng.normal(0, 100, p), columns=[f"x{i}" for i in range(p)])
    ours = context(frame).vif.vif
    oracle = statsmodels_vif(frame)
    for column, value in oracle.items():
        assert ours[column] == pytest.approx(value, rel=1e-6)


def test_vif_with_a_group_drops_one_level_and_matches_statsmodels_on_what_remains():
    rng = np.random.default_rng(3)
    n = 400
    codes = rng.integers(0, 4, n)
    group = onehot(codes, 4, ["g0", "g1", "g2", "g3"])
    x = rng.normal(size=n) + codes * 0.5  # related to the group, not determined by it
    frame = pd.concat([group, pd.DataFrame({"x": x, "w": rng.normal(size=n)})], axis=1)
    result = context(frame).vif
    assert result.vif["g3"] == float("inf") and result.dropped == {
        "g3": "g"
    }  # g0..g3 and nothing else carry the stem g
    oracle = statsmodels_vif(frame.drop(columns=["g3"]))
    for column in ("g0", "g1", "g2", "x", "w"):
        assert result.vif[column] == pytest.approx(oracle[column], rel=1e-6)


def test_statsmodels_gives_garbage_on_exact_groups_we_report_infinity():
    rng = np.random.default_rng(5)
    frame = onehot(rng.integers(0, 3, 100), 3, ["a", "b", "c"])
    result = context(frame).vif
    assert np.isinf(result.vif["c"])
    assert all(np.isfinite(result.vif[c]) for c in ("a", "b"))


def test_exact_linear_combination_is_found_with_its_coefficients():
    rng = np.random.default_rng(9)
    a, b = rng.normal(size=100), rng.normal(size=100)
    frame = pd.DataFrame({"a": a, "b": b, "total": 2 * a - 3 * b + 5, "other": rng.normal(size=100)})
    report = nblint.check(frame, select=["NB104"])
    (finding,) = report.findings
    assert finding.columns == ["a", "b", "total"]
    assert "total = 2*a - 3*b + 5" in finding.message
    assert finding.evidence["combination"] == {"a": pytest.approx(2.0), "b": pytest.approx(-3.0)}


def test_broken_group_reports_counts_and_example_rows():
    rng = np.random.default_rng(11)
    codes = rng.integers(0, 3, 500)
    frame = onehot(codes, 3, ["k1", "k2", "k3"])
    frame.loc[[9, 99], ["k1", "k2", "k3"]] = 0  # rows 10 and 100 (1-based) sum to 0
    frame.loc[249, ["k1", "k2"]] = 1  # row 250 sums to 2
    (finding,) = nblint.check(frame, select=["NB103"]).findings
    assert finding.columns == ["k1", "k2", "k3"]
    assert finding.rows == [10, 100, 250]
    assert finding.evidence["rows_summing_to_zero"] == 2
    assert finding.evidence["rows_summing_to_two_or_more"] == 1


# --------------------------------------------------------------------------- several valid readings


def _weekday_table(seed: int = 0, n: int = 700) -> tuple[pd.DataFrame, list[str]]:
    """Seven weekday indicators, and beside them 'weekend' (= sat + sun) and a holiday flag."""
    rng = np.random.default_rng(seed)
    day = rng.integers(0, 7, n)
    days = ["wd_mon", "wd_tue", "wd_wed", "wd_thu", "wd_fri", "wd_sat", "wd_sun"]
    frame = onehot(day, 7, days)
    frame["weekend"] = (day >= 5).astype(int)
    holiday = (day < 5) & (rng.random(n) < 0.05)
    frame["holiday"] = holiday.astype(int)
    frame["workingday"] = ((day < 5) & ~holiday).astype(int)
    frame["y"] = rng.integers(0, 2, n)
    return frame, days


def _order_free(value):
    """Evidence with every list of names sorted: members are listed in table order, which permuting changes."""
    if isinstance(value, dict):
        return {k: _order_free(v) for k, v in value.items()}
    if isinstance(value, list):
        items = [_order_free(v) for v in value]
        return sorted(items, key=repr)
    return value


def _findings(frame, target="y", select=("NB101", "NB102", "NB103")):
    import json

    return {
        (f.code, str(f.severity), tuple(sorted(f.columns)), json.dumps(_order_free(f.evidence), sort_keys=True))
        for f in nblint.check(frame, target=target, select=list(select))
    }


def test_of_several_exact_covers_the_named_finer_one_wins_and_the_choice_is_said():
    frame, days = _weekday_table()
    groups = context(frame, "y").structure.onehot
    weekdays = next(g for g in groups if set(g.members) == set(days))
    # {workingday, holiday, weekend} also sums to one on every row, and so do mixes with sat/sun.
    assert weekdays.evidence["ambiguous"] and weekdays.evidence["chosen_by"] == "names share a stem"
    assert any("weekend" in alt for alt in weekdays.evidence["alternatives"])


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_permuting_columns_never_changes_the_findings(seed):
    frame, _ = _weekday_table(seed % 5)
    shuffled = frame[np.random.default_rng(seed).permutation(frame.columns)]
    assert _findings(frame) == _findings(shuffled)


def test_without_names_the_finer_split_wins_whatever_the_column_order():
    rng = np.random.default_rng(4)
    n = 600
    codes = rng.integers(0, 4, n)
    frame = onehot(codes, 4, ["k7", "q2", "m9", "z1"])
    frame["b3"] = frame["k7"] | frame["q2"]  # the union of two levels: {b3, m9, z1} is also exact
    for order in (list(frame.columns), list(reversed(frame.columns))):
        groups = context(frame[order]).structure.onehot
        assert [set(g.members) for g in groups] == [{"k7", "q2", "m9", "z1"}]
        assert groups[0].evidence["chosen_by"] == "more levels (the finer split)"


def test_a_subtype_beside_its_main_type_yields_both_variables():
    rng = np.random.default_rng(8)
    n = 900
    sub = rng.integers(0, 6, n)  # subtypes 0-1 refine main type A, 2-3 B, 4-5 C
    main = sub // 2
    frame = pd.concat(
        [
            onehot(main, 3, ["main_A", "main_B", "main_C"]),
            onehot(sub, 6, ["sub_A1", "sub_A2", "sub_B1", "sub_B2", "sub_C1", "sub_C2"]),
        ],
        axis=1,
    )
    groups = {frozenset(g.members) for g in context(frame).structure.onehot}
    assert groups == {
        frozenset(["main_A", "main_B", "main_C"]),
        frozenset(["sub_A1", "sub_A2", "sub_B1", "sub_B2", "sub_C1", "sub_C2"]),
    }


def test_drop_first_subtype_and_main_type_are_both_found_as_dummy_groups():
    rng = np.random.default_rng(9)
    n = 1200
    sub = rng.integers(0, 6, n)
    main = sub // 2
    frame = pd.concat(
        [
            onehot(main, 3, ["main_A", "main_B", "main_C"]).iloc[:, 1:],
            onehot(sub, 6, ["sub_A1", "sub_A2", "sub_B1", "sub_B2", "sub_C1", "sub_C2"]).iloc[:, 1:],
        ],
        axis=1,
    )
    groups = {frozenset(g.members) for g in context(frame).structure.dummy}
    assert groups == {frozenset(["main_B", "main_C"]), frozenset(["sub_A2", "sub_B1", "sub_B2", "sub_C1", "sub_C2"])}


def test_a_drop_first_group_with_a_rare_reference_level_is_a_dummy_group_not_a_broken_one():
    rng = np.random.default_rng(12)
    n = 2000
    codes = rng.choice(4, n, p=[0.01, 0.33, 0.33, 0.33])  # the reference level on 1% of rows
    frame = onehot(codes, 4, ["r0", "north", "south", "west"]).iloc[:, 1:]
    frame["y"] = rng.integers(0, 2, n)
    structure = context(frame, "y").structure
    assert [set(g.members) for g in structure.dummy] == [{"north", "south", "west"}] and not structure.broken
    assert {f.code for f in nblint.check(frame, target="y")} >= {"NB102", "NB401"}


def test_rare_flags_exclusive_by_chance_do_not_join_a_real_group():
    rng = np.random.default_rng(13)
    n = 400
    codes = rng.integers(0, 4, n)
    frame = onehot(codes, 4, ["g0", "g1", "g2", "g3"]).iloc[:, 1:]  # a dummy group, reference g0
    reference = np.flatnonzero(codes == 0)
    for name, rows in (("promo", reference[:2]), ("recall", reference[5:7])):
        frame[name] = 0
        frame.loc[rows, name] = 1  # exclusive with the group only because they are rare
    dummy = context(frame).structure.dummy
    assert [set(g.members) for g in dummy] == [{"g1", "g2", "g3"}]


@pytest.mark.parametrize("seed", range(5))
def test_an_exact_dependency_names_only_the_columns_in_it(seed):
    """A centred copy beside its column, among large identifier-like columns: the least-squares
    fit gives rounding noise a weight on every identifier, but the dependency is the pair."""
    rng = np.random.default_rng(seed)
    n = 2287
    school = rng.integers(1, 259, n)
    klass = school * 100 + rng.integers(80, 90, n)  # nested identifiers, as in schools data
    frame = pd.DataFrame(
        {
            "iq": rng.normal(11.8, 2.1, n).round(1),
            "school_id": school,
            "class_id": klass,
            "pupil_id": klass * 100 + rng.integers(1, 30, n),
            "hours": rng.gamma(2.0, 3.0, n),
            "y": rng.integers(0, 2, n),
        }
    )
    frame["iq_centred"] = frame["iq"] - frame["iq"].mean()
    exact = [f for f in nblint.check(frame, target="y").findings if f.code == "NB104" and str(f.severity) != "info"]
    assert [sorted(f.columns) for f in exact] == [["iq", "iq_centred"]]
    assert exact[0].evidence["combination"] and len(exact[0].evidence["combination"]) == 1
    # statsmodels agrees that the pair, and only the pair, is degenerate.
    X = add_constant(frame[["iq", "iq_centred", "hours"]].to_numpy())
    assert variance_inflation_factor(X, 1) > 1e10 and variance_inflation_factor(X[:, [0, 3]], 1) < 10


def test_rare_levels_too_rare_each_join_their_group_as_a_batch_beyond_chance():
    """Without names, levels seen on two rows each avoid the other levels' rows by chance (each alone is
    too weak to join), but eight of them avoiding the rest and each other is beyond chance, whatever the
    column order; the flags that are exclusive only because they are rare (the test above) stay out."""
    rng = np.random.default_rng(21)
    sizes = [30, 25, 20] + [2] * 8  # three common levels, eight seen on two rows each
    codes = rng.permutation(np.concatenate([np.full(s, k) for k, s in enumerate(sizes)] + [np.full(6, -1)]))
    names = ["kq", "zt", "mv", "bx", "wh", "pj", "ru", "ey", "fo", "lc", "ds"]
    frame = pd.DataFrame({name: (codes == k).astype(int) for k, name in enumerate(names)})
    frame["size"] = rng.normal(size=len(codes))
    for order in (list(frame.columns), list(reversed(frame.columns))):
        dummy = context(frame[order]).structure.dummy
        assert [set(g.members) for g in dummy] == [set(names)]


def test_a_batch_of_rare_levels_is_picked_from_the_columns_outside_the_set():
    """An event-time variable of a state panel (castle doctrine: 11 periods seen on 14-21 state-years,
    four on 7, 3, 3 and 1), with no other 0/1 column: the four rare levels avoiding the rest and each other
    are beyond chance (e^-7.2), and they are the only columns the batch could have been picked from, so
    the count of batches is C(4, 4), not C(15, 4) as if the eleven strong levels could have been picked."""
    rng = np.random.default_rng(5)
    sizes = [21, 21, 21, 21, 21, 18, 21, 21, 20, 18, 14] + [7, 3, 3, 1]
    n = 550
    codes = rng.permutation(
        np.concatenate([np.full(s, k) for k, s in enumerate(sizes)] + [np.full(n - sum(sizes), -1)])
    )
    names = [f"c{k:02d}" for k in range(len(sizes))]
    frame = pd.DataFrame({name: (codes == k).astype(int) for k, name in enumerate(names)})
    frame["rate"] = rng.normal(size=n)
    for order in (list(frame.columns), list(reversed(frame.columns))):
        dummy = context(frame[order]).structure.dummy
        assert [set(g.members) for g in dummy] == [set(names)]


def test_integer_codes_of_a_column_of_words_recode_it():
    """dd (lifelines): 200 country names beside their numeric country codes, a country on 9 of 1,808 spells
    on average; the codes read as counts (scattered whole numbers), and map one to one onto the names
    (pandas agrees), so the pair is one variable twice (NB105). A number beside its square is two
    features for a count or Gaussian model and is not reported."""
    rng = np.random.default_rng(3)
    codes = rng.choice(np.arange(2, 991), size=200, replace=False)
    country = rng.integers(0, 200, 1808)
    frame = pd.DataFrame(
        {
            "country": [f"country {k}" for k in country],
            "code": codes[country],
            "start": rng.integers(1946, 2008, country.size),
            "y": rng.integers(0, 2, country.size),
        }
    )
    frame["start_sq"] = frame["start"] ** 2
    assert (
        frame.groupby("country")["code"].nunique().max() == 1 and frame.groupby("code")["country"].nunique().max() == 1
    )
    recodes = [f for f in nblint.check(frame, target="y").findings if f.code == "NB105" and "recodes" in f.message]
    assert [sorted(f.columns) for f in recodes] == [["code", "country"]]


@pytest.mark.parametrize("seed", range(3))
def test_nested_columns_are_the_functional_dependencies_pandas_finds_less_the_transitive_ones(seed):
    """Countries within regions within continents, beside a shop type that is no function of
    anything: the nestings reported are the pairs each of whose fine values pandas sees with one
    coarse value, but for countries within continents, which follows from the other two; in any
    column order."""
    rng = np.random.default_rng(seed)
    region_of = rng.integers(0, 8, 40)  # 40 countries in 8 regions
    region_of[:8] = np.arange(8)  # (every region has a country)
    continent_of = np.arange(8) % 3
    country = rng.integers(0, 40, 600)
    frame = pd.DataFrame(
        {
            "country": [f"c{k}" for k in country],
            "region": [f"r{region_of[k]}" for k in country],
            "continent": [f"k{continent_of[region_of[k]]}" for k in country],
            "shop": [f"s{k}" for k in rng.integers(0, 5, country.size)],
            "y": rng.integers(0, 2, country.size),
        }
    )
    columns = ["country", "region", "continent", "shop"]
    functions = {
        (a, b)
        for a in columns
        for b in columns
        if frame[a].nunique() > frame[b].nunique() and frame.groupby(a)[b].nunique().max() == 1
    }
    assert functions == {("country", "region"), ("country", "continent"), ("region", "continent")}
    for order in (columns + ["y"], ["y"] + columns[::-1]):
        nested = {
            (f.evidence["nested"], f.evidence["within"])
            for f in nblint.check(frame[order], target="y").findings
            if f.code == "NB105" and "nested" in f.evidence
        }
        assert nested == functions - {("country", "continent")}


@pytest.mark.parametrize("seed", range(3))
def test_without_names_a_cover_completed_by_a_coarser_column_gives_way_to_the_finer_split(seed):
    """dd, OneHotEncoder(drop='first') and anonymised: five regime columns (pandas' drop-first
    dummies, reference 'civilian') beside the one non-democracy column, which holds the military,
    monarchy and civilian rows.  The non-democracy column with the three democratic regimes sums to
    one on every row, but it completes fine levels with a coarser column: the group is pandas'
    five, a dummy group, in any column order."""
    rng = np.random.default_rng(seed)
    levels = np.array(["civilian", "military", "monarchy", "mixed", "parliamentary", "presidential"])
    regime = pd.Series(levels[rng.choice(6, size=600, p=[0.2, 0.2, 0.1, 0.1, 0.2, 0.2])])
    dummies = pd.get_dummies(regime, drop_first=True, dtype=int)
    names = ["bnuy", "hwex", "tpla", "vfrk", "zmoq"]  # (meaningless, as the anonymised copies' names are)
    frame = dummies.set_axis(names, axis=1)
    frame["gsid"] = regime.isin(["civilian", "military", "monarchy"]).astype(int)
    frame["x"] = rng.normal(size=len(frame))
    frame["y"] = rng.integers(0, 2, len(frame))
    for order in (list(frame.columns), list(reversed(frame.columns))):
        structure = context(frame[order], "y").structure
        assert structure.onehot == []
        assert [sorted(g.members) for g in structure.dummy] == [names]


def test_small_columns_beside_a_large_one_vary_and_their_dependency_is_found():
    """driving (Wooldridge): fractions of the year under each speed limit (0..1, summing to one)
    beside a state's population (millions): a column is constant only when it varies by nothing
    beside its own size, so the fractions' VIFs are statsmodels' and their exact dependency is found."""
    rng = np.random.default_rng(11)
    n = 300
    parts = rng.dirichlet([1.0, 1.0, 1.0], size=n)
    frame = pd.DataFrame(
        {
            "pop": rng.normal(5e6, 1e6, n).round(),
            "sl55": parts[:, 0],
            "sl65": parts[:, 1],
            "sl70": parts[:, 2],
            "rate": rng.uniform(0.0, 1.0, n),
        }
    )
    result = context(frame).vif
    fractions = {"sl55", "sl65", "sl70"}
    [dependent] = [c for c in fractions if np.isinf(result.vif[c])]
    assert set(result.dependencies[dependent]) == fractions - {dependent}
    oracle = statsmodels_vif(frame.drop(columns=[dependent]))
    for column in oracle:
        assert result.vif[column] == pytest.approx(oracle[column], rel=1e-6)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet="ab_ .:=[]-T1\u0663\u00a0\x00\nxé", max_size=8), max_size=20, unique=True))
def test_stem_families_prefilter_keeps_every_name_that_carries_a_stem(names):
    # The one-scan prefilter of stem_families must never drop a name that candidate_stems gives a stem.
    from nblint.structure.families import may_carry_stems
    from nblint.structure.names import candidate_stems

    columns = list(range(len(names)))
    kept = may_carry_stems(names, columns)
    assert kept == sorted(kept)
    assert {i for i in columns if candidate_stems(names[i])} <= set(kept)


@settings(max_examples=300, deadline=None)
@given(
    st.text(alphabet="ab_ .:[T1x\u0663\x00", min_size=1, max_size=3),
    st.lists(st.text(alphabet="ab_ .:=[]-T1x\u0663\u00a0\n\x00", max_size=8), max_size=20),
)
def test_stem_family_counts_the_names_carrying_the_stem(stem, names):
    # The one-scan count over the names joined by NUL is the per-name count of names.stem_family's pattern.
    import re

    from nblint.structure.names import stem_family

    pattern = re.compile(re.escape(stem) + r"(\[T\.|\[|=|_|\.|:|\s|-|\d)")
    expected = sum(1 for n in names if pattern.match(n))
    assert stem_family(stem, names) == expected
    # A tuple's counts are kept by its identity: asked twice, and after another tuple of the same names.
    held = tuple(names)
    assert stem_family(stem, held) == stem_family(stem, held) == stem_family(stem, tuple(names)) == expected
    # Counted up to a bound, the count is the full one capped there, whatever was asked of the tuple before.
    bounded = tuple(names)
    for enough in (2, 1, 3, 0, 5):
        assert stem_family(stem, bounded, enough=enough) == min(expected, enough)
        assert stem_family(stem, list(names), enough=enough) == min(expected, enough)
    assert stem_family(stem, bounded) == expected
    # A tuple asked about many stems has them all counted in one pass: the same counts, bounded or not.
    table = tuple(names)
    for other in ("a", "b", "x", "T", "ab", "a b", "1"):
        stem_family(other, table, enough=1)
    assert stem_family(stem, table) == expected
    for enough in (2, 0, 5):
        assert stem_family(stem, table, enough=enough) == min(expected, enough)


@settings(max_examples=300, deadline=None)
@given(
    st.text(alphabet="ab_ .:[T1x\u0663\u2003\x00", min_size=1, max_size=3),
    st.text(alphabet="ab_ .:=[]-T1x\u0663\u00a0\u2003\u00b2\n\x00", max_size=8),
)
def test_a_name_carries_a_stem_as_the_family_pattern_reads_it(stem, name):
    # One character tested instead of a pattern compiled per stem: the same answer, Unicode spaces and digits too.
    import re

    from nblint.structure.names import carries

    pattern = re.compile(re.escape(stem) + r"(\[T\.|\[|=|_|\.|:|\s|-|\d)")
    assert carries(name, stem) == bool(pattern.match(name))
    assert carries(stem + name, stem) == bool(pattern.match(stem + name))
