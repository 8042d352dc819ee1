"""The one writer of the package's files: suites (the JSON graphbench runs), the manifest beside each
exported model file, and the result files of Python's timing peers, each written whole or not at all
(a temporary file beside it, then renamed). As a command (scripts/suites.py: join, sweep-scopes,
package-facts, merge-results; --help says each), what the shell scripts call instead of editing
JSON themselves. Exit codes: 0 done, 2 bad input (a file that is missing or not a suite or results
file, named).
"""

import argparse
import json
import os
import sys
import tempfile
import zipfile

from .errors import BadInput
from .results import read_json, read_results

PROG = "suites.py"


# ---- writing whole files ----

def to_json_text(value, indent=0):
    """JSON with every object or list that fits in one line of 100 characters written on one line."""
    flat = json.dumps(value)
    if len(flat) + indent <= 100 or not isinstance(value, (dict, list)) or not value:
        return flat
    pad = " " * (indent + 2)
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(k)}: {to_json_text(v, indent + 2)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    items = [pad + to_json_text(v, indent + 2) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"


def write_whole(path, text):
    """Writes `text` to `path` through a temporary file beside it: the file is whole or absent."""
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".tmp-", suffix=os.path.basename(path))
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def write_json(path, value, compact=True):
    """`value` as JSON (to_json_text's layout, or indented by 2 with compact=False), whole."""
    write_whole(path, (to_json_text(value) if compact else json.dumps(value, indent=2)) + "\n")


# ---- manifests ----

def manifest_path(model_file):
    """Beside every exported file: what made it (model name, batch, ...), as JSON."""
    return str(model_file) + ".json"


def write_manifest(model_file, manifest):
    write_json(manifest_path(model_file), manifest, compact=False)


# ---- suites ----

def new_suite(name, description, defaults):
    return {"schema_version": 1, "suite": name, "description": description, "defaults": defaults, "cases": []}


def add_cases(path, new_cases, fresh):
    """Writes `new_cases` into `fresh` (a new_suite), else after the cases of the suite at `path`; a
    case of the same name is replaced."""
    suite = fresh if fresh is not None else read_json(path, "suite")
    names = {c["name"] for c in new_cases}
    suite["cases"] = [c for c in suite["cases"] if c.get("name") not in names] + new_cases
    write_json(path, suite)


def read_suite(path):
    suite = read_json(path, "suite")
    if not isinstance(suite, dict) or not isinstance(suite.get("cases"), list):
        raise BadInput(f"{path}: /cases: expected a list of cases (a suite file)")
    return suite


def join(out, inputs, name=None):
    """The cases of the `inputs` suites in one suite at `out`, its settings the first one's (`name`
    where given), model paths true from out's folder. Returns the inputs that are not there."""
    present = [p for p in inputs if os.path.exists(p)]
    if not present:
        raise BadInput(f"no suite to join: none of {', '.join(inputs)} exists")
    base = os.path.dirname(os.path.abspath(out))
    joined = None
    for path in present:
        part = read_suite(path)
        if joined is None:
            joined = dict(part, cases=[])
            if name:
                joined["suite"] = name
        folder = os.path.dirname(os.path.abspath(path))
        for case in part["cases"]:
            case = dict(case)
            if isinstance(case.get("path"), str) and not os.path.isabs(case["path"]):
                case["path"] = os.path.relpath(os.path.join(folder, case["path"]), base)
            if isinstance(case.get("pieces"), list):  # a chain of pieces: each file relative to OUT too
                case["pieces"] = [dict(p, path=os.path.relpath(os.path.join(folder, p["path"]), base))
                                  if isinstance(p, dict) and isinstance(p.get("path"), str) and
                                  not os.path.isabs(p["path"]) else p for p in case["pieces"]]
            joined["cases"].append(case)
    write_json(out, joined)
    return [p for p in inputs if p not in present]


def scopes_compared(case):
    """The scopes a case of configs/scopes.json is swept over (the eager variant runs beside them)."""
    name = case["name"]
    if "attention-out" in name:
        # layer:pool-each: the same graphs, each in a memory pool of its own, beside the shared pool.
        return ["full", "attention-out", "layer", "layer:pool-each"]
    if name.endswith("-auto"):
        return ["full", "auto"]
    if case.get("mode") == "train":
        return ["full", "fwd-bwd", "layer"] if "pieces" in case else ["full", "fwd-bwd"]
    return ["full", "layer"]


def sweep_scopes(path):
    suite = read_suite(path)
    for case in suite["cases"]:
        case["sweep"] = {"scope": scopes_compared(case)}
    write_json(path, suite)


def package_facts(package):
    """A package's size, its weights' bytes and export times (from its manifest), and what it unpacks to."""
    if not os.path.isfile(package):
        raise BadInput(f"{package}: no such package")
    manifest = read_json(manifest_path(package), "manifest")
    try:
        with zipfile.ZipFile(package) as z:
            entries = z.infolist()
    except zipfile.BadZipFile as e:
        raise BadInput(str(e))
    return "\n".join([
        f"{package}: {os.path.getsize(package)} bytes",
        json.dumps({k: manifest.get(k) for k in ("sizes", "export_times")}),
        f"unpacked: {sum(i.file_size for i in entries)} bytes in {len(entries)} entries",
    ])


def merge_results(parts, out):
    """The records of the results files `parts` (each a results.json or a folder holding one), in
    order, in one results file at `out`: the first part's other fields, its sweeps only when there is
    one part (a sweep's verdict is over one run). Returns the counts of parts and records."""
    runs = [read_results(part).raw for part in parts]
    merged = dict(runs[0], records=[r for run in runs for r in run["records"]],
                  sweeps=list(runs[0].get("sweeps", [])) if len(runs) == 1 else [])
    write_json(out, merged, compact=False)
    return len(runs), len(merged["records"])


def parse_args(argv):
    p = argparse.ArgumentParser(prog=PROG, description="Joins and rewrites suite files; describes packages; merges results files.")
    sub = p.add_subparsers(dest="command", required=True)
    j = sub.add_parser("join", help="the cases of several suites in one")
    j.add_argument("out")
    j.add_argument("inputs", nargs="+")
    j.add_argument("--suite-name", help="the joined suite's name (default: the first input's)")
    s = sub.add_parser("sweep-scopes", help="each case of a scopes suite swept over the scopes it compares")
    s.add_argument("suite")
    f = sub.add_parser("package-facts", help="a package's size, weights' bytes, export times, unpacked size")
    f.add_argument("package")
    m = sub.add_parser("merge-results", help="the records of several graphbench results files in one")
    m.add_argument("parts", nargs="+", help="results.json files, or folders holding one")
    m.add_argument("-o", "--out", required=True, help="the merged results file, written whole")
    return p.parse_args(argv)


def main(argv):
    args = parse_args(argv)
    if args.command == "join":
        for missing in join(args.out, args.inputs, args.suite_name):
            print(f"{PROG}: {missing}: not there, left out of {args.out}", file=sys.stderr)
    elif args.command == "sweep-scopes":
        sweep_scopes(args.suite)
    elif args.command == "merge-results":
        parts, records = merge_results(args.parts, args.out)
        print(f"merged {parts} part(s): {records} records")
    else:
        print(package_facts(args.package))
    return 0
