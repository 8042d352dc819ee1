"""What the Python check scripts of tests/cli share: checks that record a failure and go on, and
the exit code that sums them up."""

import sys

failures = []


def check(condition, what):
    """Records `what` as failed (and prints it) unless `condition` holds; the checks go on."""
    if not condition:
        failures.append(what)
        print(f"FAILED: {what}", file=sys.stderr)


def finish(prog):
    """0 when every check passed, else 1; says which."""
    if failures:
        print(f"{prog}: {len(failures)} check(s) failed", file=sys.stderr)
        return 1
    print(f"{prog}: all checks passed")
    return 0
