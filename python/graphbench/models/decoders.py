"""Hugging Face decoders for graphbench's model workloads (used by zoo.py; docs/models.md,
"Exporting" and "The KV cache as state"): the prefill, the forward over `seq` tokens with the KV
cache off (with it on, the model returns a DynamicCache, which no exporter takes); a decoding step,
DecodeStep, forward(input_ids [B, 1], cache_position [1]) -> (logits, the keys and values written
at the position), over transformers' StaticCache filled with seeded values; and DecodeStateStep,
whose caches are inputs (each layer's keys then values, role state, seed case.seed + 3 + i, scale
0.5), so that the file holds the weights only. Everything here imports torch and transformers.
"""

import os

import torch  # the classes below derive from torch.nn.Module

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
    """A DecodeStep (a DecodeStateStep with case.cache_as_state) on `device`, default CUDA where there is one."""
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
    """A --cache-as-state step's inputs after its tokens and position: each layer's keys, then values."""
    layers, kv_heads, head_dim = cache_geometry(hf_config(case.name, dict(case.hf_config)))
    shape = [case.batch, kv_heads, case.max_seq, head_dim]
    return [{"shape": list(shape), "dtype": case.dtype, "role": "state", "seed": case.seed + 3 + i, "scale": 0.5}
            for i in range(2 * layers)]


def _static_cache_step(model, batch, max_seq, device):
    """transformers' TorchExportableModuleWithStaticCache of the model: a step with a static KV cache."""
    from transformers.integrations.executorch import TorchExportableModuleWithStaticCache

    model.generation_config.use_cache = True
    model.generation_config.cache_implementation = "static"
    return TorchExportableModuleWithStaticCache(model, batch_size=batch, max_cache_len=max_seq, device=device)


class Prefill(torch.nn.Module):
    """The model's logits over the whole sequence: a plain tensor out, no cache object."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, input_ids):
        return self.model(input_ids=input_ids, use_cache=False).logits


class DecodeStep(torch.nn.Module):
    def __init__(self, model, batch, max_seq, device, seed=0):
        super().__init__()
        self.step = _static_cache_step(model, batch, max_seq, device)
        self.layers = len(self.step.static_cache.layers)
        generator = torch.Generator(device="cpu").manual_seed(seed + 3)
        with torch.no_grad():
            for layer in self.step.static_cache.layers:
                for cache in (layer.keys, layer.values):
                    cache.copy_(torch.randn(cache.shape, generator=generator).to(cache.dtype) * 0.5)

    def forward(self, input_ids, cache_position):
        logits = self.step(input_ids=input_ids, cache_position=cache_position)
        written = [getattr(self.step, f"{kind}_cache_{i}").index_select(2, cache_position)
                   for i in range(self.layers) for kind in ("key", "value")]
        return logits, torch.stack(written)


class DecodeStateStep(torch.nn.Module):
    """A decoding step whose KV cache is given, forward(input_ids, cache_position, *caches): built as
    DecodeStep is, less the cache buffers, its cache's layers pointed at the given tensors each call."""

    def __init__(self, model, batch, max_seq, device):
        super().__init__()
        self.step = _static_cache_step(model, batch, max_seq, device)
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
        self._point_cache_at(caches)
        logits = self.step(input_ids=input_ids, cache_position=cache_position)
        written = [c.index_select(2, cache_position) for c in caches]
        return logits, torch.stack(written)
