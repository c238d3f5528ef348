"""Tensor Lab's Qt-free core: the recipe, its reader, writer and evaluator."""

__version__ = "0.1.0"
