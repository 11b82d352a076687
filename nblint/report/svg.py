"""Small inline SVG charts for the HTML report: a matrix of cells, bars, and a scatter plot.

Each function returns one ``<svg>`` element as text, sized in pixels, with every
label escaped (column names and levels are user data). No fonts, scripts or
links: the pictures draw in any browser with no network. Coordinates are
rounded to a tenth of a pixel so the same data gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Set
from html import escape

FONT = "font-family:system-ui,-apple-system,'Segoe UI',sans-serif;font-size:11px"
BLUE, RED, GREEN, GREY, INK = "#2b6cb0", "#c53030", "#2f855a", "#a0aec0", "#1a202c"


def _n(x: float) -> str:
    text = f"{x:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _svg(width: float, height: float, body: list[str], label: str) -> str:
    return (
        f'<svg width="{_n(width)}" height="{_n(height)}" '
        f'viewBox="0 0 {_n(width)} {_n(height)}" role="img" aria-label="{escape(label)}" style="{FONT}">'
        f"<title>{escape(label)}</title>{''.join(body)}</svg>"
    )


def _text(
    x: float,
    y: float,
    text: str,
    anchor: str = "start",
    rotate: float | None = None,
    fill: str = INK,
    weight: str | None = None,
) -> str:
    transform = f' transform="rotate({_n(rotate)} {_n(x)} {_n(y)})"' if rotate is not None else ""
    bold = f' font-weight="{weight}"' if weight else ""
    return f'<text x="{_n(x)}" y="{_n(y)}" text-anchor="{anchor}" fill="{fill}"{bold}{transform}>{escape(text)}</text>'


def _short(text: str, limit: int = 18) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _mix(color: str, share: float) -> str:
    """``color`` faded towards white: ``share`` 0 is white, 1 the colour itself."""
    share = max(0.0, min(1.0, share))
    r, g, b = (int(color[i : i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{round(255 - (255 - c) * share):02x}" for c in (r, g, b))


def matrix(
    rows: list[str],
    columns: list[str],
    values: list[list[float]],
    color,
    label: str,
    marked: Set[tuple[int, int]] = frozenset(),
    cell: int = 26,
    show_values: bool = True,
) -> str:
    """A grid of cells, ``values[i][j]`` at row i, column j, filled by ``color(i, j, value)``.

    ``marked`` cells get a thick red outline (a zero cell in its table).
    """
    longest = max([len(_short(c)) for c in columns] + [1])
    left = 8 + 6.5 * max([len(_short(r)) for r in rows] + [1])
    top = 8 + 5.2 * longest
    # (column labels lean right, by about cos 50 degrees of their length past their cell)
    width, height = left + cell * len(columns) + 8 + 4.3 * longest, top + cell * len(rows) + 8
    body = []
    for j, name in enumerate(columns):
        body.append(_text(left + cell * j + cell / 2 + 4, top - 6, _short(name), rotate=-50))
    for i, name in enumerate(rows):
        body.append(_text(left - 6, top + cell * i + cell / 2 + 4, _short(name), anchor="end"))
        for j, value in enumerate(values[i]):
            x, y = left + cell * j, top + cell * i
            body.append(
                f'<rect x="{_n(x)}" y="{_n(y)}" width="{cell}" height="{cell}" fill="{color(i, j, value)}" '
                f'stroke="#e2e8f0"><title>{escape(f"{name} / {columns[j]}: {value:g}")}</title></rect>'
            )
            if show_values:
                body.append(_text(x + cell / 2, y + cell / 2 + 4, _compact(value), anchor="middle"))
    for i, j in sorted(marked):
        body.append(
            f'<rect class="marked" x="{_n(left + cell * j + 1.5)}" y="{_n(top + cell * i + 1.5)}" '
            f'width="{cell - 3}" height="{cell - 3}" fill="none" stroke="{RED}" stroke-width="3"/>'
        )
    return _svg(width, height, body, label)


def _compact(value: float) -> str:
    if abs(value) >= 10_000:
        return f"{value / 1000:.0f}k"
    return f"{value:g}"


def bars(
    labels: list[str], series: list[tuple[str, str, list[float]]], label: str, percent: bool = False, height: int = 150
) -> str:
    """Grouped vertical bars: ``series`` is ``(name, colour, values)``, one value per label; a zero line."""
    values = [v for _, _, vs in series for v in vs] + [0.0]
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    group = max(14 * len(series) + 18, 48)
    left, top, bottom = 44, 22, 46
    width = left + group * len(labels) + 12
    total = top + height + bottom

    def y(v: float) -> float:
        return top + height * (high - v) / span

    body = [f'<line x1="{left}" x2="{_n(width - 8)}" y1="{_n(y(0))}" y2="{_n(y(0))}" stroke="{GREY}"/>']
    if len(series) > 1:  # (one series writes each value on its bar instead)
        body.append(_text(left - 4, y(high) + 4, _fmt(high, percent), anchor="end"))
    if low < 0:
        body.append(_text(left - 4, y(low) + 4, _fmt(low, percent), anchor="end"))
    for k, (name, colour, vs) in enumerate(series):
        body.append(f'<rect x="{_n(left + 90 * k)}" y="4" width="10" height="10" fill="{colour}"/>')
        body.append(_text(left + 90 * k + 14, 13, name))
        for i, v in enumerate(vs):
            x = left + group * i + 9 + 14 * k
            y0, y1 = sorted((y(0), y(v)))
            body.append(
                f'<rect x="{_n(x)}" y="{_n(y0)}" width="12" height="{_n(max(y1 - y0, 0.5))}" fill="{colour}">'
                f"<title>{escape(f'{labels[i]}, {name}: {_fmt(v, percent)}')}</title></rect>"
            )
            if len(series) == 1:  # one value per label: write it on its bar
                body.append(_text(x + 6, (y0 - 3) if v >= 0 else (y1 + 11), _fmt(v, percent), anchor="middle"))
    for i, text in enumerate(labels):
        body.append(_text(left + group * i + group / 2, top + height + 14, _short(text, 14), anchor="middle"))
    return _svg(width, total, body, label)


def _fmt(v: float, percent: bool) -> str:
    return f"{v:.1%}" if percent else f"{v:+.3f}" if abs(v) < 1 else f"{v:,.0f}"


def scatter(points: list[list[float]], low: float, label: str, x_title: str, y_title: str, size: int = 300) -> str:
    """Points ``[x, y, flagged]`` on ``[low, 1]`` squared, flagged ones red and drawn last, with the diagonal."""
    left, top, pad = 46, 10, 40
    span = (1.0 - low) or 1.0

    def px(v: float) -> float:
        return left + size * (v - low) / span

    def py(v: float) -> float:
        return top + size * (1.0 - v) / span

    body = [
        f'<rect x="{left}" y="{top}" width="{size}" height="{size}" fill="#f7fafc" stroke="{GREY}"/>',
        f'<line x1="{_n(px(low))}" y1="{_n(py(low))}" x2="{_n(px(1))}" y2="{_n(py(1))}" stroke="{GREY}" '
        'stroke-dasharray="4 3"/>',
    ]
    for v in (low, (low + 1) / 2, 1.0):
        body.append(_text(px(v), top + size + 14, f"{v:.2f}", anchor="middle"))
        body.append(_text(left - 4, py(v) + 4, f"{v:.2f}", anchor="end"))
    body.append(_text(left + size / 2, top + size + 30, x_title, anchor="middle"))
    body.append(_text(12, top + size / 2, y_title, anchor="middle", rotate=-90))
    for flag, colour, radius in ((0, BLUE, 2.2), (1, RED, 3.2)):
        body.extend(
            f'<circle cx="{_n(px(x))}" cy="{_n(py(y))}" r="{radius}" fill="{colour}" fill-opacity="0.6"/>'
            for x, y, f in points
            if int(f) == flag
        )
    return _svg(left + size + 12, top + size + pad, body, label)
