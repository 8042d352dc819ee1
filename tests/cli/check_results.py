#!/usr/bin/env python3
"""Checks a results.json written by a CPU run (tests/cli/CliTests.cmake).

check_results.py RESULTS_JSON CHECK...
  status:CASE/VARIANT=STATUS        the record's status (ok, skipped, failed)
  timed:CASE/VARIANT                an ok record with samples, a median and counters
  learned:CASE/VARIANT              a training record whose first epoch tested better than chance
  dataparallel:CASE/VARIANT=N       a data-parallel record of N ranks: every rank's median, the
                                    slowest rank, samples/s, the all-reduce alone, the one-rank
                                    baseline and scaling efficiency, params identical on every rank
  dptrained:CASE/VARIANT=N          a data-parallel training record of N ranks: every rank's median
                                    step, the slowest rank, samples/s, params identical on every rank
  csv:PATH                          a CSV file with a header and one row per record
"""
import csv
import json
import math
import sys


def fail(message):
    print(f"check_results.py: {message}", file=sys.stderr)
    sys.exit(1)


def main():
    path, checks = sys.argv[1], sys.argv[2:]
    with open(path, encoding="utf-8") as f:
        report = json.load(f)
    if report.get("schema_version") != 1:
        fail(f"{path}: schema_version {report.get('schema_version')}")
    for key in ("date_utc", "host", "git_commit", "libtorch_version", "device"):
        if not report["environment"].get(key):
            fail(f"{path}: environment.{key} is empty")
    records = {(r["case"], r["variant"]): r for r in report["records"]}

    def record(spec):
        case, variant = spec.split("/", 1)
        if (case, variant) not in records:
            fail(f"no record {case}/{variant}; have {sorted(records)}")
        return records[(case, variant)]

    for check in checks:
        kind, arg = check.split(":", 1)
        if kind == "status":
            spec, status = arg.split("=")
            r = record(spec)
            if r["status"] != status:
                fail(f"{spec}: status {r['status']} ({r.get('reason')}), expected {status}")
            if status != "ok" and not r.get("reason"):
                fail(f"{spec}: {status} without a reason")
        elif kind == "timed":
            r = record(arg)
            if r["status"] != "ok" or len(r.get("samples_us") or []) < 3:
                fail(f"{arg}: not timed: {r['status']} {r.get('reason')}")
            if not (r["median_us"] > 0 and math.isfinite(r["median_us"])):
                fail(f"{arg}: median_us {r['median_us']}")
            if not r.get("counters"):
                fail(f"{arg}: no counters")
        elif kind == "learned":
            r = record(arg)
            epochs = (r.get("training") or {}).get("epochs") or []
            if r["status"] != "ok" or not epochs:
                fail(f"{arg}: no training record: {r['status']} {r.get('reason')}")
            first = epochs[0]
            # Chance level is ln(10) = 2.303 and 10% accuracy.
            if not (first["test_loss"] < 2.0 and first["test_accuracy"] > 0.5):
                fail(f"{arg}: did not learn: test loss {first['test_loss']}, accuracy {first['test_accuracy']}")
        elif kind == "dataparallel":
            spec, world = arg.split("=")
            r = record(spec)
            d = r.get("data_parallel")
            if r["status"] != "ok" or not d:
                fail(f"{spec}: no data-parallel figures: {r['status']} {r.get('reason')}")
            if d["world_size"] != int(world) or len(d["rank_median_us"]) != int(world):
                fail(f"{spec}: world_size {d['world_size']}, {len(d['rank_median_us'])} rank medians, expected {world}")
            slowest = max(d["rank_median_us"])
            if not (slowest > 0 and d["slowest_median_us"] == slowest and d["rank_median_us"][d["slowest_rank"]] == slowest):
                fail(f"{spec}: slowest rank {d['slowest_rank']} at {d['slowest_median_us']} us, ranks {d['rank_median_us']}")
            expected_rate = d["global_batch"] / (slowest * 1e-6)
            if d["global_batch"] != d["samples_per_rank"] * int(world) or abs(d["samples_per_second"] - expected_rate) > 1e-6 * expected_rate:
                fail(f"{spec}: samples/s {d['samples_per_second']} for a global batch of {d['global_batch']}")
            for key in ("all_reduce_us", "one_rank_us", "scaling_efficiency"):
                if not (isinstance(d.get(key), (int, float)) and d[key] > 0):
                    fail(f"{spec}: {key} is {d.get(key)}")
            if not d["params_identical"] or d.get("max_error_vs_one_process") is None:
                fail(f"{spec}: params identical {d['params_identical']}, error vs one process {d.get('max_error_vs_one_process')}")
            if d["gradient_bytes"] <= 0 or d["buckets"] < 1:
                fail(f"{spec}: {d['gradient_bytes']} gradient bytes in {d['buckets']} buckets")
        elif kind == "dptrained":
            spec, world = arg.split("=")
            r = record(spec)
            d = r.get("data_parallel")
            if r["status"] != "ok" or not d or not r.get("training"):
                fail(f"{spec}: no data-parallel training: {r['status']} {r.get('reason')}")
            if d["world_size"] != int(world) or len(d["rank_median_us"]) != int(world) or min(d["rank_median_us"]) <= 0:
                fail(f"{spec}: world_size {d['world_size']}, rank medians {d['rank_median_us']}, expected {world} ranks")
            if d["slowest_median_us"] != max(d["rank_median_us"]) or d["samples_per_second"] <= 0:
                fail(f"{spec}: slowest {d['slowest_median_us']} of {d['rank_median_us']}, samples/s {d['samples_per_second']}")
            if not d["params_identical"]:
                fail(f"{spec}: params differ across ranks")
        elif kind == "csv":
            with open(arg, encoding="utf-8") as f:
                rows = list(csv.DictReader(f))
            if len(rows) != len(report["records"]):
                fail(f"{arg}: {len(rows)} rows for {len(report['records'])} records")
        else:
            fail(f"unknown check {check}")
    print(f"check_results.py: {len(checks)} checks passed on {path}")


if __name__ == "__main__":
    main()
