"""The package's commands: each name (an entry point of python/pyproject.toml, and scripts/NAME.py)
runs its module's main(argv); BadInput that reaches here is bad input, exit 2 with its message."""

import importlib
import os
import sys
from functools import partial

from .errors import EXIT_BAD_INPUT, BadInput

COMMANDS = {
    "aa_summary": "tables.aa_summary", "all_reduce_overlap": "peers.all_reduce_overlap",
    "aoti_pieces_probe": "aoti_probe", "blog_table": "tables.blog_table", "blog_targets": "tables.blog_targets",
    "check_layers": "layers", "ddp_table": "tables.ddp_table", "export_model": "export",
    "gate_summary": "tables.gate_summary", "mnist_ratios": "tables.mnist_ratios", "plot_speedups": "plots.speedups",
    "plot_sweep": "plots.sweep", "python_baseline": "peers.baseline", "python_branches_baseline": "peers.branches",
    "python_control_flow_baseline": "peers.early_exit",
    "python_ddp_baseline": "peers.ddp", "python_replay_baseline": "peers.replay",
    "simulate_process_gate": "tables.process_gate_simulation", "suites": "suites", "trace_timeline": "plots.timeline",
}


def run(name, argv=None):
    """Command `name` on `argv` (default: this process's arguments); its exit code. BadInput is said
    as "PROG: error: ..." where the module names its PROG, else "NAME: ..."."""
    module = importlib.import_module(f"{__package__}.{COMMANDS[name]}")
    try:
        return module.main(sys.argv[1:] if argv is None else argv)
    except BadInput as e:
        prog = getattr(module, "PROG", None)
        print(f"{prog}: error: {e}" if prog else f"{name}: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT


def module_command(name, *args):
    """`name` again in a new process (e.g. under torchrun): `-m graphbench.commands NAME ARGS...`, and
    the environment that finds this package there, wherever this one found it."""
    parent = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    path = os.pathsep.join(p for p in (parent, os.environ.get("PYTHONPATH")) if p)
    return ["-m", f"{__package__}.commands", name, *args], {**os.environ, "PYTHONPATH": path}


for _name in COMMANDS:  # one function per command, for the entry points: graphbench.commands:NAME
    globals()[_name] = partial(run, _name)

if __name__ == "__main__":
    sys.exit(run(sys.argv[1], sys.argv[2:]))
