"""A model whose own forward loops until its data say stop (`while x.norm().item() > 1`): every
number of rounds is a path of its own, so export_model.py --scope auto refuses to split it at its
branches (tests/python/check_branches_torch.py)."""

import torch
from torch import nn


class DataLoop(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(16, 16)

    def forward(self, x):
        x = self.a(x)
        while x.norm().item() > 1:
            x = x / 2
        return x


def make_model(batch=2):
    return DataLoop(), (torch.randn(batch, 16),)
