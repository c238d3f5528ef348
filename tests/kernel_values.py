"""What a test reads of a document the kernel ran: the window's copies of its values."""

from __future__ import annotations

from typing import Any

from app.recipe.kernel_results import KernelValue


def kernel_value(document: Any, name: str) -> Any:
    """The kernel's value of ``name`` as the window holds it: the copy sent with the
    last step that binds it (``app.kernel.mirror``; small values only). Waits for the
    run first when the document can (``run_in_kernel``'s ``settle``)."""
    settle = getattr(document, "settle", None)
    if settle is not None:
        settle()
    result = document.run.result_for(name)
    assert result is not None and isinstance(result.value, KernelValue), (name, result)
    return result.value.output
