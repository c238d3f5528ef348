"""Catalogue entries: the ops students apply to tensors.

Shape, indexing, masks, joining, linear algebra, elementwise arithmetic and
comparisons, reductions, activations, sampling and conversions. Each entry is
one ``OpSpec``; examples are self-contained so the docs panel can show them as
they are.
"""

from __future__ import annotations

from app.catalog.spec import OpSpec, Param
from protocol.i18n import QT_TRANSLATE_NOOP, Filled

_INPUT = Param("input", "tensor", doc=QT_TRANSLATE_NOOP("Param", "The tensor to work on."))
_OTHER = Param("other", "any", doc=QT_TRANSLATE_NOOP("Param", "A tensor or a number; it is "
                                                              "broadcast against input."))
_KEEPDIM = Param("keepdim", "bool", False,
                 doc=QT_TRANSLATE_NOOP("Param", "Keep each reduced dimension with size 1, so the "
                                                "result still lines up with input."))
_DTYPE_OUT = Param("dtype", "dtype", None, keyword_only=True,
                   doc=QT_TRANSLATE_NOOP("Param", "Convert input to this dtype first; None keeps "
                                                  "it."))
_MEMORY_FORMAT_DOC = QT_TRANSLATE_NOOP("Param", "Memory layout of the copy; the default keeps "
                                                "input's.")


def _reduce_dim(what: Filled) -> Param:
    return Param("dim", "dim", None,
                 doc=Filled(QT_TRANSLATE_NOOP("Param", "The dimension(s) to {0} over; None "
                                                       "means all."), what))


def _compare(name: str, operator: str, words: Filled) -> OpSpec:
    return OpSpec(
        name, "torch", "elementwise", (_INPUT, _OTHER),
        Filled(QT_TRANSLATE_NOOP("OpSpec", "True where input {0} other, element by element, "
                                           "else False. The same as `input {1} other`; the "
                                           "result is a bool tensor, ready for masked_fill or "
                                           "where."), words, operator),
        f"torch.{name}(torch.tensor([1, 2, 3]), 2)",
        method=True, operator=operator, provenance="elementwise")


def _convert(name: str, dtype: str) -> OpSpec:
    return OpSpec(
        name, "", "conversion",
        (Param("memory_format", "any", None, keyword_only=True, doc=_MEMORY_FORMAT_DOC),),
        Filled(QT_TRANSLATE_NOOP("OpSpec", "A copy converted to {0}, the same as "
                                           "`.to(torch.{0})`. Returns input itself when it "
                                           "already has that dtype."), dtype),
        f"torch.tensor([1.7, -0.5, 0.0]).{name}()",
        method=True, provenance="elementwise")


_SHAPE: list[OpSpec] = [
    OpSpec("view", "", "shape",
           (Param("size", "size", varargs=True,
                  doc=QT_TRANSLATE_NOOP("Param", "The new shape; one entry may be -1 to be worked "
                                                 "out.")),),
           QT_TRANSLATE_NOOP("OpSpec", "The same elements, read in row-major order, seen with a "
                                       "new shape. No data is copied: the result shares storage "
                                       "with input, so input's strides must allow it (after "
                                       "transpose they usually do not: use reshape or call "
                                       "contiguous first)."),
           "torch.arange(12).view(3, 4)", method=True, provenance="ids"),
    OpSpec("reshape", "torch", "shape",
           (_INPUT, Param("shape", "size", varargs=True, varargs_in_function=False,
                          doc=QT_TRANSLATE_NOOP("Param", "The new shape; one entry may be -1 to be "
                                                         "worked out."))),
           QT_TRANSLATE_NOOP("OpSpec", "The same elements, read in row-major order, with a new "
                                       "shape. Like view, but copies the data when the strides "
                                       "do not allow a view."),
           "torch.arange(6).reshape(2, 3)", method=True, provenance="ids"),
    OpSpec("squeeze", "torch", "shape",
           (_INPUT, Param("dim", "dim", None,
                          doc=QT_TRANSLATE_NOOP("Param", "The size-1 dimension(s) to remove; None "
                                                         "removes all."))),
           QT_TRANSLATE_NOOP("OpSpec", "Removes dimensions of size 1: a (1, 3, 1) tensor becomes "
                                       "(3,). With dim, only that dimension goes, and only if "
                                       "its size is 1."),
           "torch.zeros(1, 3, 1).squeeze()", method=True, provenance="ids"),
    OpSpec("unsqueeze", "torch", "shape",
           (_INPUT, Param("dim", "dim",
                          doc=QT_TRANSLATE_NOOP("Param", "Where the new size-1 dimension goes."))),
           QT_TRANSLATE_NOOP("OpSpec", "Inserts a dimension of size 1 at position dim: a (3,) "
                                       "tensor becomes (1, 3) with dim=0 or (3, 1) with dim=1. "
                                       "Often used to line tensors up for broadcasting."),
           "torch.arange(3).unsqueeze(0)", method=True, provenance="ids"),
    OpSpec("flatten", "torch", "shape",
           (_INPUT, Param("start_dim", "dim", 0,
                          doc=QT_TRANSLATE_NOOP("Param", "First dimension to merge.")),
            Param("end_dim", "dim", -1,
                  doc=QT_TRANSLATE_NOOP("Param", "Last dimension to merge."))),
           QT_TRANSLATE_NOOP("OpSpec", "Merges the dimensions from start_dim to end_dim into "
                                       "one, in row-major order. With the defaults the result is "
                                       "1-D."),
           "torch.zeros(2, 3, 4).flatten(1)", method=True, provenance="ids"),
    OpSpec("transpose", "torch", "shape",
           (_INPUT, Param("dim0", "dim", doc=QT_TRANSLATE_NOOP("Param", "One dimension to swap.")),
            Param("dim1", "dim", doc=QT_TRANSLATE_NOOP("Param", "The other dimension to swap."))),
           QT_TRANSLATE_NOOP("OpSpec", "Swaps two dimensions: element [i, j] moves to [j, i]. No "
                                       "data is copied; only the strides change, so the result "
                                       "is usually not contiguous."),
           "torch.arange(6).view(2, 3).transpose(0, 1)", method=True, provenance="ids"),
    OpSpec("t", "torch", "shape", (_INPUT,),
           QT_TRANSLATE_NOOP("OpSpec", "Transposes a 2-D tensor (rows become columns); 0-D and "
                                       "1-D tensors come back as they are."),
           "torch.arange(6).view(2, 3).t()", method=True, provenance="ids"),
    OpSpec("permute", "torch", "shape",
           (_INPUT, Param("dims", "size", varargs=True, varargs_in_function=False,
                          doc=QT_TRANSLATE_NOOP("Param", "The new order of the dimensions, each "
                                                         "named once."))),
           QT_TRANSLATE_NOOP("OpSpec", "Reorders all dimensions at once: dims lists, for each "
                                       "new dimension, which old one it is. A view, like "
                                       "transpose."),
           "torch.zeros(2, 3, 4).permute(2, 0, 1)", method=True, provenance="ids"),
    OpSpec("contiguous", "", "shape",
           (Param("memory_format", "any", None, keyword_only=True, doc=_MEMORY_FORMAT_DOC),),
           QT_TRANSLATE_NOOP("OpSpec", "Returns input itself if its elements already lie in "
                                       "row-major order in memory, else a copy that does. view "
                                       "needs this after transpose or permute."),
           "torch.arange(6).view(2, 3).t().contiguous()", method=True, provenance="ids"),
    OpSpec("expand", "", "shape",
           (Param("size", "size", varargs=True,
                  doc=QT_TRANSLATE_NOOP("Param", "The new shape; -1 keeps a dimension's size.")),),
           QT_TRANSLATE_NOOP("OpSpec", "Stretches size-1 dimensions to a bigger size without "
                                       "copying: every element of the stretched dimension is the "
                                       "same memory (stride 0). Only size-1 dimensions can grow."),
           "torch.tensor([[1], [2]]).expand(2, 3)", method=True, provenance="ids"),
    OpSpec("repeat", "", "shape",
           (Param("repeats", "size", varargs=True,
                  doc=QT_TRANSLATE_NOOP("Param", "How many times to tile along each dimension.")),),
           QT_TRANSLATE_NOOP("OpSpec", "Tiles the tensor: repeats gives how many copies to lay "
                                       "side by side along each dimension. Unlike expand, it "
                                       "copies the data."),
           "torch.tensor([1, 2]).repeat(2, 3)", method=True, provenance="ids"),
]

_INDEXING: list[OpSpec] = [
    OpSpec("gather", "torch", "indexing",
           (_INPUT, Param("dim", "dim",
                          doc=QT_TRANSLATE_NOOP("Param", "The dimension the index values point "
                                                         "along.")),
            Param("index", "tensor",
                  doc=QT_TRANSLATE_NOOP("Param", "int64 positions; the result has index's shape.")),
            Param("sparse_grad", "bool", False, keyword_only=True,
                  doc=QT_TRANSLATE_NOOP("Param", "Use a sparse gradient for input."))),
           QT_TRANSLATE_NOOP("OpSpec", "Picks elements along dim using index: for dim=1, "
                                       "out[i][j] = input[i][index[i][j]]. index has the same "
                                       "number of dimensions as input, and the result has "
                                       "index's shape."),
           "torch.gather(torch.tensor([[1, 2], [3, 4]]), 1, torch.tensor([[0, 0], [1, 0]]))",
           method=True, provenance="ids"),
    OpSpec("index_select", "torch", "indexing",
           (_INPUT, Param("dim", "dim",
                          doc=QT_TRANSLATE_NOOP("Param", "The dimension to select along.")),
            Param("index", "tensor",
                  doc=QT_TRANSLATE_NOOP("Param", "A 1-D int64 tensor of positions."))),
           QT_TRANSLATE_NOOP("OpSpec", "Takes whole slices along dim at the positions listed in "
                                       "index, in that order (repeats allowed)."),
           "torch.index_select(torch.arange(6).view(3, 2), 0, torch.tensor([2, 0]))",
           method=True, provenance="ids"),
    OpSpec("masked_fill", "torch", "indexing",
           (_INPUT, Param("mask", "tensor",
                          doc=QT_TRANSLATE_NOOP("Param", "A bool tensor, broadcast against "
                                                         "input.")),
            Param("value", "number",
                  doc=QT_TRANSLATE_NOOP("Param", "What goes where mask is True."))),
           QT_TRANSLATE_NOOP("OpSpec", "A copy of input with value written wherever mask is "
                                       "True. The usual way to hide attention scores: "
                                       "scores.masked_fill(mask == 0, float(\"-inf\"))."),
           "torch.zeros(2, 2).masked_fill(torch.tensor([[True, False], [False, True]]), 5.0)",
           method=True, provenance="ids"),
    OpSpec("masked_fill_", "", "indexing",
           (Param("mask", "tensor",
                  doc=QT_TRANSLATE_NOOP("Param", "A bool tensor, broadcast against the tensor.")),
            Param("value", "number",
                  doc=QT_TRANSLATE_NOOP("Param", "What goes where mask is True."))),
           QT_TRANSLATE_NOOP("OpSpec", "In place: writes value into the tensor itself wherever "
                                       "mask is True, and returns it. Every view of the same "
                                       "storage sees the change."),
           "torch.zeros(2, 2).masked_fill_(torch.tensor([[True, False], [False, True]]), 5.0)",
           method=True, provenance="ids"),
    OpSpec("where", "torch", "indexing",
           (Param("condition", "tensor",
                  doc=QT_TRANSLATE_NOOP("Param", "A bool tensor choosing between input and "
                                                 "other.")),
            Param("input", "any", None,
                  doc=QT_TRANSLATE_NOOP("Param", "Taken where condition is True.")),
            Param("other", "any", None,
                  doc=QT_TRANSLATE_NOOP("Param", "Taken where condition is False."))),
           QT_TRANSLATE_NOOP("OpSpec", "Element by element, input where condition is True and "
                                       "other where it is False; all three are broadcast "
                                       "together. With only condition, the same as "
                                       "nonzero(as_tuple=True)."),
           "torch.where(torch.tensor([True, False, True]), torch.tensor([1, 2, 3]), 0)",
           method=True, provenance="ids"),
    OpSpec("nonzero", "torch", "indexing",
           (_INPUT, Param("as_tuple", "bool", False, keyword_only=True,
                          doc=QT_TRANSLATE_NOOP("Param", "One 1-D index tensor per dimension "
                                                         "instead of one 2-D tensor."))),
           QT_TRANSLATE_NOOP("OpSpec", "The positions of the non-zero (or True) elements: one "
                                       "row per element, one column per dimension. Its size "
                                       "depends on the values, not just the shape."),
           "torch.tensor([[0, 1], [2, 0]]).nonzero()", method=True, provenance="none"),
]

_MASKS: list[OpSpec] = [
    OpSpec("tril", "torch", "masks",
           (_INPUT, Param("diagonal", "int", 0,
                          doc=QT_TRANSLATE_NOOP("Param", "0 is the main diagonal; positive moves "
                                                         "it up and right."))),
           QT_TRANSLATE_NOOP("OpSpec", "Keeps the lower triangle, on and below the diagonal, and "
                                       "sets the rest to 0. torch.tril(torch.ones(n, n)) is the "
                                       "causal mask of a decoder."),
           "torch.tril(torch.ones(4, 4))", method=True, provenance="ids"),
    OpSpec("triu", "torch", "masks",
           (_INPUT, Param("diagonal", "int", 0,
                          doc=QT_TRANSLATE_NOOP("Param", "0 is the main diagonal; positive moves "
                                                         "it up and right."))),
           QT_TRANSLATE_NOOP("OpSpec", "Keeps the upper triangle, on and above the diagonal, and "
                                       "sets the rest to 0."),
           "torch.triu(torch.ones(4, 4), diagonal=1)", method=True, provenance="ids"),
    OpSpec("clamp", "torch", "masks",
           (_INPUT, Param("min", "any", None,
                          doc=QT_TRANSLATE_NOOP("Param", "Lower bound; None for none.")),
            Param("max", "any", None,
                  doc=QT_TRANSLATE_NOOP("Param", "Upper bound; None for none."))),
           QT_TRANSLATE_NOOP("OpSpec", "Limits every element to [min, max]: smaller values "
                                       "become min, larger become max. At least one bound must "
                                       "be given."),
           "torch.clamp(torch.tensor([-2.0, 0.5, 3.0]), min=0.0, max=1.0)",
           method=True, provenance="elementwise"),
]

_JOINING: list[OpSpec] = [
    OpSpec("cat", "torch", "joining",
           (Param("tensors", "tensors",
                  doc=QT_TRANSLATE_NOOP("Param", "The tensors, in order, as a tuple or list.")),
            Param("dim", "dim", 0,
                  doc=QT_TRANSLATE_NOOP("Param", "The existing dimension to join along."))),
           QT_TRANSLATE_NOOP("OpSpec", "Joins tensors end to end along an existing dimension. "
                                       "All sizes must match except along dim."),
           "torch.cat((torch.zeros(2, 3), torch.ones(1, 3)), dim=0)", provenance="ids"),
    OpSpec("stack", "torch", "joining",
           (Param("tensors", "tensors",
                  doc=QT_TRANSLATE_NOOP("Param", "Tensors of exactly the same shape.")),
            Param("dim", "dim", 0,
                  doc=QT_TRANSLATE_NOOP("Param", "Where the new dimension goes."))),
           QT_TRANSLATE_NOOP("OpSpec", "Joins same-shaped tensors along a new dimension: "
                                       "stacking three (2, 3) tensors on dim 0 gives (3, 2, 3)."),
           "torch.stack((torch.zeros(2), torch.ones(2)), dim=1)", provenance="ids"),
    OpSpec("chunk", "torch", "joining",
           (_INPUT, Param("chunks", "int", minimum=1,
                          doc=QT_TRANSLATE_NOOP("Param", "How many pieces, at most.")),
            Param("dim", "dim", 0, doc=QT_TRANSLATE_NOOP("Param", "The dimension to cut."))),
           QT_TRANSLATE_NOOP("OpSpec", "Cuts input into chunks pieces of equal size along dim "
                                       "(the last may be smaller, and there may be fewer). The "
                                       "pieces are views."),
           "torch.arange(7).chunk(3)", method=True, provenance="ids"),
    OpSpec("split", "torch", "joining",
           (Param("tensor", "tensor", doc=QT_TRANSLATE_NOOP("Param", "The tensor to cut.")),
            Param("split_size_or_sections", "any",
                  doc=QT_TRANSLATE_NOOP("Param", "The size of each piece, or a list of sizes that "
                                                 "add up to the length. (The method names it "
                                                 "split_size.)")),
            Param("dim", "dim", 0, doc=QT_TRANSLATE_NOOP("Param", "The dimension to cut."))),
           QT_TRANSLATE_NOOP("OpSpec", "Cuts input along dim into pieces of the given size (the "
                                       "last may be smaller), or into pieces with the listed "
                                       "sizes. The pieces are views."),
           "torch.split(torch.arange(7), [2, 5])", method=True, receiver="tensor",
           provenance="ids"),
]

_LINALG: list[OpSpec] = [
    OpSpec("matmul", "torch", "linalg",
           (_INPUT, Param("other", "tensor",
                          doc=QT_TRANSLATE_NOOP("Param", "The right-hand tensor."))),
           QT_TRANSLATE_NOOP("OpSpec", "Matrix product, the same as `input @ other`. 1-D tensors "
                                       "act as vectors; with more than two dimensions the "
                                       "leading ones are batch dimensions and broadcast."),
           "torch.matmul(torch.ones(2, 3), torch.ones(3, 4))", method=True, operator="@"),
    OpSpec("mm", "torch", "linalg",
           (_INPUT, Param("mat2", "tensor",
                          doc=QT_TRANSLATE_NOOP("Param", "The right-hand matrix, (m, p)."))),
           QT_TRANSLATE_NOOP("OpSpec", "Matrix product of two 2-D tensors: (n, m) times (m, p) "
                                       "gives (n, p). No broadcasting."),
           "torch.mm(torch.ones(2, 3), torch.ones(3, 4))", method=True),
    OpSpec("bmm", "torch", "linalg",
           (_INPUT, Param("mat2", "tensor",
                          doc=QT_TRANSLATE_NOOP("Param", "The right-hand batch, (b, m, p)."))),
           QT_TRANSLATE_NOOP("OpSpec", "A batch of matrix products: (b, n, m) times (b, m, p) "
                                       "gives (b, n, p). Both must be 3-D with the same batch "
                                       "size b."),
           "torch.bmm(torch.ones(5, 2, 3), torch.ones(5, 3, 4))", method=True),
    OpSpec("mv", "torch", "linalg",
           (_INPUT, Param("vec", "tensor",
                          doc=QT_TRANSLATE_NOOP("Param", "A 1-D tensor of length m."))),
           QT_TRANSLATE_NOOP("OpSpec", "Matrix times vector: (n, m) times (m,) gives (n,)."),
           "torch.mv(torch.ones(2, 3), torch.ones(3))", method=True),
    OpSpec("dot", "torch", "linalg",
           (_INPUT, Param("tensor", "tensor",
                          doc=QT_TRANSLATE_NOOP("Param", "A 1-D tensor of the same length."))),
           QT_TRANSLATE_NOOP("OpSpec", "The dot product of two 1-D tensors of the same length: "
                                       "multiply element by element and add up. The result is "
                                       "0-D."),
           "torch.dot(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]))", method=True),
    OpSpec("einsum", "torch", "linalg",
           (Param("equation", "str",
                  doc=QT_TRANSLATE_NOOP("Param", "Subscripts such as 'ij,jk->ik'.")),
            Param("operands", "tensors", varargs=True,
                  doc=QT_TRANSLATE_NOOP("Param", "One tensor per subscript group."))),
           QT_TRANSLATE_NOOP("OpSpec", "Einstein summation: name each dimension with a letter; "
                                       "letters missing after -> are summed over. 'ij,jk->ik' is "
                                       "a matrix product, 'ij->ji' a transpose."),
           "torch.einsum(\"ij,jk->ik\", torch.ones(2, 3), torch.ones(3, 4))"),
]

_ELEMENTWISE: list[OpSpec] = [
    OpSpec("mul", "torch", "elementwise", (_INPUT, _OTHER),
           QT_TRANSLATE_NOOP("OpSpec", "Multiplies element by element, the same as `input * "
                                       "other`; shapes broadcast."),
           "torch.mul(torch.tensor([1, 2, 3]), 10)", method=True, operator="*",
           provenance="elementwise"),
    OpSpec("add", "torch", "elementwise",
           (_INPUT, _OTHER, Param("alpha", "number", 1, keyword_only=True,
                                  doc=QT_TRANSLATE_NOOP("Param", "other is multiplied by alpha "
                                                                 "first."))),
           QT_TRANSLATE_NOOP("OpSpec", "Adds element by element, the same as `input + other`; "
                                       "shapes broadcast. With alpha, adds alpha * other."),
           "torch.add(torch.tensor([1, 2, 3]), 10)", method=True, operator="+",
           provenance="elementwise"),
    OpSpec("add_", "", "elementwise",
           (_OTHER, Param("alpha", "number", 1, keyword_only=True,
                          doc=QT_TRANSLATE_NOOP("Param", "other is multiplied by alpha first."))),
           QT_TRANSLATE_NOOP("OpSpec", "In place: adds other to the tensor itself and returns "
                                       "it. The result must fit the tensor's dtype and shape "
                                       "(other may broadcast, the tensor may not grow)."),
           "torch.zeros(3).add_(1)", method=True, provenance="elementwise"),
    OpSpec("sub", "torch", "elementwise",
           (_INPUT, _OTHER, Param("alpha", "number", 1, keyword_only=True,
                                  doc=QT_TRANSLATE_NOOP("Param", "other is multiplied by alpha "
                                                                 "first."))),
           QT_TRANSLATE_NOOP("OpSpec", "Subtracts element by element, the same as `input - "
                                       "other`; shapes broadcast."),
           "torch.sub(torch.tensor([1, 2, 3]), 1)", method=True, operator="-",
           provenance="elementwise"),
    OpSpec("div", "torch", "elementwise",
           (_INPUT, _OTHER, Param("rounding_mode", "str", None, keyword_only=True,
                                  doc=QT_TRANSLATE_NOOP("Param", "None for true division, 'trunc' "
                                                                 "or 'floor'."))),
           QT_TRANSLATE_NOOP("OpSpec", "Divides element by element, the same as `input / other`. "
                                       "The result is floating point even for integers, unless "
                                       "rounding_mode is 'trunc' or 'floor'."),
           "torch.div(torch.tensor([7, -7]), 2, rounding_mode=\"floor\")", method=True,
           operator="/", provenance="elementwise"),
    _compare("eq", "==", Filled(QT_TRANSLATE_NOOP("OpSpec", "equals"))),
    _compare("ne", "!=", Filled(QT_TRANSLATE_NOOP("OpSpec", "differs from"))),
    _compare("gt", ">", Filled(QT_TRANSLATE_NOOP("OpSpec", "is greater than"))),
    _compare("lt", "<", Filled(QT_TRANSLATE_NOOP("OpSpec", "is less than"))),
    _compare("ge", ">=", Filled(QT_TRANSLATE_NOOP("OpSpec", "is greater than or equal to"))),
    _compare("le", "<=", Filled(QT_TRANSLATE_NOOP("OpSpec", "is less than or equal to"))),
]

_REDUCTION: list[OpSpec] = [
    OpSpec("sum", "torch", "reduction",
           (_INPUT, _reduce_dim(Filled(QT_TRANSLATE_NOOP("Param", "add up"))), _KEEPDIM,
            _DTYPE_OUT),
           QT_TRANSLATE_NOOP("OpSpec", "Adds up the elements, over every dimension or only over "
                                       "dim. Integer and bool tensors are summed as int64."),
           "torch.arange(6).view(2, 3).sum(dim=1)", method=True),
    OpSpec("mean", "torch", "reduction",
           (_INPUT, _reduce_dim(Filled(QT_TRANSLATE_NOOP("Param", "average"))), _KEEPDIM,
            _DTYPE_OUT),
           QT_TRANSLATE_NOOP("OpSpec", "The average of the elements, over every dimension or "
                                       "only over dim. input must be floating point (or give "
                                       "dtype)."),
           "torch.arange(6.0).view(2, 3).mean(dim=0)", method=True),
    OpSpec("std", "torch", "reduction",
           (_INPUT, _reduce_dim(Filled(QT_TRANSLATE_NOOP("Param", "measure the spread"))),
            Param("correction", "number", 1, keyword_only=True,
                  doc=QT_TRANSLATE_NOOP("Param", "Divide by N - correction: 1 is the sample std, 0 "
                                                 "the population std.")),
            Param("keepdim", "bool", False, keyword_only=True,
                  doc=QT_TRANSLATE_NOOP("Param", "Keep each reduced dimension with size 1."))),
           QT_TRANSLATE_NOOP("OpSpec", "The standard deviation: how far elements typically are "
                                       "from their mean. By default divides by N - 1 (Bessel's "
                                       "correction)."),
           "torch.tensor([[1.0, 2.0, 3.0], [2.0, 2.0, 2.0]]).std(dim=1)", method=True),
    OpSpec("argmax", "torch", "reduction",
           (_INPUT, Param("dim", "dim", None,
                          doc=QT_TRANSLATE_NOOP("Param", "The dimension to search; None searches "
                                                         "the flattened tensor.")),
            _KEEPDIM),
           QT_TRANSLATE_NOOP("OpSpec", "The position of the largest element, over the flattened "
                                       "tensor or along dim. The result is int64; for ties, the "
                                       "first position."),
           "torch.tensor([[1, 5, 2], [7, 0, 3]]).argmax(dim=1)", method=True,
           provenance="reduction"),
]

_ACTIVATION: list[OpSpec] = [
    OpSpec("softmax", "torch", "activation",
           (_INPUT, Param("dim", "dim",
                          doc=QT_TRANSLATE_NOOP("Param", "The dimension that sums "
                                                         "to 1.")), _DTYPE_OUT),
           QT_TRANSLATE_NOOP("OpSpec", "Turns scores into probabilities along dim: exponentiate, "
                                       "then divide by the sum, so each slice is positive and "
                                       "adds up to 1."),
           "torch.softmax(torch.tensor([1.0, 2.0, 3.0]), dim=0)", method=True, also_in=("F",)),
    OpSpec("sigmoid", "torch", "activation", (_INPUT,),
           QT_TRANSLATE_NOOP("OpSpec", "1 / (1 + exp(-x)) element by element: squashes any "
                                       "number into (0, 1)."),
           "torch.sigmoid(torch.tensor([-2.0, 0.0, 2.0]))", method=True, also_in=("F",),
           provenance="elementwise"),
    OpSpec("one_hot", "F", "conversion",
           (Param("input", "tensor", doc=QT_TRANSLATE_NOOP("Param", "int64 class numbers.")),
            Param("num_classes", "int", -1,
                  doc=QT_TRANSLATE_NOOP("Param", "Length of each one-hot row; -1 means one more "
                                                 "than the largest class in input."))),
           QT_TRANSLATE_NOOP("OpSpec", "Turns each class number c into a row of zeros with a 1 "
                                       "at position c. The result is int64 with one more "
                                       "dimension than input."),
           "F.one_hot(torch.tensor([0, 2, 1]), num_classes=3)", provenance="none"),
    OpSpec("multinomial", "torch", "random",
           (_INPUT, Param("num_samples", "int", minimum=1,
                          doc=QT_TRANSLATE_NOOP("Param", "How many draws per row.")),
            Param("replacement", "bool", False,
                  doc=QT_TRANSLATE_NOOP("Param", "Allow the same position to be drawn more than "
                                                 "once."))),
           QT_TRANSLATE_NOOP("OpSpec", "Draws positions at random, each with probability "
                                       "proportional to its weight in input (one row of weights "
                                       "per draw set). The result holds positions, not values."),
           "torch.multinomial(torch.tensor([0.1, 0.0, 0.9]), 2)", method=True,
           provenance="none"),
]

_CONVERSION: list[OpSpec] = [
    OpSpec("to", "", "conversion",
           (Param("device", "device", None,
                  doc=QT_TRANSLATE_NOOP("Param", "Where the result lives: cpu, cuda:N or mps.")),
            Param("dtype", "dtype", None,
                  doc=QT_TRANSLATE_NOOP("Param", "The element type of the result.")),
            Param("copy", "bool", False, keyword_only=True,
                  doc=QT_TRANSLATE_NOOP("Param", "Copy even when nothing changes."))),
           QT_TRANSLATE_NOOP("OpSpec", "The tensor converted to another dtype and/or moved to "
                                       "another device. Returns the tensor itself when nothing "
                                       "changes."),
           "torch.arange(3).to(torch.float64)", method=True, provenance="elementwise"),
    OpSpec("item", "", "conversion", (),
           QT_TRANSLATE_NOOP("OpSpec", "The value of a one-element tensor as a plain Python "
                                       "number."),
           "torch.tensor([3.5]).item()", method=True, provenance="none"),
    OpSpec("tolist", "", "conversion", (),
           QT_TRANSLATE_NOOP("OpSpec", "The tensor's values as (nested) Python lists of numbers."),
           "torch.arange(4).view(2, 2).tolist()", method=True, provenance="none"),
    OpSpec("clone", "torch", "conversion",
           (_INPUT, Param("memory_format", "any", None, keyword_only=True,
                          doc=_MEMORY_FORMAT_DOC)),
           QT_TRANSLATE_NOOP("OpSpec", "A copy with its own memory: changing it leaves input "
                                       "alone. Autograd still connects the copy to input."),
           "torch.arange(3).clone()", method=True, provenance="ids"),
    OpSpec("detach", "torch", "conversion", (_INPUT,),
           QT_TRANSLATE_NOOP("OpSpec", "The same data, cut off from autograd: no gradient flows "
                                       "back through it. It shares memory with input (it is not "
                                       "a copy)."),
           "torch.ones(2, requires_grad=True).detach()", method=True, provenance="ids"),
    _convert("float", "float32"),
    _convert("long", "int64"),
    _convert("int", "int32"),
    _convert("bool", "bool"),
    OpSpec("numel", "torch", "conversion", (_INPUT,),
           QT_TRANSLATE_NOOP("OpSpec", "The number of elements: the product of the sizes."),
           "torch.zeros(2, 3).numel()", method=True, provenance="none"),
    OpSpec("size", "", "conversion",
           (Param("dim", "dim", None,
                  doc=QT_TRANSLATE_NOOP("Param", "One dimension; None gives the whole shape.")),),
           QT_TRANSLATE_NOOP("OpSpec", "The shape as a torch.Size (a tuple), or the size of one "
                                       "dimension."),
           "torch.zeros(2, 3).size(1)", method=True, provenance="none"),
    OpSpec("dim", "", "conversion", (),
           QT_TRANSLATE_NOOP("OpSpec", "The number of dimensions (the rank): 0 for a scalar, 2 "
                                       "for a matrix."),
           "torch.zeros(2, 3).dim()", method=True, provenance="none"),
]

SPECS: list[OpSpec] = [*_SHAPE, *_INDEXING, *_MASKS, *_JOINING, *_LINALG, *_ELEMENTWISE,
                       *_REDUCTION, *_ACTIVATION, *_CONVERSION]
