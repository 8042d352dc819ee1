# shellcheck shell=bash
# Stages of scripts/campaigns/run.sh (sourced by it): data-parallel campaigns (docs/distributed.md).
# Runs of configs/ddp.json ($DDP_ARGS, default --max-time 4), a GPU per rank, NVLink multicast off,
# into results/NAME; tables by scripts/ddp_table.py, at N=1 beside N=2 (or 4).
#   ddp       --nproc 1 and 2, then as before the overlap (the all-reduce after backward)
#   ddp-bf16  --grad-dtype bfloat16 at N=2 (its N=1 column the ddp stage's run, when it ran first)
#   ddp-trace scripts/all_reduce_overlap.py (do the all-reduce and fc1's weight-gradient product share
#             the GPU?), then the large case at N=2 traced on both ranks, for each --grad-chunk-mb of
#             $DDP_TRACE_CHUNKS (default "0 16"), one step of rank 0 above rank 1 drawn
#   ddp-copy-engine  --grad-transport copy-engine at N=1 and 2, and with --grad-chunk-mb $DDP_CHUNK_MB
#   ddp-chunks  the large case with --grad-chunk-mb $DDP_CHUNK_MB (default 8) at N=1 and 2
#   ddp-four  four GPUs ($DDP_ARGS default --max-time 3 --variants eager,graph): N=1 and 4, the
#             levers at N=4 and PyTorch's DDP (results/ddp-four/)
#   ddp-python  PyTorch's DistributedDataParallel on the same steps (scripts/python_ddp_baseline.py)
#   two-node  two torchrun nodes of one GPU each on this host (rendezvous on 127.0.0.1:$TWO_NODE_PORT),
#             NCCL kept off shared memory and peer access so that it uses its network transport,
#             beside one rank and PyTorch's DDP (results/two-node/, NCCL's account in nccl-transport.txt)

# The timed (benchmark) cases of configs/ddp.json: the runs beside the main one leave the training run out.
DDP_BENCHMARKS=ddp-linear-dropout-small,ddp-linear-dropout-large,ddp-mnist-step

# ddp_setup [DEFAULT ARGS]: NVLink multicast off for every process (as the launcher's ranks); ddp_args.
ddp_setup() {
  export NCCL_NVLS_ENABLE=${NCCL_NVLS_ENABLE:-0} TORCH_SYMM_MEM_DISABLE_MULTICAST=${TORCH_SYMM_MEM_DISABLE_MULTICAST:-1}
  export NVSHMEM_DISABLE_NVLS=${NVSHMEM_DISABLE_NVLS:-1}
  read -r -a ddp_args <<< "${DDP_ARGS:-${1:---max-time 4}}"
}
# ddp_run NAME N DEST [ARGS]: configs/ddp.json at --nproc N with $ddp_args and ARGS, into DEST.
ddp_run() { run "$1" "$gb" run --config configs/ddp.json --nproc "$2" "${ddp_args[@]}" "${@:4}" -o "$3" || status=1; }
# ddp_table NAME RUN RUN_N1 TITLE: the table of the results in the folder RUN beside those of RUN_N1.
ddp_table() { run "$1" python3 scripts/ddp_table.py "$2/results.json" --n1 "$3/results.json" --title "$4" || status=1; }

stage_ddp() {
  local r=$OUT/results n
  ddp_setup
  nvidia-smi topo -m > "$OUT/logs/nvidia-smi-topo.log" 2>&1
  ddp_run ddp-n1 1 "$r/ddp-n1"
  ddp_run ddp-n2 2 "$r/ddp-n2"
  for n in 1 2; do
    ddp_run "ddp-before-n$n" "$n" "$r/ddp-before-n$n" --cases "$DDP_BENCHMARKS" --grad-overlap off --grad-bucket-mb 25
  done
  ddp_table ddp-table-before "$r/ddp-before-n2" "$r/ddp-before-n1" "Before: the all-reduce after the backward pass"
  ddp_table ddp-table "$r/ddp-n2" "$r/ddp-n1" "After: each bucket all-reduced during the backward pass"
}

stage_ddp_bf16() {
  local n1=()
  ddp_setup
  ddp_run ddp-bf16-n2 2 "$OUT/results/ddp-bf16-n2" --cases "$DDP_BENCHMARKS" --grad-dtype bfloat16
  [[ -f $OUT/results/ddp-n1/results.json ]] && n1=(--n1 "$OUT/results/ddp-n1/results.json")
  run ddp-table-bf16 python3 scripts/ddp_table.py "$OUT/results/ddp-bf16-n2/results.json" "${n1[@]}" \
    --title "bfloat16 gradients (N=1 column: float32)" || status=1
}

stage_ddp_trace() {
  local chunks dir
  ddp_setup
  run all-reduce-overlap "$py" -m torch.distributed.run --standalone --nproc-per-node 2 scripts/all_reduce_overlap.py \
    || status=1
  for chunks in ${DDP_TRACE_CHUNKS:-0 16}; do
    dir="$OUT/results/ddp-trace-chunks$chunks"
    run "ddp-trace-chunks$chunks" "$gb" run --config configs/ddp.json --nproc 2 --max-time 2 --variants graph \
      --cases ddp-linear-dropout-large --grad-chunk-mb "$chunks" --trace "$dir" -o "$dir" || status=1
    run "ddp-trace-timeline-chunks$chunks" python3 scripts/trace_timeline.py \
      "$dir/ddp-linear-dropout-large.graph.rank0.trace.json" "$dir/ddp-linear-dropout-large.graph.rank1.trace.json" \
      --output "$dir/timeline.png" --title "Large data-parallel step, replayed: rank 0 above rank 1 (--grad-chunk-mb $chunks)" \
      || status=1
  done
}

stage_ddp_copy_engine() {
  local r=$OUT/results chunk_mb=${DDP_CHUNK_MB:-8} n
  ddp_setup
  for n in 1 2; do
    ddp_run "ddp-ce-n$n" "$n" "$r/ddp-ce-n$n" --cases "$DDP_BENCHMARKS" --grad-transport copy-engine
  done
  ddp_run ddp-ce-chunks-n2 2 "$r/ddp-ce-chunks-n2" --cases ddp-linear-dropout-large --grad-transport copy-engine \
    --grad-chunk-mb "$chunk_mb"
  ddp_table ddp-table-ce "$r/ddp-ce-n2" "$r/ddp-ce-n1" "The copy-engine all-reduce (--grad-transport copy-engine)"
  ddp_table ddp-table-ce-chunks "$r/ddp-ce-chunks-n2" "$r/ddp-ce-n1" \
    "The copy-engine all-reduce with gradient chunks (--grad-chunk-mb $chunk_mb)"
}

stage_ddp_chunks() {
  local r=$OUT/results chunk_mb=${DDP_CHUNK_MB:-8} n
  ddp_setup
  for n in 1 2; do
    ddp_run "ddp-chunks-n$n" "$n" "$r/ddp-chunks-n$n" --cases ddp-linear-dropout-large --grad-chunk-mb "$chunk_mb"
  done
  ddp_table ddp-table-chunks "$r/ddp-chunks-n2" "$r/ddp-chunks-n1" "With gradient chunks (--grad-chunk-mb $chunk_mb)"
}

stage_ddp_python() {
  local gb_n2=()
  ddp_setup
  [[ -f $OUT/results/ddp-n2/results.json ]] && gb_n2=(--graphbench "$OUT/results/ddp-n2/results.json")
  run ddp-python "$py" scripts/python_ddp_baseline.py --config configs/ddp.json --nproc 2 "${gb_n2[@]}" \
    -o "$OUT/results/python-ddp.json" || status=1
}

stage_ddp_four() {
  local dest=$OUT/results/ddp-four v
  ddp_setup "--max-time 3 --variants eager,graph"
  ddp_run four-n1 1 "$dest/n1" --cases "$DDP_BENCHMARKS"
  ddp_run four-n4 4 "$dest/n4" --cases "$DDP_BENCHMARKS"
  ddp_run four-n4-ce 4 "$dest/n4-copy-engine" --cases "$DDP_BENCHMARKS" --grad-transport copy-engine --grad-chunk-mb 8
  ddp_run four-n4-bf16 4 "$dest/n4-bf16" --cases "$DDP_BENCHMARKS" --grad-dtype bfloat16
  for v in n4 n4-copy-engine n4-bf16; do
    ddp_table "four-table-$v" "$dest/$v" "$dest/n1" "N=4: $v"
    cp "$OUT/logs/four-table-$v.log" "$dest/table-$v.md" 2>/dev/null || true
  done
  run four-python "$py" scripts/python_ddp_baseline.py --config configs/ddp.json --nproc 4 \
    --graphbench "$dest/n4/results.json" -o "$dest/python-ddp.json" || status=1
}

stage_two_node() {
  local dest=$OUT/results/two-node port=${TWO_NODE_PORT:-29533} r
  mkdir -p "$dest"
  ddp_setup
  ddp_run two-node-n1 1 "$dest/one-rank"
  for r in 1 0; do
    CUDA_VISIBLE_DEVICES=$r NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 NCCL_DEBUG=INFO \
      timeout 300 torchrun --nnodes 2 --node-rank "$r" --nproc-per-node 1 --rdzv-backend c10d \
      --rdzv-endpoint "127.0.0.1:$port" --no-python "$root/$gb" run --config configs/ddp.json "${ddp_args[@]}" \
      -o "$dest/two-nodes" > "$OUT/logs/two-node-node$r.log" 2>&1 &
  done
  wait || status=1
  for r in 0 1; do tail -n 30 "$OUT/logs/two-node-node$r.log"; done
  grep -hE "via NET|nNodes|NET/Socket|Using network" "$OUT"/logs/two-node-node*.log | sort -u | head -n 20 > "$dest/nccl-transport.txt"
  [[ -f $dest/two-nodes/results.json ]] || status=1
  NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 run two-node-python "$py" scripts/python_ddp_baseline.py \
    --config configs/ddp.json --nproc 2 --graphbench "$dest/two-nodes/results.json" -o "$dest/python-ddp.json" || status=1
  cp "$OUT/logs/two-node-python.log" "$dest/python-ddp.md"
}
