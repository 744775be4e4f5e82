"""Go composite literals (`&jsonschema.Schema{...}`, `map[string]any{...}`, `[]string{...}`) read as the JSON
they marshal to, with the JSON keys of jsonschema.Schema's fields."""

from __future__ import annotations

from typing import Any

from tree_sitter import Node

from app.extract.go.scope_reads import ScopeReads
from app.extract.treesitter import fail, text

# jsonschema.Schema (google/jsonschema-go) and mcp-go ToolInputSchema fields -> JSON keys.
SCHEMA_FIELDS = {
    "Type": "type",
    "Types": "type",
    "Description": "description",
    "Title": "title",
    "Properties": "properties",
    "Required": "required",
    "Enum": "enum",
    "Items": "items",
    "Default": "default",
    "Minimum": "minimum",
    "Maximum": "maximum",
    "ExclusiveMinimum": "exclusiveMinimum",
    "ExclusiveMaximum": "exclusiveMaximum",
    "MinLength": "minLength",
    "MaxLength": "maxLength",
    "MinItems": "minItems",
    "MaxItems": "maxItems",
    "Pattern": "pattern",
    "Format": "format",
    "AdditionalProperties": "additionalProperties",
    "AnyOf": "anyOf",
    "OneOf": "oneOf",
    "AllOf": "allOf",
    "Not": "not",
    "Const": "const",
    "Examples": "examples",
    "UniqueItems": "uniqueItems",
    "DependentRequired": "dependentRequired",
    "MinProperties": "minProperties",
    "MaxProperties": "maxProperties",
    "Defs": "$defs",
    "Ref": "$ref",
    "Schema": "$schema",
}


class CompositeLiterals(ScopeReads):
    """Mixed into GoScope: composite literal values, their keyed fields and the JSON keys of schema fields."""

    def json_key(self, field: str) -> str:
        """The JSON key of a jsonschema.Schema field (`Properties` -> "properties"); other names as written."""
        return SCHEMA_FIELDS.get(field, field)

    def composite(self, node: Node) -> Any:
        kind = text(node.child_by_field_name("type") or node)
        body = node.child_by_field_name("body")
        if body is None:
            raise fail(node, "an empty composite literal")
        schema = kind.endswith(("Schema", "ToolInputSchema", "ToolOutputSchema", "ToolArgumentsSchema"))
        if kind.startswith(("[]", "map[")) or kind.endswith("Meta") or schema:
            value = self._literal_value(body, schema=schema, as_list=kind.startswith("[]"))
            if kind.endswith("jsonschema.Schema") and isinstance(value, dict):  # every field is `omitempty`
                value = {k: v for k, v in value.items() if v is not None and not (k == "required" and v == [])}
            return value
        raise fail(node, f"a `{kind}` value")

    def fields(self, body: Node) -> list[tuple[str, Node, Node]]:
        """(key, key node, value node) of a keyed composite literal body."""
        out: list[tuple[str, Node, Node]] = []
        for element in body.named_children:
            if element.type != "keyed_element" or len(element.named_children) < 2:
                continue
            key_node, value_node = element.named_children[0], element.named_children[1]
            inner = key_node.named_children[0] if key_node.type == "literal_element" else key_node
            # A bare identifier key is a struct field name; other keys (map keys) are values.
            key = text(inner) if inner.type in {"identifier", "field_identifier"} else self.string(inner)
            out.append((key, key_node, value_node))
        return out

    def _literal_value(self, body: Node, *, schema: bool, as_list: bool = False) -> Any:
        elements = [e for e in body.named_children if e.type != "comment"]
        if as_list or (elements and all(e.type == "literal_element" for e in elements)):
            return [self._element(e, schema=schema) for e in elements]
        out: dict[str, Any] = {}
        for key, _key_node, value in self.fields(body):
            if schema and key in SCHEMA_FIELDS:
                field = SCHEMA_FIELDS[key]
                nested = field in {
                    "items",
                    "not",
                    "additionalProperties",
                    "properties",
                    "anyOf",
                    "oneOf",
                    "allOf",
                    "$defs",
                }
                val = self._element(value, schema=nested)
                out[field] = _schema_bool(val) if field in {"additionalProperties", "not"} else val
            elif schema and key[:1].isupper():
                raise fail(value, f"the schema field `{key}`")
            else:
                out[key] = self._element(value, schema=schema)
        return out

    def _element(self, node: Node, *, schema: bool) -> Any:
        node = self.resolve(node)
        if node.type == "literal_value":
            return self._literal_value(node, schema=schema)
        return self.value(node)


def _schema_bool(value: Any) -> Any:
    """jsonschema-go marshals an empty schema as `true` and `{Not: {}}` as `false`."""
    if value in ({"not": {}}, {"not": True}):
        return False
    if value == {}:
        return True
    return value
