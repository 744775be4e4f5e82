"""Rendering audits and comparisons: Markdown (PR comment), check-run output, JSON, SARIF, text, HTML."""
