"""The HTML report: one self-contained page (``--format html``, ``Report.to_html``) and the notebook view.

The page is a table of findings per input, severity in colour, each finding's fix
under its message, and a picture under the findings people would rather look at:

* one-hot, dummy and broken groups (NB101-NB103): the group's co-occurrence matrix
  (each member's ones on the diagonal, rows where two members are both set off it:
  zero everywhere for a clean group) and the histogram of the group's row sums;
* zero-count cells (NB201): the column's contingency table, the zero cells outlined;
* NB401: the paper's Figure 3 for the table (each row's top posterior with the
  group bits read as independent Bernoulli features, against the collapsed model;
  rows whose predicted class flips in red), and the per-group excess and flips.

Everything is inline: CSS in a ``<style>`` element, pictures as SVG
(:mod:`nblint.report.svg`); no script, font, image or link is fetched, so the file opens
offline. Every user string (paths, column names, levels, messages) is escaped.
The same findings give the same bytes.
"""

from __future__ import annotations

from html import escape

from nblint.engine.findings import Finding, Severity
from nblint.report import svg

#: Findings of one input drawn with a picture, at most (the rest are listed without).
MAX_PICTURES = 100
#: Columns named in a finding's row before "... (N columns)".
MAX_COLUMNS = 6

_COLOURS = {
    Severity.ERROR: ("#c53030", "#fff5f5"),
    Severity.WARNING: ("#b7791f", "#fffff0"),
    Severity.INFO: ("#2b6cb0", "#ebf8ff"),
}

#: The findings table's style (the notebook view uses only this).
TABLE_CSS = """
.summary{margin:.2rem 0 1rem;color:#4a5568}
table.nblint{border-collapse:collapse;width:100%;font-size:13px}
table.nblint th{text-align:left;border-bottom:2px solid #cbd5e0;padding:4px 6px}
table.nblint td{border-bottom:1px solid #e2e8f0;padding:4px 6px;vertical-align:top}
.code{font-family:monospace;font-weight:600;white-space:nowrap}.name{color:#718096;font-size:11px}
.sev{display:inline-block;border-radius:3px;padding:0 6px;font-size:11px;font-weight:600;color:#fff}
.cols{font-family:monospace;font-size:12px;min-width:150px;max-width:240px;overflow-wrap:anywhere}
.fix{color:#2f855a;margin-top:3px}.fix::before{content:"Fix: ";font-weight:600}
"""
#: The page's own style, and its pictures'.
CSS = (
    TABLE_CSS
    + """
body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:1.5rem;color:#1a202c;max-width:1200px}
h1{font-size:1.4rem;margin:0 0 .3rem}h2{font-size:1.1rem;margin:1.6rem 0 .4rem;word-break:break-all}
.error-line{color:#c53030;font-family:monospace}
figure{margin:4px 0 8px;display:flex;flex-wrap:wrap;gap:18px;align-items:flex-start}
figcaption{font-size:12px;color:#4a5568;flex-basis:100%}
"""
)


def render_html(result) -> str:
    """A whole run (:class:`~nblint.run.runner.RunResult`) as one self-contained HTML page."""
    from nblint.report.summary import summary_line

    sections = []
    for r in result.files:
        body = [f"<h2>{escape(r.path)}</h2>"]
        if r.error:
            body.append(f'<p class="error-line">{escape(r.error)}</p>')
        elif not r.findings:
            body.append('<p class="summary">No findings.</p>')
        else:
            own = [f for f in r.findings if f.path in (r.path, "")]
            if own:
                body.append(findings_table(own, pictures=True))
            # Findings located in another file: what the table's test table meets (NB6xx), under its name.
            for other in sorted({f.path for f in r.findings} - {r.path, ""}):
                body.append(f"<h3>in its test table {escape(other)}</h3>")
                body.append(findings_table([f for f in r.findings if f.path == other], pictures=True))
        sections.append(f'<section class="input">{"".join(body)}</section>')
    summary = summary_line(result.findings, len(result.files))
    if result.errors:
        summary += f" {len(result.errors)} could not be read."
    return page("nblint report", summary, "".join(sections))


def page(title: str, summary: str, body: str) -> str:
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">'
        f"<title>{escape(title)}</title><style>{CSS}</style></head><body>"
        f'<h1>{escape(title)}</h1><p class="summary">{escape(summary)}</p>{body}</body></html>\n'
    )


def notebook_html(findings: list[Finding], summary: str) -> str:
    """The compact view of :meth:`nblint.api.report.Report._repr_html_`: the table, no pictures."""
    style = f"<style>{TABLE_CSS}</style>"  # the table's rules only, not the page's (a notebook has its own)
    table = findings_table(findings, pictures=False) if findings else ""
    return f'<div class="nblint-report">{style}<p class="summary">{escape(summary)}</p>{table}</div>'


def findings_table(findings: list[Finding], pictures: bool) -> str:
    """One row per finding (code and name, severity, columns, message and fix), pictures in a row below."""
    rows = [
        '<table class="nblint"><thead><tr><th>code</th><th>severity</th><th>columns</th><th>finding</th>'
        "</tr></thead><tbody>"
    ]
    drawn: set[int] = set()
    for f in findings:
        ink, paper = _COLOURS[f.severity]
        where = f" (line {f.line})" if f.line is not None else ""
        fix = f'<div class="fix">{escape(f.fix)}</div>' if f.fix else ""
        rows.append(
            f'<tr class="finding {escape(str(f.severity))}" style="background:{paper}">'
            f'<td><span class="code">{escape(f.code)}</span><br><span class="name">{escape(f.name)}</span></td>'
            f'<td><span class="sev" style="background:{ink}">{escape(str(f.severity))}</span></td>'
            f'<td class="cols">{escape(_columns(f.columns))}</td>'
            f"<td>{escape(f.message)}{escape(where)}{fix}</td></tr>"
        )
        if pictures and f.figure is not None and id(f.figure) not in drawn and len(drawn) < MAX_PICTURES:
            drawn.add(id(f.figure))
            rows.append(f'<tr class="picture"><td></td><td colspan="3">{picture(f)}</td></tr>')
    rows.append("</tbody></table>")
    return "".join(rows)


def _columns(columns: list[str]) -> str:
    shown = ", ".join(columns[:MAX_COLUMNS])
    return shown + (f", ... ({len(columns)} columns)" if len(columns) > MAX_COLUMNS else "")


def picture(f: Finding) -> str:
    """The finding's figure as a ``<figure>`` of SVG charts with a caption."""
    data = f.figure
    assert data is not None  # called for findings with a figure
    draw = {"group": _group, "contingency": _contingency, "impact": _impact}[data["kind"]]
    charts, caption = draw(data)
    return (
        f'<figure class="{escape(data["kind"])}">{"".join(charts)}<figcaption>{escape(caption)}</figcaption></figure>'
    )


def _group(data: dict) -> tuple[list[str], str]:
    members, values, n = data["members"], data["matrix"], max(data["n_rows"], 1)

    def colour(i, j, value):
        if i == j:
            return svg._mix(svg.BLUE, 0.15 + 0.6 * value / n)
        return svg._mix(svg.RED, 0.25 + 0.75 * min(value / n * 20, 1)) if value else "#f0fff4"

    sums = data["row_sums"]
    labels = [k for k in ("0", "1", "2+") if k in sums]
    charts = [
        svg.matrix(members, members, values, colour, "co-occurrence of the group's members"),
        svg.bars(
            [f"sum {k}" for k in labels],
            [("rows", svg.GREEN, [sums[k] for k in labels])],
            "rows by the group's row sum",
            height=90,
        ),
    ]
    overlaps = sum(values[i][j] for i in range(len(members)) for j in range(i + 1, len(members)))
    caption = (
        f"Co-occurrence: ones of each member on the diagonal, rows where two members are both 1 off it "
        f"({overlaps} such pairs of ones); right: rows by how many members are set."
    )
    return charts, caption


def _contingency(data: dict) -> tuple[list[str], str]:
    counts = data["counts"]
    top = max([v for row in counts for v in row] + [1])
    zero = {tuple(cell) for cell in data["zero"]}

    def colour(i, j, value):
        return "#fff5f5" if (i, j) in zero else svg._mix(svg.BLUE, 0.1 + 0.7 * value / top)

    chart = svg.matrix(
        data["levels"],
        [f"class {c}" for c in data["classes"]],
        counts,
        colour,
        f"contingency table of {data['column']}",
        marked=zero,
    )
    shown = (
        ""
        if data["levels_total"] <= len(data["levels"])
        else f" ({len(data['levels'])} of {data['levels_total']} levels shown)"
    )
    return [chart], f"Rows of each value of {data['column']!r} per class; zero cells outlined in red{shown}."


def _impact(data: dict) -> tuple[list[str], str]:
    low = 1.0 / max(data["classes"], 1)
    groups = data["groups"]
    names = [g["group"] for g in groups]
    charts = [
        svg.scatter(
            data["points"],
            low,
            "top posterior per row, bits against collapsed",
            "collapsed (CAT) top posterior",
            "bits (PoB) top posterior",
        ),
        svg.bars(
            names,
            [
                ("mean excess", svg.BLUE, [g["excess_mean"] for g in groups]),
                ("95th pct", "#805ad5", [g["excess_p95"] for g in groups]),
            ],
            "excess confidence per group",
        ),
        svg.bars(
            names, [("rows flipped", svg.RED, [g["flips"] for g in groups])], "share of rows flipped", percent=True
        ),
    ]
    flipped = sum(1 for p in data["points"] if p[2])
    caption = (
        f"Each row's top posterior with every group read as bits (PoB) against collapsed (CAT), "
        f"{len(data['points'])} of {data['rows']} rows drawn, {flipped} whose predicted class flips in red "
        "(Williams' Figure 3); right: per group, only that group read as bits."
    )
    return charts, caption
