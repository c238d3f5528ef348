"""A tensor's grad facts as the window holds them, read from the kernel's answer.

The kernel works the facts out where the tensor is (``kernel.explain.autograd_facts``:
``grad_facts``, sent by ``facts_data``); here they come back as plain fields, ``.grad`` a
``TensorCopy`` (None when it was too large to send) and its row's text as the kernel wrote
it (``grad_row``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.tensor_copy import copy_of
from protocol.autograd_data import text_from


@dataclass(frozen=True)
class RemoteFacts:
    """What autograd knows about one tensor of a kernel's run (the fields of the kernel's
    ``GradFacts``), with ``.grad`` a copy."""

    name: str
    is_leaf: bool
    requires_grad: bool
    retains_grad: bool
    grad_fn: str | None
    grad: Any
    why_no_grad: str
    cut: str = ""
    grad_row: str = ""

    def rows(self) -> list[tuple[str, str]]:
        """``(label, text)`` pairs for display."""
        return [("is_leaf", str(self.is_leaf)), ("requires_grad", str(self.requires_grad)),
                ("grad_fn", self.grad_fn or "None"), ("retains_grad", str(self.retains_grad)),
                (".grad", self.grad_row)]


def facts_from(data: dict) -> RemoteFacts:
    """The facts ``facts_data`` wrote in the kernel."""
    return RemoteFacts(data["name"], bool(data["is_leaf"]), bool(data["requires_grad"]),
                       bool(data["retains_grad"]), data.get("grad_fn"),
                       copy_of(data.get("grad")), text_from(data.get("why_no_grad", "")),
                       data.get("cut", ""), data.get("grad_row", ""))
