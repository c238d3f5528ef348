"""Short summaries of the values a statement bound or changed, as plain JSON-ready data.

After each top-level statement the kernel reports the names whose value is new (another
object) or changed in place (a tensor's ``_version`` moved), in the manner of
spyder-kernels' ``publish_state``: type, shape, dtype, device, ``requires_grad`` and small
values inline, with their statistics; modules with their parameters, buffers and
submodules. Big values stay in the kernel; a view asks for the part it shows.
"""

from __future__ import annotations

import math
from typing import Any

from kernel import tensor_kinds
from protocol.sealed import BUILTINS

__builtins__ = BUILTINS  # noqa: A001 - a recipe's patched builtins are not the kernel's

#: Tensors with at most this many elements travel whole in their summary.
INLINE_NUMEL = 64
#: Longest ``repr`` a summary carries.
REPR_CHARS = 200
#: The most lines of a module's ``repr`` (what ``print(net)`` shows) a summary carries.
MODULE_TEXT_LINES = 200


def fingerprint(value: Any) -> tuple[int, int]:
    """What tells that a name now holds another value, or the same tensor changed."""
    version = getattr(value, "_version", 0) if _is_tensor(value) else 0
    return id(value), version


def user_names(namespace: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """The namespace's own names (no dunders) and their fingerprints: a module that an
    import bound is a name like any other, as python binds it (``import math``)."""
    return {name: fingerprint(value) for name, value in namespace.items()
            if not name.startswith("__")}


def changed(before: dict[str, tuple[int, int]], namespace: dict[str, Any]) -> list[str]:
    """Names bound or changed since ``before`` (in the namespace's order)."""
    now = user_names(namespace)
    return [name for name, mark in now.items() if before.get(name) != mark]


def _is_tensor(value: Any) -> bool:
    torch = loaded_torch()
    return torch is not None and isinstance(value, torch.Tensor)


def loaded_torch():
    """torch, when the recipe (or the warm-up) has imported it all; else None.

    Never imports it. While the warm-up thread is half-way through ``import torch``, the
    module is in ``sys.modules`` without its functions yet: that counts as not loaded.
    """
    global _torch
    if _torch is not None:  # kept: a recipe may take it out of sys.modules, and the
        return _torch  # kernel must not import it again (torch cannot be, in a process)
    import sys

    torch = sys.modules.get("torch")  # never imported here: only if the recipe did
    spec = getattr(torch, "__spec__", None)
    if getattr(spec, "_initializing", False):  # the warm-up import is half done
        return None
    if hasattr(torch, "Tensor"):
        _torch = torch
    return torch


_torch = None


def summarize(value: Any) -> dict[str, Any]:
    """A JSON-ready description of ``value``."""
    torch = loaded_torch()
    try:
        if torch is not None and isinstance(value, torch.Tensor):
            return _tensor(value)
        if torch is not None and isinstance(value, torch.nn.Module):
            return _module(value)
    except Exception as e:  # noqa: BLE001 - a kind this lab does not know: said, not fatal
        return {"type": type(value).__name__, "repr": f"<no summary: {type(e).__name__}>"}
    if isinstance(value, bool | int | str) or value is None:
        return {"type": type(value).__name__, "value": value if not isinstance(value, str)
                else value[:REPR_CHARS]}
    if isinstance(value, float):
        return {"type": "float", "value": value if math.isfinite(value) else repr(value)}
    return {"type": type(value).__name__, "repr": _repr(value)}


def _tensor(t: Any) -> dict[str, Any]:
    fn, device = t.grad_fn, t.device
    if t.is_nested:  # no single shape: not a tensor the viewer can show (type says so)
        return {"type": "NestedTensor", "dtype": _text(t.dtype), "device": _text(device),
                "requires_grad": t.requires_grad, **tensor_kinds.facts(t)}
    out: dict[str, Any] = {
        "type": "Tensor", "shape": list(t.shape), "dtype": _text(t.dtype),
        "device": _text(device), "requires_grad": t.requires_grad,
        "is_leaf": t.is_leaf, "grad_fn": type(fn).__name__ if fn is not None else None,
    }
    if t.layout != loaded_torch().strided or t.is_quantized or device.type == "meta":
        out.update(tensor_kinds.facts(t))  # sparse, quantized, meta: what they are
        data = tensor_kinds.dense(t, INLINE_NUMEL)  # small: dense, or dequantized
        if device.type == "meta":
            out["no_values"] = tensor_kinds.no_values(t)
        if data is None:
            return out
    else:
        data = t.detach()
        out.update(strides=list(t.stride()), storage_offset=t.storage_offset(),
                   is_contiguous=t.is_contiguous(), element_size=t.element_size())
    if t.numel() <= INLINE_NUMEL:
        from protocol.json_values import plain

        out["values"] = plain(data.tolist() if device.type == "cpu" else data.cpu().tolist())
        if "kind" not in out and (t.dim() or t.is_complex()):
            # the window shows them without torch (``protocol.tensor_summary.summary_stats``;
            # a real 0-d tensor's it works out from its value: a loop's samples of one
            # share their summary but for the value)
            from kernel.tensor_info import tensor_stats

            out["stats"] = [list(s) for s in tensor_stats(data)]
    return out


_TEXTS: dict[Any, str] = {}


def _text(value: Any) -> str:
    """``str(value)`` of a dtype or a device, made once (a loop summarizes its tensors at
    every one of its first iterations)."""
    text = _TEXTS.get(value)
    if text is None:
        text = _TEXTS[value] = str(value)
    return text


def _module(m: Any) -> dict[str, Any]:
    return {
        "type": type(m).__name__, "module": True,
        "parameters": {n: list(p.shape) for n, p in m.named_parameters(recurse=False)},
        "buffers": {n: list(b.shape) for n, b in m.named_buffers(recurse=False)},
        "children": {n: type(c).__name__ for n, c in m.named_children()},
        "parameter_count": sum(p.numel() for p in m.parameters()),
        **_module_text(m),
    }


def _module_text(m: Any) -> dict[str, Any]:
    """What ``print(m)`` shows: ``text``, its first ``MODULE_TEXT_LINES`` lines, and
    ``text_more``, how many lines were left out."""
    try:
        lines = repr(m).splitlines()
    except Exception as e:  # noqa: BLE001 - a broken __repr__ is the recipe's, not ours
        lines = [f"<{type(m).__name__}: repr failed: {type(e).__name__}>"]
    return {"text": "\n".join(lines[:MODULE_TEXT_LINES]),
            "text_more": max(0, len(lines) - MODULE_TEXT_LINES)}


def _repr(value: Any) -> str:
    try:
        text = repr(value)
    except Exception as e:  # noqa: BLE001 - a broken __repr__ is the recipe's, not ours
        text = f"<{type(value).__name__}: repr failed: {type(e).__name__}>"
    return text if len(text) <= REPR_CHARS else text[:REPR_CHARS - 1] + "…"
