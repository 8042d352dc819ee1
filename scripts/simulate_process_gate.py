"""The default gate's rule (compare/process_rule.h) and the hierarchical interval
(stats/hierarchical_bootstrap.h) simulated on committed runs: the eight one-process ci runs of
results/NVIDIA-H100/ci-calibration, the first R rounds of each taken as one process, every split
of the eight into two runs of four. Prints how often the two runs' 95% speedup intervals overlap,
how often a plain compare of unchanged code would fail (both ways), and how often a doubled graph
step is caught. Rounds are resampled one by one here (graphbench uses blocks), so the intervals
are if anything narrower than graphbench's. Needs numpy.

    python3 scripts/simulate_process_gate.py [ROUNDS=400] [ALPHA=0.05]
"""
import json, glob, math, itertools, os, sys
import numpy as np
rng = np.random.default_rng(1)
ALPHA = float(sys.argv[2]) if len(sys.argv) > 2 else 0.05
R = int(sys.argv[1]) if len(sys.argv) > 1 else 400
runs = [json.load(open(f)) for f in sorted(glob.glob(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'results', 'NVIDIA-H100', 'ci-calibration', 'run-*.json')))]
keys = [(r['case'], r['variant']) for r in runs[0]['records']]
proc = {k: [] for k in keys}
for d in runs:
    for r in d['records']:
        proc[(r['case'], r['variant'])].append(np.array(r['samples_us'][:R]))
T975 = {1: 12.706, 2: 4.303, 3: 3.182446, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365}
def expansion(n): return math.sqrt(n/(n-1)) * T975[n-1] / 1.959964
def tcdf(t, dof):
    xs = np.linspace(-60, t, 200001)
    pdf = math.gamma((dof+1)/2)/(math.sqrt(dof*math.pi)*math.gamma(dof/2))*(1+xs**2/dof)**(-(dof+1)/2)
    return float(np.trapezoid(pdf, xs))
def hier(num, den, B=400):
    n = len(num)
    point = np.median(np.concatenate(num)) / (np.median(np.concatenate(den)) if den else 1.0)
    logs = []
    for _ in range(B):
        pick = rng.integers(0, n, n)
        a = []; b = []
        for p in pick:
            m = len(num[p]); idx = rng.integers(0, m, m)  # iid rounds (block length ignored here)
            a.append(num[p][idx]);
            if den: b.append(den[p][idx])
        v = np.median(np.concatenate(a)) / (np.median(np.concatenate(b)) if den else 1.0)
        logs.append(math.log(v))
    lo, hi = np.quantile(logs, [0.025, 0.975]); c = math.log(point); k = expansion(n)
    return math.exp(c - k*max(0, c-lo)), math.exp(c + k*max(0, hi-c))
def holm(ps, alpha=ALPHA):
    order = sorted(range(len(ps)), key=lambda i: ps[i]); rej = [False]*len(ps); m = len(ps)
    for j, i in enumerate(order):
        if ps[i] <= alpha/(m-j): rej[i] = True
        else: break
    return rej
def gate(A, B, slow=1.0, metric='time'):
    ps = []; ratios = []
    for k in keys:
        if metric == 'time':
            va = [np.median(x) for x in proc_sub(k, A)]
            vb = [np.median(x)*(slow if k[1] == 'graph' else 1) for x in proc_sub(k, B)]
        la = np.log(va); lb = np.log(vb)
        s = math.sqrt((((la-la.mean())**2).sum() + ((lb-lb.mean())**2).sum())/(len(la)+len(lb)-2))
        sd = max(s*math.sqrt(1/len(la)+1/len(lb)), 1e-6)
        t = (lb.mean()-la.mean())/sd
        ps.append(1 - tcdf(t, len(la)+len(lb)-2)); ratios.append(math.exp(lb.mean()-la.mean()))
    rej = holm(ps)
    return [keys[i] for i in range(len(keys)) if rej[i] and ratios[i] > 1.05]
def proc_sub(k, idx): return [proc[k][i] for i in idx]
pairs = []
for A in itertools.combinations(range(8), 4):
    B = tuple(i for i in range(8) if i not in A)
    if A < B: pairs.append((A, B))
over = tot = 0; misses = []
fa = 0; caught = 0; ncmp = 0
for A, B in pairs:
    for case in sorted(set(k[0] for k in keys)):
        ia = hier(proc_sub((case,'eager'),A), proc_sub((case,'graph'),A))
        ib = hier(proc_sub((case,'eager'),B), proc_sub((case,'graph'),B))
        tot += 1
        if max(ia[0], ib[0]) <= min(ia[1], ib[1]): over += 1
        else: misses.append((case, A, ia, ib))
    for X, Y in ((A, B), (B, A)):
        ncmp += 1
        if gate(X, Y): fa += 1; print('false alarm', X, Y, gate(X, Y))
        if gate(X, Y, slow=2.0): caught += 1
print(f'R={R}: speedup overlap {over}/{tot}; no-change compares failing {fa}/{ncmp}; doubled graph caught {caught}/{ncmp}')
for m in misses[:5]: print('apart', m)
