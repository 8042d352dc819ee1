"""An early-exit classifier: six residual blocks, a head after each, and the forward stops at the
first head that is sure enough (`if probs.amax().item() > threshold: break`), so how many blocks run
depends on the data.

The branch is in the model's own forward: torch.compile breaks its graph there (torch._dynamo.explain
names the line) and resumes after it. graphbench splits it there, each branch named with its line, into
pieces and a chain of exits that runs as one CUDA graph of IF nodes (docs/control-flow.md):

    python3 scripts/export_model.py py:examples/early_exit.py:make_model --batch 8 --scope auto -o models

`make_model(scale=S)`: at scale 1 every block runs; at scale 10 the first head is sure and the
forward stops after one block (inputs that force each outcome).
"""
import torch
from torch import nn

WIDTH, BLOCKS, CLASSES = 256, 6, 10


class Block(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.norm = nn.LayerNorm(width)
        self.mlp = nn.Sequential(nn.Linear(width, 2 * width), nn.GELU(), nn.Linear(2 * width, width))

    def forward(self, x):
        return x + self.mlp(self.norm(x))


class EarlyExit(nn.Module):
    def __init__(self, width=WIDTH, blocks=BLOCKS, classes=CLASSES, threshold=0.999):
        super().__init__()
        self.blocks = nn.ModuleList(Block(width) for _ in range(blocks))
        self.heads = nn.ModuleList(nn.Linear(width, classes) for _ in range(blocks))
        self.threshold = threshold

    def forward(self, x):
        logits = self.heads[0](x)
        for block, head in zip(self.blocks, self.heads):
            x = block(x)
            logits = head(x)
            if logits.softmax(-1).amax().item() > self.threshold:
                break
        return logits


def make_model(batch=8, scale=1.0):
    """The model and its inputs, for export_model.py and python_baseline.py. The exit depends on the
    inputs: at scale 1 no head is sure and all six blocks run; at scale 10 the first head is sure
    and the forward stops after one block."""
    torch.manual_seed(0)
    model = EarlyExit().eval()
    return {"model": model, "inputs": (scale * torch.randn(batch, WIDTH),)}


def make_model_exits_first(batch=8):
    """The same model on inputs at scale 10: the first head is sure, the forward stops after one block."""
    return make_model(batch, scale=10.0)
