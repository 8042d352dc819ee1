"""What Python's timing peers share: per-call device time from CUDA events, the wall time of a block
of calls, the one way they capture a step in a CUDA graph (warm-up on a side stream, as PyTorch's
CUDA Graphs notes prescribe), the MNIST network, and the environment their files record. torch is
imported by the functions only."""

import statistics


def sample_us(fn, calls):
    """Per-call device time of `calls` back-to-back calls, in microseconds (CUDA events)."""
    import torch

    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(calls):
        fn()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) * 1000.0 / calls


def wall_seconds(fn, calls):
    """Wall time of `calls` calls of fn in seconds, the device synchronised before and after."""
    import time

    import torch

    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    torch.cuda.synchronize()
    return time.perf_counter() - start


def time_median_us(fn, options):
    """The median of options.samples samples of sample_us, each of as many calls (a power of two) as
    make it last options.min_sample_ms, after options.warmup calls."""
    import torch

    for _ in range(options.warmup):
        fn()
    torch.cuda.synchronize()
    calls = 1
    while calls < (1 << 16) and sample_us(fn, calls) * calls < options.min_sample_ms * 1000.0:
        calls *= 2
    figures = [sample_us(fn, calls) for _ in range(options.samples)]
    return {"median_us": statistics.median(figures), "calls_per_sample": calls, "samples_us": figures}


def capture(step, warmup=3):
    """torch.cuda.graph of `step` after `warmup` calls on a side stream; returns the graph and the
    result of the captured call (its outputs, which each replay rewrites)."""
    import torch

    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(warmup):
            step()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        result = step()
    torch.cuda.synchronize()
    return graph, result


def mnist_net():
    """The LibTorch MNIST example's Net, as graphbench's mnist workload builds it."""
    from torch import nn
    from torch.nn import functional as F

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1, self.conv2 = nn.Conv2d(1, 10, 5), nn.Conv2d(10, 20, 5)
            self.conv2_drop = nn.Dropout2d()
            self.fc1, self.fc2 = nn.Linear(320, 50), nn.Linear(50, 10)

        def forward(self, x):
            x = F.relu(F.max_pool2d(self.conv1(x), 2))
            x = F.relu(F.max_pool2d(self.conv2_drop(self.conv2(x)), 2))
            x = F.relu(self.fc1(x.view(-1, 320)))
            x = F.dropout(x, p=0.5, training=self.training)
            return F.log_softmax(self.fc2(x), dim=1)

    return Net()


def environment(**extra):
    """When and on what the figures were taken: the date (UTC), PyTorch, CUDA and the GPU, then `extra`."""
    import datetime

    import torch

    return {"date_utc": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "torch": torch.__version__, "cuda": torch.version.cuda, "gpu": torch.cuda.get_device_name(0), **extra}
