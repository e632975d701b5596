#!/usr/bin/env python3
"""The layering of lib/ checked from the code itself (docs/architecture.md, "Layers").

Usage: scripts/layers.py SOURCE_DIR BUILD_DIR   (exit 1 when a rule is broken)
       scripts/layers.py SOURCE_DIR --includes-only

Two views of "who uses whom", both by folder (a module is a folder under lib/, the template
formats count as the template module):
  - includes: every #include "..." of a lib/ file that names a header of another module;
  - calls: every symbol an object file of the library needs (nm -u) that another module's
    object file defines. Inline functions in headers are covered by the includes.
A module may use itself and the modules listed for it in ALLOWED; stages may also read the
results of the stages before them in the pipeline.
"""
import os
import re
import subprocess
import sys

PIPELINE = ["select", "solve", "place", "connect", "objects", "guard", "finish"]
BASE = {
    "core": [],
    "content": ["core"],
    "template": ["core", "content"],
    "map": ["core", "content", "template"],
    "grid": ["core", "content", "template", "map"],
    "export": ["core", "content", "template", "map"],
    # Reads finished maps, like the exporters (the balance report, docs/balance.md).
    "balance": ["core", "content", "template", "map"],
}
ALLOWED = dict(BASE)
for i, stage in enumerate(PIPELINE):
    ALLOWED[stage] = ["core", "content", "template", "map", "grid"] + PIPELINE[:i]
ALLOWED["driver"] = list(BASE) + PIPELINE
# Known exception, kept visible: `rmg check` warns about treasure ranges no object can fill, which
# needs the objects stage's effective lists (lib/objects/effective.c).
EXCEPTIONS = {("template", "objects")}
SRC = "."


def module_of(path):
    rel = path.split("lib/", 1)[1] if "lib/" in path else path
    return rel.split("/", 1)[0]


def lib_files(src):
    for root, _, files in os.walk(os.path.join(src, "lib")):
        for f in files:
            if f.endswith((".c", ".h")):
                yield os.path.join(root, f)


def include_edges(src):
    lib = os.path.join(src, "lib")
    for path in lib_files(src):
        mod = module_of(os.path.relpath(path, src))
        with open(path, encoding="utf-8") as fh:
            for n, line in enumerate(fh, 1):
                m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
                if not m:
                    continue
                name = m.group(1)
                here = os.path.join(os.path.dirname(path), name)
                if os.path.exists(here):
                    target = os.path.relpath(here, lib)
                elif os.path.exists(os.path.join(lib, name)):
                    target = name
                elif os.path.exists(os.path.join(lib, "core", name)):
                    target = "core/" + name
                else:
                    continue  # public headers (include/rmg) and generated ones belong to no layer
                yield mod, target.split("/", 1)[0], f"{os.path.relpath(path, src)}:{n}: includes {name}"


def nm(path, *args):
    out = subprocess.run(["nm", *args, path], capture_output=True, text=True, check=True).stdout
    return [line.split()[-1] for line in out.splitlines() if line.strip()]


def call_edges(build):
    objdir = os.path.join(build, "CMakeFiles", "rmg_objects.dir", "lib")
    if not os.path.isdir(objdir):
        sys.exit(f"layers: no object files under {objdir}: build the library first")
    objects = []
    for root, _, files in os.walk(objdir):
        for f in files:
            o = os.path.join(root, f)
            # Only objects of sources that still exist (a build tree keeps those of moved files).
            if f.endswith(".c.o") and os.path.exists(os.path.join(SRC, "lib", os.path.relpath(o, objdir)[:-2])):
                objects.append(o)
    defined = {}
    for o in objects:
        for sym in nm(o, "--defined-only", "-g"):
            defined[sym] = module_of(os.path.relpath(o, os.path.dirname(objdir)))
    for o in objects:
        mod = module_of(os.path.relpath(o, os.path.dirname(objdir)))
        for sym in nm(o, "-u"):
            if sym in defined:
                yield mod, defined[sym], f"{os.path.relpath(o, build)}: calls {sym} ({defined[sym]})"


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    global SRC
    src, build = sys.argv[1], sys.argv[2]
    SRC = src
    broken = []
    seen = set()
    edges = list(include_edges(src))
    if build != "--includes-only":
        edges += list(call_edges(build))
    for mod, target, where in edges:
        if mod == target or target in ALLOWED.get(mod, []) or (mod, target) in EXCEPTIONS:
            continue
        if mod not in ALLOWED:
            broken.append(f"{where}: lib/{mod}/ is a module docs/architecture.md does not describe")
        else:
            broken.append(f"{where}: lib/{mod}/ may not use lib/{target}/")
        seen.add((mod, target))
    for line in broken:
        print("layers:", line)
    if broken:
        print(f"layers: {len(broken)} use(s) against the layering ({len(seen)} module pair(s))")
        return 1
    print(f"layers: {len(ALLOWED)} modules, every include and call follows the layering")
    return 0


if __name__ == "__main__":
    sys.exit(main())
