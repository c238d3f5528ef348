"""Attention weights of the recipe's attention calls, per head, for the Model tab.

Two kinds of call are seen while the training watch's forward hook is on (every module
call of a statement; inside a live training loop, the steps it samples only: lean steps
pay nothing here):

- an ``nn.MultiheadAttention`` module's: its weights come again from its own parameters
  and the call's arguments (``F.multi_head_attention_forward`` with ``need_weights`` and
  ``average_attn_weights=False``), as torch computes them, before dropout. The call's
  keyword arguments (masks, ``is_causal``) are taken by a thin wrapper of the class's
  ``forward``, which changes nothing it is given or returns;
- ``F.scaled_dot_product_attention``'s (called by the recipe; not the one inside an
  ``nn.MultiheadAttention``): ``softmax(q kᵀ · scale + mask)``, from the call's own
  ``q``, ``k``, mask, ``is_causal``, ``scale`` and ``enable_gqa``, before dropout.

Each call site keeps its last call's weights for its first ``MAX_SAMPLES`` samples, as
float32 copies taken when it ran (the model may train on: later weights are not that
call's), at most ``MAX_VALUES`` values. The query ``attention`` lists the calls, and
answers one sample's weights: heads by query positions by key positions.
"""

from __future__ import annotations

import math
import sys
import threading
import types
from typing import Any

from kernel.summary import loaded_torch
from protocol.sealed import BUILTINS

__builtins__ = BUILTINS  # noqa: A001 - a recipe's patched builtins are not the kernel's

#: Samples of a batch whose weights are kept, and the most values kept per call.
MAX_SAMPLES = 8
MAX_VALUES = 1 << 21
#: Call sites kept (the most recent ones).
MAX_CALLS = 32

_lock = threading.Lock()
#: Call site: {"label", "weights" (samples, heads, queries, keys) float32 numpy,
#: "samples" (the call's batch), "count" (calls seen)}
_calls: dict[tuple, dict[str, Any]] = {}
_state: dict[str, Any] = {"recording": False, "inside": 0, "installed": False,
                          "statement": -1}
_kwargs: dict[int, dict] = {}  # each module's last call's keyword arguments, by id


def recording(on: bool) -> None:
    """The watch's forward hook is on (``True``) or off: calls are seen only while on."""
    _state["recording"] = on


def install() -> None:
    """Wrap ``nn.MultiheadAttention.forward`` and ``F.scaled_dot_product_attention``
    (once, when the recipe has imported torch)."""
    torch = loaded_torch()
    if _state["installed"] or torch is None:
        return
    _state["installed"] = True
    functional = torch.nn.functional
    forward = torch.nn.MultiheadAttention.forward
    sdpa = functional.scaled_dot_product_attention

    kwargs_of, state = _kwargs, _state  # closure cells: its globals are not this module's

    def mha_forward(self, *args, **kwargs):
        kwargs_of[id(self)] = kwargs  # read by the forward hook, which runs after this
        state["inside"] += 1
        try:
            return forward(self, *args, **kwargs)
        finally:
            state["inside"] -= 1
    # its globals are the original's: TorchScript compiles the original's source (through
    # ``__wrapped__``) and looks its names up there (its own are closure cells)
    mha_forward = types.FunctionType(mha_forward.__code__, forward.__globals__, "forward",
                                     None, mha_forward.__closure__)
    mha_forward.__doc__, mha_forward.__wrapped__ = forward.__doc__, forward
    mha_forward.__qualname__ = forward.__qualname__

    def scaled_dot_product_attention(*args, **kwargs):
        out = sdpa(*args, **kwargs)
        if _state["recording"] and not _state["inside"]:
            caller = sys._getframe(1)  # noqa: SLF001 - names the call site
            _guarded(_record_sdpa, args, kwargs, caller)
        return out
    scaled_dot_product_attention.__doc__ = sdpa.__doc__
    scaled_dot_product_attention.__wrapped__ = sdpa

    torch.nn.MultiheadAttention.forward = mha_forward
    functional.scaled_dot_product_attention = scaled_dot_product_attention
    try:  # TorchScript compiles a call of it as of torch's own (its table of builtins)
        from torch.jit._builtins import _register_builtin

        _register_builtin(scaled_dot_product_attention, "aten::scaled_dot_product_attention")
    except (ImportError, AttributeError, TypeError):
        pass


def module_called(module: Any, inputs: tuple, path_of: Any) -> None:
    """The forward hook saw ``module`` called with ``inputs``: an attention module's
    weights are kept (``path_of(module)`` names it)."""
    torch = loaded_torch()
    if isinstance(module, torch.nn.MultiheadAttention):
        _guarded(_record_mha, module, inputs, _kwargs.get(id(module), {}), path_of(module))


def calls() -> list[dict[str, Any]]:
    """The call sites seen, most recent last: key, label, shape of the kept weights."""
    with _lock:
        return [{"key": list(key), "label": c["label"], "samples": c["samples"],
                 "kept": int(c["weights"].shape[0]), "heads": int(c["weights"].shape[1]),
                 "queries": int(c["weights"].shape[2]), "keys": int(c["weights"].shape[3]),
                 "count": c["count"]} for key, c in _calls.items()]


def weights(key: tuple, sample: int) -> Any:
    """One sample's kept weights, (heads, queries, keys) float32; KeyError, IndexError."""
    with _lock:
        return _calls[key]["weights"][sample]


def statement(index: int) -> None:
    """Top-level statement ``index`` runs next: the calls seen are its."""
    _state["statement"] = index


def start(keep_before: int) -> None:
    """A run from statement ``keep_before`` on: the calls of the statements it runs again
    are forgotten (an edit that took a call out leaves none of it shown)."""
    with _lock:
        for key in [k for k, c in _calls.items() if c["statement"] >= keep_before]:
            del _calls[key]


# -- the weights ---------------------------------------------------------------------
def _guarded(work: Any, *args: Any) -> None:
    try:
        work(*args)
    except Exception:  # noqa: BLE001 - an odd call: not shown, never the recipe's fault
        pass


def _record_mha(module: Any, inputs: tuple, kwargs: dict, path: str) -> None:
    torch = loaded_torch()
    functional = torch.nn.functional
    names = ("query", "key", "value", "key_padding_mask", "need_weights", "attn_mask",
             "average_attn_weights", "is_causal")
    given = dict(zip(names, inputs, strict=False)) | kwargs
    query, key, value = given["query"], given["key"], given["value"]
    batched = query.dim() == 3
    if module.batch_first and batched:
        query, key, value = (t.transpose(0, 1) for t in (query, key, value))
    with torch.no_grad():
        common = dict(training=False, key_padding_mask=given.get("key_padding_mask"),
                      need_weights=True, attn_mask=given.get("attn_mask"),
                      average_attn_weights=False, is_causal=given.get("is_causal", False))
        if not module._qkv_same_embed_dim:  # noqa: SLF001 - the module's own layout
            common |= dict(use_separate_proj_weight=True, q_proj_weight=module.q_proj_weight,
                           k_proj_weight=module.k_proj_weight,
                           v_proj_weight=module.v_proj_weight)
        _, found = functional.multi_head_attention_forward(
            query, key, value, module.embed_dim, module.num_heads, module.in_proj_weight,
            module.in_proj_bias, module.bias_k, module.bias_v, module.add_zero_attn, 0.0,
            module.out_proj.weight, module.out_proj.bias, **common)
    if not batched:
        found = found.unsqueeze(0)
    _keep(("module", path), path, found)


def _record_sdpa(args: tuple, kwargs: dict, caller: Any) -> None:
    torch = loaded_torch()
    names = ("query", "key", "value", "attn_mask", "dropout_p", "is_causal", "scale",
             "enable_gqa")
    given = dict(zip(names, args, strict=False)) | kwargs
    q, k = given["query"], given["key"]
    mask, causal, scale = given.get("attn_mask"), given.get("is_causal", False), \
        given.get("scale")
    with torch.no_grad():
        q, k = q.detach().float(), k.detach().float()
        if given.get("enable_gqa") and q.dim() >= 3 and k.size(-3) != q.size(-3):
            k = k.repeat_interleave(q.size(-3) // k.size(-3), dim=-3)
        scores = q @ k.transpose(-2, -1) * (scale if scale is not None
                                             else 1 / math.sqrt(q.size(-1)))
        length, source = scores.shape[-2:]
        if causal:
            allowed = torch.ones(length, source, dtype=torch.bool, device=scores.device).tril()
            scores = scores.masked_fill(~allowed, -math.inf)
        if mask is not None:
            scores = scores.masked_fill(~mask, -math.inf) if mask.dtype == torch.bool \
                else scores + mask.float()
        found = scores.softmax(dim=-1)
    while found.dim() < 4:  # (queries, keys) or (heads, ...): one sample, one head
        found = found.unsqueeze(0)
    found = found.reshape(-1, *found.shape[-3:])  # every leading dimension a sample
    owner = caller.f_locals.get("self")
    where = f"{type(owner).__name__}.{caller.f_code.co_name}" if owner is not None \
        and caller.f_code.co_name == "forward" else caller.f_code.co_name
    label = f"scaled_dot_product_attention ({where}, line {caller.f_lineno})"
    _keep(("function", caller.f_code.co_filename, caller.f_lineno), label, found)


def _keep(key: tuple, label: str, found: Any) -> None:
    """Keep the first samples of ``found`` (samples, heads, queries, keys) for ``key``."""
    samples = int(found.shape[0])
    per = max(1, math.prod(found.shape[1:]))
    kept = found[:max(1, min(MAX_SAMPLES, MAX_VALUES // per))]
    array = kept.detach().float().cpu().numpy().copy()
    with _lock:
        count = _calls.pop(key, {}).get("count", 0) + 1
        _calls[key] = {"label": label, "weights": array, "samples": samples, "count": count,
                       "statement": _state["statement"]}
        while len(_calls) > MAX_CALLS:
            del _calls[next(iter(_calls))]
