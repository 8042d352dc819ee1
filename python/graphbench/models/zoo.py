"""Models by name, their inputs and the names of their files: what export_model.py and
python_baseline.py share, so that both build the same model for the same case. A name is
SOURCE:NAME: torchvision:resnet50, timm:vit_base_patch16_224, hf:bert (an encoder from its config),
hf:gpt2 (a decoder: the prefill, or with decode=True one decoding step, decoders.py), or
py:FILE.py:CALLABLE (own_code.py). Weights are random (seeded): nothing is downloaded. torch and the
model libraries are imported only by the functions that build models (export_model.py --dry-run).
"""

import os
import re
import sys
from dataclasses import asdict, dataclass, field

from .. import suites
from ..errors import BadInput
from . import own_code
from .state import state_fill

SOURCES = ("torchvision", "timm", "hf", "py")
DTYPES = ("float32", "float16", "bfloat16")
LOSSES = ("mean", "mse", "cross_entropy")
OPTIMIZERS = ("sgd", "adam", "adamw")


@dataclass
class ModelCase:
    """One model at one batch size: everything needed to build it and its inputs again."""

    model: str  # SOURCE:NAME
    batch: int
    mode: str = "inference"  # or "train"
    dtype: str = "float32"
    image_size: int = 224  # vision models: inputs [batch, 3, image_size, image_size]
    seq: int = 128  # hf encoders: input_ids [batch, seq]
    token_high: int = 1000  # hf encoders: token ids drawn from [0, token_high)
    hf_config: dict = field(default_factory=dict)  # hf models: AutoConfig overrides
    decode: bool = False  # hf decoders: one decoding step with a static KV cache (else the prefill)
    max_seq: int = 1024  # decode: the KV cache's positions
    pos: int = 512  # decode: the position the step writes and attends up to
    cache_as_state: bool = False  # decode: the KV cache as inputs the step writes (role state), not buffers
    dynamic_batch: int = 0  # pt2: the batch dimension left dynamic up to this size (0: the batch is fixed)
    dynamic_cache: int = 0  # pt2: dimension 2 of every state input (the KV cache's length) dynamic up to this
    loss: str = "cross_entropy"  # mode train
    optimizer: str = "sgd"
    lr: float = 0.01
    momentum: float = 0.9
    seed: int = 0
    # py: models: the inputs recorded from the callable's examples (the suite's inputs), whether the
    # training step's loss is the callable's own, and the folder its path is relative to.
    example_inputs: list = field(default_factory=list)
    own_loss: bool = False
    origin_dir: str = ""

    @property
    def source(self):
        return self.model.split(":", 1)[0]

    @property
    def name(self):
        return self.model.split(":", 1)[1]

    def check(self):
        source, sep, name = self.model.partition(":")
        if not sep or source not in SOURCES or not name:
            raise BadInput(f"model {self.model!r}: expected SOURCE:NAME with SOURCE one of {', '.join(SOURCES)} "
                           "(e.g. torchvision:resnet50, timm:vit_base_patch16_224, hf:bert, "
                           "py:examples/conv_attention.py:make_model)")
        if source == "py":
            own_code.parse_source(self.model)
        if self.batch < 1:
            raise BadInput(f"model {self.model}: batch must be positive, got {self.batch}")
        if self.dynamic_batch:
            if self.decode and not self.cache_as_state:
                raise BadInput("--dynamic-batch with --decode needs --cache-as-state: a KV cache kept in the package "
                               "is made for one batch size (as inputs, the cache takes the batch of the case)")
            if self.mode != "inference":
                raise BadInput("--dynamic-batch does not go with --mode train: a training step's package is made for "
                               "one batch size (export one package per size)")
            if self.dynamic_batch < self.batch:
                raise BadInput(f"--dynamic-batch {self.dynamic_batch} must be at least --batch {self.batch} (the "
                               "example the package is traced with)")
        if self.dynamic_cache:
            self.check_dynamic_cache()
        if self.decode:
            if self.source != "hf":
                raise BadInput(f"--decode: {self.model} is not a decoder: a decoding step needs a decoder-only "
                               "hf:MODEL_TYPE (e.g. hf:gpt2, hf:llama)")
            if self.mode != "inference":
                raise BadInput("--decode is a step of inference: it does not go with --mode train")
            if self.max_seq < 1:
                raise BadInput(f"--max-seq must be positive, got {self.max_seq}")
            if not 0 <= self.pos < self.max_seq:
                raise BadInput(f"--pos {self.pos} must be in [0, --max-seq {self.max_seq}): the step writes the "
                               "cache at that position")

    def check_dynamic_cache(self):
        """What --dynamic-cache needs before the model is made (check_cache_inputs: once it is)."""
        if self.source == "hf":
            raise BadInput(f"--dynamic-cache: {self.model} cannot take another cache length than it is made with: "
                           "transformers' StaticCache sizes the attention mask by its max_cache_len (StaticLayer."
                           "get_mask_sizes), not by the cache tensors, so the step has --max-seq built in; export a "
                           "file per length (--max-seq) instead")
        if self.mode != "inference":
            raise BadInput("--dynamic-cache is for a decoding step (inference) whose KV cache is state: it does not go "
                           "with --mode train")
        if self.source != "py":
            raise BadInput(f"--dynamic-cache: {self.model} has no KV cache given as state (role state): only a py: "
                           "model whose callable names its caches as state (examples/tiny_decode.py) takes one")
        if self.dynamic_cache < 1:
            raise BadInput(f"--dynamic-cache must be positive, got {self.dynamic_cache}")

    def cache_length(self):
        """The length of the KV cache given as state (dimension 2 of the state inputs, all alike), or None."""
        lengths = {spec["shape"][2] for spec in self.inputs() if spec.get("role") == "state" and len(spec["shape"]) >= 3}
        return lengths.pop() if len(lengths) == 1 else None

    def check_cache_inputs(self, label):
        """--dynamic-cache against the state inputs the callable made (`label` names it)."""
        state = [(i, spec) for i, spec in enumerate(self.inputs()) if spec.get("role") == "state"]
        if not state:
            raise BadInput(f"{label}: --dynamic-cache: no input is state (the callable's \"state\" names none): "
                           "there is no KV cache whose length could vary")
        for i, spec in state:
            if len(spec["shape"]) < 3:
                raise BadInput(f"{label}: --dynamic-cache: state input {i} has shape {spec['shape']}, expected a KV "
                               "cache [batch, kv_heads, length, head_dim] (the length its dimension 2)")
        lengths = sorted({spec["shape"][2] for _, spec in state})
        if len(lengths) != 1:
            raise BadInput(f"{label}: --dynamic-cache: the state inputs' lengths (dimension 2) differ ({lengths}): one "
                           "length for every cache")
        if self.dynamic_cache < lengths[0]:
            raise BadInput(f"{label}: --dynamic-cache {self.dynamic_cache} must be at least the example's cache length "
                           f"{lengths[0]} (the length the package is traced with)")

    def stem(self):
        """The model file's name without extension: resnet50-b1, hf-bert-b1-s128, resnet18-b32-train."""
        slug = re.sub(r"[^A-Za-z0-9_.]+", "-", self.name).strip("-")
        if self.source == "py":  # py:examples/conv_attention.py:make_model -> py-conv_attention-make_model
            src = own_code.parse_source(self.model)
            base = os.path.splitext(os.path.basename(src.file))[0] if src.file else src.module.rsplit(".", 1)[-1]
            slug = re.sub(r"[^A-Za-z0-9_.]+", "-", f"{base}-{src.attribute}").strip("-")
        if self.source != "torchvision":
            slug = f"{self.source}-{slug}"
        # A package for every batch up to N is named for N: resnet18-bmax256.
        parts = [slug, f"bmax{self.dynamic_batch}" if self.dynamic_batch else f"b{self.batch}"]
        if self.dynamic_cache:  # ... and for every cache length up to M: cmaxM
            parts.append(f"cmax{self.dynamic_cache}")
        if self.decode:
            parts.append(f"decode-m{self.max_seq}-p{self.pos}")
            if self.cache_as_state:
                parts.append("state")
        elif self.source == "hf":
            parts.append(f"s{self.seq}")
        elif self.image_size != 224 and self.source != "py":
            parts.append(f"i{self.image_size}")
        if self.dtype != "float32":
            parts.append(self.dtype)
        if self.mode == "train":
            parts.append("train")
        return "-".join(parts)

    def inputs(self):
        """The inputs as graphbench's suite files write them: [{"shape", "dtype", "range"?, "batched"?}]."""
        if self.source == "py":
            return [dict(spec) for spec in self.example_inputs]
        if self.decode:
            # One new token per sequence, and its position (drawn from [pos, pos + 1): always pos).
            step = [{"shape": [self.batch, 1], "dtype": "int64", "range": [0, self.token_high]},
                    {"shape": [1], "dtype": "int64", "range": [self.pos, self.pos + 1]}]
            if self.cache_as_state:
                try:
                    from . import decoders  # its modules need torch at import

                    step += decoders.cache_inputs(self)
                except ImportError as e:
                    raise BadInput(f"--cache-as-state: the shape of hf:{self.name}'s KV cache comes from its config, "
                                   f"which needs transformers in this Python, and transformers torch (under --dry-run "
                                   f"too): {e}")
            return step
        if self.source == "hf":
            return [{"shape": [self.batch, self.seq], "dtype": "int64", "range": [0, self.token_high]}]
        return [{"shape": [self.batch, 3, self.image_size, self.image_size], "dtype": self.dtype}]

    def dynamic_dims(self):
        """{dimension: (name, largest)} per input: 0 of each batched input with --dynamic-batch, 2 of each
        state input (the KV cache's length) with --dynamic-cache."""
        dims = []
        for spec in self.inputs():
            entry = {}
            if self.dynamic_batch and is_batched(spec):
                entry[0] = ("batch", self.dynamic_batch)
            if self.dynamic_cache and spec.get("role") == "state":
                entry[2] = ("cache", self.dynamic_cache)
            dims.append(entry)
        return dims

    def dynamic_shapes(self):
        """torch.export's dynamic_shapes of the inputs: one Dim per name of dynamic_dims, shared by every
        input that has it; None when every size is fixed."""
        if not self.dynamic_batch and not self.dynamic_cache:
            return None
        import torch

        made = {name: dynamic_dim(torch, name, largest) for entry in self.dynamic_dims()
                for name, largest in entry.values()}
        return tuple({d: made[name] for d, (name, _) in entry.items()} or None for entry in self.dynamic_dims())

    def recorded_inputs(self):
        """The inputs' shapes and dtypes as the package records them: a dynamic dimension as -1, and the
        largest shape the package takes as "max" beside it."""
        recorded = [{"shape": list(spec["shape"]), "dtype": spec["dtype"]} for spec in self.inputs()]
        for spec, entry in zip(recorded, self.dynamic_dims()):
            if not entry:
                continue
            spec["max"] = list(spec["shape"])
            for d, (_, largest) in entry.items():
                spec["shape"][d] = -1
                spec["max"][d] = largest
        return recorded

    def to_json(self):
        return asdict(self)

    @staticmethod
    def from_json(data):
        return ModelCase(**{k: v for k, v in data.items() if k in ModelCase.__dataclass_fields__})


def dynamic_dim(torch, name, largest):
    """A named Dim in [1, largest], but Dim.DYNAMIC for the KV cache's length where this PyTorch has it:
    export must prove a named Dim's guards over the whole range, and torch 2.11 could not prove
    min(16*L, 32*L) == 16*L for L in [1, 512]; Dim.DYNAMIC checks such guards at run time."""
    dim = torch.export.Dim
    if name == "cache" and hasattr(dim, "DYNAMIC"):
        return dim.DYNAMIC(min=1, max=largest)
    return dim(name, min=1, max=largest)


def is_batched(spec):
    """Whether an input's dimension 0 is the batch, as graphbench decides it: "batched", else 2+ dims."""
    return spec.get("batched", len(spec["shape"]) >= 2)


def manifest(case, export_times=None, sizes=None):
    """What made a model file, where its export's time went and its sizes: the manifest beside the file."""
    made = case.to_json()
    if case.dynamic_cache:  # the package takes lengths up to dynamic_cache; its example had this one
        made["cache_length"] = case.cache_length()
    if export_times:
        made["export_times"] = export_times
    if sizes:
        made["sizes"] = sizes
    return made


def is_decoder_only(model_type):
    """Whether transformers builds a causal LM of this type that is not also a masked LM (bert has a
    causal-LM head too, but is an encoder)."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from transformers.models.auto.modeling_auto import (
        MODEL_FOR_CAUSAL_LM_MAPPING_NAMES,
        MODEL_FOR_MASKED_LM_MAPPING_NAMES,
    )

    return model_type in MODEL_FOR_CAUSAL_LM_MAPPING_NAMES and model_type not in MODEL_FOR_MASKED_LM_MAPPING_NAMES


def check_decoder(case):
    """BadInput where case.decode names an hf type that is not decoder-only (where transformers can tell)."""
    if not case.decode or case.source != "hf":
        return
    try:
        decoder = is_decoder_only(case.name)
    except ImportError:
        return
    if not decoder:
        raise BadInput(f"--decode: hf:{case.name} is not a decoder-only model type (an encoder, an encoder-decoder, or "
                       "a type transformers does not know): a decoding step needs e.g. hf:gpt2, hf:llama, hf:qwen2, "
                       "hf:mistral")


def own_code_dir(case):
    """The folder a py: model's file or module is found from: where it was first named."""
    return case.origin_dir or os.getcwd()


def check_own_code(case):
    """For a py: model, what can be told without running its code (own_code.check_source)."""
    if case.source != "py":
        return
    own_code.check_source(own_code.parse_source(case.model), own_code_dir(case))


def describe_own_code(case, batch_given, cli_ranges):
    """Calls a py: model's callable once (torch, and the user's code) and records into `case` what the
    suite needs: the batch (--batch's, else the callable's default, else dimension 0 of its first
    input), its parameters' dtype, its inputs (and its own loss's targets) and whether the loss is its
    own. `cli_ranges`: {position or None (every int64 input): (lo, hi)} of --input-range."""
    source = own_code.parse_source(case.model)
    fn = own_code.load(source, own_code_dir(case))
    try:
        import torch
    except ImportError:
        raise BadInput(f"{source.label()}: making the model needs PyTorch, which this Python ({sys.executable}) "
                       "does not have")
    takes_batch, default = own_code.batch_keyword(fn)
    if batch_given and not takes_batch:
        raise BadInput(f"{source.label()}: takes no batch keyword, so --batch cannot set its batch: give it one "
                       f"(def {source.attribute.split('.')[-1]}(batch=1)) or leave --batch out")
    batch = (case.batch if batch_given else default or 1) if takes_batch else None
    torch.manual_seed(case.seed)
    made = own_code.unpack(source, own_code.call(source, fn, batch))
    if batch is None:
        batch = made.inputs[0].shape[0] if made.inputs[0].dim() else 1
    case.batch = batch
    case.dtype = own_code.model_dtype(source, made.model)
    case.own_loss = case.mode == "train" and made.loss is not None
    if case.own_loss:
        own_code.check_loss(source, made)
        case.loss = "mean"  # of the scalar the model-with-loss returns: the loss itself
    examples = made.inputs + list(made.targets) if case.own_loss else made.inputs
    case.example_inputs = own_code.describe_inputs(source, examples, batch, made.ranges, cli_ranges,
                                                   len(made.inputs) + len(made.targets), made.state, made.position)
    if case.dynamic_batch and not any(is_batched(spec) for spec in case.example_inputs):
        raise BadInput(f"{source.label()}: --dynamic-batch: no input has the batch ({batch}) as its dimension 0")
    if case.dynamic_cache:
        case.check_cache_inputs(source.label())


def model_cases(models, batches, cli_ranges, **fields):
    """A checked ModelCase per model and batch (`fields` the rest of each); a py: model without
    `batches` is made at its callable's own batch. Every name is checked before any code runs, so
    that a typo is found at once; then each py: callable is called (describe_own_code)."""
    cases = []
    for model in models:
        own = model.startswith("py:")
        for batch in batches or [None if own else 1]:
            case = ModelCase(model=model, batch=batch or 1, origin_dir=os.getcwd() if own else "", **fields)
            case.check()
            check_decoder(case)
            if case.cache_as_state:
                case.inputs()  # the cache's shape, from the model's config: a bad one stops here
            check_own_code(case)
            cases.append((case, batch is not None))
    for case, batch_given in cases:
        if case.source == "py":
            describe_own_code(case, batch_given, cli_ranges)
            case.check()
    return [case for case, _ in cases]


def build_own_code(case):
    """A py: model as its callable makes it at case.batch (in mode train with its own loss, with it)."""
    source = own_code.parse_source(case.model)
    fn = own_code.load(source, own_code_dir(case))
    takes_batch, _ = own_code.batch_keyword(fn)
    made = own_code.unpack(source, own_code.call(source, fn, case.batch if takes_batch else None))
    if case.mode == "train" and case.own_loss:
        return own_code.with_loss(made.model, made.loss, len(made.inputs))
    return made.model


def read_manifest(model_file):
    path = suites.manifest_path(model_file)
    try:
        return ModelCase.from_json(suites.read_json(path, "manifest (scripts/export_model.py writes one beside each model file)"))
    except TypeError as e:
        raise BadInput(f"{path}: not a manifest written by scripts/export_model.py ({e})")


# ---- building models and inputs (these import torch and the model libraries) ----

def torch_dtype(name):
    import torch

    return {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}[name]


def build_model(case, device=None):
    """The model with random weights (seeded), in case.dtype, on `device` where given; a decoding
    step is built on its device (default: CUDA where there is one), its KV cache allocated there."""
    import torch

    torch.manual_seed(case.seed)
    if case.source == "py":
        return build_own_code(case).to(device=device)  # in the dtypes its code makes
    if case.source == "torchvision":
        import torchvision

        model = torchvision.models.get_model(case.name, weights=None)
    elif case.source == "timm":
        import timm

        model = timm.create_model(case.name, pretrained=False)
    else:
        from . import decoders

        config = decoders.hf_config(case.name, case.hf_config)
        if case.token_high > config.vocab_size:
            raise BadInput(f"{case.model}: token ids up to {case.token_high} exceed the vocabulary ({config.vocab_size})")
        if is_decoder_only(case.name):
            if case.decode:
                return decoders.decode_step(config, case, torch_dtype(case.dtype), device)
            model = decoders.prefill_model(config)
        elif case.decode:
            raise BadInput(f"--decode: hf:{case.name} is not a decoder-only model type (an encoder, or an "
                           "encoder-decoder): a decoding step needs e.g. hf:gpt2, hf:llama, hf:qwen2, hf:mistral")
        else:
            from transformers import AutoModel

            config.torchscript = True  # plain tuples out, so that tracing works
            model = AutoModel.from_config(config)
    return model.to(device=device, dtype=torch_dtype(case.dtype))


def read_bytes(model):
    """The bytes a step must read at least: every parameter and buffer once (a decoding step's KV cache too)."""
    first = {}
    for t in (*model.parameters(), *model.buffers()):
        first.setdefault(t.data_ptr(), t)
    return sum(t.numel() * t.element_size() for t in first.values())


def make_inputs(case, device):
    import torch

    generator = torch.Generator(device="cpu").manual_seed(case.seed + 1)
    tensors = []
    for spec in case.inputs():
        if spec.get("role") == "state":
            t = state_fill(spec["shape"], torch_dtype(spec["dtype"]), spec.get("seed", 0), spec.get("scale", 1.0),
                           device=device)
        elif spec["dtype"] == "int64":
            low, high = spec["range"]
            t = torch.randint(low, high, spec["shape"], generator=generator, dtype=torch.int64)
        else:
            t = torch.randn(spec["shape"], generator=generator).to(torch_dtype(spec["dtype"]))
        tensors.append(t.to(device))
    return tensors


def first_tensor(output):
    """The first tensor of a model's output (a tensor, a tuple or list, a dict or a ModelOutput)."""
    import torch

    if isinstance(output, torch.Tensor):
        return output
    if isinstance(output, dict):
        output = list(output.values())
    return next((found for found in map(first_tensor, output) if found is not None), None)


def flat_tensors(output):
    import torch

    if isinstance(output, torch.Tensor):
        return [output]
    if output is None:
        return []
    if isinstance(output, dict):
        output = list(output.values())
    return [t for item in output for t in flat_tensors(item)]


def loss_of(case, output, target):
    import torch.nn.functional as F

    y = first_tensor(output)
    if case.loss == "mean":
        return y.mean()
    if case.loss == "mse":
        return F.mse_loss(y, target)
    return F.cross_entropy(y, target)


def make_target(case, output, device):
    """The loss's target for a model output (None for loss mean): drawn once, like graphbench does."""
    import torch

    y = first_tensor(output)
    generator = torch.Generator(device="cpu").manual_seed(case.seed + 2)
    if case.loss == "mse":
        return torch.randn(y.shape, generator=generator).to(device=device, dtype=y.dtype)
    if case.loss == "cross_entropy":
        if y.dim() != 2:
            raise BadInput(f"{case.model}: loss cross_entropy needs [N, C] scores, the model returns {list(y.shape)}")
        return torch.randint(0, y.shape[1], (y.shape[0],), generator=generator).to(device)
    return None


def make_optimizer(case, params, capturable=False):
    import torch

    if case.optimizer == "sgd":
        return torch.optim.SGD(params, lr=case.lr, momentum=case.momentum)
    kind = torch.optim.Adam if case.optimizer == "adam" else torch.optim.AdamW
    return kind(params, lr=case.lr, capturable=capturable)
