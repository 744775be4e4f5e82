"""The synthetic selector: a deterministic heuristic simulator of tool selection (no model)."""
