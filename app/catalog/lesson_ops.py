"""Catalogue entries the gallery's lessons need and no other catalogue module describes.

``torch.Tensor(...)``, the legacy constructor (the lesson "torch.tensor versus
torch.Tensor"), ``x.new_ones(...)`` and ``x.new_zeros(...)``, which make a tensor with
``x``'s dtype and device (the lesson on ``new_ones`` and the ``*_like`` functions), and
``x.is_contiguous()`` (the lesson on ``view`` versus ``reshape`` after ``transpose``).

``torch.Tensor`` and ``new_*`` are not in the ``creation`` category on purpose: the
builder panel offers the ``creation`` functions with a form each, and ``new_*`` need a
tensor to call them on, which the op panel provides.
"""

from __future__ import annotations

from app.catalog.spec import OpSpec, Param
from protocol.i18n import QT_TRANSLATE_NOOP, Filled


def _new(name: str, value: str) -> OpSpec:
    return OpSpec(
        name, "", "new tensors",
        (Param("size", "size", varargs=True,
               doc=QT_TRANSLATE_NOOP("Param", "The shape, one integer per dimension.")),
         Param("dtype", "dtype", None, keyword_only=True,
               doc=QT_TRANSLATE_NOOP("Param", "Element type; None keeps the dtype of the tensor it "
                                              "is called on.")),
         Param("device", "device", None, keyword_only=True,
               doc=QT_TRANSLATE_NOOP("Param", "Where it lives; None keeps the device of the tensor "
                                              "it is called on.")),
         Param("requires_grad", "bool", False, keyword_only=True,
               doc=QT_TRANSLATE_NOOP("Param", "Record operations on the new tensor for "
                                              "autograd."))),
        Filled(QT_TRANSLATE_NOOP("OpSpec", "A new tensor of the given shape filled with {0}, "
                                           "with the dtype and device of the tensor it is "
                                           "called on (not torch's defaults). Only the dtype "
                                           "and device are taken from it: its shape and values "
                                           "play no part. torch.{1}_like copies the shape as "
                                           "well."), value, name.removeprefix("new_")),
        f"torch.tensor([1, 2], dtype=torch.int8).{name}(2, 3)",
        method=True, creates=True, provenance="none")


SPECS: list[OpSpec] = [
    OpSpec("Tensor", "torch", "legacy",
           (Param("size", "size", varargs=True,
                  doc=QT_TRANSLATE_NOOP("Param", "Either sizes, torch.Tensor(2, 3) (uninitialised "
                                                 "memory), or data, torch.Tensor([1, 2, 3]).")),),
           QT_TRANSLATE_NOOP("OpSpec", "The class of every tensor, called as a constructor. "
                                       "torch.Tensor(2, 3) makes a 2 x 3 float32 tensor of "
                                       "uninitialised memory; torch.Tensor([1, 2]) copies data "
                                       "but always as float32 (the default dtype). Prefer "
                                       "torch.tensor(data), which infers the dtype, and "
                                       "torch.empty(2, 3) for uninitialised memory."),
           "torch.Tensor([1, 2, 3])", creates=True, provenance="none"),
    _new("new_ones", "1"),
    _new("new_zeros", "0"),
    OpSpec("is_contiguous", "", "conversion", (),
           QT_TRANSLATE_NOOP("OpSpec", "True when the tensor's elements lie in memory in "
                                       "row-major order, one after the other, as view needs "
                                       "them. transpose and permute only change the strides, so "
                                       "their results usually are not contiguous; contiguous() "
                                       "makes a copy that is."),
           "torch.arange(6).view(2, 3).t().is_contiguous()", method=True, provenance="none"),
]
