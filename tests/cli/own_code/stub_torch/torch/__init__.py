"""A stand-in for PyTorch, for the checks of python/graphbench/models/own_code.py on a machine without it (CI's
Debian machine): tensors that have a shape, a dtype and one value, modules that call forward.
Only what own_code.py and tests/cli/own_code/bad_models.py use; on PYTHONPATH in
check_own_code.py's runs of export_model.py, never beside a real PyTorch in one process."""

import contextlib

STUB = True


class dtype:  # noqa: N801 - torch's name
    def __init__(self, name, floating):
        self.name = name
        self.is_floating_point = floating

    def __str__(self):
        return f"torch.{self.name}"


float32 = dtype("float32", True)
float16 = dtype("float16", True)
bfloat16 = dtype("bfloat16", True)
float64 = dtype("float64", True)
int64 = dtype("int64", False)
bool = dtype("bool", False)  # noqa: A001 - torch's name


class Tensor:
    def __init__(self, shape, dtype=float32, value=0, requires_grad=False):
        self.shape = tuple(shape)
        self.dtype = dtype
        self.value = value
        self.requires_grad = requires_grad

    def dim(self):
        return len(self.shape)

    def numel(self):
        n = 1
        for size in self.shape:
            n *= size
        return n

    def is_floating_point(self):
        return self.dtype.is_floating_point

    def min(self):
        return self.value

    def max(self):
        return self.value

    def __int__(self):
        return int(self.value)


def full(shape, value, dtype=float32, requires_grad=False):
    return Tensor(shape, dtype, value, requires_grad)


def zeros(*shape, dtype=float32):
    return Tensor(shape, dtype)


def manual_seed(seed):
    return seed


@contextlib.contextmanager
def enable_grad():
    yield


class _Module:
    def __call__(self, *args):
        return self.forward(*args)

    def train(self, mode=True):
        return self

    def parameters(self):
        return iter([])


class nn:  # noqa: N801 - torch.nn
    Module = _Module
