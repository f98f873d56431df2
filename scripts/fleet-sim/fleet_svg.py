"""A line plot in hand-written SVG (no plotting library): requests over simulated time."""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"]
WIDTH, HEIGHT = 900, 420
LEFT, RIGHT, TOP, BOTTOM = 70, 190, 40, 50


def nice_step(span: float, ticks: int = 6) -> float:
    """A round tick step (1, 2 or 5 times a power of ten) giving about `ticks` ticks over `span`."""
    if not math.isfinite(span) or span <= 0:
        return 1.0
    raw = span / ticks
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if raw <= factor * power:
            return factor * power
    return 10 * power


def _format(value: float) -> str:
    return f"{value:g}" if abs(value) < 1e6 else f"{value:.3g}"


def line_plot(title: str, x_label: str, y_label: str, series: dict[str, list[tuple[float, float]]],
              levels: dict[str, float] | None = None) -> str:
    """An SVG document: one polyline per series, each `levels` entry a dashed horizontal line
    (a limit), a legend on the right."""
    levels = levels or {}
    points = [point for values in series.values() for point in values]
    x_max = max([x for x, _ in points] + [1e-9])
    y_max = max([y for _, y in points] + list(levels.values()) + [1.0]) * 1.05
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def sx(x: float) -> float:
        return LEFT + plot_w * x / x_max

    def sy(y: float) -> float:
        return TOP + plot_h * (1 - y / y_max)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
           f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">',
           f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
           f'<text x="{WIDTH / 2:.0f}" y="22" text-anchor="middle" font-size="15">{escape(title)}</text>']
    step = nice_step(y_max)
    tick = 0.0
    while tick <= y_max:
        out.append(f'<line x1="{LEFT}" x2="{LEFT + plot_w}" y1="{sy(tick):.1f}" y2="{sy(tick):.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{LEFT - 6}" y="{sy(tick) + 4:.1f}" text-anchor="end">{_format(tick)}</text>')
        tick += step
    step = nice_step(x_max)
    tick = 0.0
    while tick <= x_max + 1e-9:
        out.append(f'<line x1="{sx(tick):.1f}" x2="{sx(tick):.1f}" y1="{TOP}" y2="{TOP + plot_h}" stroke="#eee"/>')
        out.append(f'<text x="{sx(tick):.1f}" y="{TOP + plot_h + 16}" text-anchor="middle">{_format(tick)}</text>')
        tick += step
    out.append(f'<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#333"/>')
    out.append(f'<text x="{LEFT + plot_w / 2:.0f}" y="{HEIGHT - 12}" text-anchor="middle">{escape(x_label)}</text>')
    out.append(f'<text x="16" y="{TOP + plot_h / 2:.0f}" text-anchor="middle" '
               f'transform="rotate(-90 16 {TOP + plot_h / 2:.0f})">{escape(y_label)}</text>')
    legend_y = TOP + 10
    for index, (name, values) in enumerate(series.items()):
        colour = COLOURS[index % len(COLOURS)]
        if values:
            path = " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in values)
            out.append(f'<polyline fill="none" stroke="{colour}" stroke-width="1.5" points="{path}"/>')
        out.append(f'<line x1="{WIDTH - RIGHT + 12}" x2="{WIDTH - RIGHT + 32}" y1="{legend_y}" y2="{legend_y}" '
                   f'stroke="{colour}" stroke-width="3"/>')
        out.append(f'<text x="{WIDTH - RIGHT + 38}" y="{legend_y + 4}">{escape(name)}</text>')
        legend_y += 18
    for index, (name, level) in enumerate(levels.items()):
        colour = COLOURS[(len(series) + index) % len(COLOURS)]
        out.append(f'<line x1="{LEFT}" x2="{LEFT + plot_w}" y1="{sy(level):.1f}" y2="{sy(level):.1f}" '
                   f'stroke="{colour}" stroke-dasharray="6 4"/>')
        out.append(f'<line x1="{WIDTH - RIGHT + 12}" x2="{WIDTH - RIGHT + 32}" y1="{legend_y}" y2="{legend_y}" '
                   f'stroke="{colour}" stroke-dasharray="6 4"/>')
        out.append(f'<text x="{WIDTH - RIGHT + 38}" y="{legend_y + 4}">{escape(name)}</text>')
        legend_y += 18
    out.append("</svg>")
    return "\n".join(out) + "\n"
