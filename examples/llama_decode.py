"""A Llama-class decoding step written for splitting (docs/models.md, "Splitting a model into
pieces"): one token per sequence against a static KV cache, in plain torch.nn that torch.fx traces.

    python3 scripts/export_model.py py:examples/llama_decode.py:make_model --batch 1,8 --scope layer,attention-out \\
        --format pt -o models/
    build/graphbench run --config models/suite.json --sweep scope=full,attention-out,layer

Of the size of configs/decode.json's Llama-class decoder, written in plain torch.nn so that torch.fx
traces it: width 2048, 6 layers, grouped-query attention with 16 query and 4 key/value heads,
RMSNorm, rotary position embeddings, a SwiGLU MLP of width 5632, vocabulary 32000, bfloat16. Its
inputs are the new tokens [batch, 1] and the position [1] they take; each layer's attention writes
its key and value into its cache (buffers of [batch, 4, 1024, 128]) at that position and attends to
every position up to it. All shapes are fixed, so the step captures whole; `--scope layer` gives
one piece per layer, `--scope attention-out` the attention modules (cache write and attention) as
pieces of their own, which graphbench's attention-out scope runs eagerly as vLLM's piecewise mode
does, and `--scope layer,attention-out` one chain that serves both.
"""

import torch
import torch.nn.functional as F
from torch import nn

VOCAB = 32000
WIDTH = 2048
LAYERS = 6
HEADS = 16
KV_HEADS = 4
HEAD = WIDTH // HEADS
MLP = 5632
MAX_SEQ = 1024
POS = 512


class RMSNorm(nn.Module):
    def __init__(self, width, eps=1e-5):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(width))
        self.eps = eps

    def forward(self, x):
        scale = torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + self.eps)
        return (x.float() * scale).to(x.dtype) * self.weight


def rotate(x, cos, sin):
    x1, x2 = x.chunk(2, dim=-1)
    return x * cos + torch.cat((-x2, x1), dim=-1) * sin


class Attention(nn.Module):
    def __init__(self, batch, dtype):
        super().__init__()
        self.q = nn.Linear(WIDTH, HEADS * HEAD, bias=False)
        self.kv = nn.Linear(WIDTH, 2 * KV_HEADS * HEAD, bias=False)
        self.o = nn.Linear(HEADS * HEAD, WIDTH, bias=False)
        self.register_buffer("k_cache", torch.zeros(batch, KV_HEADS, MAX_SEQ, HEAD, dtype=dtype))
        self.register_buffer("v_cache", torch.zeros(batch, KV_HEADS, MAX_SEQ, HEAD, dtype=dtype))

    def forward(self, x, pos, cos, sin, mask):
        q = self.q(x).unflatten(-1, (HEADS, HEAD)).transpose(1, 2)  # [b, 16, 1, 128]
        k, v = self.kv(x).unflatten(-1, (2, KV_HEADS, HEAD)).permute(2, 0, 3, 1, 4).unbind(0)  # [b, 4, 1, 128]
        q, k = rotate(q, cos, sin), rotate(k, cos, sin)
        self.k_cache.index_copy_(2, pos, k)
        self.v_cache.index_copy_(2, pos, v)
        keys = self.k_cache.repeat_interleave(HEADS // KV_HEADS, dim=1)
        values = self.v_cache.repeat_interleave(HEADS // KV_HEADS, dim=1)
        weights = torch.softmax((q @ keys.transpose(-2, -1)).float() * HEAD ** -0.5 + mask, dim=-1).to(q.dtype)
        return self.o((weights @ values).transpose(1, 2).flatten(2))


class Layer(nn.Module):
    def __init__(self, batch, dtype):
        super().__init__()
        self.input_norm = RMSNorm(WIDTH)
        self.self_attn = Attention(batch, dtype)
        self.post_norm = RMSNorm(WIDTH)
        self.gate = nn.Linear(WIDTH, MLP, bias=False)
        self.up = nn.Linear(WIDTH, MLP, bias=False)
        self.down = nn.Linear(MLP, WIDTH, bias=False)

    def forward(self, x, pos, cos, sin, mask):
        x = x + self.self_attn(self.input_norm(x), pos, cos, sin, mask)
        h = self.post_norm(x)
        return x + self.down(F.silu(self.gate(h)) * self.up(h))


class LlamaDecode(nn.Module):
    def __init__(self, batch, dtype):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, WIDTH)
        self.layers = nn.ModuleList([Layer(batch, dtype) for _ in range(LAYERS)])
        self.norm = RMSNorm(WIDTH)
        self.lm_head = nn.Linear(WIDTH, VOCAB, bias=False)
        angles = torch.outer(torch.arange(MAX_SEQ).float(), 10000.0 ** (-torch.arange(0, HEAD, 2).float() / HEAD))
        angles = torch.cat((angles, angles), dim=-1)
        self.register_buffer("cos", angles.cos().to(dtype))
        self.register_buffer("sin", angles.sin().to(dtype))
        self.register_buffer("positions", torch.arange(MAX_SEQ))

    def forward(self, tokens, pos):
        x = self.embed(tokens)  # [b, 1, WIDTH]
        cos = self.cos.index_select(0, pos)  # [1, HEAD]: broadcast over batch and heads
        sin = self.sin.index_select(0, pos)
        # Positions after pos are masked out: the cache holds nothing there yet.
        mask = torch.where(self.positions <= pos, 0.0, float("-inf"))
        for layer in self.layers:
            x = layer(x, pos, cos, sin, mask)
        return self.lm_head(self.norm(x))


def make_model(batch=1):
    """The decoding step and its inputs (tokens, and the position drawn from [POS, POS + 1))."""
    dtype = torch.bfloat16
    model = LlamaDecode(batch, dtype).to(dtype)
    tokens = torch.randint(0, VOCAB, (batch, 1))
    pos = torch.tensor([POS])
    return {"model": model, "inputs": (tokens, pos), "ranges": {0: (0, VOCAB), 1: (POS, POS + 1)}}
