"""Suggested description edits: rewrite, check against the rules, verify by a rerun, edit the source."""
