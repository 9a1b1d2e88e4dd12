"""What storage refuses, in its own words: callers never see the database driver's exceptions."""


class StorageConflict(Exception):
    """A write that a uniqueness rule refuses (a player already in an open match of the game), or one made on a
    version of a row that is no longer the stored one (:class:`VersionConflict`)."""


class VersionConflict(StorageConflict):
    """A write conditional on a match's version found the match moved on (another writer got there first):
    nothing was written. The caller's record of the match is stale; it reads the match again."""

    def __init__(self, match_id: int, expected_version: int) -> None:
        super().__init__(f"match {match_id} is no longer at version {expected_version}")
        self.match_id = match_id
        self.expected_version = expected_version


class ConstraintViolation(Exception):
    """A statement broke a rule of the schema -- a unique key, a foreign key, a check, or a trigger's rule (results
    only for finished matches, a final status never changes) -- and wrote nothing. Both databases raise it; the
    message is the database's own."""
