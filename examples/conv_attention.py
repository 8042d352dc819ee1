"""A model of your own, benchmarked from this file (docs/models.md, "Benchmark your own code"):

    python3 scripts/export_model.py py:examples/conv_attention.py:make_model --batch 1,8 --format pt -o models/
    build/graphbench run --config models/suite.json

A small image classifier of a kind no model zoo has: a convolutional front end (three strided
convolutions, 64x64 images to an 8x8 grid of features) whose grid positions then attend to each
other in two transformer blocks, then a linear head over the pooled features. make_model returns
the model, example inputs at the batch asked for, and the loss to train it with (cross-entropy
against the labels, with label smoothing), with the labels as the loss's target.
"""

import torch
import torch.nn.functional as F
from torch import nn

CLASSES = 10
IMAGE = 64


class Attention(nn.Module):
    """Multi-head self-attention written out (no fused kernel: it runs on any PyTorch)."""

    def __init__(self, width, heads):
        super().__init__()
        self.split = (3, heads, width // heads)
        self.scale = (width // heads) ** -0.5
        self.qkv = nn.Linear(width, 3 * width)
        self.out = nn.Linear(width, width)

    def forward(self, x):
        # Shapes from constants only: a trace records arithmetic on x.shape as tensor ops, and a
        # size computed on the GPU is read back in every call, which a CUDA graph cannot capture.
        q, k, v = self.qkv(x).unflatten(-1, self.split).permute(2, 0, 3, 1, 4).unbind(0)
        weights = torch.softmax(q @ k.transpose(-2, -1) * self.scale, dim=-1)
        return self.out((weights @ v).transpose(1, 2).flatten(2))


class Block(nn.Module):
    def __init__(self, width, heads):
        super().__init__()
        self.norm1 = nn.LayerNorm(width)
        self.attention = Attention(width, heads)
        self.norm2 = nn.LayerNorm(width)
        self.mlp = nn.Sequential(nn.Linear(width, 4 * width), nn.GELU(), nn.Linear(4 * width, width))

    def forward(self, x):
        x = x + self.attention(self.norm1(x))
        return x + self.mlp(self.norm2(x))


class ConvAttention(nn.Module):
    def __init__(self, width=128, heads=4, blocks=2, classes=CLASSES):
        super().__init__()

        def conv(cin, cout):
            return [nn.Conv2d(cin, cout, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU()]

        self.stem = nn.Sequential(*conv(3, 32), *conv(32, 64), *conv(64, width))
        self.position = nn.Parameter(torch.zeros(1, (IMAGE // 8) ** 2, width))
        self.blocks = nn.Sequential(*[Block(width, heads) for _ in range(blocks)])
        self.norm = nn.LayerNorm(width)
        self.head = nn.Linear(width, classes)

    def forward(self, images):
        grid = self.stem(images)  # [n, width, 8, 8]
        tokens = grid.flatten(2).transpose(1, 2) + self.position
        return self.head(self.norm(self.blocks(tokens)).mean(dim=1))


def smoothed_cross_entropy(scores, labels):
    return F.cross_entropy(scores, labels, label_smoothing=0.1)


def make_model(batch=8):
    """The model, its inputs and its loss, for export_model.py and python_baseline.py."""
    images = torch.randn(batch, 3, IMAGE, IMAGE)
    labels = torch.randint(0, CLASSES, (batch,))
    return {"model": ConvAttention(), "inputs": (images,), "loss": smoothed_cross_entropy, "targets": (labels,),
            "ranges": {1: (0, CLASSES)}}
