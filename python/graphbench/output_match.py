"""graphbench's one rule for two outputs of the same computation (engine/runner/output_match.h, no
float64 reference): within atol + rtol * |expected| everywhere; or, for float16 and bfloat16, within
4 rounding steps at the output's largest magnitude with at most one step RMS left unexplained (a
rounding step of the largest value moves every value summed into it). NaN never matches.
"""

import math


def outputs_match(expected, actual, rtol, atol):
    """True when `actual` matches `expected` by the rule above (tensors of one shape)."""
    import torch

    e, a = expected.double(), actual.double()
    diff = (a - e).abs()
    bound = atol + rtol * e.abs()
    if bool((diff <= bound).all()):
        return True
    if expected.dtype not in (torch.float16, torch.bfloat16) or bool(diff.isnan().any()):
        return False
    largest = e.abs().masked_fill(~e.isfinite(), 0).max().item()
    if largest <= 0 or not math.isfinite(largest):
        return False
    step = torch.finfo(expected.dtype).eps * 2.0 ** math.floor(math.log2(largest))
    excess_rms = (diff - bound).clamp_min(0).pow(2).mean().sqrt().item()
    return bool((diff <= bound.clamp_min(4 * step)).all()) and excess_rms <= step


def largest_difference(got, expected):
    return max((float((a.float() - b.float()).abs().max()) for a, b in zip(got, expected)), default=0.0)


def check_outputs(got, expected, rtol, atol, what):
    """RuntimeError "`what` at output I (...)" unless each of `got` matches `expected`'s by the rule above."""
    got, expected = [t.detach() for t in got], [t.detach() for t in expected]
    if len(got) != len(expected):
        raise RuntimeError(f"{what}: {len(got)} outputs against {len(expected)}")
    for i, (a, b) in enumerate(zip(got, expected)):
        if a.shape != b.shape or not outputs_match(b, a, rtol, atol):
            raise RuntimeError(f"{what} at output {i} (largest difference "
                               f"{largest_difference([a], [b]) if a.shape == b.shape else 'shape'}, rtol {rtol}, "
                               f"atol {atol}; float16 and bfloat16: 4 rounding steps at the output's largest "
                               "magnitude, 1 step RMS beyond the tolerances)")
