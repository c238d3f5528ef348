"""An op step's call as text: read into the form's values and written back from them.

A form's value is an argument's Python text
(``3``, ``(2, 3)``, ``torch.float64``, ``x``); ``bind_texts`` finds each argument's
text in a call's text (``op_call.bind_node`` binds the nodes, the text is their source
segment), and ``call_text`` writes the call for values, in the spelling the step had
(method or function, positional or keyword arguments), leaving out what is default.
"""

from __future__ import annotations

import ast
from typing import Any

from app.catalog import OpSpec, Param
from app.catalog.call_keys import call_key
from app.recipe.op_call import (
    KEYWORD_KINDS,
    bind_node,
    has_receiver,
    is_dtype_node,
    node_literal,
    same_literal,
)
from app.text_edits import Positions, literal_text


def call_text(spec: OpSpec, values: dict[str, str], *, receiver: str | None = None,
              namespace: str | None = None, keywords: frozenset[str] | set[str] = frozenset()
              ) -> str:
    """``spec``'s call for the form's ``values`` (texts); parameters equal to their
    default are left out. With ``receiver`` (a text) the call is the method form, else
    the function form spelled in ``namespace`` (the catalogue's first by default).
    Trailing positional arguments named in ``keywords`` are written as keywords."""
    args: list[str] = []
    kwargs: list[str] = []
    positional = True
    params = spec.params if receiver is None else spec.method_params()
    spread = receiver is not None
    leading = spec.leading_optional() if receiver is None else ()
    forced: set[str] = set()
    if leading:
        unset = [p for p in leading if _is_default(p, values.get(p.name))]
        later = [p for p in params if not p.required and not p.keyword_only
                 and p not in leading and not _is_default(p, values.get(p.name))]
        if len(unset) == len(leading) and later:
            # torch.arange(0, 12, 2): a later optional needs the leading one written.
            values = {**values, **{p.name: literal_text(p.default) for p in leading}}
            forced = {p.name for p in leading}
            leading = ()
        elif len(unset) < len(leading):
            leading = ()
    for p in params:
        if p in leading:
            continue  # torch.arange(12): the one-argument overload fills end first
        if p.name not in values:
            positional = positional and p.required
            continue
        value = values[p.name]
        if not p.required and p.name not in forced and _is_default(p, value):
            positional = False
            continue
        items = _items(value)
        if p.varargs and items is not None and positional and not p.keyword_only \
                and (spread or p.varargs_in_function):
            args.extend(items)
        elif positional and not p.keyword_only:
            args.append(value)
        else:
            kwargs.append(f"{p.name}={value}")
            positional = False
    moved = _keywords(spec, args, receiver is not None, keywords)
    if receiver is not None:
        head = f"{_primary(receiver)}.{spec.name}"
    elif namespace is not None and namespace != spec.namespace:
        if namespace not in spec.also_in:
            raise ValueError(f"{spec.name} is not in namespace {namespace!r}")
        head = f"{namespace}.{spec.name}"
    else:
        assert spec.function_key is not None, f"{spec.name} has no function form"
        head = spec.function_key
    return f"{head}({', '.join(args + moved + kwargs)})"


def _keywords(spec: OpSpec, args: list[str], is_method: bool,
              keywords: frozenset[str] | set[str]) -> list[str]:
    """Take the trailing positional ``args`` named in ``keywords`` off ``args``, as
    ``name=value`` texts."""
    params = [p for p in (spec.method_params() if is_method else spec.params)
              if not p.keyword_only]
    if not keywords or len(args) > len(params) or any(p.varargs for p in params[:len(args)]):
        return []
    moved: list[str] = []
    while args and params[len(args) - 1].name in keywords:
        moved.insert(0, f"{params[len(args) - 1].name}={args.pop()}")
    return moved


def build_call_text(spec: OpSpec, values: dict[str, str], receiver: str | None,
                    spelling: str | None, keywords: frozenset[str] | set[str]) -> str:
    """The call's text for the form's ``values``.

    ``spelling`` is ``"method"``, a namespace (``torch``, ``F``), or None for the
    catalogue's first spelling."""
    values = dict(values)
    main = receiver if has_receiver(spec) else values.get(spec.receiver)
    if (spelling == "method" or spec.function_key is None) and main is not None \
            and spec.method:
        values.pop(spec.receiver, None)
        return call_text(spec, values, receiver=main, keywords=keywords)
    if has_receiver(spec) and receiver is not None:
        values[spec.receiver] = receiver
    namespace = spelling if spelling not in (None, "method") else None
    return call_text(spec, values, namespace=namespace, keywords=keywords)


def parse_call(text: str) -> ast.Call | None:
    """The call ``text`` (an expression) is, or None."""
    try:
        node = ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        return None
    return node if isinstance(node, ast.Call) else None


def is_method(call: ast.Call) -> bool:
    """Whether ``call`` is a tensor method's (``x.view(3)``), by its catalogue key."""
    return call_key(call.func).startswith("Tensor.")


def spelling_of(call: ast.Call) -> str:
    """``"method"``, or the namespace the call is spelled in (``torch``, ``F``)."""
    key = call_key(call.func)
    return "method" if key.startswith("Tensor.") else key.rsplit(".", 1)[0]


def bind_texts(spec: OpSpec, text: str) -> dict[str, str]:
    """The text of each argument of the call ``text``, by parameter name (a method's
    receiver not among them): ``op_call.bind`` on text."""
    call = parse_call(text)
    assert call is not None, f"{text!r} is not a call"
    where = Positions(text.strip())
    return {k: _segment(text, v, where)
            for k, v in bind_node(spec, call, is_method(call)).items()}


def bind_op_texts(spec: OpSpec, text: str) -> tuple[str | None, dict[str, str]]:
    """Split the call ``text`` into its receiver's text (for "Apply to") and the form's
    values."""
    call = parse_call(text)
    assert call is not None, f"{text!r} is not a call"
    nodes, where = bind_node(spec, call, is_method(call)), Positions(text.strip())
    if is_method(call):
        receiver = call.func.value  # type: ignore[attr-defined]
        first = spec.method_params()[0] if spec.method_params() else None
        value = nodes.get(first.name) if first is not None else None
        # x.to(torch.float64): torch reads a dtype in the device slot as the dtype
        if first is not None and first.kind == "device" and value is not None \
                and is_dtype_node(value) and "dtype" not in nodes:
            nodes["dtype"] = nodes.pop(first.name)
        values = {k: _segment(text, v, where) for k, v in nodes.items()}
        if has_receiver(spec):
            return _segment(text, receiver, where), values
        return None, {**values, spec.receiver: _segment(text, receiver, where)}
    values = {k: _segment(text, v, where) for k, v in nodes.items()}
    return (values.pop(spec.receiver, None) if has_receiver(spec) else None), values


def call_keywords_texts(spec: OpSpec, text: str) -> set[str]:
    """The parameters to write as keywords when the form rewrites the call ``text``: those
    it gave as keywords, and optional ones it left out (``diagonal=1`` once the user
    sets it)."""
    call = parse_call(text)
    assert call is not None, f"{text!r} is not a call"
    given = {k.arg for k in call.keywords if k.arg}
    bound = set(bind_node(spec, call, is_method(call)))
    return given | ({p.name for p in spec.params if not p.required
                     and p.kind in KEYWORD_KINDS} - bound)


def _segment(text: str, node: ast.expr, where: Positions | None = None) -> str:
    """``node``'s text in ``text`` (``where``: the stripped text's ``Positions``, when the
    caller reads many nodes of one text: a 3,000-number literal's items are read in one
    pass, not one pass of the text each); a tuple ``bind_node`` packed (no positions of
    its own) is written from its items' texts."""
    where = where or Positions(text.strip())
    if not hasattr(node, "lineno"):
        items = [_segment(text, e, where) for e in node.elts]  # type: ignore[attr-defined]
        return f"({items[0]},)" if len(items) == 1 else "(" + ", ".join(items) + ")"
    start, end = where.span(node)
    return where.text[start:end]


def same_items(a: str, b: str) -> bool:
    """Whether two list or tuple displays have the same items' texts (``[a, b]`` and
    ``(a, b)``)."""
    items = _items(a)
    return items is not None and items == _items(b)


def _items(value: str) -> list[str] | None:
    """The items' texts of a list or tuple display (``(2, 3)``: ``2`` and ``3``), or None."""
    try:
        node = ast.parse(value.strip(), mode="eval").body
    except SyntaxError:
        return None
    if not isinstance(node, ast.List | ast.Tuple):
        return None
    where = Positions(value.strip())
    return [_segment(value, e, where) for e in node.elts]


def _literal(value: str) -> tuple[bool, Any]:
    """``(True, value)`` for a literal's text (a number, a dtype, a tuple of numbers...)."""
    try:
        node = ast.parse(value.strip(), mode="eval").body
    except SyntaxError:
        return False, None
    ok, literal = node_literal(node)
    if ok:
        return ok, literal
    try:
        return True, ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False, None


def _is_default(p: Param, value: str | None) -> bool:
    """Whether a form leaves ``p`` at its default (unset, or set to the default)."""
    if value is None:
        return True
    ok, literal = _literal(value)
    return ok and same_literal(literal, p.default)


def _primary(text: str) -> str:
    """``text`` as a method's receiver: bracketed unless it is a name, a call, an
    attribute or a subscript."""
    try:
        node = ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        return f"({text})"
    return text if isinstance(node, ast.Name | ast.Call | ast.Attribute | ast.Subscript) \
        else f"({text})"
