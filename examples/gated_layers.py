"""A model whose forward branches on a tensor's value read with `.item()` (docs/models.md,
"Splitting a model into pieces"): torch.compile breaks its graph there; the exporter makes the
module that branches one eager piece, scripted so that C++ runs either branch.

    python3 scripts/export_model.py py:examples/gated_layers.py:make_model --scope auto --format pt -o models/
    build/graphbench run --config models/suite.json --sweep scope=full,auto

A stack of residual MLP layers; between them a gate reads the activations' largest magnitude back
to the host and, where it is above a limit, rescales them in Python control flow:

    if x.abs().amax().item() > self.limit:
        x = x * (self.limit / x.abs().amax())

The read-back synchronises with the host (a CUDA graph cannot capture it) and the branch is decided
in Python (torch.fx cannot trace it; torch.compile breaks its graph at it). With `--scope auto` each
gate is a piece of its own, run eagerly from its TorchScript (the branch kept), and the layers
between the gates are captured. `--scope layer` gives a graph per layer and leaves the gates eager.
"""

import torch
from torch import nn

WIDTH = 512
LAYERS = 4


class Gate(nn.Module):
    def __init__(self, limit=4.0):
        super().__init__()
        self.limit = limit

    def forward(self, x):
        if x.abs().amax().item() > self.limit:
            x = x * (self.limit / x.abs().amax())
        return x


class Layer(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.norm = nn.LayerNorm(width)
        self.up = nn.Linear(width, 2 * width)
        self.down = nn.Linear(2 * width, width)

    def forward(self, x):
        return x + self.down(torch.relu(self.up(self.norm(x))))


class GatedLayers(nn.Module):
    def __init__(self, width=WIDTH, layers=LAYERS):
        super().__init__()
        self.layers = nn.ModuleList([Layer(width) for _ in range(layers)])
        self.gates = nn.ModuleList([Gate() for _ in range(layers)])
        self.head = nn.Linear(width, width)

    def forward(self, x):
        for layer, gate in zip(self.layers, self.gates):
            x = gate(layer(x))
        return self.head(x)


def make_model(batch=8):
    """The model and its inputs, for export_model.py and python_baseline.py: inputs of magnitude
    about 3, so that some gates rescale and others do not."""
    return {"model": GatedLayers(), "inputs": (3.0 * torch.randn(batch, WIDTH),)}
