"""Where an export's time goes, seconds of wall time written into each file's manifest as
"export_times": build_s, inputs_s, trace_s and save_s (pt), export_s and compile_s (pt2), the
latter's cpp_compile_s (AotCodeCompiler.compile), package_s (package_aoti) and inductor_s (the rest:
lowering, code generation, autotuning) where this PyTorch's functions are found, train_step_s
(pt2 --mode train) and total_s. A phase not run is left out; PyTorch's functions are wrapped only
while an export runs.
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
