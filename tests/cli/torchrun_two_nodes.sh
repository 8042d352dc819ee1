#!/usr/bin/env bash
# Two torchrun nodes on this host, one agent each of NPROC ranks, meeting at a rendezvous on
# 127.0.0.1 (RDZV: c10d or static), run SUITE data-parallel over Gloo as users run it on two hosts
# (docs/distributed.md, "Several hosts"); rank 0's results.json must then name 2 nodes of NPROC
# ranks, the Gloo transport and params identical on every rank (check_results.py CHECK...).
# Exit 77, a skip, where there is no Gloo or no torch.distributed with Gloo (PYTHON's, or
# $GRAPHBENCH_TORCHRUN_PYTHON's where set, else Debian's).
#   torchrun_two_nodes.sh PYTHON GRAPHBENCH SUITE OUT_DIR RDZV NPROC [CHECK...] -- [GRAPHBENCH RUN ARGS...]
set -u
python=${GRAPHBENCH_TORCHRUN_PYTHON:-$1} gb=$2 suite=$3 out=$4 rdzv=$5 nproc=$6
shift 6
checks=()
while [[ $# -gt 0 && $1 != "--" ]]; do checks+=("$1"); shift; done
shift
if [[ -n ${GRAPHBENCH_NO_GLOO:-} ]]; then echo "skipped: $GRAPHBENCH_NO_GLOO"; exit 77; fi
# PYTHON, else Debian's (python3-torch), which a Python first on the path may hide.
torch=""
for candidate in "$python" /usr/bin/python3; do
  torch=$("$candidate" -c 'import torch, torch.distributed as d; assert d.is_gloo_available(); print(torch.__version__)' 2>/dev/null) &&
    python=$candidate && break
done
if [[ -z $torch ]]; then
  echo "skipped: neither $python nor /usr/bin/python3 has torch.distributed with Gloo, so no torchrun to test with (Debian: apt-get install python3-torch)"
  exit 77
fi
libtorch=$("$gb" --version | sed -n 's/.*(LibTorch \([0-9]*\.[0-9]*\).*/\1/p')
if [[ $(cut -d. -f1,2 <<<"$torch") != "$libtorch" ]]; then
  if [[ $rdzv == static ]]; then
    # A static rendezvous's store is torchrun's own, in a protocol this LibTorch's client may not speak.
    echo "skipped: a static rendezvous serves torchrun's own store, and torchrun of PyTorch $torch speaks another store protocol than graphbench's LibTorch $libtorch (use the torchrun of PyTorch $libtorch)"
    exit 77
  fi
  # torchrun's agent store may not understand this LibTorch's store client: rank 0 hosts the store.
  echo "torchrun of PyTorch $torch, graphbench's LibTorch $libtorch: TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1"
  export TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1
fi
port=$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
case $rdzv in
  c10d) rdzv_args=(--rdzv_backend c10d --rdzv_endpoint "127.0.0.1:$port" --rdzv_id graphbench-test) ;;
  static) rdzv_args=(--rdzv_backend static --master_addr 127.0.0.1 --master_port "$port") ;;
  *) echo "torchrun_two_nodes.sh: RDZV: expected c10d or static, got $rdzv" >&2; exit 2 ;;
esac
rm -rf "$out" && mkdir -p "$out"
# The options are spelled as torchrun 1.13 knows them. --redirects 1 --tee 1 (standard output through
# a log file, shown): with Python 3.11 torch 1.13's torchrun fails on its default, 0.
pids=()
for node in 0 1; do
  timeout 90 "$python" -m torch.distributed.run --nnodes 2 --node_rank "$node" --nproc_per_node "$nproc" \
    "${rdzv_args[@]}" --redirects 1 --tee 1 --log_dir "$out/torchrun-logs-$node" --no_python \
    "$gb" run --config "$suite" --device cpu -o "$out/results" "$@" >"$out/node$node.log" 2>&1 &
  pids+=($!)
done
failed=0
for node in 0 1; do
  wait "${pids[$node]}" || { echo "node $node: exit code $?"; failed=1; }
done
if [[ $failed != 0 ]]; then
  for node in 0 1; do echo "--- node $node"; tail -n 40 "$out/node$node.log"; done
  exit 1
fi
grep -h "Communication:" "$out"/node*.log
exec "$python" "$(dirname "$0")/check_results.py" "$out/results/results.json" "${checks[@]}"
