"""Where torch.compile breaks a model's graph, as it does by default: torch._dynamo.explain run once,
each break named by its source line and Dynamo's reason, in the order met. What a user reads when
graphbench cannot split a model at a break in its own forward (dynamo_trace.py refuses it).
"""

import re

FRAME = re.compile(r'File "([^"]+)", line (\d+)')


def graph_breaks(model, inputs):
    import logging

    import torch
    import torch._dynamo as dynamo

    messages = []

    class Keep(logging.Handler):
        def emit(self, record):
            text = record.getMessage()
            if "Graph break" in text or "graph break" in text:
                messages.append(text)

    keep = Keep()
    logger = logging.getLogger("torch._dynamo")
    logger.addHandler(keep)
    dynamo.reset()
    try:
        with torch.no_grad():
            explained = dynamo.explain(model)(*inputs)
    finally:
        logger.removeHandler(keep)
        dynamo.reset()
    out = []
    for reason in explained.break_reasons:
        frames = list(reason.user_stack)
        where = _where(frames[-1].filename, frames[-1].lineno) if frames else "?"
        _add(out, where, reason.reason)
    # PyTorch 2.11 leaves some breaks (a branch on .item()) out of break_reasons: its log names them.
    for text in messages:
        frames = FRAME.findall(text)
        if frames:
            _add(out, _where(frames[-1][0], int(frames[-1][1])), text)
    return out


def _add(out, where, reason):
    why = next((line.strip() for line in (reason or "").splitlines() if line.strip()), "?")[:200]
    if all(w != where for w, _ in out):
        out.append((where, why))


def _where(filename, lineno):
    """"examples/gated_layers.py:33 `if x.abs().amax().item() > self.limit:`": the file (relative to
    the working folder where under it), the line and its source."""
    import linecache
    import os

    relative = os.path.relpath(filename)
    name = filename if relative.startswith("..") else relative
    line = (linecache.getline(filename, lineno) or "").strip()
    return f"{name}:{lineno}" + (f" `{line}`" if line else "")


def describe(breaks):
    return "; ".join(f"break {k + 1} at {where} ({why})" for k, (where, why) in enumerate(breaks))
