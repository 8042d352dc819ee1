"""Fails on an #include that runs up a layer of src/graphbench/ (scripts/check-layers.py [ROOT]:
exit 0 none does, 1 each offender printed).

Each library is a folder, src/graphbench/<library>/<folder>/, and the libraries are layers, each
including its own headers and those below: core (no LibTorch header either) < engine < parallel
(itself communication < gradient_sync < cases) < apps/ and bench/ (nothing in src/ includes them).
"""

import argparse
import os
import re
import sys

LIBRARIES = ["core", "engine", "parallel"]
PARALLEL = ["communication", "gradient_sync", "cases"]
NAMES = LIBRARIES[:2] + [f"parallel/{p}" for p in PARALLEL] + ["apps/bench"]
ABOVE = len(NAMES) - 1
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^">]+)[">]')
TORCH = ("ATen/", "c10/", "torch/")


def layer_of(path):
    """The layer index of a path below src/graphbench/ ("engine/exec/engine.h"), None if it has none."""
    parts = path.split("/")
    if len(parts) < 3 or parts[0] not in LIBRARIES:
        return None
    if parts[0] != "parallel":
        return LIBRARIES.index(parts[0])
    return 2 + PARALLEL.index(parts[1]) if parts[1] in PARALLEL else None


def above_src(root, target):
    """Whether a quoted include names a header of apps/graphbench/ or bench/ (the layer above src/)."""
    return any(os.path.isfile(os.path.join(root, top, target)) for top in ("apps/graphbench", "bench"))


def check(root):
    base = os.path.join(root, "src", "graphbench")
    offences = []
    for folder, _, files in sorted(os.walk(base)):
        for name in sorted(n for n in files if n.endswith((".h", ".cpp", ".cu"))):
            full = os.path.join(folder, name)
            rel = os.path.relpath(full, base).replace(os.sep, "/")
            mine = layer_of(rel)
            if mine is None:
                offences.append(f"src/graphbench/{rel}: a folder of no layer (layers.py names the layers)")
                continue
            with open(full, encoding="utf-8") as f:
                for number, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    target = m.group(1)
                    where = f"src/graphbench/{rel}:{number}"
                    if mine == 0 and target.startswith(TORCH):
                        offences.append(f"{where}: the core layer includes LibTorch ({target})")
                    if target.startswith("graphbench/"):
                        theirs = layer_of(target[len("graphbench/"):])
                    elif not target.startswith(TORCH) and above_src(root, target):
                        theirs = ABOVE
                    else:
                        continue
                    if theirs is None:
                        offences.append(f"{where}: includes {target}, which is in no layer")
                    elif theirs > mine:
                        offences.append(f"{where}: {NAMES[mine]} includes {target} of {NAMES[theirs]}, a layer above it")
    return offences


def main(argv):
    parser = argparse.ArgumentParser(prog="check-layers.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("root", nargs="?", default=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                        help="the checkout to check (default: this one)")
    args = parser.parse_args(argv)
    offences = check(args.root)
    for o in offences:
        print(o)
    if offences:
        print(f"check-layers: {len(offences)} include(s) run up a layer", file=sys.stderr)
        return 1
    print("check-layers: no include runs up a layer (" + " < ".join(NAMES) + ")")
    return 0
