"""The default gate's rule (core/compare/process_rule.h) and the hierarchical interval
(core/stats/hierarchical_bootstrap.h) simulated on committed runs (results/NVIDIA-H100/ci-calibration,
the first ROUNDS rounds of each taken as one process) over every split into two halves: how often the
halves' 95% speedup intervals overlap, how often unchanged code fails a plain compare, and how often
a doubled graph step is caught. Needs numpy.

    python3 scripts/simulate_process_gate.py [ROUNDS=400] [ALPHA=0.05] [--runs DIR]

Exit codes: 0 printed, 2 bad input (no runs, a file that is not a results file, no numpy).
"""

import argparse
import glob
import itertools
import math
import os
import sys

from ..errors import BadInput
from ..results import read_results

PROG = "simulate_process_gate.py"
CHECKOUT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
DEFAULT_RUNS = os.path.join(CHECKOUT, "results", "NVIDIA-H100", "ci-calibration")

# Student's t, 97.5% quantile, by degrees of freedom (processes per run less one).
T975 = {1: 12.706, 2: 4.303, 3: 3.182446, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365}


def expansion(n):
    """The hierarchical interval's widening for n processes (core/stats/hierarchical_bootstrap.h)."""
    return math.sqrt(n / (n - 1)) * T975[n - 1] / 1.959964


def holm(ps, alpha):
    """Holm's procedure: which of the p-values `ps` are rejected at family-wise level `alpha`."""
    rej = [False] * len(ps)
    for j, i in enumerate(sorted(range(len(ps)), key=lambda i: ps[i])):
        if ps[i] > alpha / (len(ps) - j):
            break
        rej[i] = True
    return rej


def halves(n):
    """Every split of n runs into two halves, each split once (the half holding run 0 first)."""
    splits = ((a, tuple(i for i in range(n) if i not in a)) for a in itertools.combinations(range(n), n // 2))
    return [(a, b) for a, b in splits if a < b]


def read_runs(folder):
    """The run-*.json files of `folder`, in name order; BadInput naming what is wrong."""
    files = sorted(glob.glob(os.path.join(folder, "run-*.json")))
    if not files:
        raise BadInput(f"{folder}: no run-*.json files")
    if len(files) % 2 or not 2 <= len(files) // 2 <= max(T975) + 1:
        raise BadInput(f"{folder}: {len(files)} run-*.json files; expected an even number from 4 to {2 * (max(T975) + 1)}")
    return [read_results(path) for path in files]


def simulate(runs, rounds, alpha, out=print):
    import numpy as np

    rng = np.random.default_rng(1)
    keys = [(r.case, r.variant) for r in runs[0].records]
    proc = {k: [] for k in keys}
    for d in runs:
        for r in d.records:
            proc[(r.case, r.variant)].append(np.array(r["samples_us"][:rounds]))

    def proc_sub(k, idx):
        return [proc[k][i] for i in idx]

    def tcdf(t, dof):
        xs = np.linspace(-60, t, 200001)
        pdf = (math.gamma((dof + 1) / 2) / (math.sqrt(dof * math.pi) * math.gamma(dof / 2))
               * (1 + xs**2 / dof)**(-(dof + 1) / 2))
        # numpy 2 names it trapezoid; Debian 12's numpy 1.24 only trapz
        integrate = getattr(np, "trapezoid", None) or np.trapz
        return float(integrate(pdf, xs))

    def hier(num, den, B=400):
        n = len(num)
        point = np.median(np.concatenate(num)) / np.median(np.concatenate(den))
        logs = []
        for _ in range(B):
            pick = rng.integers(0, n, n)
            a, b = [], []
            for p in pick:
                m = len(num[p])
                idx = rng.integers(0, m, m)  # iid rounds (block length ignored here)
                a.append(num[p][idx])
                b.append(den[p][idx])
            v = np.median(np.concatenate(a)) / np.median(np.concatenate(b))
            logs.append(math.log(v))
        lo, hi = np.quantile(logs, [0.025, 0.975])
        c = math.log(point)
        k = expansion(n)
        return math.exp(c - k * max(0, c - lo)), math.exp(c + k * max(0, hi - c))

    def gate(A, B, slow=1.0):
        ps, ratios = [], []
        for k in keys:
            va = [np.median(x) for x in proc_sub(k, A)]
            vb = [np.median(x) * (slow if k[1] == "graph" else 1) for x in proc_sub(k, B)]
            la = np.log(va)
            lb = np.log(vb)
            s = math.sqrt((((la - la.mean())**2).sum() + ((lb - lb.mean())**2).sum()) / (len(la) + len(lb) - 2))
            sd = max(s * math.sqrt(1 / len(la) + 1 / len(lb)), 1e-6)
            t = (lb.mean() - la.mean()) / sd
            ps.append(1 - tcdf(t, len(la) + len(lb) - 2))
            ratios.append(math.exp(lb.mean() - la.mean()))
        rej = holm(ps, alpha)
        return [keys[i] for i in range(len(keys)) if rej[i] and ratios[i] > 1.05]

    over = tot = 0
    misses = []
    fa = caught = ncmp = 0
    for A, B in halves(len(runs)):
        for case in sorted(set(k[0] for k in keys)):
            ia = hier(proc_sub((case, "eager"), A), proc_sub((case, "graph"), A))
            ib = hier(proc_sub((case, "eager"), B), proc_sub((case, "graph"), B))
            tot += 1
            if max(ia[0], ib[0]) <= min(ia[1], ib[1]):
                over += 1
            else:
                misses.append((case, A, ia, ib))
        for X, Y in ((A, B), (B, A)):
            ncmp += 1
            if gate(X, Y):
                fa += 1
                out("false alarm", X, Y, gate(X, Y))
            caught += bool(gate(X, Y, slow=2.0))
    out(f"R={rounds}: speedup overlap {over}/{tot}; no-change compares failing {fa}/{ncmp}; doubled graph caught {caught}/{ncmp}")
    for m in misses[:5]:
        out("apart", m)


def parse_args(argv):
    p = argparse.ArgumentParser(prog=PROG, description="The default gate's rule and the hierarchical interval "
                                "simulated on committed one-process runs (needs numpy).")
    p.add_argument("rounds", nargs="?", type=int, default=400, help="rounds of each run taken as one process (default 400)")
    p.add_argument("alpha", nargs="?", type=float, default=0.05, help="the gate's family-wise level (default 0.05)")
    p.add_argument("--runs", default=DEFAULT_RUNS, help="folder of run-*.json files (default results/NVIDIA-H100/ci-calibration)")
    return p.parse_args(argv)


def main(argv):
    args = parse_args(argv)
    if args.rounds < 1 or not 0 < args.alpha < 1:
        raise BadInput(f"ROUNDS {args.rounds} and ALPHA {args.alpha}: expected ROUNDS >= 1 and 0 < ALPHA < 1")
    runs = read_runs(args.runs)
    try:
        import numpy  # noqa: F401
    except ImportError:
        raise BadInput(f"numpy is not installed in {sys.executable} (the simulation needs it)")
    simulate(runs, args.rounds, args.alpha)
    return 0
