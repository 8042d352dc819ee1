#!/usr/bin/env python3
"""Derives the training golden files of tests/core/compare_test.cpp from a real training run.

training_baseline.json is `graphbench run --config tests/cli/tiny_training.json`-style output of
one MNIST epoch on the CPU (eager and static, Debian's Fashion-MNIST); from it:
  training_slower.json            every time of every record x 1.5 (samples, statistics, totals,
                                  epoch times): a run 1.5x slower in everything
  training_less_accurate.json     the final test accuracy of every ok record 0.03 lower
  training_accuracy_within.json   the final test accuracy of every ok record 0.005 lower

make_training_variants.py DIR    (rewrites the three files in DIR from DIR/training_baseline.json)
"""
import copy
import json
import os
import sys

TIME_KEYS = ("median_us", "iqr_us", "min_us", "max_us", "mean_us", "stddev_us", "q1_us", "q3_us", "host_median_us")


def scaled(value, factor):
    return None if value is None else value * factor


def slower(report, factor=1.5):
    out = copy.deepcopy(report)
    for r in out["records"]:
        r["samples_us"] = [v * factor for v in r["samples_us"]]
        r["host_samples_us"] = [v * factor for v in r["host_samples_us"]]
        for key in TIME_KEYS:
            r[key] = scaled(r.get(key), factor)
        t = r.get("training")
        if t:
            t["total_seconds"] = scaled(t["total_seconds"], factor)
            t["median_step_us"] = scaled(t["median_step_us"], factor)
            for e in t["epochs"]:
                e["train_seconds"] = scaled(e["train_seconds"], factor)
                e["test_seconds"] = scaled(e["test_seconds"], factor)
    return out


def less_accurate(report, drop):
    out = copy.deepcopy(report)
    for r in out["records"]:
        t = r.get("training")
        if r["status"] == "ok" and t and t["epochs"]:
            t["epochs"][-1]["test_accuracy"] -= drop
    return out


def main():
    directory = sys.argv[1]
    with open(os.path.join(directory, "training_baseline.json"), encoding="utf-8") as f:
        base = json.load(f)
    for name, report in (("training_slower.json", slower(base)),
                         ("training_less_accurate.json", less_accurate(base, 0.03)),
                         ("training_accuracy_within.json", less_accurate(base, 0.005))):
        with open(os.path.join(directory, name), "w", encoding="utf-8") as f:
            json.dump(report, f, indent=2)
            f.write("\n")


if __name__ == "__main__":
    main()
