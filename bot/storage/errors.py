"""What storage refuses, in its own words: callers never see the database driver's exceptions."""


class StorageConflict(Exception):
    """A write that a uniqueness rule refuses (a player already in an open match of the game)."""
