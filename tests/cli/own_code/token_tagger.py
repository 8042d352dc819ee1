"""A second model of the user's own code, named as a module (py:tests.cli.own_code.token_tagger:make_model,
from the repository's root): a token tagger, int64 token ids in and a tag's scores per token out,
trained with its own loss (cross-entropy over every token against int64 tags).

Embeddings, then gated 1-d convolutions over the sequence (a kernel of 5, depthwise, and a pointwise
gate), a linear head per token. The ranges of its two int64 inputs come from the callable.
"""

import torch
import torch.nn.functional as F
from torch import nn

VOCABULARY = 4096
TAGS = 17


class GatedConv(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.norm = nn.LayerNorm(width)
        self.depthwise = nn.Conv1d(width, width, 5, padding=2, groups=width)
        self.gate = nn.Linear(width, 2 * width)

    def forward(self, x):  # [n, seq, width]
        y = self.depthwise(self.norm(x).transpose(1, 2)).transpose(1, 2)
        value, gate = self.gate(y).chunk(2, dim=-1)
        return x + value * torch.sigmoid(gate)


class TokenTagger(nn.Module):
    def __init__(self, width=256, layers=4):
        super().__init__()
        self.embedding = nn.Embedding(VOCABULARY, width)
        self.layers = nn.Sequential(*[GatedConv(width) for _ in range(layers)])
        self.head = nn.Linear(width, TAGS)

    def forward(self, tokens):
        return self.head(self.layers(self.embedding(tokens)))


def tag_loss(scores, tags):
    return F.cross_entropy(scores.flatten(0, 1), tags.flatten())


def make_model(batch=16, seq=128):
    tokens = torch.randint(0, VOCABULARY, (batch, seq))
    tags = torch.randint(0, TAGS, (batch, seq))
    return {"model": TokenTagger(), "inputs": [tokens], "loss": tag_loss, "targets": [tags],
            "ranges": {0: (0, VOCABULARY), 1: (0, TAGS)}}
