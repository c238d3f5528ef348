"""Small ``nn.Module`` definitions in a recipe, held as data.

A recipe may define a module class::

    class Net(nn.Module):
        \"\"\"Docstring.\"\"\"

        def __init__(self, hidden=8):
            super().__init__()
            self.fc = nn.Linear(4, hidden)
            self.register_buffer("mask", torch.ones(hidden))

        def forward(self, x):
            h = self.fc(x)
            return h * self.mask

It is read with ``ast`` into a ``ModuleDef``: the parameters and the statements of the two
methods as ``Step``\\ s of expression trees. Nothing of it is compiled. The evaluator makes a
real ``nn.Module`` subclass whose ``__init__`` and ``forward`` are Python functions of this
module that walk those trees with the evaluator (``build_class``), and the writer prints the
same class text back (``app.recipe.writer.write_class``).
"""

from __future__ import annotations

import ast
import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import torch
from torch import nn

import app.catalog  # noqa: F401 - loads the catalogue before catalog_nn is imported alone
from app.catalog.nn import MODULE_METHODS, MODULE_VALUE_TYPES, OUTPUT_SIZE
from app.expr import Const, Expr
from app.recipe.model import RESERVED_NAMES, Step

#: The op of a call of a module or of a recipe class: ``Call(MODULE_CALL, (callee, *args))``
#: is written ``callee(*args)``.
MODULE_CALL = "Module.call"
#: Where a class built by ``build_class`` keeps its ``ModuleDef``.
RECIPE_DEF = "_recipe_def"
#: nn.Module's own methods and class attributes: never read as a module's attribute.
MODULE_CLASS_NAMES = frozenset(n for n in dir(nn.Module) if not n.startswith("_"))
#: Names ``self.NAME = ...`` may not take: those and ``training``.
SHADOWING = MODULE_CLASS_NAMES | {"training"}

#: A method parameter: its name and its default (None when it has none).
Parameter = tuple[str, "Const | None"]


@dataclass(frozen=True)
class ModuleDef:
    """A module class of a recipe, as data. The class name is the name of its step.

    Parameters
    ----------
    docstring : str
        The class docstring.
    init_params : tuple of (str, Const or None)
        ``__init__``'s parameters after ``self``, with their literal defaults.
    init : tuple of Step
        ``self.NAME = expr`` as ``Step("NAME", expr)``; ``self.register_buffer(...)`` as a
        nameless step calling ``Module.register_buffer``. ``super().__init__()`` comes first
        and is not stored.
    forward_params : tuple of (str, Const or None)
        ``forward``'s parameters after ``self``.
    forward : tuple of Step
        ``name = expr`` assignments (and bare calls) of ``forward``, in order.
    returns : Expr or None
        What ``forward`` returns; None when the class has no ``forward``.
    return_comment : str
        Comment lines just above the ``return``.
    """

    docstring: str = ""
    init_params: tuple[Parameter, ...] = ()
    init: tuple[Step, ...] = ()
    forward_params: tuple[Parameter, ...] = ()
    forward: tuple[Step, ...] = ()
    returns: Expr | None = None
    return_comment: str = ""

    def expressions(self) -> Iterator[Expr]:
        """Every expression of the class: defaults, method statements, the return value."""
        for _, default in self.init_params + self.forward_params:
            if default is not None:
                yield default
        for step in self.init + self.forward:
            yield step.expr
        if self.returns is not None:
            yield self.returns


# -- reading -----------------------------------------------------------------------------------
def read_class(node: ast.ClassDef, reader: Any) -> ModuleDef:
    """The ``ModuleDef`` of a class statement, or the reader's ``RecipeError``.

    ``reader`` is the recipe reader (``app.recipe.reader._Reader``): its ``expr``,
    ``comment_above``, ``need``, ``refuse``, ``method_scope`` and ``bind`` read the
    expressions, so they follow exactly the rules of the rest of the recipe.
    """
    if node.decorator_list:
        raise reader.refuse(node.decorator_list[0], "decorators are not allowed in recipes")
    if node.keywords:
        raise reader.refuse(node.keywords[0], "class keywords (metaclass=...) are not allowed")
    if getattr(node, "type_params", None):
        raise reader.refuse(node, "type parameters are not allowed in recipes")
    base = node.bases[0] if len(node.bases) == 1 else None
    if base is None or _dotted(base) != "nn.Module":
        raise reader.refuse(base or node, "a recipe class derives from nn.Module and nothing "
                                          "else: class Net(nn.Module):")
    reader.need("nn", base)
    if "super" in reader.bound:
        raise reader.refuse(node, "'super' is rebound by an earlier step")
    body = list(node.body)
    docstring = ""
    if body and _is_docstring(body[0]):
        docstring = body.pop(0).value.value  # type: ignore[attr-defined]
    methods: dict[str, ast.FunctionDef] = {}
    for stmt in body:
        if isinstance(stmt, ast.FunctionDef) and stmt.name in ("__init__", "forward"):
            if stmt.name in methods:
                raise reader.refuse(stmt, f"'{stmt.name}' is defined twice")
            methods[stmt.name] = stmt
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            raise reader.refuse(stmt, f"method '{stmt.name}': a recipe class defines only "
                                      "__init__ and forward")
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            raise reader.refuse(stmt, "class attributes are not allowed: assign "
                                      "self.NAME = ... in __init__")
        elif not isinstance(stmt, ast.Pass):
            raise reader.refuse(stmt, "a recipe class holds only a docstring, __init__ and "
                                      "forward", forbidden=True)
    init_params: tuple[Parameter, ...] = ()
    init: tuple[Step, ...] = ()
    if "__init__" in methods:
        init_params = _parameters(methods["__init__"], reader)
        init = _read_init(methods["__init__"], init_params, reader)
    forward = methods.get("forward")
    if forward is None:
        return ModuleDef(docstring, init_params, init)
    forward_params = _parameters(forward, reader)
    steps, returns, comment = _read_forward(forward, forward_params, reader)
    return ModuleDef(docstring, init_params, init, forward_params, steps, returns, comment)


def _parameters(fn: ast.FunctionDef, reader: Any) -> tuple[Parameter, ...]:
    """``fn``'s parameters after ``self``; only plain names with literal defaults."""
    if fn.decorator_list:
        raise reader.refuse(fn.decorator_list[0], "decorators are not allowed in recipes")
    if fn.returns is not None:
        raise reader.refuse(fn.returns, "annotations are not allowed in recipes")
    a = fn.args
    extra = a.posonlyargs or a.kwonlyargs or a.vararg or a.kwarg
    if extra:
        where = (a.posonlyargs or a.kwonlyargs or [a.vararg or a.kwarg])[0]
        raise reader.refuse(where, "only plain parameters (x, n=3) are allowed: no *args, "
                                   "**kwargs, / or *")
    if not a.args or a.args[0].arg != "self":
        raise reader.refuse(fn, f"'{fn.name}' takes self as its first parameter")
    names: list[str] = []
    for arg in a.args:
        if arg.annotation is not None:
            raise reader.refuse(arg.annotation, "annotations are not allowed in recipes")
        if arg is not a.args[0]:
            if arg.arg == "self" or arg.arg in RESERVED_NAMES or arg.arg.startswith("__"):
                raise reader.refuse(arg, f"'{arg.arg}' cannot name a parameter")
            if arg.arg in names:
                raise reader.refuse(arg, f"parameter '{arg.arg}' is named twice")
            names.append(arg.arg)
    defaults: list[Const | None] = [None] * (len(names) - len(a.defaults))
    with reader.method_scope(()):
        for d in a.defaults:
            value = reader.expr(d, 0)
            if not isinstance(value, Const):
                raise reader.refuse(d, "a default must be a literal: a number, a string, "
                                       "True, False or None")
            defaults.append(value)
    return tuple(zip(names, defaults, strict=True))


def _read_init(fn: ast.FunctionDef, params: tuple[Parameter, ...], reader: Any
               ) -> tuple[Step, ...]:
    body = fn.body
    if not body or not _is_super_init(body[0]):
        raise reader.refuse(body[0] if body else fn, "__init__ starts with "
                                                     "super().__init__()")
    steps: list[Step] = []
    with reader.method_scope(("self", *(n for n, _ in params))):
        for stmt in body[1:]:
            comment = reader.comment_above(stmt)
            target = stmt.targets[0] if isinstance(stmt, ast.Assign) \
                and len(stmt.targets) == 1 else None
            if isinstance(target, ast.Attribute) and _is_self(target.value):
                name = target.attr
                if name.startswith("_"):
                    raise reader.refuse(target, f"attribute '{name}': private and dunder "
                                                "attributes are not allowed")
                if name in SHADOWING:
                    raise reader.refuse(target, f"'self.{name}' would hide nn.Module's own "
                                                f"'{name}'")
                steps.append(Step(name, reader.expr(stmt.value, 0), comment, "", stmt.lineno))
            elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) \
                    and isinstance(stmt.value.func, ast.Attribute) \
                    and stmt.value.func.attr == "register_buffer" \
                    and _is_self(stmt.value.func.value):
                call = stmt.value
                if not call.args or not isinstance(call.args[0], ast.Constant) \
                        or not _attribute_name(call.args[0].value):
                    raise reader.refuse(call.args[0] if call.args else call,
                                        "register_buffer's name is a string such as \"mask\", "
                                        "not starting with _")
                if call.args[0].value in SHADOWING:
                    raise reader.refuse(call.args[0], f"buffer '{call.args[0].value}' would "
                                                      "hide nn.Module's own attribute")
                steps.append(Step(None, reader.expr(call, 0), comment, "", stmt.lineno))
            elif isinstance(stmt, ast.Assign):
                raise reader.refuse(stmt, "__init__ assigns attributes of self only: "
                                          "self.NAME = ...")
            else:
                raise reader.refuse(stmt, "__init__ may only assign self.NAME = ... and call "
                                          "self.register_buffer(...)", forbidden=True)
    return tuple(steps)


def _read_forward(fn: ast.FunctionDef, params: tuple[Parameter, ...], reader: Any
                  ) -> tuple[tuple[Step, ...], Expr, str]:
    steps: list[Step] = []
    with reader.method_scope(("self", *(n for n, _ in params))):
        for i, stmt in enumerate(fn.body):
            comment = reader.comment_above(stmt)
            if isinstance(stmt, ast.Return):
                if i != len(fn.body) - 1:
                    raise reader.refuse(stmt, "return is the last statement of forward")
                if stmt.value is None:
                    raise reader.refuse(stmt, "forward returns a value: return <expression>")
                return tuple(steps), reader.expr(stmt.value, 0), comment
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 \
                    and isinstance(stmt.targets[0], ast.Name):
                name = stmt.targets[0].id
                if name == "self" or name in RESERVED_NAMES or name.startswith("__"):
                    raise reader.refuse(stmt.targets[0], f"'{name}' cannot be assigned in a "
                                                         "recipe")
                expr = reader.expr(stmt.value, 0)
                reader.bind(name, stmt.value)
                steps.append(Step(name, expr, comment, "", stmt.lineno))
            elif isinstance(stmt, ast.Assign):
                raise reader.refuse(stmt, "forward assigns plain names only (h = ...); it "
                                          "does not change the module")
            elif _is_docstring(stmt):
                raise reader.refuse(stmt, "a docstring goes on the class, not on its methods")
            elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
                steps.append(Step(None, reader.expr(stmt.value, 0), comment, "", stmt.lineno))
            else:
                raise reader.refuse(stmt, "forward is a straight sequence of name = ... "
                                          "ending in return", forbidden=True)
    raise reader.refuse(fn.body[-1] if fn.body else fn,
                        "forward ends with return <expression>")


def _is_docstring(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) \
        and isinstance(stmt.value.value, str)


def _is_self(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id == "self"


def _is_super_init(stmt: ast.stmt) -> bool:
    """``super().__init__()`` exactly: the one dunder a recipe may name."""
    if not isinstance(stmt, ast.Expr) or not isinstance(stmt.value, ast.Call):
        return False
    call = stmt.value
    func = call.func
    return (not call.args and not call.keywords and isinstance(func, ast.Attribute)
            and func.attr == "__init__" and isinstance(func.value, ast.Call)
            and isinstance(func.value.func, ast.Name) and func.value.func.id == "super"
            and not func.value.args and not func.value.keywords)


def _attribute_name(value: object) -> bool:
    return isinstance(value, str) and value.isidentifier() and not value.startswith("_")


def _dotted(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value)
        return f"{inner}.{node.attr}" if inner else ""
    return ""


# -- evaluating ----------------------------------------------------------------------------------
#: ``run(expr, namespace)``: the value of ``expr`` by the evaluator's rules.
Run = Callable[[Expr, dict[str, Any]], Any]


def build_class(name: str, defn: ModuleDef, run: Run) -> type[nn.Module]:
    """A real ``nn.Module`` subclass whose methods walk ``defn``'s trees with ``run``."""

    def __init__(self: nn.Module, *args: Any, **kwargs: Any) -> None:
        values = _bind(f"{name}.__init__", defn.init_params, args, kwargs)
        nn.Module.__init__(self)
        namespace = {"self": self, **values}
        for step in defn.init:
            value = run(step.expr, namespace)
            if step.name is not None:
                if not _attribute_name(step.name) or step.name in SHADOWING:
                    raise AttributeError(f"'self.{step.name}' cannot be assigned in a recipe")
                if isinstance(value, nn.Module) and any(m is self for m in value.modules()):
                    raise RecursionError(f"self.{step.name}: a module cannot contain itself")
                setattr(self, step.name, value)

    def forward(self: nn.Module, *args: Any, **kwargs: Any) -> Any:
        assert defn.returns is not None
        namespace = {"self": self, **_bind(f"{name}.forward", defn.forward_params, args,
                                           kwargs)}
        for step in defn.forward:
            value = run(step.expr, namespace)
            if step.name is not None:
                namespace[step.name] = value
        return run(defn.returns, namespace)

    body: dict[str, Any] = {"__init__": __init__, "__doc__": defn.docstring or None,
                            "__module__": "__main__", "__qualname__": name, RECIPE_DEF: defn}
    if defn.returns is not None:
        body["forward"] = forward
    return type(name, (nn.Module,), body)


def is_recipe_class(value: Any) -> bool:
    """Whether ``value`` is a class ``build_class`` made."""
    return isinstance(value, type) and issubclass(value, nn.Module) \
        and isinstance(value.__dict__.get(RECIPE_DEF), ModuleDef)


def _bind(where: str, params: tuple[Parameter, ...], args: tuple, kwargs: dict
          ) -> dict[str, Any]:
    """Arguments to parameter names, refused in Python's own words."""
    if len(args) > len(params):
        given, most = len(args) + 1, len(params) + 1  # self counts, as Python counts it
        least = 1 + sum(d is None for _, d in params)
        takes = f"from {least} to {most}" if least < most else str(most)
        s = "" if takes == "1" else "s"
        raise TypeError(f"{where}() takes {takes} positional argument{s} but {given} were "
                        "given")
    values = {n: v for (n, _), v in zip(params, args, strict=False)}
    names = [n for n, _ in params]
    for key, value in kwargs.items():
        if key not in names:
            raise TypeError(f"{where}() got an unexpected keyword argument '{key}'")
        if key in values:
            raise TypeError(f"{where}() got multiple values for argument '{key}'")
        values[key] = value
    missing = [n for n, d in params if n not in values and d is None]
    if missing:
        quoted = [f"'{n}'" for n in missing]
        listed = quoted[0] if len(quoted) == 1 else \
            ", ".join(quoted[:-1]) + f"{',' if len(quoted) > 2 else ''} and {quoted[-1]}"
        s = "" if len(missing) == 1 else "s"
        raise TypeError(f"{where}() missing {len(missing)} required positional argument{s}: "
                        f"{listed}")
    for n, d in params:
        if n not in values and d is not None:
            values[n] = d.value
    return values


def module_attribute(module: nn.Module, name: str) -> Any:
    """``module.name`` for a parameter, buffer, submodule or plain setting, nothing else.

    Looked up in the module's own tables, never with ``getattr``, so no method, property
    or class attribute can be reached.
    """
    if name.startswith("_"):
        raise AttributeError(f"attribute '{name}': private and dunder attributes are not "
                             "allowed")
    state = vars(module)
    for table in ("_parameters", "_buffers", "_modules"):
        if name in state.get(table, {}):
            return state[table][name]
    if name in state and isinstance(state[name], MODULE_VALUE_TYPES):
        return state[name]
    raise AttributeError(f"'{type(module).__name__}' object has no attribute '{name}'")


#: Containers a recipe may index: ``seq[0]``, ``layers[-1]``, ``heads["a"]``, ``sd["w"]``.
INDEXABLE = (nn.Sequential, nn.ModuleList, nn.ModuleDict, dict)


def module_item(value: Any, index: Any) -> Any:
    """``value[index]`` for a module container or a state_dict."""
    if isinstance(value, (nn.ModuleDict, dict)):
        if not isinstance(index, str):
            raise TypeError(f"a {type(value).__name__} is indexed by name, such as "
                            f"[\"weight\"], not by {type(index).__name__}")
    elif not isinstance(index, (int, slice)) or isinstance(index, bool):
        raise TypeError(f"a {type(value).__name__} is indexed by position, not by "
                        f"{type(index).__name__}")
    return value[index]


def call_method(op: str, args: list[Any], kwargs: dict[str, Any]) -> Any:
    """Call the module method ``op`` (``"Module.parameters"``) on ``args[0]``."""
    spec = MODULE_METHODS.get(op)
    if spec is None:
        raise NameError(f"'.{op.rsplit('.', 1)[-1]}()' is not a module method a recipe "
                        "may call")
    receiver, rest = args[0], args[1:]
    if not isinstance(receiver, spec.extra["receivers"]):
        raise TypeError(f"'.{spec.name}()' is a module method, but this is a "
                        f"{type(receiver).__name__}")
    if spec.name == "register_buffer":
        name = rest[0] if rest else kwargs.get("name")
        if not _attribute_name(name) or name in SHADOWING:
            raise KeyError(f"buffer name {name!r}: use a name such as \"mask\", not starting "
                           "with _ and not one of nn.Module's own")
    return getattr(receiver, spec.name)(*rest, **kwargs)


@contextlib.contextmanager
def size_guard(module: nn.Module, check: Callable[[str, int, torch.dtype], None]
               ) -> Iterator[None]:
    """Check each Linear and Embedding inside ``module`` before it makes its output.

    ``check(what, numel, dtype)`` raises when the output would be over budget; torch runs
    the layers of a Sequential itself, so the check rides on forward pre-hooks, removed
    afterwards.
    """
    handles = []

    def hook(layer: nn.Module, inputs: tuple) -> None:
        divide, multiply = OUTPUT_SIZE[type(layer)]
        x = inputs[0] if inputs else None
        if isinstance(x, torch.Tensor):
            numel = x.numel() // max(getattr(layer, divide), 1) if divide else x.numel()
            weight = getattr(layer, "weight", None)
            dtype = weight.dtype if isinstance(weight, torch.Tensor) else x.dtype
            check(type(layer).__name__, numel * getattr(layer, multiply), dtype)

    try:
        for layer in module.modules():
            if type(layer) in OUTPUT_SIZE:
                handles.append(layer.register_forward_pre_hook(hook))
        yield
    finally:
        for handle in handles:
            handle.remove()
