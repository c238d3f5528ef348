"""Catalogue entries for the nn lessons: modules, ``nn.Parameter``, the comparisons they need,
and the builtins that show results (``len``, ``list``)."""

from __future__ import annotations

from app.catalog import autograd, creation, ops
from app.catalog.spec import OpSpec, Param
from protocol.i18n import QT_TRANSLATE_NOOP

_DEVICE = Param("device", "device", None, keyword_only=True,
                doc=QT_TRANSLATE_NOOP("Param", "Where the module's tensors live: cpu, cuda:N or "
                                               "mps."))
_DTYPE = Param("dtype", "dtype", None, keyword_only=True,
               doc=QT_TRANSLATE_NOOP("Param", "Element type of the module's tensors; None picks "
                                              "torch's default."))
_INPLACE = Param("inplace", "bool", False,
                 doc=QT_TRANSLATE_NOOP("Param", "Overwrite the input instead of making a new "
                                                "tensor."))


def _activation(name: str, summary: str, *params: Param) -> OpSpec:
    return OpSpec(name, "nn", "nn", params, summary, f"nn.{name}()", provenance="none",
                  extra={"module": True})


_MODULES: list[OpSpec] = [
    OpSpec("Linear", "nn", "nn",
           (Param("in_features", "int", minimum=0,
                  doc=QT_TRANSLATE_NOOP("Param", "Size of each input's last dimension.")),
            Param("out_features", "int", minimum=0,
                  doc=QT_TRANSLATE_NOOP("Param", "Size of each output's last dimension.")),
            Param("bias", "bool", True,
                  doc=QT_TRANSLATE_NOOP("Param", "Learn an additive bias as well.")),
            _DEVICE, _DTYPE),
           QT_TRANSLATE_NOOP("OpSpec", "A fully connected layer: y = x @ weight.T + bias, "
                                       "applied to the last dimension of x. weight is "
                                       "(out_features, in_features) and starts random (Kaiming "
                                       "uniform), so set the seed first."),
           "nn.Linear(3, 2)", creates=True, provenance="none",
           extra={"module": True, "numel": ("in_features", "out_features")}),
    OpSpec("Embedding", "nn", "nn",
           (Param("num_embeddings", "int", minimum=0,
                  doc=QT_TRANSLATE_NOOP("Param", "How many ids: rows of the table.")),
            Param("embedding_dim", "int", minimum=0,
                  doc=QT_TRANSLATE_NOOP("Param", "Length of each id's vector.")),
            Param("padding_idx", "int", None,
                  doc=QT_TRANSLATE_NOOP("Param", "An id whose vector stays zero and gets no "
                                                 "gradient; None for none.")),
            _DEVICE, _DTYPE),
           QT_TRANSLATE_NOOP("OpSpec", "A lookup table: each integer id picks one row of weight, "
                                       "so ids of shape S give vectors of shape S + "
                                       "(embedding_dim,)."),
           "nn.Embedding(10, 3)", creates=True, provenance="none",
           extra={"module": True, "numel": ("num_embeddings", "embedding_dim")}),
    OpSpec("Dropout", "nn", "nn",
           (Param("p", "float", 0.5, minimum=0.0, maximum=1.0,
                  doc=QT_TRANSLATE_NOOP("Param", "Probability that an element is "
                                                 "zeroed.")), _INPLACE),
           QT_TRANSLATE_NOOP("OpSpec", "In training mode, zeroes each element with probability p "
                                       "and scales the others by 1 / (1 - p), so the expected "
                                       "value stays the same. In eval mode it does nothing."),
           "nn.Dropout(0.5)", provenance="none", extra={"module": True}),
    _activation("ReLU", QT_TRANSLATE_NOOP("OpSpec", "max(x, 0) as a module, for nn.Sequential."),
                        _INPLACE),
    _activation("Tanh", QT_TRANSLATE_NOOP("OpSpec", "The hyperbolic tangent as a module, for "
                                                    "nn.Sequential.")),
    _activation("Sigmoid", QT_TRANSLATE_NOOP("OpSpec", "1 / (1 + exp(-x)) as a module, for "
                                                       "nn.Sequential.")),
    OpSpec("Sequential", "nn", "nn",
           (Param("modules", "any", varargs=True,
                  doc=QT_TRANSLATE_NOOP("Param", "The modules, in the order they run.")),),
           QT_TRANSLATE_NOOP("OpSpec", "Runs its modules one after the other: the output of each "
                                       "is the input of the next. seq[0] is the first module; "
                                       "its parameters are named 0.weight, 0.bias ..."),
           "nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))", provenance="none",
           extra={"module": True}),
    OpSpec("ModuleList", "nn", "nn",
           (Param("modules", "any", None, doc=QT_TRANSLATE_NOOP("Param", "A list of modules.")),),
           QT_TRANSLATE_NOOP("OpSpec", "A list of modules whose parameters belong to the module "
                                       "that holds it. It has no forward: call its items, "
                                       "layers[0](x)."),
           "nn.ModuleList([nn.Linear(2, 2), nn.Linear(2, 2)])", provenance="none",
           extra={"module": True}),
    OpSpec("ModuleDict", "nn", "nn",
           (Param("modules", "any", None,
                  doc=QT_TRANSLATE_NOOP("Param", 'A dict of modules: {"name": module, ...}.')),),
           QT_TRANSLATE_NOOP("OpSpec", "A dict of modules, looked up by name: "
                                       "heads[\"class\"](x). Its parameters are named after the "
                                       "keys."),
           'nn.ModuleDict({"a": nn.Linear(2, 2), "b": nn.Linear(2, 3)})', provenance="none",
           extra={"module": True, "dict_args": True}),
    OpSpec("Parameter", "nn", "nn",
           (Param("data", "tensor", None,
                  doc=QT_TRANSLATE_NOOP("Param", "The tensor to wrap; its values are kept.")),
            Param("requires_grad", "bool", True,
                  doc=QT_TRANSLATE_NOOP("Param", "Record operations for autograd."))),
           QT_TRANSLATE_NOOP("OpSpec", "A tensor marked as a learnable parameter: assigned to a "
                                       "module attribute, it appears in parameters() and "
                                       "state_dict() and the optimizer trains it."),
           "nn.Parameter(torch.ones(2))", provenance="none"),
]

_COMPARISON: list[OpSpec] = [
    OpSpec("allclose", "torch", "comparison",
           (Param("input", "tensor", doc=QT_TRANSLATE_NOOP("Param", "The tensor to check.")),
            Param("other", "tensor", doc=QT_TRANSLATE_NOOP("Param", "The tensor to compare with.")),
            Param("rtol", "float", 1e-05,
                  doc=QT_TRANSLATE_NOOP("Param", "Relative tolerance: a share of |other|.")),
            Param("atol", "float", 1e-08,
                  doc=QT_TRANSLATE_NOOP("Param", "Absolute tolerance, added to rtol * |other|.")),
            Param("equal_nan", "bool", False,
                  doc=QT_TRANSLATE_NOOP("Param", "Count NaN as equal to NaN."))),
           QT_TRANSLATE_NOOP("OpSpec", "True when every |input - other| <= atol + rtol * "
                                       "|other|: equal up to rounding. rtol covers large values; "
                                       "near zero only atol helps."),
           "torch.allclose(torch.tensor([1.0, 0.0]), torch.tensor([1.000001, 1e-7]), "
           "atol=1e-6)",
           method=True, provenance="none"),
    OpSpec("equal", "torch", "comparison",
           (Param("input", "tensor", doc=QT_TRANSLATE_NOOP("Param", "The tensor to check.")),
            Param("other", "tensor",
                  doc=QT_TRANSLATE_NOOP("Param", "The tensor to compare with."))),
           QT_TRANSLATE_NOOP("OpSpec", "True when both tensors have the same shape and exactly "
                                       "the same elements: not a single bit of rounding allowed."),
           "torch.equal(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0]))",
           method=True, provenance="none"),
    OpSpec("abs", "torch", "elementwise",
           (Param("input", "tensor", doc=QT_TRANSLATE_NOOP("Param", "The tensor to work on.")),),
           QT_TRANSLATE_NOOP("OpSpec", "The absolute value of every element."),
           "torch.abs(torch.tensor([-1.5, 0.0, 2.0]))", method=True, provenance="elementwise"),
    OpSpec("max", "torch", "reduction",
           (Param("input", "tensor", doc=QT_TRANSLATE_NOOP("Param", "The tensor to work on.")),
            Param("dim", "dim", None,
                  doc=QT_TRANSLATE_NOOP("Param", "The dimension to reduce; None gives the largest "
                                                 "element of all.")),
            Param("keepdim", "bool", False,
                  doc=QT_TRANSLATE_NOOP("Param", "Keep the reduced dimension with size 1."))),
           QT_TRANSLATE_NOOP("OpSpec", "The largest element. With dim, a (values, indices) pair: "
                                       "the largest along dim and where it is."),
           "torch.max(torch.tensor([[1, 5], [7, 0]]))", method=True),
    OpSpec("min", "torch", "reduction",
           (Param("input", "tensor", doc=QT_TRANSLATE_NOOP("Param", "The tensor to work on.")),
            Param("dim", "dim", None,
                  doc=QT_TRANSLATE_NOOP("Param", "The dimension to reduce; None gives the smallest "
                                                 "element of all.")),
            Param("keepdim", "bool", False,
                  doc=QT_TRANSLATE_NOOP("Param", "Keep the reduced dimension with size 1."))),
           QT_TRANSLATE_NOOP("OpSpec", "The smallest element. With dim, a (values, indices) "
                                       "pair: the smallest along dim and where it is."),
           "torch.min(torch.tensor([[1, 5], [7, 0]]))", method=True),
]

_BUILTIN: list[OpSpec] = [
    OpSpec("len", "builtins", "output",
           (Param("obj", "any", doc=QT_TRANSLATE_NOOP("Param", "A tensor, list or module.")),),
           QT_TRANSLATE_NOOP("OpSpec", "The number of items: a tensor's first dimension, a "
                                       "list's length, the modules in a Sequential or ModuleList."),
           "len(torch.zeros(3, 2))", provenance="none"),
    OpSpec("list", "builtins", "output",
           (Param("iterable", "any",
                  doc=QT_TRANSLATE_NOOP("Param", "What to list: parameters(), keys(), a "
                                                 "tensor ...")),),
           QT_TRANSLATE_NOOP("OpSpec", "The items as a Python list, so print shows them all: "
                                       "list(net.parameters()), list(sd.keys())."),
           "list(torch.arange(3))", provenance="none"),
]

def _not_yet_described(specs: list[OpSpec]) -> list[OpSpec]:
    """``specs`` less those another catalogue module already has, so they never clash."""
    taken = {key for module in (creation, ops, autograd)
             for spec in module.SPECS for key in spec.keys}
    return [s for s in specs if not taken.intersection(s.keys)]


SPECS: list[OpSpec] = _not_yet_described(_MODULES + _COMPARISON + _BUILTIN)
