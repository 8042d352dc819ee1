"""The one bad-input error of the package and the exit codes every command documents.

Every command exits 0 when it did its job, 1 when a case failed or a figure missed its target,
2 on bad input (BadInput: a file, field or option that cannot work; the message names it)."""

import math

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_BAD_INPUT = 2


class BadInput(Exception):
    """A model name, option or input file that cannot work; the message says which and why."""


def is_number(value):
    """A finite JSON number (not a boolean)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
