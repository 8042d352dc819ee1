"""The exporter's chain check (graphbench.output_match): the same rule as the C++ side's
engine/runner/output_match, on given tensors. Needs PyTorch; skipped without."""

import os
import sys
import unittest

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from graphbench.output_match import outputs_match  # noqa: E402

try:
    import torch
except ImportError:
    torch = None


@unittest.skipIf(torch is None, "needs PyTorch")
class OutputMatchTest(unittest.TestCase):
    def logits(self):
        g = torch.Generator().manual_seed(0)
        return (torch.randn(16, 32000, generator=g) * 4).to(torch.bfloat16)

    def moved(self, x, steps, count):
        """`x` with `count` elements moved by `steps` rounding steps at its largest magnitude."""
        step = torch.finfo(x.dtype).eps * 2.0 ** float(torch.floor(torch.log2(x.float().abs().max())))
        y = x.float().flatten().clone()
        idx = torch.randperm(y.numel(), generator=torch.Generator().manual_seed(1))[:count]
        y[idx] += steps * step
        return y.view_as(x).to(x.dtype)

    def test_bf16_one_or_two_steps_at_a_thousand_elements_pass(self):
        x = self.logits()
        for steps in (1, 2):
            self.assertTrue(outputs_match(x, self.moved(x, steps, 1000), rtol=1e-2, atol=1e-3))

    def test_bf16_beyond_four_steps_fails(self):
        x = self.logits()
        self.assertFalse(outputs_match(x, self.moved(x, 6, 10), rtol=1e-2, atol=1e-3))

    def test_a_stale_input_fails(self):
        x = self.logits()
        other = (torch.randn(16, 32000, generator=torch.Generator().manual_seed(7)) * 4).to(torch.bfloat16)
        self.assertFalse(outputs_match(x, other, rtol=1e-2, atol=1e-3))

    def test_float32_keeps_the_tolerances(self):
        x = torch.randn(64, 64, generator=torch.Generator().manual_seed(3))
        self.assertTrue(outputs_match(x, x + 1e-7, rtol=1e-5, atol=1e-6))
        self.assertFalse(outputs_match(x, x + 1e-3, rtol=1e-5, atol=1e-6))

    def test_nan_never_matches(self):
        x = self.logits()
        y = x.clone()
        y[0, 0] = float("nan")
        self.assertFalse(outputs_match(x, y, rtol=1e-2, atol=1e-3))


if __name__ == "__main__":
    unittest.main()
