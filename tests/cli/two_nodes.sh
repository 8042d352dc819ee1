#!/usr/bin/env bash
# Two torchrun nodes on this host, one CPU rank each, over Gloo: graphbench launched as users launch
# it on several nodes (two torchrun agents, --nnodes 2, --node-rank 0 and 1, one rendezvous
# endpoint), then its records checked: 2 nodes of 1 rank, Gloo, and "grad_transport" copy-engine
# refused across nodes with a reason that says so (docs/distributed.md, "Across nodes").
#   two_nodes.sh GRAPHBENCH SUITE OUT_DIR [TORCHRUN]
# TORCHRUN: a torchrun executable; default: GRAPHBENCH_TORCHRUN, else the venv that
# scripts/build-like-gpu.sh makes (~/.cache/graphbench/venv-torch-*/bin/torchrun), else PATH's.
# Exit 77 (skipped) where there is no torchrun; 0 when every check holds; 1 otherwise.
set -u
gb=$1 suite=$2 out=$3
torchrun=${4:-${GRAPHBENCH_TORCHRUN:-}}
if [[ -z $torchrun ]]; then
  for candidate in "$HOME"/.cache/graphbench/venv-torch-*/bin/torchrun; do
    [[ -x $candidate ]] && torchrun=$candidate
  done
fi
[[ -n $torchrun ]] || torchrun=$(command -v torchrun || true)
if [[ -z $torchrun || ! -x $torchrun ]]; then
  echo "two_nodes.sh: no torchrun (set GRAPHBENCH_TORCHRUN, or run scripts/build-like-gpu.sh once): skipped"
  exit 77
fi
python=$(dirname "$torchrun")/python
[[ -x $python ]] || python=python3

free_port() { "$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# run_two_nodes NAME GRAPHBENCH_ARGS...: both agents, in the background, then their exit codes in
# $out/NAME/exit.0 and exit.1, their output in node0.log and node1.log.
run_two_nodes() {
  local name=$1
  shift
  local dir=$out/$name port
  rm -rf "$dir" && mkdir -p "$dir"
  port=$(free_port)
  local pids=()
  for node in 0 1; do
    USE_LIBUV=0 "$torchrun" --nnodes 2 --node-rank "$node" --nproc-per-node 1 --rdzv-backend c10d \
      --rdzv-endpoint "127.0.0.1:$port" --rdzv-id "graphbench-two-nodes-$name" --max-restarts 0 --no-python \
      "$gb" run --config "$suite" --device cpu --dist-timeout 60 -o "$dir/results" "$@" > "$dir/node$node.log" 2>&1 &
    pids+=($!)
  done
  for node in 0 1; do
    wait "${pids[$node]}"
    echo $? > "$dir/exit.$node"
  done
}

status=0
fail() {
  echo "two_nodes.sh: $*" >&2
  status=1
}
show_logs() { for log in "$out/$1"/node*.log; do echo "--- $log"; cat "$log"; done; }

quick=(--min-samples 3 --max-samples 5 --min-time 0.02 --max-time 3 --warmup 1 --variants eager,static --cases ddp-small)

# 1. The run: both nodes exit 0, rank 0's records name 2 nodes of 1 rank on one host and Gloo.
run_two_nodes ok "${quick[@]}"
for node in 0 1; do
  [[ $(cat "$out/ok/exit.$node") == 0 ]] || fail "node $node exited $(cat "$out/ok/exit.$node"), expected 0"
done
"$python" - "$out/ok/results/results.json" <<'PY' || fail "the two-node records are not as expected"
import json, sys
path = sys.argv[1]
records = json.load(open(path))["records"]
checked = 0
for r in records:
    if r["case"] != "ddp-small" or r["variant"] not in ("eager", "static"):
        continue
    d = r.get("data_parallel") or {}
    want = {"world_size": 2, "backend": "gloo", "nodes": 2, "hosts": 1, "ranks_per_node": [1, 1],
            "transport": "gloo/tcp", "grad_transport": "collective"}
    got = {k: d.get(k) for k in want}
    if r["status"] != "ok" or got != want:
        sys.exit(f"{path}: ddp-small/{r['variant']}: status {r['status']}, data_parallel {got}; expected ok and {want}")
    checked += 1
if checked != 2:
    sys.exit(f"{path}: expected ddp-small's eager and static records, found {checked}")
print(f"{path}: 2 records name 2 nodes of 1 rank on 1 host, over gloo/tcp")
PY
grep -q "on 2 nodes of 1 rank (1 host), over gloo/tcp" "$out/ok/results/results.md" \
  || fail "$out/ok/results/results.md: no Communication line naming 2 nodes of 1 rank over gloo/tcp"
[[ $status == 0 ]] || show_logs ok

# 2. The copy engines across nodes: each case fails on both nodes (exit 1), saying why.
run_two_nodes copy-engine "${quick[@]}" --grad-transport copy-engine
for node in 0 1; do
  [[ $(cat "$out/copy-engine/exit.$node") == 1 ]] \
    || fail "copy-engine across nodes: node $node exited $(cat "$out/copy-engine/exit.$node"), expected 1"
done
grep -q "the ranks are on 2 nodes of 1 rank, and the copy engines and peer access reach the GPUs of one node only" \
  "$out/copy-engine/results/results.json" "$out/copy-engine/node0.log" \
  || { fail "copy-engine across nodes: no reason naming the nodes"; show_logs copy-engine; }
exit $status
