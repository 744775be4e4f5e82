"""The test suite: user cases, generated intents and negatives, their validation, the frozen suite."""
