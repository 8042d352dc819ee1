"""A whole training step as one AOTInductor package (export_model.py --mode train --format pt2;
docs/models.md, "A training step as one package").

AOTInductor compiles inference graphs; a training step becomes one as a plain function of tensors,

    step(*inputs, target, *state) -> loss        state updated in place

`state` being the trainable parameters, the module's buffers and the optimizer's state. make_fx
traces it (the forward, torch.autograd.grad and the optimizer's arithmetic as ATen ops), torch.export
takes that graph and aoti_compile_and_package compiles it. The package's metadata (graphbench_train)
records the calling convention:

    {"state": [{"name", "role": "param" | "buffer" | "optimizer", "shape", "stride", "dtype"}, ...],
     "target": {"shape", "dtype", "range"?} or null (loss mean),
     "state_updates": "in_place" | "returned" (outputs after the loss, where AOTInductor would not
                      compile writes into inputs),
     "channels_last": whether the 4-d weights are kept in channels-last memory format,
     "loss", "optimizer", "lr", "momentum", "weight_decay"}

The optimizers follow torch.optim: SGD with momentum (dampening 0, no Nesterov), Adam, and AdamW
with weight decay 0.01; Adam's step count is a float32 device tensor, so that the bias corrections
change from call to call (as torch.optim's capturable Adam). Everything here imports torch.
"""

import json

from .errors import one_line

ADAM_BETAS = (0.9, 0.999)
ADAM_EPS = 1e-8
ADAMW_WEIGHT_DECAY = 0.01  # torch.optim.AdamW's default, which python_baseline.py's AdamW uses


def weight_decay(case):
    return ADAMW_WEIGHT_DECAY if case.optimizer == "adamw" else 0.0


class StepState:
    """The state of a training step, in the package's input order: params, buffers, optimizer."""

    def __init__(self, case, model):
        import torch

        self.params = [(n, p.detach().clone()) for n, p in model.named_parameters() if p.requires_grad]
        self.buffers = [(n, b.detach().clone()) for n, b in model.named_buffers()]
        self.optimizer = []
        if case.optimizer == "sgd":
            if case.momentum:
                self.optimizer = [(f"{n}.momentum_buffer", torch.zeros_like(p)) for n, p in self.params]
        else:
            device = self.params[0][1].device
            self.optimizer = [("adam.step", torch.zeros((), dtype=torch.float32, device=device))]
            self.optimizer += [(f"{n}.exp_avg", torch.zeros_like(p)) for n, p in self.params]
            self.optimizer += [(f"{n}.exp_avg_sq", torch.zeros_like(p)) for n, p in self.params]

    def entries(self):
        """(name, role, tensor) in the package's order."""
        return ([(n, "param", t) for n, t in self.params] + [(n, "buffer", t) for n, t in self.buffers] +
                [(n, "optimizer", t) for n, t in self.optimizer])

    def tensors(self):
        return [t for _, _, t in self.entries()]

    def described(self):
        return [{"name": n, "role": role, "shape": list(t.shape), "stride": list(t.stride()),
                 "dtype": str(t.dtype).replace("torch.", "")} for n, role, t in self.entries()]


def sgd_update(case, params, grads, momentum_buffers):
    """New params and momentum buffers (torch.optim.SGD, dampening 0, no Nesterov)."""
    if not case.momentum:
        return [p - case.lr * g for p, g in zip(params, grads)], []
    buffers = [case.momentum * m + g for m, g in zip(momentum_buffers, grads)]
    return [p - case.lr * m for p, m in zip(params, buffers)], buffers


def adam_update(case, params, grads, step, exp_avg, exp_avg_sq):
    """New params, step and moments (torch.optim.Adam, or AdamW with decoupled weight decay)."""
    import torch

    beta1, beta2 = ADAM_BETAS
    step = step + 1
    bias_correction1 = 1 - torch.pow(beta1, step)
    bias_correction2_sqrt = torch.sqrt(1 - torch.pow(beta2, step))
    decay = weight_decay(case)
    new_params, new_avg, new_avg_sq = [], [], []
    for p, g, m, v in zip(params, grads, exp_avg, exp_avg_sq):
        if decay:
            p = p * (1 - case.lr * decay)
        m = beta1 * m + (1 - beta1) * g
        v = beta2 * v + (1 - beta2) * g * g
        denom = torch.sqrt(v) / bias_correction2_sqrt + ADAM_EPS
        new_params.append(p - (case.lr / bias_correction1) * m / denom)
        new_avg.append(m)
        new_avg_sq.append(v)
    return new_params, [step] + new_avg + new_avg_sq


def channels_last(tensors):
    """The 4-d floating tensors (images) in channels-last memory format."""
    import torch

    return [t.contiguous(memory_format=torch.channels_last) if t.dim() == 4 and t.is_floating_point() else t
            for t in tensors]


def step_function(case, model, state, input_count, has_target, in_place, in_channels_last=False):
    """step(*inputs, target?, *state) -> loss, writing the new state into the state arguments
    (in_place), or -> (loss, *new state). `in_channels_last`: the images converted to channels-last
    inside the step, for a model whose weights are kept so."""
    import torch

    from .models import zoo as model_zoo

    param_names = [n for n, _ in state.params]
    buffer_names = [n for n, _ in state.buffers]
    n_params, n_buffers = len(param_names), len(buffer_names)

    def step(*args):
        inputs = args[:input_count]
        target = args[input_count] if has_target else None
        current = args[input_count + int(has_target):]
        params = current[:n_params]
        buffers = current[n_params:n_params + n_buffers]
        optimizer = current[n_params + n_buffers:]
        leaves = [p.detach().requires_grad_(True) for p in params]
        # The forward pass updates BatchNorm's statistics in place: into copies, written back below.
        new_buffers = [b.clone() for b in buffers]
        with torch.enable_grad():
            tensors = {**dict(zip(param_names, leaves)), **dict(zip(buffer_names, new_buffers))}
            arguments = channels_last(inputs) if in_channels_last else inputs
            output = torch.func.functional_call(model, tensors, tuple(arguments))
            loss = model_zoo.loss_of(case, output, target)
            grads = torch.autograd.grad(loss, leaves)
        with torch.no_grad():
            if case.optimizer == "sgd":
                new_params, new_optimizer = sgd_update(case, params, grads, optimizer)
            else:
                new_params, new_optimizer = adam_update(case, params, grads, optimizer[0], optimizer[1:1 + n_params],
                                                        optimizer[1 + n_params:1 + 2 * n_params])
            new_state = [*new_params, *new_buffers, *new_optimizer]
            if not in_place:
                return (loss.detach(), *new_state)
            for old, new in zip(current, new_state):
                old.copy_(new)
        return loss.detach()

    return step


def trace(case, model, state, inputs, target, in_place=True, in_channels_last=False):
    """The traced step, an fx GraphModule of ATen ops (one real step run on copies of the state)."""
    from torch.fx.experimental.proxy_tensor import make_fx

    model.train()
    has_target = target is not None
    step = step_function(case, model, state, len(inputs), has_target, in_place, in_channels_last)
    graph = make_fx(step)(*example_arguments(state, inputs, target))
    if in_channels_last:
        channels_last_convolution_backward(graph)
    return graph


# The arguments of aten.convolution_backward that cuDNN reads in the layout of the convolution:
# grad_output and input.
CONVOLUTION_BACKWARD_ACTIVATIONS = (0, 1)


def channels_last_convolution_backward(graph):
    """Hands every 2-d convolution's backward its activations in channels-last memory format: the
    retrace records them as contiguous, and ATen then converted them to the weights' layout with a
    strided copy before each call (0.6 ms of a 5.5 ms ResNet-18 step at batch 32 on an H200); a clone
    in the graph makes Inductor write them so in the kernel that produces them."""
    import torch

    aten = torch.ops.aten
    for node in [n for n in graph.graph.nodes
                 if n.op == "call_function" and n.target is aten.convolution_backward.default]:
        weight = node.args[2].meta.get("val")
        if weight is None or weight.dim() != 4:
            continue
        for position in CONVOLUTION_BACKWARD_ACTIVATIONS:
            argument = node.args[position]
            if is_channels_last_clone(argument):
                continue  # the images, converted at the start of the step
            with graph.graph.inserting_before(node):
                converted = graph.graph.call_function(aten.clone.default, (argument,),
                                                      {"memory_format": torch.channels_last})
            node.update_arg(position, converted)
    graph.recompile()


def is_channels_last_clone(node):
    import torch

    return (getattr(node, "op", None) == "call_function" and node.target is torch.ops.aten.clone.default
            and node.kwargs.get("memory_format") == torch.channels_last)


def example_arguments(state, inputs, target):
    """The step's arguments: the inputs, the target, and copies of the state (a call updates them)."""
    return [*inputs, *([target] if target is not None else []), *[t.clone() for t in state.tensors()]]


def export_package(case, model, inputs, target, classes, path, configs, in_channels_last=False):
    """Compiles the step into the package `path` with Inductor's `configs` (their metadata gains
    graphbench_train and graphbench_read_bytes); returns its initial state. State updates are
    "in_place", or "returned" where this PyTorch's AOTInductor does not compile writes into inputs.
    `in_channels_last`: the model's 4-d weights, and so its state, kept channels-last."""
    import sys

    import torch
    import torch._inductor

    if in_channels_last:
        model = model.to(memory_format=torch.channels_last)
    state = StepState(case, model)
    failure = None
    for updates in ("in_place", "returned"):
        described = {**metadata(case, state, target, classes), "state_updates": updates,
                     "channels_last": in_channels_last}
        compile_configs = {**configs, "aot_inductor.metadata": {**configs["aot_inductor.metadata"],
                                                                "graphbench_train": json.dumps(described),
                                                                "graphbench_read_bytes": str(state_bytes(state))}}
        try:
            graph = trace(case, model, state, inputs, target, in_place=updates == "in_place",
                          in_channels_last=in_channels_last)
            exported = torch.export.export(graph, tuple(example_arguments(state, inputs, target)), strict=False)
            torch._inductor.aoti_compile_and_package(exported, package_path=str(path),
                                                     inductor_configs=compile_configs)
            return state
        except Exception as e:  # noqa: BLE001 - the second form is tried, then the first failure is raised
            if failure is not None:
                raise failure
            failure = e
            print(f"train_step.py: the step that updates its state in place did not compile ({one_line(e)}); "
                  "compiling one that returns it", file=sys.stderr)
    raise failure


def metadata(case, state, target, classes):
    """What graphbench reads from the package: the state and the target (see the module's doc)."""
    target_spec = None
    if target is not None:
        target_spec = {"shape": list(target.shape), "dtype": str(target.dtype).replace("torch.", "")}
        if case.loss == "cross_entropy":
            target_spec["range"] = [0, classes]
    return {"state": state.described(), "target": target_spec, "loss": case.loss, "optimizer": case.optimizer,
            "lr": case.lr, "momentum": case.momentum if case.optimizer == "sgd" else 0.0,
            "weight_decay": weight_decay(case)}


def state_bytes(state):
    """What a step must read at least: every tensor of its state once."""
    return sum(t.numel() * t.element_size() for t in state.tensors())


def save_state(state, path):
    """The initial state as a TorchScript module whose buffers s0, s1, ... are the state in order."""
    import torch

    class State(torch.nn.Module):
        def __init__(self, tensors):
            super().__init__()
            for i, t in enumerate(tensors):
                self.register_buffer(f"s{i}", t.detach().clone())

        def forward(self) -> int:
            return 0

    torch.jit.save(torch.jit.script(State(state.tensors())), str(path))
