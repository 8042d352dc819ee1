"""A token model that skips padding in ordinary PyTorch (docs/models.md, "Splitting a model into
pieces"): torch.fx cannot trace it, torch.compile can.

    python3 scripts/export_model.py py:examples/padded_tokens.py:make_model --scope auto --format pt -o models/
    build/graphbench run --config models/suite.json --sweep scope=full,auto

Token id 0 is padding. Each sequence is embedded and normalised; the feed-forward block runs on the
real tokens only, picked by a boolean mask, and writes its rows back by item assignment:

    real = ids != 0
    y = torch.zeros_like(x)
    y[real] = self.mlp(x[real])

The number of real tokens depends on the data, so the masked rows and the block on them cannot be
captured in a CUDA graph; the embedding, the norm and the head around them can. torch.fx's trace
stops at the item assignment ("'Proxy' object does not support item assignment"); the exporter then
traces with torch.compile's tracer, which captures the mask as a node of data-dependent shape, and
`--scope auto` leaves the masked part eager between captured pieces. The example inputs pad each
sequence after a length drawn per sequence.
"""

import torch
from torch import nn

VOCAB = 1000
WIDTH = 256
TOKENS = 64


class FeedForward(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.up = nn.Linear(width, 4 * width)
        self.down = nn.Linear(4 * width, width)

    def forward(self, x):
        return self.down(torch.nn.functional.gelu(self.up(x)))


class PaddedTokens(nn.Module):
    def __init__(self, vocab=VOCAB, width=WIDTH):
        super().__init__()
        self.embed = nn.Embedding(vocab, width)
        self.norm = nn.LayerNorm(width)
        self.mlp = FeedForward(width)
        self.out_norm = nn.LayerNorm(width)
        self.head = nn.Linear(width, vocab)

    def forward(self, ids):
        x = self.norm(self.embed(ids))
        real = ids != 0
        y = torch.zeros_like(x)
        y[real] = self.mlp(x[real])
        return self.head(self.out_norm(x + y))


def padded_ids(batch, tokens=TOKENS, vocab=VOCAB, generator=None):
    """Token ids in [1, vocab), each sequence padded with 0 after a length drawn from [1, tokens]."""
    ids = torch.randint(1, vocab, (batch, tokens), generator=generator)
    lengths = torch.randint(1, tokens + 1, (batch, 1), generator=generator)
    return ids * (torch.arange(tokens).unsqueeze(0) < lengths)


def make_model(batch=8):
    """The model and its inputs, for export_model.py and python_baseline.py. graphbench draws int64
    inputs uniformly from their range (here [0, VOCAB)), so about one token in a thousand is padding
    there; the example inputs here are padded."""
    return {"model": PaddedTokens(), "inputs": (padded_ids(batch),), "ranges": {0: (0, VOCAB)}}
