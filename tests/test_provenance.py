"""Provenance: which input elements an output element comes from, in cases a person can
check by hand. Core tests: no QApplication. The engine is the kernel's
(``kernel.explain.provenance``), run here in the test's own process."""

from __future__ import annotations

import itertools

import pytest
import torch
import torch.nn.functional as F  # noqa: N812 - as recipes spell it

from app.explain.op_facts import op_table
from kernel.explain import provenance
from kernel.explain.provenance import Provenance

X = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])


def expr(code: str, *names: str) -> str:
    """The statement ``y = <code>``, as a step's text (``names``: what it reads)."""
    del names
    return f"y = {code}"


def sources(code: str, inputs: dict, index: tuple, **kw) -> dict:
    """``provenance.sources`` with the ops of ``code`` named, as the window names them."""
    return provenance.sources(code, inputs, index, ops=op_table(code), **kw)


def trace(code: str, inputs: dict, index: tuple, **kw) -> Provenance:
    return provenance.trace(code, inputs, index, ops=op_table(code), **kw)


def value_of(statement: str, namespace: dict) -> object:
    """What python itself makes of a statement's value."""
    return eval(statement.removeprefix("y = "), {"torch": torch, "F": F}, dict(namespace))


def every_index(shape: tuple[int, ...]) -> list[tuple[int, ...]]:
    return list(itertools.product(*(range(s) for s in shape)))


def test_transpose_swaps_the_indices() -> None:
    e = expr("x.t()", "x")
    for i, j in every_index((3, 2)):
        assert sources(e, {"x": X}, (i, j)) == {"x": [(j, i)]}
    assert sources(expr("torch.transpose(x, 0, 1)", "x"), {"x": X}, (2, 1)) == {"x": [(1, 2)]}
    assert sources(expr("x.T", "x"), {"x": X}, (0, 1)) == {"x": [(1, 0)]}


def test_gather_picks_input_at_the_index_and_reports_the_index_entry() -> None:
    index = torch.tensor([[2, 0], [1, 1]])
    e = expr("torch.gather(x, 1, index)", "x", "index")
    for i, j in every_index((2, 2)):
        found = trace(e, {"x": X, "index": index}, (i, j))
        assert found.sources == {"x": [(i, int(index[i, j]))], "index": []}
        assert found.used == {"index": [(i, j)]}
    along_rows = trace(expr("x.gather(0, index)", "x", "index"),
                       {"x": X, "index": torch.tensor([[1, 0, 1]])}, (0, 2))
    assert along_rows == Provenance({"x": [(1, 2)], "index": []}, {"index": [(0, 2)]})


def test_cat_on_dim_0_takes_the_second_tensor_below_the_first() -> None:
    a, b = torch.zeros(2, 3), torch.ones(2, 3)
    e = expr("torch.cat((a, b), dim=0)", "a", "b")
    assert sources(e, {"a": a, "b": b}, (3, 1)) == {"a": [], "b": [(1, 1)]}
    assert sources(e, {"a": a, "b": b}, (0, 2)) == {"a": [(0, 2)], "b": []}
    side = expr("torch.cat([a, b], 1)", "a", "b")
    assert sources(side, {"a": a, "b": b}, (1, 4)) == {"a": [], "b": [(1, 1)]}


def test_sum_over_dim_1_reads_the_whole_row() -> None:
    e = expr("x.sum(dim=1)", "x")
    for i in range(2):
        assert sources(e, {"x": X}, (i,)) == {"x": [(i, 0), (i, 1), (i, 2)]}
    kept = expr("torch.sum(x, 0, keepdim=True)", "x")
    assert sources(kept, {"x": X}, (0, 1)) == {"x": [(0, 1), (1, 1)]}
    assert sources(expr("x.sum()", "x"), {"x": X}, ()) == {"x": every_index((2, 3))}


def test_matmul_reads_row_i_of_a_and_column_j_of_b_even_where_they_hold_zeros() -> None:
    A, B = torch.eye(3), torch.tril(torch.ones(3, 4))
    for code in ("A @ B", "torch.matmul(A, B)", "A.mm(B)"):
        e = expr(code, "A", "B")
        for i, j in every_index((3, 4)):
            assert sources(e, {"A": A, "B": B}, (i, j)) == {
                "A": [(i, k) for k in range(3)], "B": [(k, j) for k in range(3)]}, code


def test_tril_keeps_an_element_in_place_and_the_zeroed_ones_come_from_nowhere() -> None:
    x = torch.arange(9.0).view(3, 3)
    e = expr("torch.tril(x)", "x")
    assert sources(e, {"x": x}, (2, 1)) == {"x": [(2, 1)]}
    assert sources(e, {"x": x}, (1, 1)) == {"x": [(1, 1)]}
    assert sources(e, {"x": x}, (0, 2)) == {"x": []}
    upper = expr("x.triu(diagonal=1)", "x")
    assert sources(upper, {"x": x}, (0, 1)) == {"x": [(0, 1)]}
    assert sources(upper, {"x": x}, (1, 1)) == {"x": []}


def test_masked_fill_filled_elements_come_from_the_value_and_name_the_mask_entry() -> None:
    scores = torch.arange(6.0).view(2, 3)
    mask = torch.tensor([[1, 0, 1], [1, 1, 0]])
    e = expr('scores.masked_fill(mask == 0, float("-inf"))', "scores", "mask")
    kept = trace(e, {"scores": scores, "mask": mask}, (0, 0))
    assert kept.sources == {"scores": [(0, 0)], "mask": []}
    filled = trace(e, {"scores": scores, "mask": mask}, (1, 2))
    assert filled.sources == {"scores": [], "mask": []}
    assert filled.used == {"mask": [(1, 2)]}


def test_where_takes_from_the_side_the_condition_picks() -> None:
    x, y = torch.arange(6.0).view(2, 3), -torch.ones(3)
    e = expr("torch.where(x > 2, x, y)", "x", "y")
    assert trace(e, {"x": x, "y": y}, (1, 1)).sources == {"x": [(1, 1)], "y": []}
    picked_y = trace(e, {"x": x, "y": y}, (0, 2))
    assert picked_y.sources == {"x": [], "y": [(2,)]}
    assert picked_y.used == {"x": [(0, 2)]}  # the condition x > 2 read x[0, 2]


@pytest.mark.parametrize("code", [
    "x.view(3, 4)", "x.reshape(2, 6)", "x.t().contiguous().view(-1)", "x.flatten()",
    "x.unsqueeze(1)", "x[None].squeeze(0)", "x.permute(1, 0)", "x.expand(2, 4, 3)",
    "x.repeat(2, 3)", "x[:, 1]", "x[0, ::2]", "x[None]", "x[..., 0]", "x[1:, :-1]",
    "torch.stack((x, x), dim=1)",
    "torch.index_select(x, 1, torch.tensor([2, 0, 2]))", "x[torch.tensor([1, 0])]",
    "torch.tril(x, diagonal=1)", "x.clone()", "x.detach()", "x.mT",
])
def test_data_movement_matches_tracing_ids_by_hand(code: str) -> None:
    """Against the definition: evaluate the op on element numbers and read them back."""
    x = torch.arange(12.0).view(4, 3) + 100  # no zeros: tril's zeros stay recognisable
    ids = torch.arange(12.0).view(4, 3)
    e = expr(code, "x")
    out_ids = value_of(e, {"x": ids + 1000})
    for index in every_index(tuple(out_ids.shape)):
        value = int(out_ids[index]) - 1000
        want = [] if value < 0 else [tuple(int(i) for i in divmod(value, 3))]
        assert sources(e, {"x": x}, index) == {"x": want}, (code, index)


def test_chunks_and_splits_name_their_part() -> None:
    x = torch.arange(10.0).view(2, 5)
    e = expr("x.chunk(2, dim=1)", "x")
    assert sources(e, {"x": x}, (1, 0), part=1) == {"x": [(1, 3)]}
    parts = x.split([2, 3], dim=1)
    assert sources(expr("p[1]", "p"), {"p": parts}, (0, 2)) == {"p": [(1, 0, 2)]}
    with pytest.raises(IndexError):
        sources(e, {"x": x}, (0, 0), part=2)


def test_elementwise_ops_follow_broadcasting() -> None:
    b = torch.tensor([10.0, 20.0, 30.0])
    for code in ("x + b", "torch.add(x, b)", "x * b", "x.mul(b)", "x > b", "torch.eq(x, b)",
                 "x.sub(b, alpha=2)", "torch.div(x, b, rounding_mode='floor')"):
        e = expr(code, "x", "b")
        assert sources(e, {"x": X, "b": b}, (1, 2)) == {"x": [(1, 2)], "b": [(2,)]}, code
    zero = expr("x * torch.zeros(2, 3)", "x")  # a zero factor does not hide the input
    assert sources(zero, {"x": X}, (0, 1)) == {"x": [(0, 1)]}
    for code in ("x.float()", "x.long()", "x.bool()", "x.to(torch.float64)", "-x",
                 "torch.sigmoid(x)", "x.clamp(min=2.0, max=4.0)"):
        assert sources(expr(code, "x"), {"x": X}, (1, 0)) == {"x": [(1, 0)]}, code


def test_softmax_and_reductions_read_along_dim() -> None:
    for code in ("torch.softmax(x, dim=1)", "F.softmax(x, dim=1)", "x.softmax(-1)"):
        assert sources(expr(code, "x"), {"x": X}, (1, 0)) == {"x": [(1, 0), (1, 1), (1, 2)]}
    assert sources(expr("x.mean(dim=0)", "x"), {"x": X}, (2,)) == {"x": [(0, 2), (1, 2)]}
    assert sources(expr("x.std(dim=1)", "x"), {"x": X}, (0,)) == {"x": [(0, 0), (0, 1), (0, 2)]}
    assert sources(expr("x.argmax(dim=1, keepdim=True)", "x"), {"x": X}, (1, 0)) == {
        "x": [(1, 0), (1, 1), (1, 2)]}
    assert sources(expr("x.argmax()", "x"), {"x": X}, ()) == {"x": every_index((2, 3))}
    assert sources(expr("torch.einsum('ij->j', x)", "x"), {"x": X}, (1,)) == {
        "x": [(0, 1), (1, 1)]}
    v = torch.tensor([1.0, 0.0, 2.0])
    assert sources(expr("torch.mv(x, v)", "x", "v"), {"x": X, "v": v}, (1,)) == {
        "x": [(1, 0), (1, 1), (1, 2)], "v": [(0,), (1,), (2,)]}


def test_nested_expressions_compose() -> None:
    e = expr("(x * 2).t()[1]", "x")
    assert sources(e, {"x": X}, (0,)) == {"x": [(0, 1)]}
    masked = expr("(x @ x.t()).tril()", "x")
    assert sources(masked, {"x": X}, (1, 0)) == {"x": [(0, 0), (0, 1), (0, 2), (1, 0),
                                                        (1, 1), (1, 2)]}
    assert sources(masked, {"x": X}, (0, 1)) == {"x": []}


def test_new_tensors_do_not_come_from_their_arguments() -> None:
    assert sources(expr("torch.zeros_like(x)", "x"), {"x": X}, (0, 0)) == {"x": []}
    assert sources(expr("torch.nonzero(x)", "x"), {"x": X}, (0, 0)) == {"x": []}


def test_in_place_steps_and_the_callers_tensors() -> None:
    v = torch.tensor([1.0, 2.0, 3.0])
    state = torch.random.get_rng_state()
    assert sources(expr("v.add_(1)", "v"), {"v": v}, (2,)) == {"v": [(2,)]}
    assert sources(expr("v.masked_fill_(v > 1, 0.0)", "v"), {"v": v}, (0,)) == {"v": [(0,)]}
    assert torch.equal(v, torch.tensor([1.0, 2.0, 3.0]))  # nothing was changed in place
    assert torch.equal(torch.random.get_rng_state(), state)  # the random state is kept


def test_integer_and_bool_inputs() -> None:
    n = torch.arange(6).view(2, 3)
    assert sources(expr("n.t()", "n"), {"n": n}, (2, 1)) == {"n": [(1, 2)]}
    assert sources(expr("n @ n.t()", "n"), {"n": n}, (0, 1)) == {
        "n": [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]}
    m = n > 2
    assert sources(expr("m.t()", "m"), {"m": m}, (0, 1)) == {"m": [(1, 0)]}


def test_bad_indices_are_refused() -> None:
    e = expr("x.t()", "x")
    with pytest.raises(IndexError):
        sources(e, {"x": X}, (3, 0))
    with pytest.raises(IndexError):
        sources(e, {"x": X}, (0,))
    with pytest.raises(ValueError):
        sources(expr("x.sum().item()", "x"), {"x": X}, ())


def test_what_is_too_large_or_not_an_op_is_refused_before_it_runs() -> None:
    """The kernel works out nodes of a step's expression: each one first on the meta
    device, so a huge value is refused before anything is made; a call that is not a
    catalogue op (a function of the recipe, a builtin) is never made."""
    import time

    from kernel.explain.provenance_nodes import MAX_CELLS, ProbeError

    started = time.monotonic()
    with pytest.raises(ProbeError, match="elements is not worked out"):
        sources("y = x + torch.ones(10**5, 10**5)", {"x": X}, (0, 0))
    with pytest.raises(ProbeError, match="too large a number"):
        sources("y = x * 2 ** 10**9", {"x": X}, (0, 0))
    assert time.monotonic() - started < 5  # nothing of 10**10 elements was made
    assert 10**10 > MAX_CELLS
    ran = []
    with pytest.raises(ProbeError, match="'f' is not worked out here"):
        sources("y = f(x)", {"x": X, "f": lambda t: ran.append(t) or t}, (0, 0))
    with pytest.raises(ProbeError, match="'len' is not worked out here"):
        sources("y = x * len(x)", {"x": X}, (0, 0))
    with pytest.raises(ProbeError, match="'.numpy' is not worked out here"):
        sources("y = x.numpy", {"x": X}, (0, 0))
    assert ran == []
