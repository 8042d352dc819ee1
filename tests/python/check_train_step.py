#!/usr/bin/env python3
"""Checks of python/graphbench/train_step.py's traced step that need PyTorch 2 (make_fx, torch.func): a
small convolutional model, traced as export_model.py --mode train --channels-last traces it.

- every 2-d convolution's backward gets grad_output and input from a clone to channels-last, and
  the images, already converted at the start of the step, are not cloned twice;
- the graph with those clones trains as the step run eagerly does (loss, params, momentum,
  BatchNorm's statistics), so the clones change layouts, never values;
- a step traced without --channels-last gets no clones.

Exit code 77 (skipped) where this Python has no PyTorch 2 (CI's Debian machine has none); the
GPU machine runs it.

    check_train_step.py SOURCE_DIR
"""

import os
import sys

from check_support import check, finish

SKIP = 77


def torch_2():
    try:
        import torch
    except ImportError:
        return None
    return torch if int(torch.__version__.split(".")[0]) >= 2 and hasattr(torch, "func") else None


class Case:
    """What train_step reads of a model_zoo.ModelCase."""
    optimizer = "sgd"
    lr = 0.1
    momentum = 0.9
    loss = "cross_entropy"


def small_model(torch):
    torch.manual_seed(0)
    return torch.nn.Sequential(
        torch.nn.Conv2d(3, 8, 3, padding=1, bias=False), torch.nn.BatchNorm2d(8), torch.nn.ReLU(),
        torch.nn.Conv2d(8, 8, 3, padding=1, groups=2, bias=False), torch.nn.BatchNorm2d(8), torch.nn.ReLU(),
        torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten(), torch.nn.Linear(8, 5))


def convolution_backwards(torch, graph):
    return [n for n in graph.graph.nodes
            if n.op == "call_function" and n.target is torch.ops.aten.convolution_backward.default]


def check_clones(torch, train_step, graph):
    backwards = convolution_backwards(torch, graph)
    check(len(backwards) == 2, f"the traced step has {len(backwards)} convolution backwards, the model 2")
    for node in backwards:
        for position in train_step.CONVOLUTION_BACKWARD_ACTIVATIONS:
            argument = node.args[position]
            check(train_step.is_channels_last_clone(argument),
                  f"{node.name}'s argument {position} comes from {argument.target}, not a clone to channels-last")
            source = argument.args[0]
            check(not train_step.is_channels_last_clone(source),
                  f"{node.name}'s argument {position} is a clone of a clone to channels-last")


def run_step(train_step, graph_or_step, state, inputs, target):
    arguments = train_step.example_arguments(state, inputs, target)
    loss = graph_or_step(*arguments)
    return loss, arguments[len(inputs) + 1:]


def main(source_dir):
    torch = torch_2()
    if torch is None:
        print("check_train_step.py: skipped: needs PyTorch 2 in this Python")
        return SKIP
    from graphbench import train_step

    model = small_model(torch).to(memory_format=torch.channels_last)
    inputs = [torch.randn(4, 3, 8, 8)]
    target = torch.tensor([0, 1, 2, 3])
    state = train_step.StepState(Case, model)

    graph = train_step.trace(Case, model, state, inputs, target, in_place=True, in_channels_last=True)
    check_clones(torch, train_step, graph)

    eager = train_step.step_function(Case, model, state, len(inputs), True, True, in_channels_last=True)
    eager_loss, eager_state = run_step(train_step, eager, state, inputs, target)
    graph_loss, graph_state = run_step(train_step, graph, state, inputs, target)
    check(torch.allclose(eager_loss, graph_loss, rtol=1e-5, atol=1e-6),
          f"loss: traced {float(graph_loss)}, eager {float(eager_loss)}")
    names = [name for name, _, _ in state.entries()]
    for name, e, g in zip(names, eager_state, graph_state):
        check(torch.allclose(e.float(), g.float(), rtol=1e-5, atol=1e-6),
              f"{name} after one step: traced and eager differ by {float((e.float() - g.float()).abs().max())}")
    changed = [name for name, before, after in zip(names, state.tensors(), graph_state)
               if not torch.equal(before, after)]
    check(len(changed) > len(names) // 2, f"one traced step changed only {changed} of the state")

    contiguous_model = small_model(torch)
    contiguous_state = train_step.StepState(Case, contiguous_model)
    plain = train_step.trace(Case, contiguous_model, contiguous_state, inputs, target, in_place=True)
    clones = [n for n in plain.graph.nodes if train_step.is_channels_last_clone(n)]
    check(not clones, f"a step traced without --channels-last has {len(clones)} clones to channels-last")

    return finish("check_train_step.py")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
