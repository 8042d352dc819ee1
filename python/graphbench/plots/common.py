"""What the plot scripts share: a figure written as a PNG, and matplotlib's pyplot (Agg) from this
interpreter or, where it lacks matplotlib (a virtual environment), from Debian's python3, which
python3-matplotlib installs into: the command run again there."""

import os
import sys

from ..commands import module_command


def save_png(plt, fig, output):
    """Writes `fig` to the PNG file `output` at 120 dpi, laid out tight, and closes it."""
    fig.tight_layout()
    fig.savefig(output, dpi=120)
    plt.close(fig)


def import_pyplot(prog):
    """Returns matplotlib.pyplot; exits with 1 and a message when no matplotlib can be found."""
    try:
        import matplotlib
    except ImportError:
        system_python = "/usr/bin/python3"
        if (os.path.exists(system_python) and os.path.realpath(sys.executable) != os.path.realpath(system_python)
                and not os.environ.get("GRAPHBENCH_PLOT_REEXEC")):
            rerun, env = module_command(prog[:-len(".py")], *sys.argv[1:])  # the command, however it was started
            os.execve(system_python, [system_python, *rerun], {**env, "GRAPHBENCH_PLOT_REEXEC": "1"})
        print(f"{prog}: error: matplotlib is not installed for {sys.executable} "
              "(apt-get install python3-matplotlib)", file=sys.stderr)
        sys.exit(1)
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt
