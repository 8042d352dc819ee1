"""A model whose own forward branches on a value it read (`if x.sum().item() > 0:`), an if/else whose
two ways go on to the same layer: export_model.py --scope auto splits it at the branch into a tree of
pieces (tests/python/check_branches_torch.py)."""

import torch
from torch import nn


class RootBranch(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(16, 16)
        self.b = nn.Linear(16, 16)

    def forward(self, x):
        x = self.a(x)
        if x.sum().item() > 0:
            x = -x
        return self.b(x)


def make_model(batch=2):
    return RootBranch(), (torch.randn(batch, 16),)
