"""Tensor Lab's Qt-free core: the recipe, its reader and writer, the kernel that runs it,
and the explanations of what it made."""

__version__ = "0.1.0"
