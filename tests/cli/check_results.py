#!/usr/bin/env python3
"""Checks a results.json written by a CPU run (tests/cli/CliTests.cmake).

check_results.py RESULTS_JSON CHECK...
  status:CASE/VARIANT=STATUS        the record's status (ok, skipped, failed)
  timed:CASE/VARIANT                an ok record with samples, a median and counters
  learned:CASE/VARIANT              a training record whose first epoch tested better than chance
  dataparallel:CASE/VARIANT=N       a data-parallel record of N ranks: every rank's median, the
                                    slowest rank, samples/s, the all-reduce alone, the step without
                                    all-reduce and the exposed all-reduce (their difference), the
                                    one-rank baseline and scaling efficiency, params identical on
                                    every rank
  gradsync:CASE/VARIANT=HOW,DTYPE,B  how its gradients were averaged: HOW overlapped or after
                                    (backward), DTYPE float32 or bfloat16, in B buckets
  chunks:CASE/VARIANT=CAP:PARAM=R+R,...  its gradient chunks: the chunk cap in bytes, and each chunked
                                    param with its rows per chunk ("CAP:" alone: none chunked)
  nodes:CASE/VARIANT=N,R+R,TRANSPORT  its ranks on N nodes of R ranks each (by node), over TRANSPORT
  settings:CASE/VARIANT=NAME=VALUE,-NAME  its data-parallel backend settings hold NAME=VALUE, and no -NAME
  dptrained:CASE/VARIANT=N          a data-parallel training record of N ranks: every rank's median
                                    step, the slowest rank, samples/s, params identical on every rank
  training:CASE/VARIANT:KEY=VALUE   a field of a training record's summary, as text
  breakdown:CASE/VARIANT            a training record whose load, setup, capture, training, testing
                                    and other seconds are there and add up to its total
  csv:PATH                          a CSV file with a header and one row per record
  absent:CASE/VARIANT               no record (a case an interrupted run did not finish)
  interrupted:SIGNAL                the run is marked interrupted by SIGNAL (or "no")
  null:CASE/VARIANT=FIELD.FIELD     the field is null (an absent value, never 0)
  envnull:FIELD                     the environment's field is null
  reason:CASE/VARIANT=REGEX         the record's reason matches REGEX
  files:DIR=NAME,NAME               DIR holds exactly these result files (results.*) and no temporary
  gbench:PATH                       a Google Benchmark JSON file: every record, its samples as repetitions and
                                    their aggregates
  method:CASE/VARIANT=METHOD        the record's method (run, feed+run, feed+replay, replay)
  scope:CASE/VARIANT=SCOPE          the record's capture scope (absent: full); CASE may hold "="
  scopegroup:CASE/VARIANT=GROUP     the record's scope_group: the case whose scopes it compares ("" for
                                    a record of no scope sweep); CASE and GROUP may hold "="
  scopes:CASE/VARIANT=N             the "scopes" verdict of CASE (its name without [scope=...]) and
                                    VARIANT lists N scopes, and says why when it has no verdict
  cpu:CASE/VARIANT                  a CPU record: the GPU-only fields present and null (never zero)
  explained:CASE/VARIANT            a GPU record that says why its figure is what it is: kernels
                                    per step, busy time, issue time, host-bound flag, memory
  repetitions:CASE/VARIANT=K/N      a record merged from --repetitions N, ok in K of them: one entry
                                    per repetition, the samples those of the ok ones, the median's
                                    and the speedup's intervals around the merged figures
  kernels:CASE/VARIANT=N            its profile ran N kernels per step (and its graph, if any,
                                    has N kernel nodes)
"""
import csv
import json
import math
import os
import re
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
            spec, status = arg.rsplit("=", 1)
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
            for key in ("all_reduce_us", "one_rank_us", "scaling_efficiency", "no_all_reduce_us"):
                if not (isinstance(d.get(key), (int, float)) and d[key] > 0):
                    fail(f"{spec}: {key} is {d.get(key)}")
            # The scaling efficiency is the ratio of two medians (one rank alone over the slowest rank's),
            # and its interval contains it.
            ratio = d["one_rank_us"] / d["slowest_median_us"]
            if abs(d["scaling_efficiency"] - ratio) > 1e-9 * ratio:
                fail(f"{spec}: scaling efficiency {d['scaling_efficiency']}, expected {d['one_rank_us']} / {d['slowest_median_us']}")
            ci = d.get("scaling_efficiency_ci95")
            if not (isinstance(ci, list) and len(ci) == 2 and 0 < ci[0] <= d["scaling_efficiency"] <= ci[1]):
                fail(f"{spec}: scaling efficiency {d['scaling_efficiency']} outside its interval {ci}")
            above = [w for w in r.get("warnings", []) if "is above 100%" in w]
            if (d["scaling_efficiency"] > 1.0) != bool(above):
                fail(f"{spec}: scaling efficiency {d['scaling_efficiency']} with warnings {above}")
            exposed = d.get("exposed_all_reduce_us")
            if not isinstance(exposed, (int, float)) or abs(exposed - (slowest - d["no_all_reduce_us"])) > 1e-9 * slowest:
                fail(f"{spec}: exposed all-reduce {exposed}, expected {slowest} - {d['no_all_reduce_us']}")
            if not d["params_identical"] or d.get("max_error_vs_one_process") is None:
                fail(f"{spec}: params identical {d['params_identical']}, error vs one process {d.get('max_error_vs_one_process')}")
            if d["gradient_bytes"] <= 0 or d["buckets"] < 1:
                fail(f"{spec}: {d['gradient_bytes']} gradient bytes in {d['buckets']} buckets")
        elif kind == "nodes":
            spec, expected = arg.split("=")
            nodes, ranks, transport = expected.split(",")
            d = record(spec).get("data_parallel") or {}
            seen = (d.get("nodes"), d.get("ranks_per_node"), d.get("transport"))
            if seen != (int(nodes), [int(n) for n in ranks.split("+")], transport) or not d.get("transport_basis"):
                fail(f"{spec}: nodes, ranks per node, transport {seen} ({d.get('transport_basis')}), expected {expected}")
        elif kind == "gradsync":
            spec, expected = arg.split("=")
            how, dtype, buckets = expected.split(",")
            d = record(spec).get("data_parallel") or {}
            seen = ("overlapped" if d.get("overlapped") else "after", d.get("grad_dtype"), str(d.get("buckets")))
            if seen != (how, dtype, buckets):
                fail(f"{spec}: gradients averaged {seen}, expected {(how, dtype, buckets)}")
        elif kind == "chunks":
            spec, expected = arg.split("=", 1)
            cap, _, params = expected.partition(":")
            d = record(spec).get("data_parallel") or {}
            wanted = [(p.split("=")[0], [int(n) for n in p.split("=")[1].split("+")]) for p in params.split(",") if p]
            seen = [(c.get("param"), c.get("rows")) for c in d.get("chunked_gradients", [])]
            if d.get("chunk_cap_bytes") != int(cap) or seen != wanted:
                fail(f"{spec}: chunk cap {d.get('chunk_cap_bytes')}, chunked {seen}, expected {cap}, {wanted}")
        elif kind == "settings":
            spec, expected = arg.split("=", 1)
            d = record(spec).get("data_parallel") or {}
            settings = d.get("backend_settings")
            if not isinstance(settings, dict):
                fail(f"{spec}: backend settings {settings!r}, expected an object")
            for item in expected.split(","):
                if item.startswith("-"):
                    if item[1:] in settings:
                        fail(f"{spec}: backend settings hold {item[1:]}, expected it left out: {settings}")
                else:
                    name, value = item.split("=", 1)
                    if settings.get(name) != value:
                        fail(f"{spec}: backend settings {settings}, expected {name}={value}")
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
        elif kind == "repetitions":
            spec, counts = arg.split("=")
            succeeded, requested = (int(n) for n in counts.split("/"))
            r = record(spec)
            reps = r.get("repetitions")
            if not reps:
                fail(f"{spec}: no repetitions")
            if (reps["succeeded"], reps["requested"]) != (succeeded, requested):
                fail(f"{spec}: ok in {reps['succeeded']} of {reps['requested']} repetitions, expected {counts}")
            ok = [run for run in reps["runs"] if run["status"] == "ok"]
            if len(ok) != succeeded or len(reps["runs"]) > requested:
                fail(f"{spec}: repetitions.runs {reps['runs']}")
            if sum(run["samples"] for run in ok) != len(r["samples_us"]):
                fail(f"{spec}: {len(r['samples_us'])} samples, the ok repetitions had {[run['samples'] for run in ok]}")
            if any(not (run["median_us"] > 0 and run["median_ci95"]) for run in ok):
                fail(f"{spec}: an ok repetition without its median and interval: {ok}")
            low, high = reps["median_ci95"]
            if not low <= r["median_us"] <= high:
                fail(f"{spec}: median_us {r['median_us']} outside repetitions.median_ci95 [{low}, {high}]")
            if r["variant"] != "eager":
                low, high = r["speedup_ci95"]
                if not low <= r["speedup_vs_eager"] <= high:
                    fail(f"{spec}: speedup {r['speedup_vs_eager']} outside speedup_ci95 [{low}, {high}]")
        elif kind == "absent":
            case, variant = arg.split("/", 1)
            if (case, variant) in records:
                fail(f"{arg}: present, expected absent")
        elif kind == "interrupted":
            expected = arg != "no"
            if report.get("interrupted") != expected:
                fail(f"interrupted is {report.get('interrupted')}, expected {expected}")
            if expected and report.get("interrupted_by") != arg:
                fail(f"interrupted_by is {report.get('interrupted_by')}, expected {arg}")
        elif kind == "null":
            spec, field = arg.split("=")
            value = record(spec)
            for part in field.split("."):
                value = value[part]
            if value is not None:
                fail(f"{spec}: {field} is {value!r}, expected null")
        elif kind == "envnull":
            if report["environment"][arg] is not None:
                fail(f"environment.{arg} is {report['environment'][arg]!r}, expected null")
        elif kind == "reason":
            spec, regex = arg.split("=", 1)
            if not re.search(regex, record(spec).get("reason") or ""):
                fail(f"{spec}: reason {record(spec).get('reason')!r} does not match /{regex}/")
        elif kind == "files":
            directory, names = arg.split("=")
            present = sorted(n for n in os.listdir(directory) if n.startswith("results.") or ".tmp-" in n)
            if present != sorted(names.split(",")):
                fail(f"{directory}: holds {present}, expected {sorted(names.split(','))}")
        elif kind == "gbench":
            with open(arg, encoding="utf-8") as f:
                doc = json.load(f)
            context = doc["context"]
            for key in ("date", "host_name", "executable", "library_build_type"):
                if not isinstance(context.get(key), str):
                    fail(f"{arg}: context.{key} is {context.get(key)!r}")
            for key in ("num_cpus", "mhz_per_cpu", "cpu_scaling_enabled", "caches", "load_avg", "json_schema_version"):
                if key not in context:
                    fail(f"{arg}: no context.{key}")
            names = set()
            iterations = {}  # run_name -> repetitions seen
            for b in doc["benchmarks"]:
                keys = ["name", "run_name", "run_type", "repetitions", "threads", "iterations", "real_time",
                        "cpu_time", "time_unit"]
                keys += ["aggregate_name", "aggregate_unit"] if b.get("run_type") == "aggregate" else ["repetition_index"]
                for key in keys:
                    if key not in b:
                        fail(f"{arg}: {b.get('name')}: no {key}")
                if not isinstance(b["real_time"], (int, float)) or b["time_unit"] not in ("ns", "us", "ms", "s"):
                    fail(f"{arg}: {b['name']}: real_time {b['real_time']!r} {b['time_unit']!r}")
                if b.get("run_type") == "iteration":
                    iterations[b["run_name"]] = iterations.get(b["run_name"], 0) + 1
                names.add(b["name"])
            for (case, variant), r in records.items():
                name = f"{case}/{variant}"
                if name not in names:
                    fail(f"{arg}: no benchmark {name}")
                # An ok record's samples are its repetitions, summarised by the aggregates.
                if r.get("status") == "ok" and r.get("samples_us"):
                    if iterations.get(name) != len(r["samples_us"]):
                        fail(f"{arg}: {name}: {iterations.get(name)} repetitions, {len(r['samples_us'])} samples")
                    for aggregate in ("mean", "median", "stddev", "cv"):
                        if f"{name}_{aggregate}" not in names:
                            fail(f"{arg}: no aggregate {name}_{aggregate}")
        elif kind == "training":
            spec, field = arg.split(":", 1)
            key, value = field.split("=", 1)
            training = record(spec).get("training") or {}
            if str(training.get(key)) != value:
                fail(f"{spec}: training.{key} is {training.get(key)!r}, expected {value}")
        elif kind == "breakdown":
            training = record(arg).get("training") or {}
            parts = ("load_seconds", "setup_seconds", "capture_seconds", "train_seconds", "test_seconds",
                     "other_seconds")
            values = [training.get(p) for p in parts]
            if any(not isinstance(v, (int, float)) for v in values):
                fail(f"{arg}: breakdown missing: {dict(zip(parts, values))}")
            if not (training["load_seconds"] > 0 and training["train_seconds"] > 0 and training["test_seconds"] > 0):
                fail(f"{arg}: load, training and testing must take time: {dict(zip(parts, values))}")
            if abs(sum(values) - training["total_seconds"]) > 1e-6 * max(1.0, training["total_seconds"]):
                fail(f"{arg}: the breakdown adds up to {sum(values)}, the total is {training['total_seconds']}")
        elif kind == "method":
            spec, method = arg.split("=")
            r = record(spec)
            if r.get("method") != method:
                fail(f"{spec}: method {r.get('method')!r}, expected {method!r}")
        elif kind == "scope":
            spec, scope = arg.rsplit("=", 1)
            r = record(spec)
            if r.get("scope", "full") != scope:
                fail(f"{spec}: scope {r.get('scope', 'full')!r}, expected {scope!r}")
        elif kind == "scopegroup":
            at = arg.index("=", arg.index("/"))  # the case may hold "=", the group too
            spec, group = arg[:at], arg[at + 1:]
            r = record(spec)
            if r.get("scope_group", "") != group:
                fail(f"{spec}: scope_group {r.get('scope_group')!r}, expected {group!r}")
        elif kind == "scopes":
            spec, count = arg.rsplit("=", 1)
            case, variant = spec.split("/", 1)
            verdicts = [v for v in report.get("scopes", []) if v["case"] == case and v["variant"] == variant]
            if len(verdicts) != 1:
                fail(f"{spec}: {len(verdicts)} scope verdicts, expected 1; have {report.get('scopes')}")
            v = verdicts[0]
            if len(v["scopes"]) != int(count):
                fail(f"{spec}: {len(v['scopes'])} scopes, expected {count}")
            if v["narrowest"] is None and not v.get("no_verdict"):
                fail(f"{spec}: no verdict and no reason why")
        elif kind == "cpu":
            r = record(arg)
            for key in ("issue_median_us", "host_bound", "l2", "profile", "memory", "back_to_back_us"):
                if key not in r or r[key] is not None:
                    fail(f"{arg}: {key} is {r.get(key, '(absent)')!r}, expected null on the CPU")
            if r.get("issue_samples_us") != [] or r.get("graphs") != []:
                fail(f"{arg}: issue_samples_us and graphs should be empty on the CPU")
        elif kind == "explained":
            r = record(arg)
            if r["status"] != "ok":
                fail(f"{arg}: {r['status']} ({r.get('reason')})")
            p = r.get("profile") or {}
            for key in ("kernels_per_step", "busy_us_per_step", "busy_share"):
                if not (isinstance(p.get(key), (int, float)) and p[key] > 0):
                    fail(f"{arg}: profile.{key} is {p.get(key)!r}")
            if not (isinstance(r.get("issue_median_us"), (int, float)) and r["issue_median_us"] > 0):
                fail(f"{arg}: issue_median_us is {r.get('issue_median_us')!r}")
            if not isinstance(r.get("host_bound"), bool):
                fail(f"{arg}: host_bound is {r.get('host_bound')!r}")
            if r.get("l2") == "hot" and not (isinstance(r.get("back_to_back_us"), (int, float)) and r["back_to_back_us"] > 0):
                fail(f"{arg}: back_to_back_us is {r.get('back_to_back_us')!r}")
            m = r.get("memory") or {}
            if not (isinstance(m.get("peak_allocated_bytes"), int) and m["peak_allocated_bytes"] > 0):
                fail(f"{arg}: memory is {r.get('memory')!r}")
            if r.get("variant", "").find("graph") >= 0 and not r.get("graphs"):
                fail(f"{arg}: a graph variant without graphs")
        elif kind == "kernels":
            spec, n = arg.split("=")
            r = record(spec)
            seen = (r.get("profile") or {}).get("kernels_per_step")
            if seen is None or abs(seen - float(n)) > 0.01:
                fail(f"{spec}: {seen} kernels per step, expected {n}")
            for g in r.get("graphs") or []:
                if g.get("kernel_nodes") is not None and g["kernel_nodes"] != int(n):
                    fail(f"{spec}: its graph has {g['kernel_nodes']} kernel nodes, expected {n}")
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
