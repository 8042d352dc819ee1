"""The one reader of graphbench's results.json (docs/results.md) for every table, plot, peer and
summary: a file that is missing, not JSON, or lacks a field is BadInput naming the file and field.
The rules for old files are here and nowhere else in Python (C++'s: core/report/json_reader.cpp).
"""

import json
import os
from dataclasses import dataclass, field, replace
from typing import List, Optional

from .errors import BadInput, is_number


def read_json(path, what="file"):
    """The JSON document at `path`; BadInput naming the file when it is missing or not JSON."""
    try:
        with open(path, "r", encoding="utf-8") as f:
            return json.load(f)
    except OSError as e:
        raise BadInput(f"{path}: cannot read the {what} ({e.strerror or e})")
    except ValueError as e:
        raise BadInput(f"{path}: cannot read the {what}: not JSON ({e})")


@dataclass(frozen=True)
class Record:
    """One record: the fields every reader uses, typed; the rest by name (`record.get("training")`)."""
    case: str
    variant: str
    kind: str
    status: str
    median_us: Optional[float]
    scope: str
    scope_group: str
    raw: dict = field(repr=False)

    def get(self, key, default=None):
        return self.raw.get(key, default)

    def __getitem__(self, key):
        return self.raw[key]

    @property
    def ok(self):
        return self.status == "ok"


@dataclass(frozen=True)
class Results:
    path: str
    records: List[Record]
    environment: dict
    raw: dict = field(repr=False)

    def benchmarks(self):
        return [r for r in self.records if r.kind == "benchmark"]


def fmt_us(value):
    """Microseconds to about three significant digits (1234, 70.9, 7.85); "" for no number."""
    if not is_number(value):
        return ""
    return f"{value:.0f}" if abs(value) >= 999.5 else f"{value:.3g}"


def string_field(path, pointer, obj, key, default=None):
    value = obj.get(key, default)
    if not isinstance(value, str):
        expected = "a string" if default is None else "a string when present"
        raise BadInput(f"{path}: {pointer}/{key}: expected {expected}, got {value!r}")
    return value


def read_record(path, i, r):
    pointer = f"/records/{i}"
    if not isinstance(r, dict):
        raise BadInput(f"{path}: {pointer}: expected a record (an object)")
    median = r.get("median_us")
    if median is not None and not is_number(median):
        raise BadInput(f"{path}: {pointer}/median_us: expected a number, got {median!r}")
    return Record(case=string_field(path, pointer, r, "case"), variant=string_field(path, pointer, r, "variant"),
                  kind=string_field(path, pointer, r, "kind"), status=string_field(path, pointer, r, "status"),
                  median_us=median, scope=string_field(path, pointer, r, "scope", "full"),
                  scope_group=string_field(path, pointer, r, "scope_group", ""), raw=r)


def name_scope_groups_of_old_files(records):
    """Where no record has a "scope_group" (older files), a record named NAME[scope=SCOPE] gets NAME."""
    if any(r.scope_group for r in records):
        return records
    labels = [f"[scope={r.scope}]" for r in records]
    return [replace(r, scope_group=r.case.replace(label, "", 1) if label in r.case else "")
            for r, label in zip(records, labels)]


def read_results(path):
    """The results file at `path` (or the results.json in the folder `path`) as Results."""
    if os.path.isdir(path):
        path = os.path.join(path, "results.json")
    doc = read_json(path, "results file")
    if not isinstance(doc, dict) or not isinstance(doc.get("records"), list):
        raise BadInput(f"{path}: /records: expected a list of records (a graphbench results file)")
    environment = doc.get("environment", {})
    if not isinstance(environment, dict):
        raise BadInput(f"{path}: /environment: expected an object")
    records = [read_record(path, i, r) for i, r in enumerate(doc["records"])]
    return Results(path=path, records=name_scope_groups_of_old_files(records), environment=environment, raw=doc)
