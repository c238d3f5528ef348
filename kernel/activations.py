"""A module's output from its last call, kept for the Model tab's Activations (query
``activation``).

The training watch's forward hook records it (``kernel.modules.record`` calls ``keep``):
the first tensor of the output (itself, or the first of a tuple, a list or a dict's
values), detached (never its graph).

Which modules: those the window asked about (``watch``: the ``MAX_WATCHED`` asked last),
at every hooked call, copied to the CPU: the first ``MAX_SAMPLES`` samples, at most
``MAX_KEPT_BYTES``. And, while a statement has not called ``backward()`` yet
(``recording.everything``: a forward pass outside a loop), every leaf module's
first ``UNWATCHED_SAMPLES`` samples when they are small (``SMALL_BYTES``,
``ALL_SMALL_BYTES`` for all together), copied on their device into the last call's copy
(no allocation, no wait for a GPU), so that a layer picked after ``out = net(x)`` shows
at once. That costs a hooked call a few microseconds (LeNet's forward pass of a batch
of 16, hooked, 7 to 9% more); a statement's first ``backward()`` ends it, and inside a
loop the hook runs only on the steps a live run samples (``kernel.watch``): a watched
layer fills within one, and the lean steps cost nothing more.

The answer is one sample of it, as the window draws it (``form``): ``tiles`` for a
(C, H, W) sample (a 4-D output), ``heatmap`` for (H, W), ``bars`` for a vector of at most
``MAX_BARS``, else a ``histogram`` of its values; with its finite min and max (the
colour scale's) and ``call``, the number of the call it came from (the window skips an
answer it has). The first dimension is taken as the batch's, as most layers have it.
"""

from __future__ import annotations

import itertools
import math
import weakref
from dataclasses import dataclass
from typing import Any

from kernel.summary import loaded_torch
from protocol.limits import MAX_PLANE_CELLS
from protocol.sealed import BUILTINS

__builtins__ = BUILTINS  # noqa: A001 - a recipe's patched builtins are not the kernel's

#: The most samples of a batch kept...
MAX_SAMPLES = 64
#: ...and bytes of one module's copy (a sample larger than this is not kept).
MAX_KEPT_BYTES = 16 << 20
#: An unwatched leaf's output: its first samples kept, up to this size, and all of them
#: up to the next.
UNWATCHED_SAMPLES = 8
SMALL_BYTES = 1 << 20
ALL_SMALL_BYTES = 64 << 20
#: The most modules watched at once: the window's picks, the last ones kept.
MAX_WATCHED = 4
#: A vector longer than this is drawn as a histogram, not a bar per value.
MAX_BARS = 1024
HISTOGRAM_BINS = 64

NOT_WATCHED = "not watched"


class _Recording:
    #: True from a statement's start to its first ``backward()`` (``kernel.watch``).
    everything = True
    since = 0  # the last call number before the statement started


recording = _Recording()


@dataclass(slots=True)
class Kept:
    """A module's last call's output, as kept."""

    ref: weakref.ref
    call: int  # the number of the call (all modules' calls counted together)
    values: Any  # its first samples copied, or its output held, or None (``why``)
    why: str = ""
    size: int = 0  # bytes, counted in the unwatched ones' budget
    shape: tuple[int, ...] = ()  # the output's


#: id(module): a weak reference to it, for the modules asked about
watched: dict[int, weakref.ref] = {}
#: The same modules by name (``net.conv1``): found again in the namespace at each
#: statement's start (``resolve``), so that a new run's model is watched from its first call.
_names: dict[str, None] = {}
_kept: dict[int, Kept] = {}
_calls = itertools.count(1)
_small = [0]  # bytes kept of unwatched modules


def watch(module: Any) -> None:
    """Keep ``module``'s output from its next call on (the last ``MAX_WATCHED`` asked)."""
    key = id(module)
    ref = watched.pop(key, None)
    if ref is None or ref() is not module:
        ref = weakref.ref(module, lambda dead: watched.pop(key, None)
                          if watched.get(key) is dead else None)
    watched[key] = ref
    while len(watched) > MAX_WATCHED:
        watched.pop(next(iter(watched)))


def watch_name(dotted: str) -> None:
    """Watch the module named ``dotted`` (``net.conv1``) in every run from now on."""
    _names.pop(dotted, None)
    _names[dotted] = None
    while len(_names) > MAX_WATCHED:
        _names.pop(next(iter(_names)))


def statement_started(namespace: dict[str, Any]) -> None:
    """A statement starts (``kernel.watch``): every small output is kept until its first
    ``backward()``; the modules the window named are found in ``namespace``."""
    recording.everything, recording.since = True, next(_calls)
    resolve(namespace)


def loop_started() -> None:
    """The statement called ``backward()``: only watched modules are kept from now on,
    and the unwatched ones' outputs kept since it started are dropped (they were its
    first step's, not its last call's)."""
    if recording.everything:
        recording.everything = False
        for key, entry in list(_kept.items()):
            if entry.size and entry.call > recording.since:
                _put(key, Kept(entry.ref, entry.call, None, why=NOT_WATCHED,
                               shape=entry.shape))


def resolve(namespace: dict[str, Any]) -> None:
    """A statement starts: watch the modules the window named, as ``namespace`` binds them."""
    torch = loaded_torch()
    for dotted in list(_names):
        head, *parts = dotted.split(".")
        value = namespace.get(head)
        try:
            for part in parts:
                own = vars(value) if isinstance(value, torch.nn.Module) else {}
                value = (own.get("_modules") or {}).get(part)
            if isinstance(value, torch.nn.Module):
                watch(value)
        except Exception:  # noqa: BLE001 - an odd object under that name: not a module
            pass


def keep(module: Any, key: int, output: Any) -> None:
    """The forward hook's call (``kernel.modules.record``): keep ``module``'s output if
    it is watched, or small and outside a loop."""
    ref = watched.get(key)
    asked = ref is not None and ref() is module
    if not asked and (not recording.everything or vars(module).get("_modules")):
        return  # a container, or a loop's step: only what the window asked about
    torch = loaded_torch()
    t = output if isinstance(output, torch.Tensor) else _first_tensor(output, torch.Tensor, 0)
    old = _kept.get(key)
    ref = old.ref if old is not None and old.ref() is module else _ref(module, key)
    call = next(_calls)
    if t is None:
        _put(key, Kept(ref, call, None, why=type(output).__name__, shape=()))
    elif not asked:  # its first samples copied into the last call's copy when they fit
        part = (t if t.dim() else t.reshape(1)).detach()[:UNWATCHED_SAMPLES]
        size = part.nbytes
        if size > SMALL_BYTES or t.layout != torch.strided \
                or size > ALL_SMALL_BYTES - _small[0] + (old.size if old is not None else 0):
            _put(key, Kept(ref, call, None, why=NOT_WATCHED, shape=tuple(t.shape)))
            return
        copy = old.values if old is not None and old.size == size \
            and old.values.shape == part.shape and old.values.dtype == part.dtype \
            and old.values.device == part.device else torch.empty_like(part)
        copy.copy_(part)  # (on the output's device: no wait for it)
        _put(key, Kept(ref, call, copy, size=size, shape=tuple(t.shape)))
    else:
        shape = tuple(int(d) for d in t.shape)
        batch = shape[0] if shape else 1
        per_sample = math.prod(shape[1:]) * t.element_size()
        n = min(batch, MAX_SAMPLES, MAX_KEPT_BYTES // per_sample if per_sample
                else MAX_SAMPLES)
        values = None if batch and n <= 0 else \
            (t if shape else t.reshape(1)).detach()[:n].to("cpu", copy=True)
        _put(key, Kept(ref, call, values, why="large" if values is None else "", shape=shape))


def _put(key: int, entry: Kept) -> None:
    old = _kept.get(key)
    _small[0] += entry.size - (old.size if old is not None else 0)
    _kept[key] = entry


def _ref(module: Any, key: int) -> weakref.ref:
    def forget(dead: weakref.ref) -> None:
        entry = _kept.get(key)
        if entry is not None and entry.ref is dead:
            _small[0] -= entry.size
            _kept.pop(key, None)
    return weakref.ref(module, forget)


def _first_tensor(value: Any, tensor: type, depth: int) -> Any:
    if isinstance(value, tensor):
        return value
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, tuple | list) and depth < 4:
        for item in value[:8]:
            found = _first_tensor(item, tensor, depth + 1)
            if found is not None:
                return found
    return None


def kept(module: Any) -> Kept | None:
    """What is kept of ``module``'s last call, or None."""
    entry = _kept.get(id(module))
    return entry if entry is not None and entry.ref() is module else None


# -- the query ----------------------------------------------------------------------------
def answer(module: Any, dotted: str, args: dict[str, Any]) -> dict[str, Any]:
    """Query ``activation`` for ``module``, which the window names ``dotted``
    (``net.conv1``; ``kernel.queries`` finds it): args ``sample``, and ``call``, ``shown``
    (the call and sample the window shows: an answer with ``same`` alone when nothing
    changed)."""
    torch = loaded_torch()
    watch(module)
    watch_name(dotted)
    entry = kept(module)
    if entry is None or entry.why == NOT_WATCHED:
        return {"call": 0, "missing": "not called" if entry is None else "not watched"}
    values, shape = entry.values, entry.shape
    count = len(values) if values is not None else 0
    sample = min(max(int(args.get("sample", 0)), 0), max(count - 1, 0))
    if args.get("call") == entry.call and args.get("shown") == sample:
        return {"call": entry.call, "same": True}
    out: dict[str, Any] = {"call": entry.call, "shape": list(shape),
                           "batch": shape[0] if shape else 1, "sample": sample, "kept": 0}
    if entry.values is None:
        out["missing"] = "large" if entry.why == "large" else "not a tensor"
        out["type"] = entry.why
        return out
    out["kept"] = count
    if not count:
        out["missing"] = "no samples"
        return out
    x = _real(values[sample], torch)
    finite = x[torch.isfinite(x)]
    out["nonfinite"] = int(x.numel() - finite.numel())
    low, high = (float(finite.min()), float(finite.max())) if finite.numel() else (None, None)
    out["min"], out["max"] = low, high
    step = 1
    if x.dim() in (2, 3):  # an even sample of its rows and columns past the cap
        out["form"] = "tiles" if x.dim() == 3 else "heatmap"
        if x.numel() > MAX_PLANE_CELLS:
            step = math.ceil(math.sqrt(x.numel() / MAX_PLANE_CELLS))
            x = x[..., ::step, ::step]
    elif x.dim() == 1 and x.numel() <= MAX_BARS:
        out["form"] = "bars"
    else:
        out["form"] = "histogram"
        lo, hi = (low, high) if low is not None else (0.0, 1.0)
        if lo == hi:
            lo, hi = lo - 0.5, hi + 0.5
        out["edges"] = [lo + (hi - lo) * i / HISTOGRAM_BINS for i in range(HISTOGRAM_BINS + 1)]
        x = torch.histc(finite, HISTOGRAM_BINS, lo, hi)
    out["step"] = step
    out["values"] = x.contiguous().numpy().astype("float32", copy=True)
    return out


def _real(x: Any, torch: Any) -> Any:
    """A float32 copy of ``x`` to draw: complex by magnitude, bool and integers as numbers."""
    if x.is_complex():
        x = x.abs()
    if x.is_quantized:
        x = x.dequantize()
    return x.to("cpu", torch.float32)
