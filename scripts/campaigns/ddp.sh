# shellcheck shell=bash
# Stages of scripts/campaigns/run.sh (sourced by it): data-parallel campaigns on two GPUs
# (docs/distributed.md).
#
#   ddp       configs/ddp.json data-parallel with --nproc 1 and --nproc 2 (one GPU per rank,
#             NVLink multicast off; $DDP_ARGS, default --max-time 4), results in results/ddp-n1 and
#             results/ddp-n2; then its benchmark cases as before the overlap (--grad-overlap off
#             --grad-bucket-mb 25: the all-reduce after backward) at N=1 and N=2, in
#             results/ddp-before-n1 and -n2; prints both tables (scripts/ddp_table.py: the step
#             at N=1 and N=2, without all-reduce, the exposed all-reduce, the all-reduce alone,
#             the scaling efficiency, per case)
#   ddp-bf16  the benchmark cases of configs/ddp.json with --grad-dtype bfloat16 at N=2, in
#             results/ddp-bf16-n2, and its table (after the ddp stage: with its N=1 run)
#   ddp-trace first scripts/all_reduce_overlap.py on both GPUs (the all-reduce alone by size, fc1's
#             weight-gradient product alone, and the two side by side: whether they share the
#             GPU); then configs/ddp.json's large case at N=2, graph variant,
#             traced on both ranks (--trace), without and with gradient chunks (--grad-chunk-mb
#             for each of $DDP_TRACE_CHUNKS, default "0 16"), in results/ddp-trace-chunksC, each with a
#             timeline.png of one step of rank 0 above rank 1
#   ddp-copy-engine  configs/ddp.json's benchmark cases with --grad-transport copy-engine at N=1 and
#             N=2 (results/ddp-ce-n1, -n2), the large case also with --grad-chunk-mb $DDP_CHUNK_MB
#             (default 8) at N=2 (results/ddp-ce-chunks-n2), and their tables
#   ddp-chunks  configs/ddp.json's large case with gradient chunks (--grad-chunk-mb $DDP_CHUNK_MB,
#             default 8: fc1.weight's gradient computed and all-reduced in four row chunks) at
#             N=1 and N=2, in results/ddp-chunks-n1 and -n2, and its table, beside the ddp
#             stage's (unchunked) one
#   ddp-four  four GPUs: configs/ddp.json's timed cases at N=1 and N=4 as configured (auto: NCCL at
#             four ranks), with the levers at N=4 (--grad-transport copy-engine with 8 MiB chunks,
#             --grad-dtype bfloat16), and PyTorch's DDP at N=4 in the same call; results in
#             results/ddp-four/ with their tables
#   ddp-python  PyTorch's own DistributedDataParallel on configs/ddp.json's Linear+Dropout steps,
#             eager and in torch.cuda.graph, at N=1 and N=2 (scripts/python_ddp_baseline.py), in
#             results/python-ddp.json and .md; beside the ddp stage's N=2 figures when it ran first

# The timed (benchmark) cases of configs/ddp.json: the runs beside the main one leave the training run out.
DDP_BENCHMARKS=ddp-linear-dropout-small,ddp-linear-dropout-large,ddp-mnist-step

# The launcher keeps NVLink multicast off in its ranks; exported for the data-parallel stages too,
# so that every process of this job (torchrun's included) sees the same settings.
nvlink_multicast_off() {
  export NCCL_NVLS_ENABLE=${NCCL_NVLS_ENABLE:-0} TORCH_SYMM_MEM_DISABLE_MULTICAST=${TORCH_SYMM_MEM_DISABLE_MULTICAST:-1}
  export NVSHMEM_DISABLE_NVLS=${NVSHMEM_DISABLE_NVLS:-1}
}

stage_ddp() {
  nvlink_multicast_off
  nvidia-smi topo -m > "$OUT/logs/nvidia-smi-topo.log" 2>&1
  read -r -a ddp_args <<< "${DDP_ARGS:---max-time 4}"
  run ddp-n1 "$gb" run --config configs/ddp.json --nproc 1 "${ddp_args[@]}" -o "$OUT/results/ddp-n1" || status=1
  run ddp-n2 "$gb" run --config configs/ddp.json --nproc 2 "${ddp_args[@]}" -o "$OUT/results/ddp-n2" || status=1
  for n in 1 2; do
    run "ddp-before-n$n" "$gb" run --config configs/ddp.json --nproc "$n" "${ddp_args[@]}" --cases "$DDP_BENCHMARKS" \
      --grad-overlap off --grad-bucket-mb 25 -o "$OUT/results/ddp-before-n$n" || status=1
  done
  run ddp-table-before python3 scripts/ddp_table.py "$OUT/results/ddp-before-n2/results.json" \
    --n1 "$OUT/results/ddp-before-n1/results.json" --title "Before: the all-reduce after the backward pass" || status=1
  run ddp-table python3 scripts/ddp_table.py "$OUT/results/ddp-n2/results.json" --n1 "$OUT/results/ddp-n1/results.json" \
    --title "After: each bucket all-reduced during the backward pass" || status=1
}

stage_ddp_bf16() {
  nvlink_multicast_off
  read -r -a ddp_args <<< "${DDP_ARGS:---max-time 4}"
  run ddp-bf16-n2 "$gb" run --config configs/ddp.json --nproc 2 "${ddp_args[@]}" --cases "$DDP_BENCHMARKS" \
    --grad-dtype bfloat16 -o "$OUT/results/ddp-bf16-n2" || status=1
  n1=()
  [[ -f $OUT/results/ddp-n1/results.json ]] && n1=(--n1 "$OUT/results/ddp-n1/results.json")
  run ddp-table-bf16 python3 scripts/ddp_table.py "$OUT/results/ddp-bf16-n2/results.json" "${n1[@]}" \
    --title "bfloat16 gradients (N=1 column: float32)" || status=1
}

stage_ddp_trace() {
  # The large case at N=2 traced on both ranks, unchunked and with gradient chunks; one step of
  # rank 0 above rank 1 drawn for each (where the all-reduces run beside backward's products).
  nvlink_multicast_off
  run all-reduce-overlap "${PYTHON:-python3}" -m torch.distributed.run --standalone --nproc-per-node 2 scripts/all_reduce_overlap.py \
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
  nvlink_multicast_off
  read -r -a ddp_args <<< "${DDP_ARGS:---max-time 4}"
  chunk_mb=${DDP_CHUNK_MB:-8}
  for n in 1 2; do
    run "ddp-ce-n$n" "$gb" run --config configs/ddp.json --nproc "$n" "${ddp_args[@]}" --cases "$DDP_BENCHMARKS" \
      --grad-transport copy-engine -o "$OUT/results/ddp-ce-n$n" || status=1
  done
  run ddp-ce-chunks-n2 "$gb" run --config configs/ddp.json --nproc 2 "${ddp_args[@]}" --cases ddp-linear-dropout-large \
    --grad-transport copy-engine --grad-chunk-mb "$chunk_mb" -o "$OUT/results/ddp-ce-chunks-n2" || status=1
  run ddp-table-ce python3 scripts/ddp_table.py "$OUT/results/ddp-ce-n2/results.json" --n1 "$OUT/results/ddp-ce-n1/results.json" \
    --title "The copy-engine all-reduce (--grad-transport copy-engine)" || status=1
  run ddp-table-ce-chunks python3 scripts/ddp_table.py "$OUT/results/ddp-ce-chunks-n2/results.json" \
    --n1 "$OUT/results/ddp-ce-n1/results.json" \
    --title "The copy-engine all-reduce with gradient chunks (--grad-chunk-mb $chunk_mb)" || status=1
}

stage_ddp_chunks() {
  nvlink_multicast_off
  read -r -a ddp_args <<< "${DDP_ARGS:---max-time 4}"
  chunk_mb=${DDP_CHUNK_MB:-8}
  for n in 1 2; do
    run "ddp-chunks-n$n" "$gb" run --config configs/ddp.json --nproc "$n" "${ddp_args[@]}" \
      --cases ddp-linear-dropout-large --grad-chunk-mb "$chunk_mb" -o "$OUT/results/ddp-chunks-n$n" || status=1
  done
  run ddp-table-chunks python3 scripts/ddp_table.py "$OUT/results/ddp-chunks-n2/results.json" \
    --n1 "$OUT/results/ddp-chunks-n1/results.json" --title "With gradient chunks (--grad-chunk-mb $chunk_mb)" || status=1
}

stage_ddp_python() {
  nvlink_multicast_off
  gb_n2=()
  [[ -f $OUT/results/ddp-n2/results.json ]] && gb_n2=(--graphbench "$OUT/results/ddp-n2/results.json")
  run ddp-python "${PYTHON:-python3}" scripts/python_ddp_baseline.py --config configs/ddp.json --nproc 2 "${gb_n2[@]}" \
    -o "$OUT/results/python-ddp.json" || status=1
}

stage_ddp_four() {
  nvlink_multicast_off
  local dest=$OUT/results/ddp-four
  read -r -a ddp_args <<< "${DDP_ARGS:---max-time 3 --variants eager,graph}"
  run four-n1 "$gb" run --config configs/ddp.json --nproc 1 "${ddp_args[@]}" --cases "$DDP_BENCHMARKS" -o "$dest/n1" || status=1
  run four-n4 "$gb" run --config configs/ddp.json --nproc 4 "${ddp_args[@]}" --cases "$DDP_BENCHMARKS" -o "$dest/n4" || status=1
  run four-n4-ce "$gb" run --config configs/ddp.json --nproc 4 "${ddp_args[@]}" --cases "$DDP_BENCHMARKS" \
    --grad-transport copy-engine --grad-chunk-mb 8 -o "$dest/n4-copy-engine" || status=1
  run four-n4-bf16 "$gb" run --config configs/ddp.json --nproc 4 "${ddp_args[@]}" --cases "$DDP_BENCHMARKS" \
    --grad-dtype bfloat16 -o "$dest/n4-bf16" || status=1
  for v in n4 n4-copy-engine n4-bf16; do
    run "four-table-$v" python3 scripts/ddp_table.py "$dest/$v/results.json" --n1 "$dest/n1/results.json" --title "N=4: $v" || status=1
    cp "$OUT/logs/four-table-$v.log" "$dest/table-$v.md" 2>/dev/null || true
  done
  run four-python "${PYTHON:-python3}" scripts/python_ddp_baseline.py --config configs/ddp.json --nproc 4 \
    --graphbench "$dest/n4/results.json" -o "$dest/python-ddp.json" || status=1
}

# two-node: configs/ddp.json's steps as two torchrun nodes of one GPU each on this two-GPU host
# (two agents, --nnodes 2, a c10d rendezvous on 127.0.0.1), NCCL kept off shared memory and peer
# access so that it uses its network transport as between hosts; beside it the same steps in a
# world of one, and PyTorch's DDP with the same NCCL settings (scripts/python_ddp_baseline.py,
# its own two processes). NCCL's own account of the transport (NCCL_DEBUG=INFO) is kept in
# nccl-transport.txt beside what the records derived. Results in results/two-node/.
stage_two_node() {
  nvlink_multicast_off
  local dest=$OUT/results/two-node port=${TWO_NODE_PORT:-29533} gate r
  mkdir -p "$dest"
  read -r -a ddp_args <<< "${DDP_ARGS:---max-time 4}"
  gate=$(cd "$(dirname "$gb")" && pwd)/$(basename "$gb")
  run two-node-n1 "$gb" run --config configs/ddp.json --nproc 1 "${ddp_args[@]}" -o "$dest/one-rank" || status=1
  for r in 1 0; do
    CUDA_VISIBLE_DEVICES=$r NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 NCCL_DEBUG=INFO \
      timeout 300 torchrun --nnodes 2 --node-rank "$r" --nproc-per-node 1 --rdzv-backend c10d \
      --rdzv-endpoint "127.0.0.1:$port" --no-python "$gate" run --config configs/ddp.json "${ddp_args[@]}" \
      -o "$dest/two-nodes" > "$OUT/logs/two-node-node$r.log" 2>&1 &
  done
  wait || status=1
  for r in 0 1; do tail -n 30 "$OUT/logs/two-node-node$r.log"; done
  grep -hE "via NET|nNodes|NET/Socket|Using network" "$OUT"/logs/two-node-node*.log | sort -u | head -n 20 > "$dest/nccl-transport.txt"
  [[ -f $dest/two-nodes/results.json ]] || status=1
  NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 run two-node-python "${PYTHON:-python3}" scripts/python_ddp_baseline.py \
    --config configs/ddp.json --nproc 2 --graphbench "$dest/two-nodes/results.json" -o "$dest/python-ddp.json" || status=1
  cp "$OUT/logs/two-node-python.log" "$dest/python-ddp.md"
}
