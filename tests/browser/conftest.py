"""The browser tests reuse the report fixtures (the demo comparison)."""

from reports.conftest import demo_comparison  # noqa: F401
