"""zod's tables: its string formats, primitive types, the modifiers that leave the listed schema alone, and
the `pattern` zod 4 writes into JSON Schema for its string formats (zod 4.6.7, default options).

Taken from zod's own `z.toJSONSchema` output; earlier 4.x releases wrote a different email pattern.
"""

from __future__ import annotations

# zod method -> (JSON Schema "format", or None when zod writes none; "pattern")
ZOD4_STRING_FORMATS: dict[str, tuple[str | None, str]] = {
    "uuid": ("uuid", "^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$"),  # noqa: E501
    "datetime": ("date-time", "^(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))T(?:(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?(?:Z))$"),  # noqa: E501
    "date": ("date", "^(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))$"),  # noqa: E501
    "time": (None, "^(?:[01]\\d|2[0-3]):[0-5]\\d(?::[0-5]\\d(?:\\.\\d+)?)?$"),
    "ipv4": ("ipv4", "^(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])\\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])$"),  # noqa: E501
    "ipv6": ("ipv6", "^(([0-9a-fA-F]{1,4}:){7}[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,7}:|([0-9a-fA-F]{1,4}:){1,6}:[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,5}(:[0-9a-fA-F]{1,4}){1,2}|([0-9a-fA-F]{1,4}:){1,4}(:[0-9a-fA-F]{1,4}){1,3}|([0-9a-fA-F]{1,4}:){1,3}(:[0-9a-fA-F]{1,4}){1,4}|([0-9a-fA-F]{1,4}:){1,2}(:[0-9a-fA-F]{1,4}){1,5}|[0-9a-fA-F]{1,4}:((:[0-9a-fA-F]{1,4}){1,6})|:((:[0-9a-fA-F]{1,4}){1,7}|:))$"),  # noqa: E501
    "cuid": ("cuid", "^[cC][0-9a-z]{6,}$"),
    "base64": ("base64", "^$|^(?:[0-9a-zA-Z+/]{4})*(?:(?:[0-9a-zA-Z+/]{2}==)|(?:[0-9a-zA-Z+/]{3}=))?$"),
    "duration": ("duration", "^P(?:(\\d+W)|(?!.*W)(?=\\d|T\\d)(\\d+Y)?(\\d+M)?(\\d+D)?(T(?=\\d)(\\d+H)?(\\d+M)?(\\d+([.,]\\d+)?S)?)?)$"),  # noqa: E501
    "email": ("email", "^(?:[A-Za-z0-9_'+\\-]+\\.)*[A-Za-z0-9_'+\\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\\-]*\\.)+[A-Za-z]{2,}$"),  # noqa: E501
}

# zod string method -> JSON Schema "format".
STRING_FORMATS = {
    "url": "uri",
    "email": "email",
    "uuid": "uuid",
    "datetime": "date-time",
    "date": "date",
    "time": "time",
    "ipv4": "ipv4",
    "ipv6": "ipv6",
    "cuid": "cuid",
    "base64": "base64",
    "duration": "duration",
}
# zod primitive -> JSON Schema "type".
PRIMITIVE_TYPES = {
    "string": "string",
    "number": "number",
    "boolean": "boolean",
    "bigint": "integer",
    "int": "integer",
    "date": "string",
    "null": "null",
}
# Modifiers that change validation or output but not the listed input schema.
IGNORED_MODIFIERS = {
    "refine",
    "superRefine",
    "transform",
    "pipe",
    "brand",
    "catch",
    "trim",
    "toLowerCase",
    "toUpperCase",
    "finite",
    "safe",
    "check",
    "overwrite",
    "strip",
    "nonempty_",
}
