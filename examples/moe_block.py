"""A model that cannot be captured whole (docs/models.md, "Splitting a model into pieces"): a
mixture-of-experts block whose routing has data-dependent shapes.

    python3 scripts/export_model.py py:examples/moe_block.py:make_model --scope auto --format pt -o models/
    build/graphbench run --config models/suite.json --sweep scope=full,auto

Each token goes to the expert its router scores highest; each expert runs on the tokens routed to
it, found by nonzero(), so the number of rows an expert computes depends on the data, and the
expert's rows are added back into a tensor of the tokens' shape (index_add). A CUDA graph replays
fixed shapes (and nonzero() reads its count back to the host), so the routing and the experts
cannot be captured; the parts around them (the projection in, the norm, the router, the
projection out) can: `--scope auto` splits the model there, and graphbench's auto scope runs the
uncapturable pieces eagerly and captures the others.
"""

import torch
from torch import nn

WIDTH = 256
EXPERTS = 4
TOKENS = 64


class Expert(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.up = nn.Linear(width, 2 * width)
        self.down = nn.Linear(2 * width, width)

    def forward(self, x):
        return self.down(torch.relu(self.up(x)))


class MoeBlock(nn.Module):
    def __init__(self, width=WIDTH, experts=EXPERTS):
        super().__init__()
        self.embed = nn.Linear(width, width)
        self.norm = nn.LayerNorm(width)
        self.router = nn.Linear(width, experts)
        self.experts = nn.ModuleList([Expert(width) for _ in range(experts)])
        self.head = nn.Linear(width, width)

    def forward(self, x):
        tokens = self.norm(self.embed(x)).flatten(0, 1)  # [batch * TOKENS, width]
        gates = torch.softmax(self.router(tokens), dim=-1)
        weight, choice = gates.max(dim=-1)
        mixed = torch.zeros_like(tokens)
        for e, expert in enumerate(self.experts):
            rows = (choice == e).nonzero().squeeze(1)  # how many: the data says
            mixed = mixed.index_add(0, rows, expert(tokens[rows]) * weight[rows].unsqueeze(1))
        return self.head(mixed + tokens).unflatten(0, (-1, TOKENS))


def make_model(batch=4):
    """The model and its inputs, for export_model.py and python_baseline.py."""
    return MoeBlock(), (torch.randn(batch, TOKENS, WIDTH),)
