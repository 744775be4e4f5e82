"""Go: the values of standard-library and conventional calls that need nothing run: pointer helpers
(`jsonschema.Ptr(x)`, `ptr.To(x)`), conversions, `json.RawMessage`, `fmt.Sprintf` over constants,
`strings.ToUpper`, `strconv.Itoa`, `append`, `make(map...)`, and translation helpers `t("KEY", "default")`
(the default is what is listed)."""

from __future__ import annotations

import json
import re
from typing import Any

from tree_sitter import Node

from app.extract.common import Unresolved
from app.extract.go import methods as go_methods
from app.extract.go.scope_reads import ScopeReads
from app.extract.treesitter import fail, text

_KEY = re.compile(r"^[A-Z][A-Z0-9_]*$")


class KnownCalls(ScopeReads):
    """Mixed into GoScope: `_call` gives the value of a call it knows, else follows a helper of the module."""

    def follow_call(self, node: Node) -> Any:  # provided by HelperCalls
        raise NotImplementedError

    def _call(self, node: Node) -> Any:
        func = node.child_by_field_name("function")
        args = [a for a in (node.child_by_field_name("arguments") or node).named_children if a.type != "comment"]
        name = text(func) if func is not None else ""
        if func is not None and func.type == "identifier" and len(args) == 2 and _is_key(self, args[0]):
            return self.value(args[1])  # translation helper: the listed text is the default
        if name in {"strings.ToUpper", "strings.ToLower", "strings.TrimSpace"} and len(args) == 1:
            value = self.string(args[0])
            if name.endswith("Upper"):
                return value.upper()
            return value.lower() if name.endswith("Lower") else value.strip()
        if name == "strconv.Itoa" and len(args) == 1 and isinstance(number := self.value(args[0]), int):
            return str(number)
        if name == "append" and args:
            items = list(self.value(args[0]) or [])
            for arg in args[1:]:
                spread = arg.type == "variadic_argument"
                value = self.value(arg.named_children[0] if spread else arg)
                items.extend(value or []) if spread else items.append(value)
            return items
        if name.endswith(("Ptr", "ToBoolPtr", "BoolPtr", "IntPtr", "Float64Ptr", "ptr.To")) and len(args) == 1:
            return self.value(args[0])
        if name in {"json.RawMessage", "[]byte"} and len(args) == 1:
            raw = self.value(args[0])
            if not isinstance(raw, (str, bytes)):
                return raw  # the bytes of json.Marshal(value): the value itself
            try:
                return json.loads(raw)
            except (TypeError, ValueError):
                raise fail(node, "a json.RawMessage that is not JSON") from None
        if name == "len" and len(args) == 1:
            return go_methods.length(self, node, args[0])
        if name == "make" and args and text(args[0]).startswith("map["):
            return {}
        if name in {"float64", "int", "int64", "string", "bool"} and len(args) == 1:
            return self.value(args[0])
        if name == "fmt.Sprintf" and args:
            return sprintf(self.string(args[0]), [self.value(a) for a in args[1:]], node)
        return self.follow_call(node)


def _is_key(scope: Any, node: Node) -> bool:
    """True when `node` is a constant UPPER_CASE text, the key of a translation helper `t("KEY", "default")`."""
    target = scope.resolve(node)
    if target.type not in {"interpreted_string_literal", "binary_expression"}:
        return False
    try:
        return _KEY.match(scope.string(target)) is not None
    except Unresolved:
        return False


def sprintf(fmt: str, values: list[Any], node: Node) -> str:
    """fmt.Sprintf with %s, %d, %v and %% over constant arguments; other verbs are not guessed."""
    out: list[str] = []
    rest = iter(values)
    parts = re.split(r"(%[%sdvq])", fmt)
    for part in parts:
        if part == "%%":
            out.append("%")
        elif part in {"%s", "%d", "%v", "%q"}:
            value = next(rest, None)
            if value is None or isinstance(value, (dict, list)) or (part == "%d" and not isinstance(value, int)):
                raise fail(node, "a fmt.Sprintf whose arguments do not fit its verbs")
            text_value = ("true" if value else "false") if isinstance(value, bool) else str(value)
            out.append(json.dumps(text_value) if part == "%q" else text_value)
        elif "%" in part:
            raise fail(node, f"a fmt.Sprintf verb in {part!r}")
        else:
            out.append(part)
    if next(rest, None) is not None:
        raise fail(node, "a fmt.Sprintf with extra arguments")
    return "".join(out)
