#!/usr/bin/env python3
"""Whether an NCCL all-reduce and a matrix product share the GPU: the all-reduce alone by size, the
large data-parallel step's last product alone (fc1's weight gradient, whole and in two row chunks),
and each beside an all-reduce launched just before it on a high-priority side stream, as the
overlapped backward pass launches them. Run under torchrun on two GPUs:

    python3 -m torch.distributed.run --standalone --nproc-per-node 2 scripts/all_reduce_overlap.py

Rank 0 prints one line per figure: CUDA events around 20 back-to-back calls, after 5 untimed. Side
by side close to the longer of the two means they overlap; close to their sum means they took
turns (the product's blocks hold every multiprocessor, so the all-reduce's wait for them).
"""

import os
import sys

import torch
import torch.distributed as dist

from python_baseline import sample_us  # CUDA events around back-to-back calls

CALLS = 20
ALONE_MIB = (1, 4, 8, 16, 32, 40)
BESIDE_MIB = (8, 16, 32)


def per_call_us(fn):
    for _ in range(5):
        fn()
    torch.cuda.synchronize()
    dist.barrier()
    torch.cuda.synchronize()
    return sample_us(fn, CALLS)


def main():
    if "RANK" not in os.environ:
        print("all_reduce_overlap.py: run it under torchrun (python3 -m torch.distributed.run --nproc-per-node 2 ...)",
              file=sys.stderr)
        return 2
    rank = int(os.environ["RANK"])
    torch.cuda.set_device(int(os.environ.get("LOCAL_RANK", rank)))
    dist.init_process_group("nccl")
    say = print if rank == 0 else (lambda *a, **k: None)
    say(f"{torch.cuda.get_device_name()}, {dist.get_world_size()} ranks, NCCL {'.'.join(map(str, torch.cuda.nccl.version()))}")
    for mib in ALONE_MIB:
        x = torch.ones(mib * 2**18, device="cuda")
        us = per_call_us(lambda: dist.all_reduce(x))
        say(f"all-reduce {mib:3d} MiB float32 alone: {us:7.1f} us ({mib * 2**20 / us / 1e3:.0f} GB/s)")
    # fc1 of configs/ddp.json's large case: the weight gradient grad_out^T x, [2048, 640] x [640, 4096].
    grad_out = torch.randn(640, 2048, device="cuda")
    x_in = torch.randn(640, 4096, device="cuda")
    side = torch.cuda.Stream(priority=-1)
    for rows in (2048, 1024):
        product = lambda: grad_out[:, :rows].t() @ x_in  # noqa: E731
        product_us = per_call_us(product)
        say(f"fc1 weight-gradient product, {rows} rows, alone: {product_us:.1f} us")
        for mib in BESIDE_MIB:
            buffer = torch.ones(mib * 2**18, device="cuda")

            def side_by_side():
                side.wait_stream(torch.cuda.current_stream())
                with torch.cuda.stream(side):
                    dist.all_reduce(buffer)
                product()
                torch.cuda.current_stream().wait_stream(side)

            alone = per_call_us(lambda: dist.all_reduce(buffer))
            both = per_call_us(side_by_side)
            say(f"  beside a {mib:2d} MiB all-reduce ({alone:.1f} us alone): {both:.1f} us "
                f"(longer of the two {max(alone, product_us):.1f}, sum {alone + product_us:.1f})")
    dist.destroy_process_group()
    return 0


if __name__ == "__main__":
    sys.exit(main())
