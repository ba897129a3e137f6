"""The learning curve of ``alphazero.py`` as a small SVG written by hand, so that the example
needs no plotting library: win rate against the opponent over training minutes."""

from xml.sax.saxutils import escape

WIDTH, HEIGHT, LEFT, BOTTOM, TOP, RIGHT = 520, 320, 56, 44, 36, 16


def write_curve_svg(metrics, path):
    curve = metrics["curve"]
    span = max([p["train_minutes"] for p in curve] + [metrics["settings"]["minutes"], 1e-9])
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def xy(minutes, rate):
        return LEFT + plot_w * minutes / span, TOP + plot_h * (1 - rate)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
             f'font-family="sans-serif" font-size="12">',
             f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>']
    for tenth in range(0, 11, 2):
        _, y = xy(0, tenth / 10)
        parts.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}" stroke="#ddd"/>')
        parts.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{tenth * 10}%</text>')
    for k in range(6):
        x, _ = xy(span * k / 5, 0)
        parts.append(f'<text x="{x:.1f}" y="{HEIGHT - BOTTOM + 16}" text-anchor="middle">'
                     f'{span * k / 5:.0f}</text>')
    _, y70 = xy(0, 0.7)
    parts.append(f'<line x1="{LEFT}" y1="{y70:.1f}" x2="{WIDTH - RIGHT}" y2="{y70:.1f}" '
                 f'stroke="#c33" stroke-dasharray="5,4"/>')
    points = [xy(p["train_minutes"], p["win_rate"]) for p in curve]
    parts.append('<polyline fill="none" stroke="#2a6fdb" stroke-width="2" points="'
                 + " ".join(f"{x:.1f},{y:.1f}" for x, y in points) + '"/>')
    for (x, y), p in zip(points, curve):
        parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill="#2a6fdb">'
                     f'<title>{p["won"]}/{p["games"]}</title></circle>')
    s = metrics["settings"]
    title = (f'{s["game"]}: wins of the trained search ({s["simulations"]} simulations) '
             f'against {s["opponent"]}')
    parts.append(f'<text x="{LEFT}" y="20" font-weight="bold">{escape(title)}</text>')
    parts.append(f'<text x="{LEFT + plot_w / 2:.0f}" y="{HEIGHT - 8}" text-anchor="middle">'
                 f'training minutes ({escape(metrics["backend"])}); dashed: 70%</text>')
    parts.append("</svg>")
    path.write_text("\n".join(parts) + "\n")
