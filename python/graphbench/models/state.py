"""The starting values of an input with role state (a decoder's KV cache): drawn here as graphbench
draws them, so that an export's example, Python's timing peers and the user's own code (examples/
tiny_decode.py) start from the values graphbench allocates."""


def state_fill(shape, dtype, seed=0, scale=1.0, device="cpu"):
    """The starting values of an input with role state (a KV cache), as graphbench draws them:
    torch.randn(shape) on `device` from a generator of that device seeded with `seed`, in float32,
    times `scale`, then cast to `dtype`. LibTorch's at::randn with a generator of the same device
    and seed draws the same values (the same PyTorch version)."""
    import torch

    generator = torch.Generator(device=device).manual_seed(seed)
    drawn = torch.randn(tuple(shape), generator=generator, dtype=torch.float32, device=device)
    return (drawn * scale).to(dtype)
