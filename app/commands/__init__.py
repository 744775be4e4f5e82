"""Command modules of the `toolchoice` CLI; each exposes `register(app)`."""
