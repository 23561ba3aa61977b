"""Stub: replaced by the supervised pool."""

class ThinkerPool:
    pass
