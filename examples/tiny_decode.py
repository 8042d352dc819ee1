"""A tiny decoding step whose KV cache is the step's state (docs/models.md, "The KV cache as state"):
the cache tensors are inputs of forward that it writes in place, so the exported file holds the
weights only and graphbench allocates the cache once per case.

    python3 scripts/export_model.py py:examples/tiny_decode.py:make_model --batch 2 --format pt -o models/
    build/graphbench run --config models/suite.json --device cpu --variants eager,static

Two layers of width 64, 4 query and 2 key/value heads of 16, a cache of 32 positions, vocabulary
256, float32: small enough to trace and run on a CPU in a second. forward(tokens [B, 1] int64,
pos [1] int64, k0, v0, k1, v1 [B, 2, L, 16]) writes each layer's key and value at `pos`
(index_copy_), attends to every position up to it, and returns
    logits   [B, 1, 256]
    written  [4, B, 2, 1, 16]: the keys and values written at `pos`, read back from the caches
The callable's "state" names the caches and their fill: graphbench draws the same values
(graphbench.models.state.state_fill) before the first step, so eager, static and the graph all start from the
cache the example had; its "position" names the position input (a sweep over pos sets it).

The step reads the cache's length L from the cache tensors (its mask is as long as they are), so
one file takes any length above `pos`: a suite sweeps it (`--sweep cache=64,128`), and
`export_model.py --dynamic-cache M --format pt2` makes one package for every length up to M.
"""

import torch
import torch.nn.functional as F
from torch import nn

VOCAB = 256
WIDTH = 64
LAYERS = 2
HEADS = 4
KV_HEADS = 2
HEAD = WIDTH // HEADS
MAX_SEQ = 32  # the example's cache length; the step takes any
POS = 5
SEED = 3
SCALE = 0.5


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.q = nn.Linear(WIDTH, HEADS * HEAD, bias=False)
        self.kv = nn.Linear(WIDTH, 2 * KV_HEADS * HEAD, bias=False)
        self.o = nn.Linear(HEADS * HEAD, WIDTH, bias=False)

    def forward(self, x, pos, mask, k_cache, v_cache):
        q = self.q(x).unflatten(-1, (HEADS, HEAD)).transpose(1, 2)  # [b, 4, 1, 16]
        k, v = self.kv(x).unflatten(-1, (2, KV_HEADS, HEAD)).permute(2, 0, 3, 1, 4).unbind(0)  # [b, 2, 1, 16]
        k_cache.index_copy_(2, pos, k)
        v_cache.index_copy_(2, pos, v)
        keys = k_cache.repeat_interleave(HEADS // KV_HEADS, dim=1)
        values = v_cache.repeat_interleave(HEADS // KV_HEADS, dim=1)
        weights = torch.softmax(q @ keys.transpose(-2, -1) * HEAD ** -0.5 + mask, dim=-1)
        return self.o((weights @ values).transpose(1, 2).flatten(2))


class Layer(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = nn.LayerNorm(WIDTH)
        self.attn = Attention()
        self.mlp = nn.Sequential(nn.LayerNorm(WIDTH), nn.Linear(WIDTH, 2 * WIDTH), nn.GELU(), nn.Linear(2 * WIDTH, WIDTH))

    def forward(self, x, pos, mask, k_cache, v_cache):
        x = x + self.attn(self.norm(x), pos, mask, k_cache, v_cache)
        return x + self.mlp(x)


class TinyDecode(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, WIDTH)
        self.layers = nn.ModuleList([Layer() for _ in range(LAYERS)])
        self.head = nn.Linear(WIDTH, VOCAB, bias=False)

    def forward(self, tokens, pos, *caches):
        x = self.embed(tokens)  # [b, 1, WIDTH]
        # Nothing after pos yet. The positions from the cache's own length: a trace records the size
        # read (not the example's 32), and torch.export keeps it symbolic.
        positions = torch.arange(caches[0].size(2), device=tokens.device)
        mask = torch.where(positions <= pos, 0.0, float("-inf"))
        for i, layer in enumerate(self.layers):
            x = layer(x, pos, mask, caches[2 * i], caches[2 * i + 1])
        written = torch.stack([c.index_select(2, pos) for c in caches])
        return F.linear(x, self.head.weight), written


def make_model(batch=1):
    """The step, its inputs (tokens, position, then the caches), which inputs are state and which
    one is the position."""
    from graphbench.models.state import state_fill  # python/graphbench, imported by the command that runs this

    torch.manual_seed(0)
    model = TinyDecode().eval()
    shape = (batch, KV_HEADS, MAX_SEQ, HEAD)
    state = {2 + i: {"seed": SEED + i, "scale": SCALE} for i in range(2 * LAYERS)}
    caches = [state_fill(shape, torch.float32, **fill) for fill in state.values()]
    tokens = torch.randint(0, VOCAB, (batch, 1))
    pos = torch.tensor([POS])
    return {"model": model, "inputs": (tokens, pos, *caches), "ranges": {0: (0, VOCAB), 1: (POS, POS + 1)},
            "state": state, "position": 1}
