"""Stored audit reports: redacted exports under unguessable ids with retention, signed links, rate limits."""
