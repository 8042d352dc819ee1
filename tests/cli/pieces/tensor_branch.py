"""A model whose own forward branches on a tensor (`if x.sum() > 0:`, no `.item()`): torch.fx cannot
trace it, and torch.compile breaks its graph in the model's own forward, where no piece can be cut
around the branch: export_model.py --scope refuses it naming the line
(tests/python/check_dynamo_pieces_torch.py)."""

import torch
from torch import nn


class TensorBranch(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(16, 16)
        self.b = nn.Linear(16, 16)

    def forward(self, x):
        x = self.a(x)
        if x.sum() > 0:
            x = -x
        return self.b(x)


def make_model(batch=2):
    return TensorBranch(), (torch.randn(batch, 16),)
