"""The HTML report: one self-contained page with pictures, escaped user strings, checked in a real browser."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

import nblint
from nblint.cli import main

ROOT = Path(__file__).resolve().parent.parent
EVIL = '<script>alert("plan")</script>'


@pytest.fixture(scope="module")
def table() -> pd.DataFrame:
    """The example table with a column name that is markup, and a level seen with one class only 3 times."""
    frame = pd.read_csv(ROOT / "examples" / "customers.csv").rename(columns={"plan_team": EVIL})
    weather = np.where(np.arange(len(frame)) % 2 == 0, "sun", "rain").astype(object)
    churned = np.flatnonzero(frame["churned"].to_numpy() == "yes")[:3]
    weather[churned] = "snow"
    frame["weather"] = weather
    return frame


@pytest.fixture(scope="module")
def report(table):
    return nblint.check(table, target="churned")


def test_pictures_for_groups_zero_cells_and_impact(report):
    html = report.to_html()
    kinds = re.findall(r'<figure class="(\w+)"', html)
    assert kinds.count("group") == len([f for f in report if f.code in ("NB101", "NB102", "NB103")]) == 3
    assert kinds.count("impact") == 1  # the table's Figure 3, once, whatever the number of groups
    zero = [f for f in report if f.code == "NB201" and f.columns == ["weather"]]
    assert len(zero) == 1 and kinds.count("contingency") == len([f for f in report if f.code == "NB201"])
    figure = zero[0].figure
    marked = [(figure["levels"][i], figure["classes"][c]) for i, c in figure["zero"]]
    assert marked == [("snow", "no")]  # the cell the finding names, outlined in its table
    assert figure["counts"][figure["levels"].index("snow")] == [0, 3]


def test_user_strings_are_escaped_and_nothing_is_fetched(report):
    html = report.to_html()
    assert "<script" not in html.lower()  # the column name is text, and the page has no script of its own
    assert escape_text(EVIL) in html
    for fetch in ("http:", "https:", "<link", " src=", "url(", "@import", "<iframe", "<img"):
        assert fetch not in html.lower(), fetch


def escape_text(text: str) -> str:
    from html import escape

    return escape(text)


def test_the_json_of_the_findings_does_not_carry_the_pictures(report):
    assert "figure" not in report.to_json() and all("figure" not in f.to_dict() for f in report)


def test_notebook_view_is_a_compact_table_with_colours_and_fixes(table):
    report = nblint.check(table, target="churned", model="bernoulli")  # a declared model: errors and warnings
    view = report._repr_html_()
    assert view.count('<tr class="finding') == len(report) and "<svg" not in view
    assert "#c53030" in view and "#b7791f" in view  # error and warning colours
    assert all(escape_text(f.fix) in view for f in report if f.fix)
    assert escape_text(EVIL) in view and "<script" not in view.lower()


def test_cli_html_output_and_to_html_write_the_same_page(tmp_path, monkeypatch, table):
    path = tmp_path / "customers.csv"
    table.to_csv(path, index=False)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(
        main, ["check", "customers.csv", "--target", "churned", "--format", "html", "-o", "r.html"]
    )
    assert result.exit_code == 1
    page = (tmp_path / "r.html").read_text()
    api = nblint.check(pd.read_csv(path), target="churned").to_html(tmp_path / "api.html")
    assert (tmp_path / "api.html").read_text() == api
    assert page == api.replace("&lt;dataframe&gt;", "customers.csv")  # same findings, same bytes
    assert page.startswith("<!DOCTYPE html>") and "Found " in page


# --------------------------------------------------------------------------- in a real browser

MEASURE = """<script>
const sizes = [...document.querySelectorAll('figure svg')].map(s => {
  const r = s.getBoundingClientRect();
  return {figure: s.closest('figure').className, width: r.width, height: r.height,
          marks: s.querySelectorAll('circle, rect').length};
});
const out = document.createElement('pre'); out.id = 'measured'; out.textContent = JSON.stringify(sizes);
document.body.appendChild(out);
</script>"""


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed, and CI must run the browser test (.ci/run installs it)")
        pytest.skip("chromium is not installed (apt-get install -y chromium)")
    return found


def run_chromium(binary: str, tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    flags = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        f"--user-data-dir={tmp_path / 'profile'}",
    ]
    return subprocess.run([binary, *flags, *args], capture_output=True, text=True, timeout=120, check=True)


@pytest.mark.slow
def test_the_page_draws_its_pictures_in_chromium(report, tmp_path):
    binary = chromium()
    page = tmp_path / "report.html"
    report.to_html(page)
    measured = tmp_path / "measured.html"
    measured.write_text(page.read_text().replace("</body>", MEASURE + "</body>"))
    dom = run_chromium(binary, tmp_path, "--dump-dom", measured.as_uri()).stdout
    sizes = json.loads(re.search(r'<pre id="measured">(.*?)</pre>', dom, re.S).group(1).replace("&quot;", '"'))
    kinds = {s["figure"] for s in sizes}
    assert kinds == {"group", "contingency", "impact"}
    assert all(s["width"] > 100 and s["height"] > 80 and s["marks"] > 0 for s in sizes), sizes
    scatter = max((s for s in sizes if s["figure"] == "impact"), key=lambda s: s["marks"])
    assert scatter["marks"] > 300  # every row of the 400 drawn as a point

    shot = tmp_path / "report.png"
    run_chromium(binary, tmp_path, f"--screenshot={shot}", "--window-size=1280,2600", page.as_uri())
    import matplotlib.image

    pixels = matplotlib.image.imread(shot)[..., :3]
    assert pixels.shape[:2] == (2600, 1280)
    assert pixels.std() > 0.05  # not a blank page
    red = (pixels[..., 0] > 0.7) & (pixels[..., 1] < 0.35) & (pixels[..., 2] < 0.35)
    blue = (pixels[..., 2] > 0.6) & (pixels[..., 0] < 0.35)
    assert red.sum() > 200 and blue.sum() > 200  # flipped rows and zero cells in red, the other rows in blue
