"""Small inline SVG charts for the HTML report: a matrix of cells, bars, and a scatter plot.

Each function returns one ``<svg>`` element as text, sized in pixels, with every
label escaped (column names and levels are user data). No fonts, scripts or
links: the pictures draw in any browser with no network. Coordinates are
rounded to a tenth of a pixel so the same data gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Set
from html import escape
from os.path import commonprefix
from unicodedata import east_asian_width

SIZE = 11
FONT = f"font-family:system-ui,-apple-system,'Segoe UI',sans-serif;font-size:{SIZE}px"
BLUE, RED, GREEN, GREY, INK = "#2b6cb0", "#c53030", "#2f855a", "#a0aec0", "#1a202c"
#: A text's box above and below its baseline, in pixels: a font's ascent and descent, rounded up
#: (system fonts reach 0.93 and 0.24 em; the browser's box of a text is their sum by its advance widths).
ASCENT, DESCENT = 1.0 * SIZE, 0.3 * SIZE
#: Longest label drawn, in pixels; a longer one is cut with an ellipsis, its whole text in a tooltip.
LABEL = 130.0

# Advance widths in em, rounded up from the widest of the common sans-serif faces (DejaVu Sans, which
# system-ui falls back to on Linux, is wider than Segoe UI, Helvetica or Liberation Sans): the pictures
# are laid out before any browser measures them, so an estimate must never be short.
_NARROW = dict.fromkeys("ijl.,:;'!|` ", 0.34) | dict.fromkeys('ftr()[]{}-"/', 0.42)
_WIDE = dict.fromkeys("mwMW%@…", 1.0) | dict.fromkeys("+=<>~#&", 0.86)
_UPPER = 0.8
_OTHER = 0.66


def _em(char: str) -> float:
    if char in _NARROW:
        return _NARROW[char]
    if char in _WIDE:
        return _WIDE[char]
    if char.isascii():
        return _UPPER if char.isupper() else _OTHER
    return 1.0 if east_asian_width(char) in ("W", "F") else 0.8  # (accents, other scripts)


def text_width(text: str, size: float = SIZE) -> float:
    """Estimated width of ``text`` in pixels at ``size`` px, from its characters: never less than a browser draws."""
    return size * sum(_em(c) for c in text)


def fit(text: str, room: float = LABEL) -> str:
    """``text`` cut to at most ``room`` pixels wide, an ellipsis at the end when it was cut."""
    if text_width(text) <= room:
        return text
    kept = text
    while kept and text_width(kept + "…") > room:
        kept = kept[:-1]
    return kept + "…"


def fit_all(texts: list[str], room: float = LABEL) -> list[str]:
    """:func:`fit` for labels read together: when one is too wide, their shared leading words are
    replaced by an ellipsis first, so the parts that tell them apart stay on the picture."""
    if len(texts) < 2 or all(text_width(t) <= room for t in texts):
        return [fit(t, room) for t in texts]
    shared = commonprefix(texts)
    cut = max(shared.rfind(sep) for sep in " _-./") + 1  # whole words only
    if cut < 4 or any(len(t) <= cut for t in texts):
        return [fit(t, room) for t in texts]
    return [fit("…" + t[cut:], room) for t in texts]


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
    whole: str | None = None,
) -> str:
    """A ``<text>``; when ``whole`` is given and differs from ``text`` (a cut label) it is the tooltip."""
    transform = f' transform="rotate({_n(rotate)} {_n(x)} {_n(y)})"' if rotate is not None else ""
    bold = f' font-weight="{weight}"' if weight else ""
    element = (
        f'<text x="{_n(x)}" y="{_n(y)}" text-anchor="{anchor}" fill="{fill}"{bold}{transform}>{escape(text)}</text>'
    )
    if whole is None or whole == text:
        return element
    return f"<g><title>{escape(whole)}</title>{element}</g>"


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

    ``marked`` cells get a thick red outline (a zero cell in its table). Row labels stand
    left of the grid, column labels lean over it at 50 degrees; both are cut to
    :data:`LABEL` pixels (the whole name in a tooltip), and the margins are their
    estimated extents, so no label leaves the picture.
    """
    row_text, col_text = fit_all(rows), fit_all(columns)
    shown = [[_compact(v) for v in row] for row in values]
    if show_values:  # a cell holds its number with 3 px either side
        cell = max([cell] + [round(text_width(t)) + 6 for row in shown for t in row])
    left = 8 + max([text_width(r) for r in row_text] + [0.0]) + 6
    # A label turned -50 degrees about its foot rises sin 50 of its width (plus cos 50 of the ascent) above
    # it and reaches cos 50 of its width (plus sin 50 of the descent) right of it; neighbours are parallel
    # strips cell * sin 50 = 20 px apart, wider than a line of text.
    cos, sin = 0.643, 0.766
    col_width = [text_width(c) for c in col_text]
    top = 6 + max([sin * w + cos * ASCENT for w in col_width] + [0.0]) + 4

    def foot(j: int) -> float:
        return left + cell * j + cell / 2 + 4

    reach = max([foot(j) + cos * w + sin * DESCENT for j, w in enumerate(col_width)] + [0.0])
    width, height = max(left + cell * len(columns), reach) + 8, top + cell * len(rows) + 8
    body = []
    for j, name in enumerate(columns):
        body.append(_text(foot(j), top - 6, col_text[j], rotate=-50, whole=name))
    for i, name in enumerate(rows):
        body.append(_text(left - 6, top + cell * i + cell / 2 + 4, row_text[i], anchor="end", whole=name))
        for j, value in enumerate(values[i]):
            x, y = left + cell * j, top + cell * i
            body.append(
                f'<rect x="{_n(x)}" y="{_n(y)}" width="{cell}" height="{cell}" fill="{color(i, j, value)}" '
                f'stroke="#e2e8f0"><title>{escape(f"{name} / {columns[j]}: {value:g}")}</title></rect>'
            )
            if show_values:
                body.append(_text(x + cell / 2, y + cell / 2 + 4, shown[i][j], anchor="middle"))
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
    """Grouped vertical bars: ``series`` is ``(name, colour, values)``, one value per label; a zero line.

    The legend takes the first line; one series writes each value on its bar, in a line of
    its own above the highest bar (below the lowest when negative). Each group of bars is
    wide enough for its value; a label wider than its group is turned -45 degrees (cut to
    :data:`LABEL` pixels, the whole in a tooltip) and the bottom margin grows to hold it.
    """
    values = [v for _, _, vs in series for v in vs] + [0.0]
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    one = len(series) == 1
    line = ASCENT + DESCENT
    written = [_fmt(v, percent) for v in series[0][2]] if one else []
    group = max([14 * len(series) + 18, 48] + [text_width(t) + 8 for t in written])
    axis = ([] if one else [_fmt(high, percent)]) + ([_fmt(low, percent)] if low < 0 else [])
    names = fit_all(labels)
    widths = [text_width(t) for t in names]
    turned = any(w + 6 > group for w in widths)
    diagonal = 0.707
    # left: the axis values, and the first label when it is turned (it reaches down and left of its foot)
    left = max([44.0] + [8 + text_width(t) + 4 for t in axis])
    if turned and widths:
        left = max(left, 4 + diagonal * (widths[0] + ASCENT) - group / 2)
    legend = 4 + line  # a swatch and name per series, on one line
    top = legend + 6 + (line if one else ASCENT / 2)  # room for a value above the highest bar, or the axis value
    plot_bottom = top + height + (line + 2 if one and low < 0 else 0)  # a value below the lowest bar
    if turned:
        foot = plot_bottom + 8 + diagonal * ASCENT
        total = foot + diagonal * (max(widths) + DESCENT) + 6
    else:
        foot = plot_bottom + 4 + ASCENT
        total = foot + DESCENT + 6
    entries, x = [], left
    for name, colour, _ in series:
        entries.append((x, name, colour))
        x += 14 + text_width(name) + 14
    width = max(left + group * len(labels) + 12, x)

    def y(v: float) -> float:
        return top + height * (high - v) / span

    body = [f'<line x1="{_n(left)}" x2="{_n(width - 8)}" y1="{_n(y(0))}" y2="{_n(y(0))}" stroke="{GREY}"/>']
    if not one:  # (one series writes each value on its bar instead)
        body.append(_text(left - 4, y(high) + 4, _fmt(high, percent), anchor="end"))
    if low < 0:
        body.append(_text(left - 4, y(low) + 4, _fmt(low, percent), anchor="end"))
    offset = (group - 14 * len(series) + 2) / 2  # the bars centred in their group
    for k, (name, colour, vs) in enumerate(series):
        ex = entries[k][0]
        body.append(f'<rect x="{_n(ex)}" y="4" width="10" height="10" fill="{colour}"/>')
        body.append(_text(ex + 14, 4 + ASCENT - 1, name))
        for i, v in enumerate(vs):
            bx = left + group * i + offset + 14 * k
            y0, y1 = sorted((y(0), y(v)))
            body.append(
                f'<rect x="{_n(bx)}" y="{_n(y0)}" width="12" height="{_n(max(y1 - y0, 0.5))}" fill="{colour}">'
                f"<title>{escape(f'{labels[i]}, {name}: {_fmt(v, percent)}')}</title></rect>"
            )
            if one:  # one value per label: write it on its bar
                at = (y0 - 3 - DESCENT) if v >= 0 else (y1 + 2 + ASCENT)
                body.append(_text(bx + 6, at, written[i], anchor="middle"))
    for i, text in enumerate(names):
        centre = left + group * i + group / 2
        if turned:
            body.append(_text(centre, foot, text, anchor="end", rotate=-45, whole=labels[i]))
        else:
            body.append(_text(centre, foot, text, anchor="middle", whole=labels[i]))
    return _svg(width, total, body, label)


def _fmt(v: float, percent: bool) -> str:
    return f"{v:.1%}" if percent else f"{v:+.3f}" if abs(v) < 1 else f"{v:,.0f}"


def scatter(points: list[list[float]], low: float, label: str, x_title: str, y_title: str, size: int = 300) -> str:
    """Points ``[x, y, flagged]`` on ``[low, 1]`` squared, flagged ones red and drawn last, with the diagonal.

    The y title stands turned at the left edge, the y ticks right of it; the x ticks sit
    below the lowest y tick (they would meet at the corner), the x title below them.
    """
    ticks = [f"{v:.2f}" for v in (low, (low + 1) / 2, 1.0)]
    left = 2 + line_height() + 4 + max(text_width(t) for t in ticks) + 4
    top = 10
    span = (1.0 - low) or 1.0

    def px(v: float) -> float:
        return left + size * (v - low) / span

    def py(v: float) -> float:
        return top + size * (1.0 - v) / span

    body = [
        f'<rect x="{_n(left)}" y="{top}" width="{size}" height="{size}" fill="#f7fafc" stroke="{GREY}"/>',
        f'<line x1="{_n(px(low))}" y1="{_n(py(low))}" x2="{_n(px(1))}" y2="{_n(py(1))}" stroke="{GREY}" '
        'stroke-dasharray="4 3"/>',
    ]
    x_ticks = top + size + 4 + DESCENT + 4 + ASCENT  # below the lowest y tick's box
    for v, tick in zip((low, (low + 1) / 2, 1.0), ticks, strict=True):
        body.append(_text(px(v), x_ticks, tick, anchor="middle"))
        body.append(_text(left - 4, py(v) + 4, tick, anchor="end"))
    x_title_at = x_ticks + DESCENT + 4 + ASCENT
    body.append(_text(left + size / 2, x_title_at, fit(x_title, size), anchor="middle", whole=x_title))
    body.append(_text(2 + ASCENT, top + size / 2, fit(y_title, size), anchor="middle", rotate=-90, whole=y_title))
    for flag, colour, radius in ((0, BLUE, 2.2), (1, RED, 3.2)):
        body.extend(
            f'<circle cx="{_n(px(x))}" cy="{_n(py(y))}" r="{radius}" fill="{colour}" fill-opacity="0.6"/>'
            for x, y, f in points
            if int(f) == flag
        )
    right = max(px(1) + text_width(ticks[-1]) / 2, left + size) + 12
    return _svg(right, x_title_at + DESCENT + 6, body, label)


def line_height() -> float:
    """The height of one line of label text, ascent and descent."""
    return ASCENT + DESCENT
