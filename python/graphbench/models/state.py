"""The starting values of an input with role state (a KV cache), drawn as graphbench draws them."""

def state_fill(shape, dtype, seed=0, scale=1.0, device="cpu"):
    """torch.randn(shape) on `device` from a generator of that device seeded with `seed`, in float32,
    times `scale`, cast to `dtype`: what LibTorch's at::randn draws with such a generator."""
    import torch

    generator = torch.Generator(device=device).manual_seed(seed)
    drawn = torch.randn(tuple(shape), generator=generator, dtype=torch.float32, device=device)
    return (drawn * scale).to(dtype)
