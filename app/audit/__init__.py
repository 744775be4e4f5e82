"""The pure audit core: no web, queue, GitHub or model-client imports (tests/test_architecture.py)."""
