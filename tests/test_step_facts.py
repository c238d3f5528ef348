"""What a step says of itself, read from its statement: the op at its top, every call in
it, the names it binds and reads, and a code step's text."""

from app.recipe.reader import read_recipe

HEAD = "import torch\nimport torch.nn.functional as F\nx = torch.zeros(2, 3)\n"


def _step(code: str):
    return read_recipe(HEAD + code + "\n").steps[-1]


def test_op_names_the_call_or_the_operator():
    assert _step("y = torch.tril(x)").op == "torch.tril"
    assert _step("y = x.view(3, 2)").op == "Tensor.view"
    assert _step("y = x + 1").op == "+"
    assert _step("y = x @ x.t()").op == "@"
    assert _step("y = -x").op == "-"
    assert _step("y = x").op is None
    assert _step("y = -1").op is None  # a negative literal, not an operation
    assert _step("for i in range(2):\n    print(i)").op is None


def test_unary_tells_negation_from_subtraction():
    assert _step("y = -x").unary and _step("y = ~x").unary
    assert not _step("y = x - 1").unary and not _step("y = x.abs()").unary


def test_calls_lists_every_catalogue_call_in_order():
    assert _step("y = F.softmax(torch.tril(x) * 2, dim=0).sum()").calls == (
        "Tensor.sum", "F.softmax", "torch.tril")
    assert _step("y = x + 1").calls == ()
    assert _step("for i in range(2):\n    y = torch.rand(2)").calls == ()  # a code step


def test_binds_are_the_variable_or_what_a_code_step_may_bind():
    assert _step("y = x * 2").binds == ("y",)
    assert _step("print(x)").binds == ()
    assert _step("for i in range(2):\n    total = i").binds == ("i", "total")
    assert _step("def f(a):\n    b = a\n    return b").binds == ("f",)


def test_reads_are_the_earlier_names_used():
    assert _step("y = torch.stack([x, x * 2])").reads == ["x"]
    assert _step("for i in range(2):\n    print(x + i)").reads == ["range", "print", "x", "i"]


def test_code_text_is_a_code_steps_exact_text():
    text = "for i in range(2):  # two\n    print( x )"
    assert _step(text).code_text == text
    assert _step("y = x  # a form step").code_text is None
