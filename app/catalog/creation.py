"""Catalogue entries: creation functions, the seed, and ``print``."""

from __future__ import annotations

from app.catalog.spec import OpSpec, Param
from protocol.i18n import QT_TRANSLATE_NOOP


def _factory(dtype_default: object = None) -> tuple[Param, ...]:
    """The keyword arguments every factory function shares."""
    return (
        Param("dtype", "dtype", dtype_default, keyword_only=True,
              doc=QT_TRANSLATE_NOOP("Param", "Element type; None picks torch's default (float32, "
                                             "or int64 for integers).")),
        Param("device", "device", None, keyword_only=True,
              doc=QT_TRANSLATE_NOOP("Param", "Where the tensor lives: cpu, cuda:N or mps.")),
        Param("requires_grad", "bool", False, keyword_only=True,
              doc=QT_TRANSLATE_NOOP("Param", "Record operations on this tensor for autograd.")),
    )


def _like(name: str, summary: str, example: str, *extra: Param) -> OpSpec:
    return OpSpec(
        name, "torch", "creation",
        (Param("input", "tensor",
               doc=QT_TRANSLATE_NOOP("Param", "The tensor whose shape (and dtype, device) is "
                                              "copied.")),
         *extra, *_factory()),
        summary, example,
    )


_SIZE = Param("size", "size", varargs=True,
              doc=QT_TRANSLATE_NOOP("Param", "The shape, one integer per dimension."))

SPECS: list[OpSpec] = [
    OpSpec("tensor", "torch", "creation",
           (Param("data", "data",
                  doc=QT_TRANSLATE_NOOP("Param", "A number or nested lists of "
                                                 "numbers.")), *_factory()),
           QT_TRANSLATE_NOOP("OpSpec", "Copies Python data (a number or nested lists) into a new "
                                       "tensor. The dtype is inferred: integers give int64, "
                                       "floats give float32."),
           "torch.tensor([[1, 2], [3, 4]])"),
    OpSpec("zeros", "torch", "creation", (_SIZE, *_factory()),
           QT_TRANSLATE_NOOP("OpSpec", "A tensor of the given shape filled with 0."),
           "torch.zeros(2, 3)", creates=True),
    OpSpec("ones", "torch", "creation", (_SIZE, *_factory()),
           QT_TRANSLATE_NOOP("OpSpec", "A tensor of the given shape filled with 1."),
           "torch.ones(2, 3)", creates=True),
    OpSpec("empty", "torch", "creation", (_SIZE, *_factory()),
           QT_TRANSLATE_NOOP("OpSpec", "A tensor of the given shape with uninitialised memory: "
                                       "the values are whatever was there before. Fast, but "
                                       "never read it before writing."),
           "torch.empty(2, 3)", creates=True),
    OpSpec("full", "torch", "creation",
           (Param("size", "size", doc=QT_TRANSLATE_NOOP("Param", "The shape, as a tuple.")),
            Param("fill_value", "number",
                  doc=QT_TRANSLATE_NOOP("Param", "The value every element gets.")), *_factory()),
           QT_TRANSLATE_NOOP("OpSpec", "A tensor of the given shape with every element set to "
                                       "fill_value. The dtype follows fill_value unless given."),
           "torch.full((2, 3), 7.0)", creates=True),
    OpSpec("eye", "torch", "creation",
           (Param("n", "int", minimum=0, doc=QT_TRANSLATE_NOOP("Param", "Number of rows.")),
            Param("m", "int", None, minimum=0,
                  doc=QT_TRANSLATE_NOOP("Param", "Number of columns; n when None.")),
            *_factory()),
           QT_TRANSLATE_NOOP("OpSpec", "The identity matrix: ones on the main diagonal, zeros "
                                       "elsewhere."),
           "torch.eye(3)", creates=True),
    OpSpec("arange", "torch", "creation",
           (Param("start", "number", 0, doc=QT_TRANSLATE_NOOP("Param", "First value.")),
            Param("end", "number", doc=QT_TRANSLATE_NOOP("Param", "Stop before this value.")),
            Param("step", "number", 1,
                  doc=QT_TRANSLATE_NOOP("Param", "Gap between values.")), *_factory()),
           QT_TRANSLATE_NOOP("OpSpec", "Values from start up to, but not including, end, step "
                                       "apart. With one argument, torch.arange(n) gives 0, 1, "
                                       "..., n-1."),
           "torch.arange(12)", creates=True),
    OpSpec("linspace", "torch", "creation",
           (Param("start", "number", doc=QT_TRANSLATE_NOOP("Param", "First value.")),
            Param("end", "number", doc=QT_TRANSLATE_NOOP("Param", "Last value, included.")),
            Param("steps", "int", minimum=0,
                  doc=QT_TRANSLATE_NOOP("Param", "How many values.")), *_factory()),
           QT_TRANSLATE_NOOP("OpSpec", "steps evenly spaced values from start to end, both "
                                       "included."),
           "torch.linspace(0, 1, 5)", creates=True),
    OpSpec("logspace", "torch", "creation",
           (Param("start", "number",
                  doc=QT_TRANSLATE_NOOP("Param", "Exponent of the first value.")),
            Param("end", "number", doc=QT_TRANSLATE_NOOP("Param", "Exponent of the last value.")),
            Param("steps", "int", minimum=0, doc=QT_TRANSLATE_NOOP("Param", "How many values.")),
            Param("base", "number", 10.0,
                  doc=QT_TRANSLATE_NOOP("Param", "The base raised to each "
                                                 "exponent.")), *_factory()),
           QT_TRANSLATE_NOOP("OpSpec", "steps values evenly spaced on a log scale: base**start "
                                       "to base**end."),
           "torch.logspace(0, 3, 4)", creates=True),
    OpSpec("rand", "torch", "creation", (_SIZE, *_factory()),
           QT_TRANSLATE_NOOP("OpSpec", "Uniform random numbers in [0, 1). Set the seed to get "
                                       "the same numbers again."),
           "torch.rand(2, 3)", creates=True),
    OpSpec("randn", "torch", "creation", (_SIZE, *_factory()),
           QT_TRANSLATE_NOOP("OpSpec", "Random numbers from the standard normal distribution "
                                       "(mean 0, std 1)."),
           "torch.randn(2, 3)", creates=True),
    OpSpec("randint", "torch", "creation",
           (Param("low", "int", 0, doc=QT_TRANSLATE_NOOP("Param", "Smallest value, included.")),
            Param("high", "int", doc=QT_TRANSLATE_NOOP("Param", "Stop before this value.")),
            Param("size", "size",
                  doc=QT_TRANSLATE_NOOP("Param", "The shape, as a tuple.")), *_factory()),
           QT_TRANSLATE_NOOP("OpSpec", "Random integers in [low, high). The result is int64 "
                                       "unless dtype is given."),
           "torch.randint(0, 10, (2, 3))", creates=True),
    OpSpec("randperm", "torch", "creation",
           (Param("n", "int", minimum=0,
                  doc=QT_TRANSLATE_NOOP("Param", "Permute 0, 1, ..., n-1.")), *_factory()),
           QT_TRANSLATE_NOOP("OpSpec", "A random permutation of 0 ... n-1: the usual way to "
                                       "shuffle indices."),
           "torch.randperm(5)", creates=True),
    OpSpec("normal", "torch", "creation",
           (Param("mean", "float", doc=QT_TRANSLATE_NOOP("Param", "Mean of the distribution.")),
            Param("std", "float", doc=QT_TRANSLATE_NOOP("Param", "Standard deviation.")),
            Param("size", "size",
                  doc=QT_TRANSLATE_NOOP("Param", "The shape, as a tuple.")), *_factory()),
           QT_TRANSLATE_NOOP("OpSpec", "Random numbers from a normal distribution with the given "
                                       "mean and std."),
           "torch.normal(0.0, 2.0, (2, 3))", creates=True),
    _like("zeros_like", QT_TRANSLATE_NOOP("OpSpec", "Zeros with the shape, dtype and device of "
                                                    "input."),
          "torch.zeros_like(x)"),
    _like("ones_like", QT_TRANSLATE_NOOP("OpSpec", "Ones with the shape, dtype and device of "
                                                   "input."), "torch.ones_like(x)"),
    _like("empty_like", QT_TRANSLATE_NOOP("OpSpec", "Uninitialised memory with the shape, dtype "
                                                    "and device of input."),
          "torch.empty_like(x)"),
    _like("rand_like", QT_TRANSLATE_NOOP("OpSpec", "Uniform random numbers in [0, 1) shaped like "
                                                   "input. input must be floating point."),
                       "torch.rand_like(x)"),
    _like("randn_like", QT_TRANSLATE_NOOP("OpSpec", "Standard normal random numbers shaped like "
                                                    "input. input must be floating point."),
                        "torch.randn_like(x)"),
    _like("full_like", QT_TRANSLATE_NOOP("OpSpec", "fill_value everywhere, shaped like input."),
                       "torch.full_like(x, 7)",
          Param("fill_value", "number",
                doc=QT_TRANSLATE_NOOP("Param", "The value every element gets."))),
    _like("randint_like", QT_TRANSLATE_NOOP("OpSpec", "Random integers in [low, high) shaped "
                                                      "like input."),
          "torch.randint_like(x, 0, 10)",
          Param("low", "int", 0, doc=QT_TRANSLATE_NOOP("Param", "Smallest value, included.")),
          Param("high", "int", doc=QT_TRANSLATE_NOOP("Param", "Stop before this value."))),
    OpSpec("manual_seed", "torch", "random",
           (Param("seed", "seed", minimum=0,
                  doc=QT_TRANSLATE_NOOP("Param", "Any non-negative integer.")),),
           QT_TRANSLATE_NOOP("OpSpec", "Seeds the random number generator so random tensors come "
                                       "out the same every run."),
           "torch.manual_seed(0)"),
    OpSpec("print", "builtins", "output",
           (Param("value", "any", doc=QT_TRANSLATE_NOOP("Param", "What to print.")),),
           QT_TRANSLATE_NOOP("OpSpec", "Prints a value, exactly as Python would."), "print(x)"),
]
