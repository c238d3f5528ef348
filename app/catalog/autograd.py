"""Catalogue entries: autograd, as recipe steps.

``out.backward()``, ``y.retain_grad()``, ``x.requires_grad_()``, ``x.grad.zero_()`` and
``y.detach_()`` (``detach`` itself is a conversion in ``catalog_ops``), plus the two
activations a small MLP needs, ``relu`` and ``tanh``, where ``catalog_ops`` does not
already describe them.
"""

from __future__ import annotations

from app.catalog import ops
from app.catalog.spec import OpSpec, Param
from protocol.i18n import QT_TRANSLATE_NOOP

_AUTOGRAD: list[OpSpec] = [
    OpSpec("backward", "", "autograd",
           (Param("gradient", "tensor", None,
                  doc=QT_TRANSLATE_NOOP("Param", "d(something)/d(this tensor), the same shape as "
                                                 "it. Needed when the tensor has more than one "
                                                 "element; None for a scalar (it means 1).")),
            Param("retain_graph", "bool", None,
                  doc=QT_TRANSLATE_NOOP("Param", "Keep the graph's saved tensors so backward can "
                                                 "run through it again; None means the same as "
                                                 "create_graph.")),
            Param("create_graph", "bool", False,
                  doc=QT_TRANSLATE_NOOP("Param", "Record the backward pass too, for gradients of "
                                                 "gradients."))),
           QT_TRANSLATE_NOOP("OpSpec", "Computes the gradient of this tensor with respect to "
                                       "every leaf tensor it was computed from (those created "
                                       "with requires_grad=True) and ADDS it to each leaf's "
                                       ".grad. The graph is freed afterwards unless "
                                       "retain_graph=True."),
           "torch.tensor([3.0], requires_grad=True).mul(2).sum().backward()",
           method=True, provenance="none"),
    OpSpec("retain_grad", "", "autograd", (),
           QT_TRANSLATE_NOOP("OpSpec", "Asks autograd to keep .grad for this non-leaf tensor "
                                       "too. Only leaves (tensors you created) get .grad by "
                                       "default; intermediate results pass the gradient on and "
                                       "forget it. Call it before backward."),
           "torch.ones(2, requires_grad=True).mul(2).retain_grad()",
           method=True, provenance="none"),
    OpSpec("requires_grad_", "", "autograd",
           (Param("requires_grad", "bool", True,
                  doc=QT_TRANSLATE_NOOP("Param", "True to start recording operations on this "
                                                 "tensor, False to stop.")),),
           QT_TRANSLATE_NOOP("OpSpec", "In place: switches autograd recording on (or off) for "
                                       "this tensor and returns it. Only a leaf (a tensor not "
                                       "computed from others) can be switched; it must be "
                                       "floating point."),
           "torch.ones(2).requires_grad_()", method=True, provenance="none"),
    OpSpec("zero_", "", "autograd", (),
           QT_TRANSLATE_NOOP("OpSpec", "In place: sets every element to 0. Used as "
                                       "x.grad.zero_() to reset a gradient, because backward "
                                       "adds to .grad rather than replacing it."),
           "torch.ones(2).zero_()", method=True, provenance="none"),
    OpSpec("detach_", "", "autograd", (),
           QT_TRANSLATE_NOOP("OpSpec", "In place: cuts this tensor off from the graph that made "
                                       "it, so it becomes a leaf that does not require grad. "
                                       "Gradients no longer flow back through it."),
           "torch.ones(2, requires_grad=True).mul(2).detach_()", method=True,
           provenance="none"),
]

_ACTIVATION: list[OpSpec] = [
    OpSpec("relu", "torch", "activation",
           (Param("input", "tensor", doc=QT_TRANSLATE_NOOP("Param", "The tensor to work on.")),),
           QT_TRANSLATE_NOOP("OpSpec", "max(x, 0) element by element: negative values become 0, "
                                       "positive values pass unchanged. Its gradient is 1 where "
                                       "x > 0 and 0 elsewhere."),
           "torch.relu(torch.tensor([-1.0, 0.0, 2.0]))", method=True, also_in=("F",),
           provenance="elementwise"),
    OpSpec("tanh", "torch", "activation",
           (Param("input", "tensor", doc=QT_TRANSLATE_NOOP("Param", "The tensor to work on.")),),
           QT_TRANSLATE_NOOP("OpSpec", "The hyperbolic tangent element by element: squashes any "
                                       "number into (-1, 1), with slope 1 at 0."),
           "torch.tanh(torch.tensor([-2.0, 0.0, 2.0]))", method=True, provenance="elementwise"),
]


def _not_yet_described(specs: list[OpSpec]) -> list[OpSpec]:
    """``specs`` less those ``catalog_ops`` already has, so the two modules never clash."""
    taken = {key for spec in ops.SPECS for key in spec.keys}
    return [s for s in specs if not taken.intersection(s.keys)]


SPECS: list[OpSpec] = [*_AUTOGRAD, *_not_yet_described(_ACTIVATION)]
