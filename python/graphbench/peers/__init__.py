"""Python's timing peers: the same steps that graphbench times, timed by PyTorch in Python.

    baseline            models from a suite's manifests (scripts/python_baseline.py)
    replay              the built-in workloads' replay figures (scripts/python_replay_baseline.py)
    ddp                 PyTorch's DistributedDataParallel (scripts/python_ddp_baseline.py)
    all_reduce_overlap  the all-reduce beside a product on two GPUs (scripts/all_reduce_overlap.py)
    timing              what they share: CUDA-event samples and the one capture()
"""
