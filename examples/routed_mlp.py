"""A routed MLP: a stem, then an if/else in the model's own forward on a value it computed (`if
x.norm(dim=-1).mean().item() > self.limit:`) that sends the batch through one of two MLPs, a wide one
or a narrow, cheaper one, and a head after both, so which layers run depends on the data.

The branch is in the model's own forward: torch.compile breaks its graph there. graphbench splits it
there (docs/control-flow.md, "Your own model's branches"): the stem is one piece, each arm with the
head after it another, and the tree is one branch between two leaves, which graphbench runs as one
CUDA graph with an IF/ELSE conditional node (variant `conditional`):

    python3 scripts/export_model.py py:examples/routed_mlp.py:make_model --batch 8 --scope auto -o models

`make_model(scale=S)`: at scale 1 the stem's rows are long and the wide arm runs (the branch's then);
at scale 0.1 they are short and the narrow arm runs (its else): make_model_then and make_model_else.
"""
import torch
from torch import nn

WIDTH, CLASSES = 256, 10
LIMIT = 2.0  # the stem rows' mean length above which the wide arm runs (about 5.6 at scale 1, 0.55 at 0.1)


def mlp(width, hidden):
    return nn.Sequential(nn.Linear(width, hidden), nn.GELU(), nn.Linear(hidden, width))


class RoutedMLP(nn.Module):
    def __init__(self, width=WIDTH, classes=CLASSES, limit=LIMIT):
        super().__init__()
        self.stem = nn.Sequential(nn.Linear(width, width), nn.GELU())
        self.wide = mlp(width, 4 * width)
        self.narrow = mlp(width, width // 4)
        self.head = nn.Sequential(nn.LayerNorm(width), nn.Linear(width, classes))
        self.limit = limit

    def forward(self, x):
        x = self.stem(x)
        if x.norm(dim=-1).mean().item() > self.limit:
            x = x + self.wide(x)
        else:
            x = x + self.narrow(x)
        return self.head(x)


def make_model(batch=8, scale=1.0):
    """The model and its inputs, for export_model.py and python_baseline.py. The arm depends on the
    inputs: at scale 1 the wide arm runs, at scale 0.1 the narrow one."""
    torch.manual_seed(0)
    model = RoutedMLP().eval()
    return {"model": model, "inputs": (scale * torch.randn(batch, WIDTH),)}


def make_model_then(batch=8):
    """Inputs at scale 1 (make_model's own): the branch holds and the wide arm runs."""
    return make_model(batch, scale=1.0)


def make_model_else(batch=8):
    """Inputs at scale 0.1: the branch does not hold and the narrow arm runs."""
    return make_model(batch, scale=0.1)
