#!/usr/bin/env python3
"""Generate one map and save its PNG preview; with matplotlib installed, also plot the zones,
roads and objects into a second figure.

    PYTHONPATH=bindings/python RMG_LIBRARY=build/release/librmg.so \
        python3 examples/python/generate_and_plot.py --seed 7 --size M -o map.png
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from typing import Optional

import rmg


def parse_args(argv: Optional[list] = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("template", nargs="?", help="template pack file (default: the built-in pack)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--size", default="M", help="S, M, L, XL, H, XH, G or a side length")
    parser.add_argument("--underground", action="store_true")
    parser.add_argument("-o", "--output", default="map.png", help="PNG preview written by the library")
    parser.add_argument("--plot", help="matplotlib figure to write (default: OUTPUT with _plot added)")
    return parser.parse_args(argv)


def plot(m: rmg.Map, path: str) -> bool:
    """Zones as colours, roads darker, objects as dots, one panel per level. False without matplotlib."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    zones, roads = m.layer("zone"), m.layer("road")
    plane = m.width * m.height
    fig, axes = plt.subplots(1, m.levels, figsize=(6 * m.levels, 6), squeeze=False)
    for z in range(m.levels):
        ax = axes[0][z]
        grid = [[zones[z * plane + y * m.width + x] + (0.5 if roads[z * plane + y * m.width + x] else 0)
                 for x in range(m.width)] for y in range(m.height)]
        ax.imshow(grid, cmap="tab20", interpolation="nearest")
        for kind, marker in ((rmg.ObjectKind.TOWN, "s"), (rmg.ObjectKind.MONSTER, "x"), (rmg.ObjectKind.MINE, "^")):
            pts = [(o.x, o.y) for o in m.objects if o.kind == kind and o.z == z]
            if pts:
                ax.scatter(*zip(*pts), marker=marker, s=12, c="black", label=kind.name.lower())
        ax.set_title(f"{m.template_name}, level {z}")
        ax.legend(loc="upper right", fontsize="small")
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True


def main(argv: Optional[list] = None) -> int:
    args = parse_args(argv)
    with rmg.Context(seed=args.seed) as ctx:
        template = ctx.load_template(args.template) if args.template else ctx.builtin_template()
        try:
            m = ctx.generate(template, size=args.size, underground=args.underground)
        except rmg.Error as err:
            print(f"generation failed: {err}", file=sys.stderr)
            return 1
        kinds = Counter(o.kind.name.lower() if isinstance(o.kind, rmg.ObjectKind) else str(o.kind) for o in m.objects)
        print(f"{m.template_name}: {m.width}x{m.height}x{m.levels}, seed {m.seed}, fingerprint {m.fingerprint}")
        print(f"{len(m.zones)} zones, {len(m.connections)} connections, {len(m.objects)} objects: "
              + ", ".join(f"{n} {k}" for k, n in kinds.most_common()))
        m.save_png(args.output)
        print(f"wrote {args.output}")
        figure = args.plot or args.output.rsplit(".", 1)[0] + "_plot.png"
        if plot(m, figure):
            print(f"wrote {figure}")
        else:
            print("matplotlib is not installed: no plot (the PNG preview above is the library's own)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
