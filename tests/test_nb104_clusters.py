"""NB104 reports a cluster of collinear columns once: scikit-learn's breast-cancer table, and VIFs checked by statsmodels."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from nblint.cli import main


def nb104(path) -> list[dict]:
    result = CliRunner().invoke(
        main, ["check", str(path), "--target", "target", "--select", "NB104", "--format", "json"]
    )
    return json.loads(result.stdout)


@pytest.mark.slow
def test_breast_cancer_gets_a_handful_of_clusters_not_one_finding_per_column(tmp_path):
    datasets = pytest.importorskip("sklearn.datasets")
    from statsmodels.stats.outliers_influence import variance_inflation_factor

    frame = datasets.load_breast_cancer(as_frame=True).frame
    frame.to_csv(tmp_path / "bc.csv", index=False)
    findings = nb104(tmp_path / "bc.csv")
    assert 2 <= len(findings) <= 8  # 23 columns are over the threshold
    clustered = [c for f in findings for c in f["columns"]]
    assert len(clustered) == len(set(clustered))  # each column in one finding
    size = next(f for f in findings if "mean radius" in f["columns"])
    assert {"mean radius", "mean perimeter", "mean area"} <= set(size["columns"])
    # the VIFs are statsmodels' (with a constant), and the column to drop first has the highest
    X = np.column_stack([np.ones(len(frame)), frame.drop(columns="target").to_numpy(float)])
    names = ["const", *frame.columns.drop("target")]
    for finding in findings:
        vifs = finding["evidence"]["vifs"]
        for column, value in vifs.items():
            assert value == pytest.approx(
                variance_inflation_factor(X, names.index(column)), rel=1e-4
            )  # (JSON evidence keeps 6 significant digits)
        assert finding["evidence"]["drop_first"] == max(vifs, key=vifs.get)
        assert f"drop '{finding['evidence']['drop_first']}' first" in finding["message"]


def test_the_clusters_do_not_depend_on_column_order(tmp_path):
    datasets = pytest.importorskip("sklearn.datasets")
    frame = datasets.load_breast_cancer(as_frame=True).frame
    frame.to_csv(tmp_path / "a.csv", index=False)
    frame[list(reversed(frame.columns))].to_csv(tmp_path / "b.csv", index=False)
    clusters = [sorted(sorted(f["columns"]) for f in nb104(tmp_path / name)) for name in ("a.csv", "b.csv")]
    assert clusters[0] == clusters[1]
