"""Where an export's time goes (export_model.py writes it into each file's <file>.json manifest as
"export_times", seconds of wall time):

    build_s         building the model (random weights) on its device
    inputs_s        making the example inputs
    trace_s         pt: torch.jit.trace
    save_s          pt: torch.jit.save
    export_s        pt2: torch.export.export (the graph captured by Dynamo or the non-strict tracer)
    compile_s       pt2: aoti_compile_and_package as a whole, of which, where this PyTorch's
                    functions are found:
      cpp_compile_s   AotCodeCompiler.compile: the C++ compile of the wrapper and kernels and the
                      weights written into the shared library
      package_s       package_aoti: the files zipped into the .pt2
      inductor_s      the rest: Inductor's lowering, its kernels' code generation and autotuning
    train_step_s    pt2 --mode train: the whole training step's export and compile (train_step.py)
    total_s         the whole export of the file

A phase not run is left out. Plain Python; wrapping PyTorch's functions is done only while an export
runs and undone after it.
"""

import contextlib
import time


class ExportTimes:
    def __init__(self):
        self.phases = {}

    @contextlib.contextmanager
    def phase(self, name):
        """Adds the wall time inside the block to phase `name`."""
        start = time.perf_counter()
        try:
            yield
        finally:
            self.phases[name] = self.phases.get(name, 0.0) + time.perf_counter() - start

    @contextlib.contextmanager
    def calls_of(self, owner, attribute, name, is_classmethod=False):
        """Inside the block, every call of owner.attribute counts as phase `name`; nothing where
        owner or its attribute does not exist (another PyTorch version)."""
        original = getattr(owner, attribute, None) if owner is not None else None
        if original is None:
            yield
            return
        own = attribute in vars(owner)
        raw = vars(owner).get(attribute)  # as defined (a classmethod object), to put back

        def timed(*args, **kwargs):
            with self.phase(name):
                return original(*args, **kwargs)

        # A class method fetched from its class is already bound: set back as a static method, it
        # is called the same way through the class or an instance.
        setattr(owner, attribute, staticmethod(timed) if is_classmethod else timed)
        try:
            yield
        finally:
            if own:
                setattr(owner, attribute, raw)
            else:
                delattr(owner, attribute)

    def finish_compile(self):
        """inductor_s: the compile less its C++ compile and packaging, where both were timed."""
        if "compile_s" in self.phases and "cpp_compile_s" in self.phases and "package_s" in self.phases:
            self.phases["inductor_s"] = max(0.0, self.phases["compile_s"] - self.phases["cpp_compile_s"] -
                                            self.phases["package_s"])

    def to_json(self):
        return {name: round(seconds, 3) for name, seconds in self.phases.items()}


def inductor_owners():
    """(AotCodeCompiler class, torch._inductor.package module), each None where not found."""
    try:
        from torch._inductor import codecache
    except ImportError:
        codecache = None
    try:
        from torch._inductor import package
    except ImportError:
        package = None
    return getattr(codecache, "AotCodeCompiler", None), package
