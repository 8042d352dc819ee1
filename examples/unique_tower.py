"""A recommender tower that looks each distinct id up once: torch.unique(ids, return_inverse=True),
the table read at the distinct ids, the rows spread back by the inverse, then an MLP.

torch.unique makes the host wait for the device (its output's length is the count of distinct ids),
so it cannot be captured; the rows spread back by `inverse` have the ids' shape again, so the MLP
after them can. `--scope auto` splits around unique:

    python3 scripts/export_model.py py:examples/unique_tower.py:make_model --batch 64 --scope auto -o models
"""
import torch
from torch import nn


class UniqueTower(nn.Module):
    def __init__(self, ids=1000, dim=64, hidden=256, out=32):
        super().__init__()
        self.table = nn.Embedding(ids, dim)
        self.mlp = nn.Sequential(nn.Linear(dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                                 nn.Linear(hidden, out))

    def forward(self, ids):
        uniq, inverse = torch.unique(ids, return_inverse=True)
        rows = self.table(uniq)[inverse]  # [batch, fields, dim]: each distinct id looked up once
        return self.mlp(rows.sum(1))


IDS = 1000


def make_model(batch=64):
    """The model and its inputs, for export_model.py and python_baseline.py. The ids are drawn from
    [0, 200) so that many repeat (the lookups unique saves); graphbench draws its inputs from the
    same range."""
    return {"model": UniqueTower(IDS), "inputs": (torch.randint(0, 200, (batch, 16)),), "ranges": {0: (0, 200)}}
