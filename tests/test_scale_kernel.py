"""A recipe of thousands of statements runs in the kernel with a per-statement cost that
does not grow with the statements before it (issue 32: 5,000 statements binding names of
their own ran for minutes). Core tier: no QApplication; work is counted, never timed.
"""

from __future__ import annotations

import random

import torch

from kernel import checkpoints
from kernel.checkpoints import Checkpoints
from kernel.namespace_watch import NamespaceWatch
from kernel.summary import changed, user_names
from protocol.source import statements


def test_the_names_each_statement_bound_are_those_a_pass_over_the_namespace_finds():
    """Random binds, rebinds, deletes and in-place changes: the watch reports what the
    plain definition (every name's object and tensor version, before and after) does."""
    rng = random.Random(7)
    ns: dict = {"__name__": "__main__", "torch": torch}
    watch = NamespaceWatch(ns)
    pool = [f"v{i}" for i in range(12)]
    for _ in range(400):
        before = user_names(ns)
        for _ in range(rng.randint(0, 3)):
            name, what = rng.choice(pool), rng.random()
            if what < 0.3:
                ns[name] = torch.zeros(2)
            elif what < 0.45:
                ns[name] = rng.randint(0, 5)  # small ints: the same object again
            elif what < 0.6 and isinstance(ns.get(name), torch.Tensor):
                ns[name].add_(1)  # in place: the same object, its version moved
            elif what < 0.7:
                ns.pop(name, None)
            elif what < 0.8 and name in ns:
                ns[name] = ns.pop(name)  # deleted and bound again: now the last name
            else:
                ns[name] = [what]
        assert watch.changed() == changed(before, ns)


def test_a_recipe_of_many_names_keeps_checkpoints_whose_cost_adds_up_to_a_constant_per_statement(
        monkeypatch):
    """5,000 statements, each binding a name of its own: the values the checkpoints'
    fingerprints look at grow with the statements, not with their square (a checkpoint
    after every one looked at 12.5 million values), and an edit still goes on from a
    checkpoint before its line."""
    n = 5000
    text = "x0 = 0\n" + "".join(f"x{i} = x{i - 1} + 1\n" for i in range(1, n))
    found = statements(text)[0]
    looked = [0]
    fingerprint = checkpoints._fingerprint

    def counted(value, depth, budget):
        looked[0] += 1
        return fingerprint(value, depth, budget)

    monkeypatch.setattr(checkpoints, "_fingerprint", counted)
    marks, ns = Checkpoints(), {"__name__": "__main__"}
    marks.clear("recipe.py")
    for i, statement in enumerate(found):
        ns[f"x{i}"] = i  # what the statement does
        marks.keep(statement, ns, 0)
    assert looked[0] < 100 * n  # not n * n / 2
    edited = statements(text.replace(f"x{n - 2} = x{n - 3} + 1", f"x{n - 2} = 7"))[0]
    start = marks.resume_point("recipe.py", edited)
    assert 0 < start <= n - 2
    assert marks.restore(start, ns) == 0 and ns[f"x{start - 1}"] == start - 1
    assert f"x{start}" not in ns  # as the statement before the edit left it


def test_a_statements_messages_cost_no_lookup_of_their_fields_each(monkeypatch):
    """Two messages a statement cross the pipe, both ways: a message class's fields are
    looked up once, not at every message (35 us each, 0.35 s of 5,000 statements)."""
    from protocol import codec, messages

    looked = []
    fields = codec.fields
    monkeypatch.setattr(codec, "fields", lambda cls: looked.append(cls) or fields(cls))
    codec._FIELD_NAMES.clear()  # noqa: SLF001 - as if no message had crossed yet
    sent = [m for i in range(200) for m in (
        messages.StepStarted(i, i + 1), messages.StepDone(i, i + 1, 0.0, names={"x": {}}))]
    decoded = [messages.decode(messages.encode(m)) for m in sent]
    assert decoded == sent
    assert len(looked) <= 4  # each class once, each way at most
