"""Errors are lessons: torch's message, explained in plain words, with the fix.

Each lesson is a regular expression over torch's message plus two sentence
templates, kept as data in ``PATTERNS``. Templates are filled with the
expression's named groups and with values worked out from them (a tensor's rank
from a dim range, the element count of a shape), so the explanation names the
numbers of the error at hand. The first matching pattern wins; patterns for one
op come before the general ones.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable
from dataclasses import dataclass

from protocol.i18n import QT_TRANSLATE_NOOP, Filled


@dataclass(frozen=True)
class Lesson:
    """What usually causes an error, and how to fix it.

    Parameters
    ----------
    cause : str
        The usual reason, in plain words, naming the sizes and dims involved.
    fix : str
        What to change.
    """

    cause: str
    fix: str


@dataclass(frozen=True)
class LessonPattern:
    """One entry of the lesson table.

    Parameters
    ----------
    pattern : str
        Searched for in torch's message.
    cause, fix : str
        ``str.format`` templates; they may use the pattern's named groups, the values
        ``derive`` returns, and ``op`` (the op's name, such as ``view``).
    ops : tuple of str
        Op names (``view``, ``unsqueeze``, ``matmul`` ...) this entry is for; empty for all.
    error_types : tuple of str
        Exception class names it applies to; empty for all.
    derive : callable, optional
        Works out more template values from the named groups.
    """

    pattern: str
    cause: str
    fix: str
    ops: tuple[str, ...] = ()
    error_types: tuple[str, ...] = ()
    derive: Callable[[dict[str, str]], dict[str, str]] | None = None

    @functools.cached_property
    def regex(self) -> re.Pattern[str]:
        """``pattern`` compiled, on first use (the app starts without compiling all 80)."""
        return re.compile(self.pattern, re.DOTALL)


#: Operators and the op each one is.
OPERATOR_OPS = {"@": "matmul", "*": "mul", "+": "add", "-": "sub", "/": "div", "==": "eq",
                "!=": "ne", ">": "gt", "<": "lt", ">=": "ge", "<=": "le", "&": "bitwise_and",
                "|": "bitwise_or", "^": "bitwise_xor", "//": "floor_divide", "%": "remainder",
                "**": "pow", "~": "bitwise_not"}

#: Names torch's messages use for dtypes, and the names a recipe writes.
_DTYPE_WORDS = {
    "float": "float32", "double": "float64", "long int": "int64", "long": "int64",
    "int": "int32", "short int": "int16", "short": "int16", "signed char": "int8",
    "unsigned char": "uint8", "bool": "bool", "c10::half": "float16", "half": "float16",
    "c10::bfloat16": "bfloat16", "bfloat16": "bfloat16", "char": "int8", "byte": "uint8",
    "c10::complex<float>": "complex64", "c10::complex<double>": "complex128",
    "complexfloat": "complex64", "complexdouble": "complex128",
}


def dtype_name(word: str) -> str:
    """The recipe spelling (``int64``) of a dtype as torch's messages name it (``Long``)."""
    return _DTYPE_WORDS.get(word.strip().lower(), word.strip())


# -- derivations: values a template needs beyond the message's own numbers -------------------
def _dim_range(g: dict[str, str]) -> dict[str, str]:
    hi = int(g["hi"])
    rank = (Filled(QT_TRANSLATE_NOOP("Lesson", "a {0}-D tensor"), hi + 1) if hi > 0
            else Filled(QT_TRANSLATE_NOOP("Lesson", "a 1-D tensor (or a 0-D scalar)")))
    return {"rank": rank, "ndim": str(hi + 1), "inner": str(hi)}


def _insert_range(g: dict[str, str]) -> dict[str, str]:
    hi = int(g["hi"])
    return {"rank": Filled(QT_TRANSLATE_NOOP("Lesson", "a {0}-D tensor"), hi), "ndim": str(hi),
            "positions": str(hi + 1)}


def _bad_shape(g: dict[str, str]) -> dict[str, str]:
    sizes = [int(s) for s in re.findall(r"-?\d+", g["shape"])]
    numel = int(g["numel"])
    known = [s for s in sizes if s != -1]
    product = math.prod(known)
    if -1 in sizes:
        why = Filled(QT_TRANSLATE_NOOP("Lesson", "with -1 standing for the missing size, the "
                                                 "other sizes multiply to {0}, and {1} is not a "
                                                 "multiple of {0}"), product, numel)
    else:
        why = Filled(QT_TRANSLATE_NOOP("Lesson", "[{0}] holds {1} elements, but the tensor has "
                                                 "{2}"), g["shape"], product, numel)
    pairs = [f"({a}, {numel // a})" for a in range(2, int(math.isqrt(numel)) + 1)
             if numel % a == 0][:3]
    hint = Filled(QT_TRANSLATE_NOOP("Lesson", "For {0} elements, for example: {1}"), numel,
                  f"({numel},)" + "".join(f", {p}" for p in pairs))
    return {"why": why, "hint": hint}


def _index_range(g: dict[str, str]) -> dict[str, str]:
    size = int(g["size"])
    return {"last": str(size - 1), "neg": str(-size)}


def _dtypes(g: dict[str, str]) -> dict[str, str]:
    return {k + "_name": dtype_name(v) for k, v in g.items() if v is not None}


def _split_sum(g: dict[str, str]) -> dict[str, str]:
    return {"got_sum": str(sum(int(s) for s in re.findall(r"-?\d+", g["sizes"])))}


def _matmul(g: dict[str, str]) -> dict[str, str]:
    return {"inner_a": g["a"].split("x")[-1], "inner_b": g["b"].split("x")[0]}


_RANK_FIX = QT_TRANSLATE_NOOP("Lesson", "Count the dimensions with x.dim() or x.shape; "
                                        "negative dims count from the end, so dim=-1 is always "
                                        "the last one.")
_DTYPE_FIX = QT_TRANSLATE_NOOP("Lesson", "Convert one side first, for example with .float(), "
                                         ".long() or .to(torch.float32).")

PATTERNS: list[LessonPattern] = [
    # -- dims ------------------------------------------------------------------------------
    LessonPattern(
        r"Dimension out of range \(expected to be in range of \[(?P<lo>-?\d+), (?P<hi>-?\d+)\], "
        r"but got (?P<got>-?\d+)\)",
        QT_TRANSLATE_NOOP("Lesson", "{op} inserts a new dimension, so dim may name any of the "
                                    "{positions} places around the dimensions of {rank}: it must "
                                    "be in [{lo}, {hi}], and {got} is not."),
        QT_TRANSLATE_NOOP("Lesson", "Use a dim from {lo} to {hi}; dim={hi} (or -1) puts the new "
                                    "dimension last."),
        ops=("unsqueeze", "stack"), derive=_insert_range),
    LessonPattern(
        r"Dimension out of range \(expected to be in range of \[(?P<lo>-?\d+), (?P<hi>-?\d+)\], "
        r"but got (?P<got>-?\d+)\)",
        QT_TRANSLATE_NOOP("Lesson", "dim must be in [{lo}, {hi}] for {rank}, and {got} is "
                                    "outside it: dims count from 0, so the last dimension is "
                                    "{inner} (or -1)."),
        _RANK_FIX, derive=_dim_range),
    LessonPattern(
        r"t\(\) expects a tensor with <= 2 dimensions, but self is (?P<n>\d+)D",
        QT_TRANSLATE_NOOP("Lesson", "t() only transposes matrices (at most 2 dimensions); this "
                                    "tensor is {n}-D."),
        QT_TRANSLATE_NOOP("Lesson", "Say which two dimensions to swap with transpose(dim0, "
                                    "dim1), reorder them all with permute, or use .mT to swap "
                                    "the last two.")),
    LessonPattern(
        r"(?P<fn>tril|triu): input tensor must have at least 2 dimensions",
        QT_TRANSLATE_NOOP("Lesson", "{fn} keeps a triangle of a matrix, so it needs at least 2 "
                                    "dimensions; this tensor has fewer."),
        QT_TRANSLATE_NOOP("Lesson", "Make it 2-D first, for example with view(1, -1) or "
                                    "unsqueeze(0), or build the mask with "
                                    "torch.{fn}(torch.ones(n, n)).")),
    LessonPattern(
        r"number of dimensions in the tensor input does not match the length of the desired "
        r"ordering of dimensions i\.e\. input\.dim\(\) = (?P<ndim>\d+) is not equal to "
        r"len\(dims\) = (?P<n>\d+)",
        QT_TRANSLATE_NOOP("Lesson", "permute needs every dimension named exactly once: the "
                                    "tensor has {ndim} dimensions but {n} were given."),
        QT_TRANSLATE_NOOP("Lesson", "List {ndim} dims, each of 0 ... {ndim} - 1 once; to swap "
                                    "just two, use transpose.")),
    LessonPattern(
        r"permute\(\): duplicate dims are not allowed",
        QT_TRANSLATE_NOOP("Lesson", "permute needs every dimension named exactly once, and one "
                                    "was named twice."),
        QT_TRANSLATE_NOOP("Lesson", "List each dim once: for a 3-D tensor, permute(2, 0, 1) is "
                                    "valid, permute(0, 0, 1) is not.")),
    # -- view and reshape --------------------------------------------------------------------
    LessonPattern(
        r"view size is not compatible with input tensor's size and stride",
        QT_TRANSLATE_NOOP("Lesson", "view never copies, so it only works when the elements "
                                    "already lie in memory in the order the new shape reads "
                                    "them. After transpose, permute or t() they do not: the "
                                    "tensor is not contiguous."),
        QT_TRANSLATE_NOOP("Lesson", "`view` needs compatible strides: call `.contiguous()` first "
                                    "or use `reshape`, which copies when it has to.")),
    LessonPattern(
        r"shape '\[(?P<shape>[^\]]*)\]' is invalid for input of size (?P<numel>\d+)",
        QT_TRANSLATE_NOOP("Lesson", "The new shape must hold exactly as many elements as the "
                                    "tensor: {why}."),
        QT_TRANSLATE_NOOP("Lesson", "Pick sizes whose product is {numel}, or let one size be -1 "
                                    "to be worked out. {hint}."),
        derive=_bad_shape),
    LessonPattern(
        r"only one dimension can be inferred",
        QT_TRANSLATE_NOOP("Lesson", "Only one size can be -1: torch works it out from the "
                                    "others, and two unknowns cannot be worked out."),
        QT_TRANSLATE_NOOP("Lesson", "Write all sizes but one as numbers.")),
    LessonPattern(
        r"The expanded size of the tensor \((?P<new>-?\d+)\) must match the existing size "
        r"\((?P<old>\d+)\) at non-singleton dimension (?P<dim>\d+)",
        QT_TRANSLATE_NOOP("Lesson", "expand can only stretch dimensions of size 1; dimension "
                                    "{dim} has size {old}, so it cannot become {new}."),
        QT_TRANSLATE_NOOP("Lesson", "Keep size {old} there (or -1), expand a size-1 dimension "
                                    "instead (add one with unsqueeze), or use repeat to copy the "
                                    "data {new} / {old} times.")),
    LessonPattern(
        r"the number of sizes provided \((?P<n>\d+)\) must be greater or equal to the number "
        r"of dimensions in the tensor \((?P<ndim>\d+)\)",
        QT_TRANSLATE_NOOP("Lesson", "expand needs a size for every existing dimension ({ndim}), "
                                    "but got {n}."),
        QT_TRANSLATE_NOOP("Lesson", "Give {ndim} or more sizes; new leading dimensions may be "
                                    "added in front.")),
    LessonPattern(
        r"Number of dimensions of repeat dims can not be smaller than number of dimensions "
        r"of tensor",
        QT_TRANSLATE_NOOP("Lesson", "repeat needs a count for every dimension of the tensor."),
        QT_TRANSLATE_NOOP("Lesson", "Give one count per dimension, 1 where nothing should be "
                                    "repeated: for a 2-D tensor, repeat(1, 3) copies it three "
                                    "times side by side.")),
    LessonPattern(
        r"Trying to create tensor with negative dimension (?P<n>-\d+)|Dimension size must be "
        r"non-negative",
        QT_TRANSLATE_NOOP("Lesson", "A size is negative; sizes count elements, so they are 0 or "
                                    "more."),
        QT_TRANSLATE_NOOP("Lesson", "Use non-negative sizes (-1 is only allowed in view and "
                                    "reshape).")),
    # -- indexing ----------------------------------------------------------------------------
    LessonPattern(
        r"index (?P<got>-?\d+) is out of bounds for dimension (?P<dim>\d+) with size "
        r"(?P<size>\d+)",
        QT_TRANSLATE_NOOP("Lesson", "gather reads input at the positions stored in index, along "
                                    "dim {dim}, where input has size {size}: every index value "
                                    "must be in [0, {last}], and one is {got}."),
        QT_TRANSLATE_NOOP("Lesson", "Check index's values (index.min(), index.max()) and that "
                                    "dim is the dimension they count along; gather does not "
                                    "accept negative positions."),
        ops=("gather",), derive=_index_range),
    LessonPattern(
        r"index (?P<got>-?\d+) is out of bounds for dimension (?P<dim>\d+) with size "
        r"(?P<size>\d+)",
        QT_TRANSLATE_NOOP("Lesson", "Dimension {dim} has size {size}, so positions run from 0 to "
                                    "{last} (or {neg} to -1 from the end); {got} is past the end."),
        QT_TRANSLATE_NOOP("Lesson", "Use a position below {size}; x.shape shows each dimension's "
                                    "size."),
        derive=_index_range),
    LessonPattern(
        r"index out of range in self",
        QT_TRANSLATE_NOOP("Lesson", "A value in index is negative or not smaller than input's "
                                    "size along dim: index_select (and embedding) can only pick "
                                    "positions that exist."),
        QT_TRANSLATE_NOOP("Lesson", "Check index.min() >= 0 and index.max() < x.shape[dim].")),
    LessonPattern(
        r"Index tensor must have the same number of dimensions as input tensor",
        QT_TRANSLATE_NOOP("Lesson", "gather's index needs as many dimensions as input: it says, "
                                    "for every output element, where along dim to read."),
        QT_TRANSLATE_NOOP("Lesson", "Add the missing dimensions to index, for example "
                                    "index.unsqueeze(1) or index.view(-1, 1).")),
    LessonPattern(
        r"Size does not match at dimension (?P<dim>\d+) expected index \[(?P<index>[^\]]*)\] "
        r"to be no larger than self \[(?P<self>[^\]]*)\] apart from dimension (?P<along>\d+)",
        QT_TRANSLATE_NOOP("Lesson", "Except along dim {along}, index may not be larger than "
                                    "input: index is [{index}] and input is [{self}], and at "
                                    "dimension {dim} index is larger."),
        QT_TRANSLATE_NOOP("Lesson", "Make index's size at dimension {dim} at most input's, or "
                                    "gather along another dim.")),
    LessonPattern(
        r"(?P<fn>gather|index_select|scatter\w*)\(\): Expected dtype int(?:32|64)(?:/| or )"
        r"int(?:32|64) for index",
        QT_TRANSLATE_NOOP("Lesson", "{fn}'s index holds positions, so it must be an integer "
                                    "tensor (int64), not floating point."),
        QT_TRANSLATE_NOOP("Lesson", "Convert it with index.long(), or build it with "
                                    "torch.tensor([...]) from whole numbers.")),
    LessonPattern(
        r"index_select\(\): Index is supposed to be a vector",
        QT_TRANSLATE_NOOP("Lesson", "index_select takes a 1-D list of positions."),
        QT_TRANSLATE_NOOP("Lesson", "Flatten the index with index.view(-1), or use gather for "
                                    "per-element positions.")),
    LessonPattern(
        r"tensors used as indices must be long, int, byte or bool tensors",
        QT_TRANSLATE_NOOP("Lesson", "Positions must be whole numbers (or a bool mask), but this "
                                    "index is floating point."),
        QT_TRANSLATE_NOOP("Lesson", "Convert the index with .long(), or compare to make a mask: "
                                    "x[x > 0].")),
    LessonPattern(
        r"too many indices for tensor of dimension (?P<ndim>\d+)",
        QT_TRANSLATE_NOOP("Lesson", "The tensor has {ndim} dimensions, but the index names more "
                                    "positions than that."),
        QT_TRANSLATE_NOOP("Lesson", "Give at most {ndim} indices (use : for a whole dimension); "
                                    "check x.shape.")),
    LessonPattern(
        r"masked_fill_? only supports boolean masks, but got mask with dtype (?P<dtype>.+)",
        QT_TRANSLATE_NOOP("Lesson", "mask must be a bool tensor (True where to fill); this one "
                                    "has dtype {dtype_name}."),
        QT_TRANSLATE_NOOP("Lesson", "Compare to make one, such as mask == 0 or mask > 0.5, or "
                                    "convert with mask.bool()."),
        derive=lambda g: {"dtype_name": dtype_name(g["dtype"])}),
    LessonPattern(
        r"masked_fill_? only supports a 0-dimensional value tensor, but got tensor with "
        r"(?P<n>\d+) dimension",
        QT_TRANSLATE_NOOP("Lesson", "masked_fill writes one value everywhere the mask is True; "
                                    "the value given is a {n}-D tensor."),
        QT_TRANSLATE_NOOP("Lesson", "Give a number, or a 0-D tensor; to take different values "
                                    "per element, use torch.where(mask, values, x).")),
    LessonPattern(
        r"where expected condition to be a boolean tensor, but got a tensor with dtype "
        r"(?P<dtype>\w+)",
        QT_TRANSLATE_NOOP("Lesson", "where's condition must be a bool tensor; this one is "
                                    "{dtype_name}."),
        QT_TRANSLATE_NOOP("Lesson", "Compare to make one, such as x > 0, or convert with .bool()."),
        derive=lambda g: {"dtype_name": dtype_name(g["dtype"])}),
    # -- joining -----------------------------------------------------------------------------
    LessonPattern(
        r"Sizes of tensors must match except in dimension (?P<dim>\d+)\. Expected size "
        r"(?P<want>\d+) but got size (?P<got>\d+) for tensor number (?P<n>\d+)",
        QT_TRANSLATE_NOOP("Lesson", "cat joins along dim {dim}, so every other dimension must "
                                    "have the same size: tensor number {n} has size {got} where "
                                    "the first has {want}."),
        QT_TRANSLATE_NOOP("Lesson", "Check the shapes: maybe you meant another dim, or one "
                                    "tensor needs a transpose or reshape first.")),
    LessonPattern(
        r"Tensors must have same number of dimensions: got (?P<a>\d+) and (?P<b>\d+)",
        QT_TRANSLATE_NOOP("Lesson", "cat joins tensors with the same number of dimensions; here "
                                    "one has {a} and another {b}."),
        QT_TRANSLATE_NOOP("Lesson", "Add the missing dimension with unsqueeze (or use stack, "
                                    "which adds a new one).")),
    LessonPattern(
        r"stack expects each tensor to be equal size, but got \[(?P<a>[^\]]*)\] at entry "
        r"(?P<i>\d+) and \[(?P<b>[^\]]*)\] at entry (?P<j>\d+)",
        QT_TRANSLATE_NOOP("Lesson", "stack puts tensors side by side along a new dimension, so "
                                    "all must have exactly the same shape: entry {i} is [{a}] "
                                    "and entry {j} is [{b}]."),
        QT_TRANSLATE_NOOP("Lesson", "Make the shapes equal, or use cat to join along an existing "
                                    "dimension.")),
    LessonPattern(
        r"expected a non-empty list of Tensors|expects a non-empty TensorList",
        QT_TRANSLATE_NOOP("Lesson", "There is nothing to join: the list of tensors is empty."),
        QT_TRANSLATE_NOOP("Lesson", "Pass at least one tensor, for example torch.cat((a, b)).")),
    LessonPattern(
        r"split_with_sizes expects split_sizes to sum exactly to (?P<size>\d+) .*but got "
        r"split_sizes=\[(?P<sizes>[^\]]*)\]",
        QT_TRANSLATE_NOOP("Lesson", "The piece sizes must add up to the length along dim, "
                                    "{size}; [{sizes}] adds up to {got_sum}."),
        QT_TRANSLATE_NOOP("Lesson", "Change the sizes so they sum to {size}, or give one number "
                                    "to cut equal pieces."),
        derive=_split_sum),
    LessonPattern(
        r"chunk expects `chunks` to be greater than 0, got: (?P<n>-?\d+)",
        QT_TRANSLATE_NOOP("Lesson", "chunks is how many pieces to cut, so it must be at least 1 "
                                    "(got {n})."),
        QT_TRANSLATE_NOOP("Lesson", "Use chunks=1 or more.")),
    # -- linear algebra ----------------------------------------------------------------------
    LessonPattern(
        r"mat1 and mat2 shapes cannot be multiplied \((?P<a>\d+x\d+) and (?P<b>\d+x\d+)\)",
        QT_TRANSLATE_NOOP("Lesson", "A matrix product (n x m) @ (m x p) needs the left's columns "
                                    "to equal the right's rows: here {a} and {b}, and {inner_a} "
                                    "is not {inner_b}."),
        QT_TRANSLATE_NOOP("Lesson", "Transpose one side (B.t() or B.mT) or check which dimension "
                                    "should be shared."),
        derive=_matmul),
    LessonPattern(
        r"batch(?P<which>[12]) must be a (?P<n>\d)D tensor",
        QT_TRANSLATE_NOOP("Lesson", "bmm multiplies batches of matrices and needs two 3-D "
                                    "tensors, (b, n, m) and (b, m, p); batch{which} is not 3-D."),
        QT_TRANSLATE_NOOP("Lesson", "Add a batch dimension with unsqueeze(0), or use matmul, "
                                    "which takes 2-D tensors and broadcasts batch dimensions.")),
    LessonPattern(
        r"Expected size for first two dimensions of batch2 tensor to be: \[(?P<want>[^\]]*)\] "
        r"but got: \[(?P<got>[^\]]*)\]",
        QT_TRANSLATE_NOOP("Lesson", "The second batch must have the same batch size as the first "
                                    "and as many rows as the first has columns: its first two "
                                    "sizes should be [{want}], not [{got}]."),
        QT_TRANSLATE_NOOP("Lesson", "Make the batch sizes equal and the inner sizes match "
                                    "(transpose the last two dimensions with .mT if needed).")),
    LessonPattern(
        r"size mismatch, got input \((?P<n>\d+)\), mat \((?P<mat>\d+x(?P<m>\d+))\), vec "
        r"\((?P<v>\d+)\)",
        QT_TRANSLATE_NOOP("Lesson", "mv multiplies a ({mat}) matrix by a vector, so the vector "
                                    "needs {m} elements, not {v}."),
        QT_TRANSLATE_NOOP("Lesson", "Use a vector of length {m}, or transpose the matrix.")),
    LessonPattern(
        r"vector \+ matrix @ vector expected, got (?P<a>\d+), (?P<b>\d+), (?P<c>\d+)",
        QT_TRANSLATE_NOOP("Lesson", "mv needs a 2-D matrix and a 1-D vector."),
        QT_TRANSLATE_NOOP("Lesson", "Pass the matrix first (2-D) and the vector second (1-D); "
                                    "for other shapes use matmul.")),
    LessonPattern(
        r"inconsistent tensor size, expected tensor \[(?P<a>\d+)\] and src \[(?P<b>\d+)\] to "
        r"have the same number of elements",
        QT_TRANSLATE_NOOP("Lesson", "A dot product multiplies two vectors element by element, so "
                                    "they need the same length: here {a} and {b}."),
        QT_TRANSLATE_NOOP("Lesson", "Use vectors of the same length; check the shapes with "
                                    ".shape.")),
    LessonPattern(
        r"1D tensors expected, but got (?P<a>\d+)D and (?P<b>\d+)D tensors",
        QT_TRANSLATE_NOOP("Lesson", "dot only takes two 1-D vectors; here they are {a}-D and "
                                    "{b}-D."),
        QT_TRANSLATE_NOOP("Lesson", "Use matmul (or @) for matrices, or (a * b).sum() for an "
                                    "element-by-element product summed.")),
    LessonPattern(
        r"expected m1 and m2 to have the same dtype, but got: (?P<a>.+?) != (?P<b>.+?)$",
        QT_TRANSLATE_NOOP("Lesson", "Both sides of a matrix product must have the same dtype: "
                                    "one is {a_name}, the other {b_name}."),
        _DTYPE_FIX, derive=_dtypes),
    LessonPattern(
        r"expected both vectors to have same dtype, but found (?P<a>\w+) and (?P<b>\w+)",
        QT_TRANSLATE_NOOP("Lesson", "Both vectors must have the same dtype: one is {a_name}, the "
                                    "other {b_name}."),
        _DTYPE_FIX, derive=_dtypes),
    LessonPattern(
        r"einsum\(\): the number of subscripts in the equation \((?P<n>\d+)\) does not match "
        r"the number of dimensions \((?P<ndim>\d+)\) for operand (?P<i>\d+)",
        QT_TRANSLATE_NOOP("Lesson", "Each operand needs one letter per dimension: operand {i} "
                                    "has {ndim} dimensions but its part of the equation has {n} "
                                    "letters."),
        QT_TRANSLATE_NOOP("Lesson", "Write {ndim} letters for operand {i}, or use ... for "
                                    "dimensions you do not name.")),
    LessonPattern(
        r"einsum\(\): subscript (?P<s>\w) has size (?P<a>\d+) for operand (?P<i>\d+) which "
        r"does not broadcast with previously seen size (?P<b>\d+)",
        QT_TRANSLATE_NOOP("Lesson", "Letter {s} names one dimension shared by the operands, so "
                                    "its size must agree: operand {i} has {a}, an earlier one "
                                    "{b}."),
        QT_TRANSLATE_NOOP("Lesson", "Give the shared dimension the same size in every operand, "
                                    "or use different letters.")),
    LessonPattern(
        r"einsum\(\): (?:fewer|more) operands were provided than specified in the equation",
        QT_TRANSLATE_NOOP("Lesson", "The equation has one comma-separated part per operand, and "
                                    "the count differs from the number of tensors given."),
        QT_TRANSLATE_NOOP("Lesson", "Give one tensor per part of the equation: 'ij,jk->ik' takes "
                                    "two.")),
    # -- broadcasting and in-place -----------------------------------------------------------
    LessonPattern(
        r"The size of tensor a \((?P<a>\d+)\) must match the size of tensor b \((?P<b>\d+)\) "
        r"at non-singleton dimension (?P<dim>\d+)",
        QT_TRANSLATE_NOOP("Lesson", "Broadcasting lines shapes up from the right and stretches "
                                    "sizes of 1; at dimension {dim} one tensor has size {a} and "
                                    "the other {b}, and neither is 1."),
        QT_TRANSLATE_NOOP("Lesson", "Make the sizes equal, or make one of them 1 (with unsqueeze "
                                    "or view) so it is stretched; a transpose may be missing.")),
    LessonPattern(
        r"output with shape \[(?P<out>[^\]]*)\] doesn't match the broadcast shape "
        r"\[(?P<want>[^\]]*)\]",
        QT_TRANSLATE_NOOP("Lesson", "An in-place op writes into the tensor itself, which has "
                                    "shape [{out}] and cannot grow to [{want}]."),
        QT_TRANSLATE_NOOP("Lesson", "Use the out-of-place form (x = x + y instead of x.add_(y)), "
                                    "which may broadcast to a bigger shape.")),
    LessonPattern(
        r"result type (?P<a>\w+) can't be cast to the desired output type (?P<b>\w+)",
        QT_TRANSLATE_NOOP("Lesson", "An in-place op keeps the tensor's dtype, {b_name}, but the "
                                    "result is {a_name}: it would lose information."),
        QT_TRANSLATE_NOOP("Lesson", "Use the out-of-place form (x = x + 0.5), or convert first: "
                                    "x = x.float()."),
        derive=_dtypes),
    LessonPattern(
        r"a leaf Variable that requires grad is being used in an in-place operation",
        QT_TRANSLATE_NOOP("Lesson", "Autograd needs the original values of a tensor created with "
                                    "requires_grad=True, so it cannot be changed in place."),
        QT_TRANSLATE_NOOP("Lesson", "Do the update inside `with torch.no_grad():`, or use the "
                                    "out-of-place form (w = w + 1).")),
    LessonPattern(
        r"only Tensors of floating point dtype can require gradients",
        QT_TRANSLATE_NOOP("Lesson", "Gradients are only defined for floating point tensors; this "
                                    "one holds integers."),
        QT_TRANSLATE_NOOP("Lesson", "Create it as floating point, for example torch.arange(3.0) "
                                    "or with dtype=torch.float32.")),
    LessonPattern(
        r"element 0 of tensors does not require grad and does not have a grad_fn",
        QT_TRANSLATE_NOOP("Lesson", "backward needs a result computed from a tensor with "
                                    "requires_grad=True; nothing here was recorded."),
        QT_TRANSLATE_NOOP("Lesson", "Create the input with requires_grad=True, and compute "
                                    "outside torch.no_grad().")),
    # -- dtypes ------------------------------------------------------------------------------
    LessonPattern(
        r'"(?:check_uniform_bounds|normal_kernel_cpu|uniform_kernel_cpu)\w*" not implemented '
        r"for '(?P<dtype>\w+)'",
        QT_TRANSLATE_NOOP("Lesson", "{op} copies input's dtype, {dtype_name}, and random floats "
                                    "cannot be stored in an integer tensor."),
        QT_TRANSLATE_NOOP("Lesson", "Pass dtype=torch.float32, or call it on x.float()."),
        derive=lambda g: {"dtype_name": dtype_name(g["dtype"])}),
    LessonPattern(
        r'"bitwise_(?P<which>and|or|xor)\w*" not implemented for \'(?P<dtype>\w+)\'',
        QT_TRANSLATE_NOOP("Lesson", "&, | and ^ combine bool masks (or integer bits); here one "
                                    "side is {dtype_name}."),
        QT_TRANSLATE_NOOP("Lesson", "Compare first to get masks: (x > 0) & (x < 5)."),
        derive=lambda g: {"dtype_name": dtype_name(g["dtype"])}),
    LessonPattern(
        r'"(?P<kernel>\w+)" not implemented for \'(?P<dtype>\w+)\'',
        QT_TRANSLATE_NOOP("Lesson", "{op} has no version for {dtype_name} tensors; most maths on "
                                    "fractions (softmax, mean, exp ...) needs floating point."),
        QT_TRANSLATE_NOOP("Lesson", "Convert first, for example x.float() or x.to(torch.float64)."),
        derive=lambda g: {"dtype_name": dtype_name(g["dtype"])}),
    LessonPattern(
        r"could not infer output dtype\. Input dtype must be either a floating point or "
        r"complex dtype\. Got: (?P<dtype>\w+)",
        QT_TRANSLATE_NOOP("Lesson", "{op} of integers is a fraction, so it needs a floating "
                                    "point input; this one is {dtype_name}."),
        QT_TRANSLATE_NOOP("Lesson", "Convert first with x.float(), or pass dtype=torch.float32."),
        derive=lambda g: {"dtype_name": dtype_name(g["dtype"])}),
    LessonPattern(
        r"std and var only support floating point and complex dtypes",
        QT_TRANSLATE_NOOP("Lesson", "The standard deviation is a fraction, so it needs a "
                                    "floating point input."),
        QT_TRANSLATE_NOOP("Lesson", "Convert first with x.float().")),
    LessonPattern(
        r"multinomial only supports floating-point dtypes for input, got: (?P<dtype>\w+)",
        QT_TRANSLATE_NOOP("Lesson", "multinomial takes weights (probabilities) as floating point "
                                    "numbers; these are {dtype_name}."),
        QT_TRANSLATE_NOOP("Lesson", "Convert the weights with .float()."),
        derive=lambda g: {"dtype_name": dtype_name(g["dtype"])}),
    LessonPattern(
        r"must have the same dtype, but got (?P<a>\w+) and (?P<b>\w+)",
        QT_TRANSLATE_NOOP("Lesson", "Both tensors must have the same dtype: one is {a_name}, the "
                                    "other {b_name}."),
        _DTYPE_FIX, derive=_dtypes),
    LessonPattern(
        r"expected target dtype to be Long or Byte, but got (?P<got>\w+)",
        QT_TRANSLATE_NOOP("Lesson", "The targets of {op} are class numbers, so they must be "
                                    "int64; these are {got_name}."),
        QT_TRANSLATE_NOOP("Lesson", "Convert the targets with .long() (they should hold 0 ... "
                                    "classes - 1)."),
        derive=_dtypes),
    LessonPattern(
        r"Subtraction, the `-` operator, with (?:two )?bool tensors? is not supported",
        QT_TRANSLATE_NOOP("Lesson", "Subtracting bool masks is not defined."),
        QT_TRANSLATE_NOOP("Lesson", "For 'in one but not the other' use a & ~b; for 'differs' "
                                    "use a ^ b; or convert with .int() first.")),
    LessonPattern(
        r"Negation, the `-` operator, on a bool tensor is not supported",
        QT_TRANSLATE_NOOP("Lesson", "-mask is not defined for bool tensors."),
        QT_TRANSLATE_NOOP("Lesson", "Invert a mask with ~mask (or mask.logical_not()).")),
    LessonPattern(
        r"^ZeroDivisionError$",
        QT_TRANSLATE_NOOP("Lesson", "Integer division (// or %) by zero has no answer."),
        QT_TRANSLATE_NOOP("Lesson", "Make sure the divisor has no zeros, or divide floating "
                                    "point tensors, where x / 0 gives inf.")),
    LessonPattern(
        r"one_hot is only applicable to index tensor of type LongTensor",
        QT_TRANSLATE_NOOP("Lesson", "one_hot takes class numbers as an int64 tensor."),
        QT_TRANSLATE_NOOP("Lesson", "Convert with .long() first.")),
    LessonPattern(
        r"Class values must be smaller than num_classes",
        QT_TRANSLATE_NOOP("Lesson", "A class number in input is num_classes or more; classes run "
                                    "from 0 to num_classes - 1."),
        QT_TRANSLATE_NOOP("Lesson", "Raise num_classes above input.max(), or leave it at -1 to "
                                    "use input.max() + 1.")),
    LessonPattern(
        r"Class values must be non-negative",
        QT_TRANSLATE_NOOP("Lesson", "one_hot's class numbers count from 0; input holds a "
                                    "negative one."),
        QT_TRANSLATE_NOOP("Lesson", "Shift or clean the labels so the smallest is 0.")),
    LessonPattern(
        r"a Tensor with (?P<n>\d+) elements cannot be converted to Scalar",
        QT_TRANSLATE_NOOP("Lesson", "item() turns a one-element tensor into a Python number; "
                                    "this tensor has {n} elements."),
        QT_TRANSLATE_NOOP("Lesson", "Index one element first (x[0, 1].item()), reduce it "
                                    "(x.sum().item()), or use tolist() for all of them.")),
    # -- sampling ----------------------------------------------------------------------------
    LessonPattern(
        r"probability tensor contains either `inf`, `nan` or element < 0",
        QT_TRANSLATE_NOOP("Lesson", "multinomial's weights must be non-negative, finite numbers."),
        QT_TRANSLATE_NOOP("Lesson", "Turn scores into probabilities with softmax first, or "
                                    "clamp(min=0).")),
    LessonPattern(
        r"invalid multinomial distribution \(sum of probabilities <= 0\)",
        QT_TRANSLATE_NOOP("Lesson", "Every weight in a row is 0, so there is nothing to draw."),
        QT_TRANSLATE_NOOP("Lesson", "Give each row at least one positive weight.")),
    LessonPattern(
        r"cannot sample n_sample > prob_dist\.size\(-1\) samples without replacement",
        QT_TRANSLATE_NOOP("Lesson", "Without replacement each position can be drawn once, so "
                                    "num_samples cannot exceed the number of positions."),
        QT_TRANSLATE_NOOP("Lesson", "Ask for fewer samples, or pass replacement=True.")),
    # -- arguments ---------------------------------------------------------------------------
    LessonPattern(
        r"At least one of 'min' or 'max' must not be None",
        QT_TRANSLATE_NOOP("Lesson", "clamp needs a lower bound, an upper bound, or both."),
        QT_TRANSLATE_NOOP("Lesson", "Give min=..., max=... or both.")),
    LessonPattern(
        r"Expected reduction dim to be specified for input\.numel\(\) == 0",
        QT_TRANSLATE_NOOP("Lesson", "The tensor is empty, so there is no largest element to find."),
        QT_TRANSLATE_NOOP("Lesson", "Check the tensor's shape; pass dim to reduce along a "
                                    "non-empty dimension.")),
    LessonPattern(
        r"upper bound and (?:larger|lower) bound inconsistent with step sign",
        QT_TRANSLATE_NOOP("Lesson", "arange counts from start towards end by step; with this "
                                    "sign of step it never gets there."),
        QT_TRANSLATE_NOOP("Lesson", "Use a negative step to count down (torch.arange(5, 0, -1)), "
                                    "or swap start and end.")),
    LessonPattern(
        r"number of steps must be non-negative",
        QT_TRANSLATE_NOOP("Lesson", "steps is how many values to make, so it cannot be negative."),
        QT_TRANSLATE_NOOP("Lesson", "Use steps=0 or more.")),
    LessonPattern(
        r"random_ expects 'from' to be less than 'to', but got from=(?P<lo>-?\d+) >= "
        r"to=(?P<hi>-?\d+)",
        QT_TRANSLATE_NOOP("Lesson", "randint draws from [low, high), so low must be smaller than "
                                    "high; here low={lo} and high={hi}."),
        QT_TRANSLATE_NOOP("Lesson", "Swap them, or make high bigger than low.")),
    LessonPattern(
        r"normal expects std >= 0\.0, but found std (?P<std>\S+)",
        QT_TRANSLATE_NOOP("Lesson", "A standard deviation measures spread, so it cannot be "
                                    "negative (got {std})."),
        QT_TRANSLATE_NOOP("Lesson", "Use std >= 0.")),
    LessonPattern(
        r"expected sequence of length (?P<a>\d+) at dim (?P<dim>\d+) \(got (?P<b>\d+)\)",
        QT_TRANSLATE_NOOP("Lesson", "Tensors are rectangular: every row of the nested list must "
                                    "have the same length, but at depth {dim} one has {a} items "
                                    "and another {b}."),
        QT_TRANSLATE_NOOP("Lesson", "Make every row the same length (pad with zeros if needed).")),
    LessonPattern(
        r"Torch not compiled with CUDA enabled",
        QT_TRANSLATE_NOOP("Lesson", "This copy of PyTorch has no CUDA support, so there is no "
                                    "'cuda' device to use."),
        QT_TRANSLATE_NOOP("Lesson", "Use device='cpu', or install a CUDA build of PyTorch on a "
                                    "machine with an NVIDIA GPU.")),
    LessonPattern(
        r"Expected all tensors to be on the same device|is not on the expected device",
        QT_TRANSLATE_NOOP("Lesson", "An op needs all its tensors on the same device, and these "
                                    "are on different ones."),
        QT_TRANSLATE_NOOP("Lesson", "Move them together first, for example y = y.to(x.device).")),
    LessonPattern(
        r"Expected one of .* device type at start of device string: (?P<dev>.+)",
        QT_TRANSLATE_NOOP("Lesson", "'{dev}' is not a device name torch knows."),
        QT_TRANSLATE_NOOP("Lesson", "Use 'cpu', 'cuda', 'cuda:0' or 'mps'.")),
    LessonPattern(
        r"would need (?P<gib>[\d.]+) GiB; the lab's budget is (?P<budget>[\d.]+) GiB",
        QT_TRANSLATE_NOOP("Lesson", "The result would need {gib} GiB of memory, more than the "
                                    "lab allows for one tensor ({budget} GiB)."),
        QT_TRANSLATE_NOOP("Lesson", "Use smaller sizes; expanded and broadcast tensors count "
                                    "every element they seem to have.")),
    LessonPattern(
        r"argument '(?P<arg>\w+)' \(position (?P<pos>\d+)\) must be (?P<want>.+?), not "
        r"(?P<got>\w+)",
        QT_TRANSLATE_NOOP("Lesson", "{op} expects {want} for '{arg}', but got a {got}."),
        QT_TRANSLATE_NOOP("Lesson", "Pass '{arg}' as {want}: for a shape, a tuple such as (2, 3)."),
        error_types=("TypeError",)),
    LessonPattern(
        r"received an invalid combination of arguments",
        QT_TRANSLATE_NOOP("Lesson", "None of {op}'s ways of being called matches the arguments "
                                    "given."),
        QT_TRANSLATE_NOOP("Lesson", "Compare with the accepted forms listed in the message; a "
                                    "common slip is a list where torch wants a tensor, or a "
                                    "keyword spelt differently."),
        error_types=("TypeError",)),
]


def op_name(op_key: str | None) -> str:
    """``view`` for ``"Tensor.view"``, ``"torch.view"`` or ``"view"``; ``matmul`` for ``"@"``."""
    if not op_key:
        return ""
    if op_key in OPERATOR_OPS:
        return OPERATOR_OPS[op_key]
    return op_key.rsplit(".", 1)[-1]


def explain(op_key: str | None, error_type: str, message: str) -> Lesson | None:
    """The lesson for an error, or None when the table has none.

    Parameters
    ----------
    op_key : str or None
        The step's op as the catalogue spells it (``"torch.cat"``, ``"Tensor.view"``), an
        operator (``"@"``), or None when unknown.
    error_type : str
        The exception's class name, such as ``RuntimeError``.
    message : str
        torch's message.
    """
    name = op_name(op_key)
    for entry in PATTERNS:
        if entry.ops and name not in entry.ops:
            continue
        if entry.error_types and error_type not in entry.error_types:
            continue
        match = entry.regex.search(message)
        if match is None:
            continue
        groups = {k: v for k, v in match.groupdict().items() if v is not None}
        values = {**groups, **(entry.derive(groups) if entry.derive else {}),
                  "op": name or Filled(QT_TRANSLATE_NOOP("Lesson", "this op"))}
        # Filled keeps the templates, so the widgets can show the lesson translated
        return Lesson(Filled(entry.cause, **values), Filled(entry.fix, **values))
    return None
