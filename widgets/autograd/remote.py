"""The autograd tab's questions to the kernel, for a tensor that a kernel run made.

Such a tensor, and its ``grad_fn`` chain, stay in the kernel: the graph and the grad
facts are built there and come back as data (``kernel.queries``, ``autograd``). One
question is in flight at a time; an answer to an older one is dropped.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field

from app.explain.autograd_remote import RemoteFacts, facts_from
from app.recipe.document import Document
from app.recipe.kernel_results import KernelValue
from protocol.autograd_data import graph_from
from protocol.autograd_nodes import AutogradGraph


@dataclass
class RemoteAnswer:
    """What the kernel said about tensor ``name``: its graph, whether it requires grad,
    its element count, the facts of tensor ``inspect`` (None when it is none), the
    tensors that could be its backward's ``gradient``, and the leaves whose ``.grad``
    holds something."""

    name: str
    inspect: str
    graph: AutogradGraph = field(default_factory=AutogradGraph)
    requires_grad: bool = False
    numel: int = 0
    facts: RemoteFacts | None = None
    gradients: list[str] = field(default_factory=list)
    leaves_with_grad: list[str] = field(default_factory=list)
    error: str = ""


def kernel_target(document: Document, name: str | None) -> tuple[KernelValue, str] | None:
    """The kernel value that holds tensor ``name`` as the selected step sees it: the
    selected step's own, or the latest earlier step's that bound ``name``; for a code
    step that binds no ``name``, the first tensor it bound. None when the selected step
    did not run in the kernel."""
    i = document.selected
    results = document.run.results
    if i is None or i >= len(results) or not isinstance(results[i].value, KernelValue):
        return None
    own = results[i].value
    if name is None:
        first = own.first_tensor()
        return (own, first) if first is not None else None
    for r in reversed(results[:i + 1]):
        if isinstance(r.value, KernelValue) and name in r.value.names:
            return r.value, name
    return None


class RemoteAutograd:
    """Asks the kernel about one tensor at a time; ``on_answer`` gets a ``RemoteAnswer``."""

    def __init__(self, document: Document, on_answer: Callable[[RemoteAnswer, bool], None]):
        self._document, self._on_answer = document, on_answer
        self._generation = 0
        self._target: tuple[KernelValue, str] | None = None  # what was last asked about
        self.last: RemoteAnswer | None = None

    def ask(self, value: KernelValue, name: str, inspect: str | None, saved: bool,
            facts_only: bool = False) -> bool:
        """Ask about ``name`` (and ``inspect``'s facts); False without a kernel."""
        self._generation += 1
        self._target = (value, name)
        args = {"run": value.run_id, "statement": value.statement, "name": name,
                "inspect": inspect or name, "saved": saved}
        return self._document.ask("autograd", args, functools.partial(
            self._answered, self._generation, name, args["inspect"], facts_only))

    def facts_for(self, inspect: str | None, saved: bool) -> RemoteFacts | None:
        """Tensor ``inspect``'s facts from the last answer; when that answer was about
        another tensor's, they are asked for (``on_answer`` then gets ``facts_only``)."""
        last = self.last
        if last is None or inspect is None:
            return None
        if last.facts is not None and last.facts.name == inspect:
            return last.facts
        if last.inspect != inspect and self._target is not None:
            self.ask(*self._target, inspect, saved, facts_only=True)
        return None

    def forget(self) -> None:
        """The tab shows no kernel value now: drop any answer still to come."""
        self._generation += 1
        self.last = None

    def _answered(self, generation: int, name: str, inspect: str, facts_only: bool,
                  data: dict, error: str) -> None:
        if generation != self._generation:
            return
        if error:
            answer = RemoteAnswer(name, inspect, error=error)
        else:
            answer = RemoteAnswer(
                name, inspect, graph_from(data["graph"]), bool(data.get("requires_grad")),
                int(data.get("numel", 0)),
                facts_from(data["facts"]) if data.get("facts") else None,
                list(data.get("gradients", ())), list(data.get("leaves_with_grad", ())))
        self.last = answer
        self._on_answer(answer, facts_only)
