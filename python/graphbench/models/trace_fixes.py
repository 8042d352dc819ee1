"""Rewrites that let torch.jit.trace record a model that a CUDA graph can capture, applied only while
export_model.py traces it: a trace records arithmetic on a tensor's sizes that feeds a shape as int()
of a device tensor, a synchronisation a capture refuses; each rewrite takes no computed size.
"""

import contextlib
import sys


def _rotate_half_by_chunks(x):
    """transformers' rotate_half (Llama, Mistral, Qwen2 and the others with rotary embeddings),
    whose halves `x[..., : x.shape[-1] // 2]` trace as int(); the same halves by torch.chunk."""
    import torch

    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


def _vit_patches_by_flatten(self, x):
    """torchvision's VisionTransformer._process_input, whose `reshape(n, hidden_dim, n_h * n_w)`
    traces n_h * n_w as int(); the same patches by flatten (the trace is made at one image size)."""
    x = self.conv_proj(x)
    return x.flatten(2).permute(0, 2, 1)


@contextlib.contextmanager
def patched(targets):
    """Sets each (owner, name, value) while the block runs, then puts the originals back."""
    originals = []
    for owner, name, value in targets:
        originals.append((owner, name, getattr(owner, name)))
        setattr(owner, name, value)
    try:
        yield
    finally:
        for owner, name, value in reversed(originals):
            setattr(owner, name, value)


def traceable(case):
    """The rewrites for `case` (a model_zoo.ModelCase) as a context manager; none for most models."""
    targets = []
    if case.source == "hf":
        targets += [(module, "rotate_half", _rotate_half_by_chunks) for name, module in list(sys.modules.items())
                    if name.startswith("transformers.models.") and callable(getattr(module, "rotate_half", None))]
    if case.source == "torchvision" and case.name.startswith("vit_"):
        from torchvision.models.vision_transformer import VisionTransformer

        targets.append((VisionTransformer, "_process_input", _vit_patches_by_flatten))
    return patched(targets)
