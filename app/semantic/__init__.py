"""Sentence embeddings for the synthetic selector, outside the pure core (numpy lives here, not in app/audit)."""
