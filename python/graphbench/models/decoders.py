"""Hugging Face decoders for graphbench's model workloads (used by zoo.py).

Prefill: a decoder-only model (gpt2, llama, qwen2, mistral, ...) from its config with random
weights, its forward over `seq` tokens with the KV cache off, returning the logits. The cache is
what stopped the export: with it on, the model returns a DynamicCache, which neither
torch.jit.trace nor torch.export accepts.

Decoding step (DecodeStep): one token per sequence, the KV cache static (transformers' StaticCache,
as its executorch integration sets it up: every layer's keys and values allocated up front and
registered as buffers of this module), written in place at the position input and attended up to
it. forward(input_ids [B, 1] int64, cache_position [1] int64) returns
    logits   [B, 1, vocab]
    written  [2 * layers, B, kv_heads, 1, head_dim]: the keys and values the step wrote at the
             position, so that graphbench's validation sees the cache the step left (comparing the
             whole cache would copy it every step)
The cache starts with seeded random values (an empty cache would make every position before the
step's alike). A step at a fixed position overwrites the same entries with the same values every
time, so every run of it, eager or replayed, starts from the same cache.

With --cache-as-state (DecodeStateStep) the cache is no part of the module: forward(input_ids,
cache_position, *caches) takes each layer's keys and then values ([B, kv_heads, max_seq,
head_dim], the model's dtype) as inputs and writes them in place at the position, through the
same StaticCache, whose layers are pointed at the given tensors on every call. The suite names
them with role state, seed case.seed + 3 + i (i counting keys 0, values 0, keys 1, ...) and scale
0.5: graphbench allocates them once per case and draws them so (state.state_fill), the
exporter draws the same for its example. The file then holds the weights only, and with
--dynamic-batch one AOTInductor package serves every batch (the caches take the case's batch).

Everything here imports torch and transformers; zoo.py imports this module only to build.
"""

import os

from ..errors import BadInput


def _transformers():
    os.environ.setdefault("HF_HUB_OFFLINE", "1")  # a config by model type needs no download
    import transformers

    return transformers


def hf_config(model_type, overrides):
    """AutoConfig.for_model(model_type) with `overrides`; BadInput for a type transformers does not know."""
    transformers = _transformers()
    try:
        return transformers.AutoConfig.for_model(model_type, **overrides)
    except ValueError as e:
        raise BadInput(f"hf:{model_type}: transformers {transformers.__version__} does not know this model "
                                 f"type ({str(e).splitlines()[0]})")


def prefill_model(config):
    """The causal LM over a whole sequence, cache off: forward(input_ids) -> logits."""
    transformers = _transformers()
    config.use_cache = False
    return Prefill(transformers.AutoModelForCausalLM.from_config(config))


def decode_step(config, case, dtype, device=None):
    """A DecodeStep of the case's model, batch and cache, on `device` (default: CUDA where there is one);
    a DecodeStateStep with case.cache_as_state."""
    import torch

    device = torch.device(device or ("cuda" if torch.cuda.is_available() else "cpu"))
    transformers = _transformers()
    config.use_cache = True
    model = transformers.AutoModelForCausalLM.from_config(config).to(dtype=dtype, device=device).eval()
    if case.cache_as_state:
        return DecodeStateStep(model, case.batch, case.max_seq, device)
    return DecodeStep(model, case.batch, case.max_seq, device, seed=case.seed)


def cache_geometry(config):
    """(layers, kv_heads, head_dim) of a decoder's KV cache, as transformers' StaticCache sizes it."""
    heads = config.num_attention_heads
    kv_heads = getattr(config, "num_key_value_heads", None) or heads
    head_dim = getattr(config, "head_dim", None) or config.hidden_size // heads
    return config.num_hidden_layers, kv_heads, head_dim


def cache_inputs(case):
    """The suite's inputs of a --cache-as-state step after its tokens and position: each layer's keys
    and then values, role state, seeded as the class docstring says. Reads the model's config
    (transformers, not torch)."""
    try:
        config = hf_config(case.name, dict(case.hf_config))
    except ImportError:
        raise BadInput(f"--cache-as-state: the shape of hf:{case.name}'s KV cache comes from its config, "
                                 "which needs transformers in this Python (under --dry-run too)")
    layers, kv_heads, head_dim = cache_geometry(config)
    shape = [case.batch, kv_heads, case.max_seq, head_dim]
    return [{"shape": list(shape), "dtype": case.dtype, "role": "state", "seed": case.seed + 3 + i, "scale": 0.5}
            for i in range(2 * layers)]


def _module_base():
    import torch

    return torch.nn.Module


class Prefill(_module_base()):
    """The model's logits over the whole sequence: a plain tensor out, no cache object."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, input_ids):
        return self.model(input_ids=input_ids, use_cache=False).logits


class DecodeStep(_module_base()):
    def __init__(self, model, batch, max_seq, device, seed=0):
        import torch
        from transformers.integrations.executorch import TorchExportableModuleWithStaticCache

        super().__init__()
        model.generation_config.use_cache = True
        model.generation_config.cache_implementation = "static"
        self.step = TorchExportableModuleWithStaticCache(model, batch_size=batch, max_cache_len=max_seq, device=device)
        self.layers = len(self.step.static_cache.layers)
        generator = torch.Generator(device="cpu").manual_seed(seed + 3)
        with torch.no_grad():
            for layer in self.step.static_cache.layers:
                for cache in (layer.keys, layer.values):
                    cache.copy_(torch.randn(cache.shape, generator=generator).to(cache.dtype) * 0.5)

    def forward(self, input_ids, cache_position):
        import torch

        logits = self.step(input_ids=input_ids, cache_position=cache_position)
        written = [getattr(self.step, f"{kind}_cache_{i}").index_select(2, cache_position)
                   for i in range(self.layers) for kind in ("key", "value")]
        return logits, torch.stack(written)


class DecodeStateStep(_module_base()):
    """One decoding step whose KV cache is given: forward(input_ids, cache_position, *caches). Built as
    DecodeStep is (transformers' TorchExportableModuleWithStaticCache), less the cache buffers the
    wrapper registers: the cache's layers are pointed at the given tensors on every call."""

    def __init__(self, model, batch, max_seq, device):
        from transformers.integrations.executorch import TorchExportableModuleWithStaticCache

        super().__init__()
        model.generation_config.use_cache = True
        model.generation_config.cache_implementation = "static"
        self.step = TorchExportableModuleWithStaticCache(model, batch_size=batch, max_cache_len=max_seq, device=device)
        # The wrapper's key_cache_i / value_cache_i buffers would keep a cache in the file: dropped.
        for name in [n for n in self.step._buffers if n.startswith(("key_cache_", "value_cache_"))]:
            del self.step._buffers[name]
        self.cache = self.step.static_cache

    def _point_cache_at(self, caches):
        # transformers >= 4.56 keeps a list of layers (each initialised on its first update);
        # earlier versions keep key_cache and value_cache lists.
        if hasattr(self.cache, "layers"):
            for layer, keys, values in zip(self.cache.layers, caches[0::2], caches[1::2]):
                layer.keys, layer.values = keys, values
                if hasattr(layer, "is_initialized"):
                    layer.is_initialized = True
        else:
            self.cache.key_cache = list(caches[0::2])
            self.cache.value_cache = list(caches[1::2])

    def forward(self, input_ids, cache_position, *caches):
        import torch

        self._point_cache_at(caches)
        logits = self.step(input_ids=input_ids, cache_position=cache_position)
        written = [c.index_select(2, cache_position) for c in caches]
        return logits, torch.stack(written)
