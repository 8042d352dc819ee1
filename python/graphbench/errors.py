"""The one bad-input error of the package and the exit codes every command documents.

Every command exits 0 when it did its job, 1 when a case failed or a figure missed its target,
2 on bad input (BadInput: a file, field or option that cannot work; the message names it)."""

import argparse
import math

EXIT_FAILED = 1
EXIT_BAD_INPUT = 2


class BadInput(Exception):
    """A model name, option or input file that cannot work; the message says which and why."""


def is_number(value):
    """A finite JSON number (not a boolean)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def arg_type(parse):
    """`parse` as an argparse type: its BadInput becomes argparse's error (exit 2 with the usage)."""
    def parsed(text):
        try:
            return parse(text)
        except BadInput as e:
            raise argparse.ArgumentTypeError(str(e))
    return parsed


def one_line(e):
    """An exception as "TypeError: its first line", for a record or a message."""
    text = str(e)
    return f"{type(e).__name__}: {text.splitlines()[0] if text else ''}"
