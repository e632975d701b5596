#!/usr/bin/env python3
"""A placement stage written in Python: the zones go on a fixed grid of rectangles instead of
the HotA placement rules, and the rest of the pipeline runs as usual (the Python twin of
examples/replace_placement.c).

    PYTHONPATH=bindings/python RMG_LIBRARY=build/release/librmg.so \
        python3 examples/python/replace_placement.py --seed 11 -o grid.png
"""

from __future__ import annotations

import argparse
import math
import sys
from typing import List, Optional, Tuple

import rmg


def grid_cells(width: int, height: int, n: int) -> List[Tuple[int, int, int, int]]:
    """n rectangles (x0, y0, x1, y1), x1/y1 exclusive, on a grid of ceil(sqrt(n)) columns;
    the last one takes the rest of its row."""
    cols = math.ceil(math.sqrt(n))
    rows = math.ceil(n / cols)
    cells = []
    for i in range(n):
        c, r = i % cols, i // cols
        x1 = width if i == n - 1 else (c + 1) * width // cols
        cells.append((c * width // cols, r * height // rows, x1, (r + 1) * height // rows))
    return cells


def grid_placement(view: rmg.StageView) -> None:
    """The place stage: one grid cell per zone (zones exist already, one per template zone in play)."""
    m = view.map
    for i, (x0, y0, x1, y1) in enumerate(grid_cells(m.width, m.height, len(m.zones))):
        view.place_zone(i, 0, (x0 + x1) // 2, (y0 + y1) // 2)
        view.fill_zone(i + 1, x0, y0, x1, y1)
    view.warn(f"{len(m.zones)} zones placed on a grid")


def main(argv: Optional[list] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--size", default="M")
    parser.add_argument("--policy", choices=["fail", "fallback"], default="fail",
                        help="what happens when the plugin fails: raise, or run the built-in stage")
    parser.add_argument("-o", "--output", help="PNG to write")
    args = parser.parse_args(argv)
    with rmg.Context(seed=args.seed) as ctx:
        ctx.set_stage("place", grid_placement, policy=args.policy)
        try:
            m = ctx.generate(size=args.size, underground=False)
        except Exception as err:  # the plugin's own exception under policy "fail", or rmg.Error
            print(f"generation failed: {err!r} (caused by {err.__cause__})", file=sys.stderr)
            return 1
        for zone in m.zones:
            print(f"zone {zone.id} (template zone {zone.template_zone}, {zone.kind.name.lower()}): "
                  f"centre {zone.center_x},{zone.center_y}, {zone.tiles} tiles")
        for warning in m.warnings:
            if "plugin" in warning:
                print(f"warning: {warning}")
        if args.output:
            m.save_png(args.output)
            print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
