"""Callables for scripts/export_model.py's py: source that each get one thing wrong (and two that
are right), for tests/cli/check_own_code.py. Runs with the stand-in torch of own_code/stub_torch
as with PyTorch itself."""

import torch


class Double(torch.nn.Module):
    def forward(self, x, *more):
        return x


def good(batch=4):
    """A model, a float input and an int64 input of its own range, a loss with a target."""
    return {"model": Double(), "inputs": [torch.zeros(batch, 3), torch.full((batch,), 5, dtype=torch.int64)],
            "loss": lambda out, target: torch.full((), 1.0, requires_grad=True),
            "targets": [torch.full((batch,), 2, dtype=torch.int64)], "ranges": {2: (0, 7)}}


def no_batch():
    return Double(), torch.zeros(6, 2)


def raises(batch=1):
    raise ValueError(f"no weights for batch {batch}")


def returns_int(batch=1):
    return 42


def returns_one(batch=1):
    return (Double(),)


def returns_unknown_key(batch=1):
    return {"model": Double(), "inputs": torch.zeros(batch, 2), "labels": torch.zeros(batch)}


def not_a_module(batch=1):
    return object(), torch.zeros(batch, 2)


def inputs_not_tensors(batch=1):
    return Double(), [torch.zeros(batch, 2), [1.0, 2.0]]


def float64_input(batch=1):
    return Double(), torch.zeros(batch, 2, dtype=torch.float64)


def loss_not_scalar(batch=1):
    return Double(), torch.zeros(batch, 3), lambda out: torch.zeros(batch, 3)


def loss_returns_float(batch=1):
    return Double(), torch.zeros(batch, 3), lambda out: 0.5


def loss_raises(batch=1):
    def loss(out, target):
        raise RuntimeError("target size mismatch")

    return {"model": Double(), "inputs": torch.zeros(batch, 3), "loss": loss, "targets": [torch.zeros(batch)]}


def range_on_float(batch=1):
    return {"model": Double(), "inputs": torch.zeros(batch, 3), "ranges": {0: (0, 5)}}


def unbatched(batch=1):
    return Double(), torch.zeros(5, 2)


def positioned(batch=1):
    """A decoding step's position marked: input 1, one int64 element, never batched (even at batch 1)."""
    return {"model": Double(), "inputs": [torch.zeros(batch, 3), torch.full((1,), 5, dtype=torch.int64)],
            "ranges": {1: (5, 6)}, "position": 1}


def position_on_float(batch=1):
    return {"model": Double(), "inputs": [torch.zeros(batch, 3)], "position": 0}


def position_past_inputs(batch=1):
    return {"model": Double(), "inputs": [torch.zeros(batch, 3)], "position": 2}


NOT_CALLABLE = 3
