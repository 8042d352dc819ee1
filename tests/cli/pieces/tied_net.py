"""A small network whose output layer shares its weight with its input layer (tied weights, as a
language model's embedding and head): what export_model.py --mode train --scope refuses, since each
piece's file holds its own copy of the parameters it reads."""

import torch
from torch import nn


class Block(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.linear = nn.Linear(width, width)

    def forward(self, x):
        return torch.relu(self.linear(x))


class TiedNet(nn.Module):
    def __init__(self, width=4):
        super().__init__()
        self.embed = nn.Linear(width, width, bias=False)
        self.blocks = nn.ModuleList([Block(width), Block(width)])
        self.head = nn.Linear(width, width, bias=False)
        self.head.weight = self.embed.weight

    def forward(self, x):
        x = self.embed(x)
        for block in self.blocks:
            x = block(x)
        return self.head(x)


def make_model(batch=2):
    return TiedNet(), (torch.randn(batch, 4),)
