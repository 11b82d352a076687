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

# Every text of every figure as the browser laid it out: the corners of its box (the font's advance
# widths by its ascent and descent, as getBBox gives them) carried through its rotation onto the page,
# with the page box of the <svg> that holds it. Rotated labels are quadrilaterals, not rectangles.
MEASURE_TEXT = """<script>
const figures = [...document.querySelectorAll('figure')].map((figure, f) => ({
  figure: f, kind: figure.className,
  texts: [...figure.querySelectorAll('svg text')].map(t => {
    const b = t.getBBox(), m = t.getScreenCTM(), svg = t.ownerSVGElement.getBoundingClientRect();
    const corners = [[b.x, b.y], [b.x + b.width, b.y], [b.x + b.width, b.y + b.height], [b.x, b.y + b.height]]
      .map(([x, y]) => { const p = new DOMPoint(x, y).matrixTransform(m); return [p.x, p.y]; });
    return {text: t.textContent, corners: corners, chars: t.getNumberOfChars(), width: t.getComputedTextLength(),
            svg: [svg.left, svg.top, svg.right, svg.bottom]};
  }),
}));
const out = document.createElement('pre'); out.id = 'measured'; out.textContent = JSON.stringify(figures);
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


def measure(binary: str, tmp_path: Path, page: Path, script: str) -> list:
    """Run ``script`` in ``page`` in headless Chromium and return the JSON it wrote into the DOM."""
    measured = tmp_path / f"measured-{page.stem}.html"
    measured.write_text(page.read_text().replace("</body>", script + "</body>"))
    dom = run_chromium(binary, tmp_path, "--dump-dom", measured.as_uri()).stdout
    found = re.search(r'<pre id="measured">(.*?)</pre>', dom, re.S)
    assert found is not None, dom[-2000:]
    from html import unescape

    return json.loads(unescape(found.group(1)))


def _separated(a: list, b: list, slack: float) -> bool:
    """Whether convex polygons ``a`` and ``b`` are apart by the separating axis theorem (touching by ``slack`` px is apart)."""
    for poly in (a, b):
        for (x0, y0), (x1, y1) in zip(poly, poly[1:] + poly[:1]):
            axis = (y0 - y1, x1 - x0)
            norm = (axis[0] ** 2 + axis[1] ** 2) ** 0.5
            if norm == 0:
                continue
            pa = [(x * axis[0] + y * axis[1]) / norm for x, y in a]
            pb = [(x * axis[0] + y * axis[1]) / norm for x, y in b]
            if max(pa) <= min(pb) + slack or max(pb) <= min(pa) + slack:
                return True
    return False


def text_problems(figures: list) -> list[str]:
    """Every pair of overlapping texts in one figure, and every text that leaves its ``<svg>``."""
    problems = []
    for fig in figures:
        texts = [t for t in fig["texts"] if t["chars"] > 0]
        for i, t in enumerate(texts):
            left, top, right, bottom = t["svg"]
            xs, ys = [x for x, _ in t["corners"]], [y for _, y in t["corners"]]
            if min(xs) < left - 0.5 or max(xs) > right + 0.5 or min(ys) < top - 0.5 or max(ys) > bottom + 0.5:
                problems.append(f"figure {fig['figure']} ({fig['kind']}): {t['text']!r} leaves its svg")
            for u in texts[i + 1 :]:
                if not _separated(t["corners"], u["corners"], slack=0.5):
                    problems.append(f"figure {fig['figure']} ({fig['kind']}): {t['text']!r} overlaps {u['text']!r}")
    return problems


def stress_table() -> pd.DataFrame:
    """The example table with long group and column names, a 40-level column of long values and 7 long classes."""
    frame = pd.read_csv(ROOT / "examples" / "customers.csv")
    prefixes = {
        "plan_": "subscription_plan_chosen_when_the_customer_signed_up_",
        "region_": "customer_home_region_according_to_the_billing_address_",
        "channel_": "acquisition_channel_through_which_the_customer_first_arrived_",
    }
    frame = frame.rename(columns=lambda c: next((p + c[len(k) :] for k, p in prefixes.items() if c.startswith(k)), c))
    rng = np.random.default_rng(0)
    levels = [f"postcode district number {i:02d} of the greater metropolitan area" for i in range(40)]
    frame["postcode_district_of_the_customer_delivery_address"] = rng.choice(levels, len(frame))
    classes = ("alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta")
    frame["segment"] = rng.choice([f"segment {c} with a long descriptive name" for c in classes], len(frame))
    return frame.drop(columns=["churned"])


@pytest.mark.slow
def test_no_two_labels_of_a_figure_overlap_and_none_leaves_its_picture(report, tmp_path):
    """Chromium lays out every figure of the example's report and of a table of long names and many
    classes; the text boxes it measures (rotations included) must not meet, nor cross their <svg>'s edge."""
    binary = chromium()
    stress = nblint.check(stress_table(), target="segment")
    kinds = {f.figure["kind"] for f in stress if f.figure}
    assert kinds == {"group", "contingency", "impact"}  # every kind of picture, with long labels
    problems, counted = [], 0
    for name, r in (("customers", report), ("stress", stress)):
        page = tmp_path / f"{name}.html"
        r.to_html(page)
        figures = measure(binary, tmp_path, page, MEASURE_TEXT)
        counted += sum(len(f["texts"]) for f in figures)
        problems += [f"{name}: {p}" for p in text_problems(figures)]
    assert counted > 300  # the measurement saw the labels
    assert not problems, "\n".join(problems[:40]) + f"\n({len(problems)} in all)"


def test_the_overlap_check_sees_rotated_boxes():
    """The separating-axis check: two parallel rotated strips apart, a crossing pair not, a shared edge apart."""
    square = [[0, 0], [10, 0], [10, 10], [0, 10]]
    assert _separated(square, [[10, 0], [20, 0], [20, 10], [10, 10]], slack=0.5)
    assert not _separated(square, [[5, 5], [15, 5], [15, 15], [5, 15]], slack=0.5)
    strip = [[0, 0], [30, -30], [37, -23], [7, 7]]  # a label rotated -45 degrees
    assert _separated(strip, [[p[0] + 20, p[1]] for p in strip], slack=0.5)
    assert not _separated(strip, [[0, -20], [40, -20], [40, -10], [0, -10]], slack=0.5)  # but not their boxes


def test_long_labels_are_cut_to_what_tells_them_apart_with_the_whole_name_as_tooltip():
    """Members sharing a long stem keep their distinct ends on the picture; the whole names stay in tooltips."""
    from nblint.report import svg

    stem = "acquisition_channel_through_which_the_customer_first_arrived_"
    members = [stem + end for end in ("app", "web", "phone")]
    drawn = svg.matrix(members, members, [[1, 0, 0], [0, 1, 0], [0, 0, 1]], lambda i, j, v: "#fff", "group")
    texts = re.findall(r"<text [^>]*>([^<]*)</text>", drawn)
    assert {"…app", "…web", "…phone"} <= set(texts)
    assert all(f"<title>{m}</title>" in drawn for m in members)
    assert max(svg.text_width(t) for t in texts) <= svg.LABEL
