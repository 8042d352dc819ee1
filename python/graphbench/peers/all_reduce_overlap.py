"""Whether an NCCL all-reduce and a matrix product share the GPU: the all-reduce alone by size, the
large data-parallel step's last product (fc1's weight gradient, whole and in two row chunks) alone
with the kernel that ran it, and beside an all-reduce launched just before it on a high-priority
side stream (as the overlapped backward pass launches them); and NCCL's sum then a division by N
against NCCL's own average (ReduceOp.AVG). Run under torchrun:

    python3 -m torch.distributed.run --standalone --nproc-per-node 2 scripts/all_reduce_overlap.py

Rank 0 prints one line per figure (CUDA events around 20 back-to-back calls): side by side close to
the longer of the two means they overlap, close to their sum that they took turns. With one rank
(NCCL launches no kernel for it) only the products are timed. Exit codes: 0 done, 2 bad arguments
or not under torchrun.
"""

import argparse
import os
import sys
import tempfile

from ..results import read_json
from .timing import sample_us  # CUDA events around back-to-back calls

CALLS = 20
ALONE_MIB = (1, 4, 8, 16, 32, 40)
BESIDE_MIB = (8, 16, 32)
AVERAGE_MIB = (8, 32)
# fc1 of configs/ddp.json's large case: the weight gradient grad_out^T x, [2048, 640] x [640, 4096].
BATCH, IN_FEATURES, HIDDEN = 640, 4096, 2048


class Bench:
    """The process group, the side stream and the product's inputs of one rank."""

    def __init__(self, torch, dist):
        self.torch, self.dist = torch, dist
        self.rank = dist.get_rank()
        self.world = dist.get_world_size()
        self.side = torch.cuda.Stream(priority=-1)
        self.grad_out = torch.randn(BATCH, HIDDEN, device="cuda")
        self.x_in = torch.randn(BATCH, IN_FEATURES, device="cuda")

    def say(self, text):
        if self.rank == 0:
            print(text, flush=True)

    def per_call_us(self, fn):
        for _ in range(5):
            fn()
        self.torch.cuda.synchronize()
        self.dist.barrier()
        self.torch.cuda.synchronize()
        return sample_us(fn, CALLS)

    def kernels(self, fn):
        """The kernels one call ran: name, blocks, and blocks per multiprocessor (LibTorch's profiler)."""
        from torch.profiler import ProfilerActivity, profile

        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            fn()
            self.torch.cuda.synchronize()
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "trace.json")
            prof.export_chrome_trace(path)
            events = read_json(path, "trace")["traceEvents"]
        found = []
        for e in (e for e in events if e.get("cat") == "kernel"):
            grid = e.get("args", {}).get("grid", [1, 1, 1])
            blocks = grid[0] * grid[1] * grid[2]
            per_sm = e.get("args", {}).get("blocks per SM")
            found.append(f"{e['name'][:72]} ({blocks} blocks" + (f", {per_sm:.2f} per SM)" if per_sm else ")"))
        return "; ".join(found) or "no kernel"

    def all_reduce_alone(self):
        for mib in ALONE_MIB:
            x = self.torch.ones(mib * 2**18, device="cuda")
            us = self.per_call_us(lambda: self.dist.all_reduce(x))
            self.say(f"all-reduce {mib:3d} MiB float32 alone: {us:7.1f} us ({mib * 2**20 / us / 1e3:.0f} GB/s)")

    def average_ways(self):
        for mib in AVERAGE_MIB:
            x = self.torch.ones(mib * 2**18, device="cuda")

            def sum_then_divide():
                self.dist.all_reduce(x)
                x.div_(self.world)

            sum_div = self.per_call_us(sum_then_divide)
            average = self.per_call_us(lambda: self.dist.all_reduce(x, op=self.dist.ReduceOp.AVG))
            self.say(f"average of {mib:3d} MiB float32: sum then divide {sum_div:7.1f} us, "
                     f"NCCL's average {average:7.1f} us")

    def products(self, label):
        for rows in (HIDDEN, HIDDEN // 2):
            product = lambda: self.grad_out[:, :rows].t() @ self.x_in  # noqa: E731
            product_us = self.per_call_us(product)
            self.say(f"{label}: fc1 weight-gradient product, {rows} rows, alone: {product_us:.1f} us; {self.kernels(product)}")
            if self.world > 1:
                self.beside(product, product_us)

    def side_by_side(self, other, product):
        def both():
            self.side.wait_stream(self.torch.cuda.current_stream())
            with self.torch.cuda.stream(self.side):
                other()
            product()
            self.torch.cuda.current_stream().wait_stream(self.side)
        return both

    def beside(self, product, product_us):
        for mib in BESIDE_MIB:
            buffer = self.torch.ones(mib * 2**18, device="cuda")
            all_reduce = lambda: self.dist.all_reduce(buffer)  # noqa: E731
            alone = self.per_call_us(all_reduce)
            both = self.per_call_us(self.side_by_side(all_reduce, product))
            self.say(f"  beside a {mib:2d} MiB all-reduce ({alone:.1f} us alone): {both:.1f} us "
                     f"(longer of the two {max(alone, product_us):.1f}, sum {alone + product_us:.1f})")


def main(argv):
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args(argv)  # --help, and no arguments taken
    if "RANK" not in os.environ:
        print("all_reduce_overlap.py: run it under torchrun (python3 -m torch.distributed.run --nproc-per-node 2 ...)",
              file=sys.stderr)
        return 2
    import torch
    import torch.distributed as dist

    rank = int(os.environ["RANK"])
    torch.cuda.set_device(int(os.environ.get("LOCAL_RANK", rank)))
    sms = torch.cuda.get_device_properties(torch.cuda.current_device()).multi_processor_count
    dist.init_process_group("nccl")
    bench = Bench(torch, dist)
    bench.say(f"{torch.cuda.get_device_name()} ({sms} multiprocessors), {bench.world} rank{'s' if bench.world > 1 else ''}, "
              f"NCCL {'.'.join(map(str, torch.cuda.nccl.version()))}, PyTorch {torch.__version__}")
    if bench.world > 1:
        bench.all_reduce_alone()
        bench.average_ways()
    else:
        bench.say("one rank: NCCL launches no kernel for its all-reduce, so only the products are timed")
    bench.products("cuBLAS")
    dist.destroy_process_group()
    return 0
