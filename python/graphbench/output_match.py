"""graphbench's one rule for two outputs of the same computation, as the C++ side applies it
(src/graphbench/engine/runner/output_match.h, the case without a float64 reference): within
atol + rtol * |expected| everywhere; or, for float16 and bfloat16, within 4 rounding steps of the
dtype at the output's largest magnitude with what the tolerances leave unexplained at most one step
RMS. A rounding step of a low-precision output's largest value moves every value summed into it by
as much (a decoder's logits in bfloat16 each come out of one long dot product), so the rule holds
whether or not eager repeats itself. NaN never matches."""

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
