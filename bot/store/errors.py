"""The store's exceptions: one base class so the service can catch "the store said no"."""

from __future__ import annotations


class StoreError(Exception):
    """Anything the store refuses; the write that raised it changed nothing."""


class NotFound(StoreError):
    """The table, seat, match or hand named does not exist."""


class Conflict(StoreError):
    """The write lost a race or no longer fits the stored state."""


class StaleAction(Conflict):
    """An action was written for a seq that is no longer the next one (a racing click)."""

    def __init__(self, hand_id: int, expected_seq: int, next_seq: int) -> None:
        super().__init__(
            f"hand {hand_id}: action {expected_seq} is stale, the next action is {next_seq}")
        self.hand_id = hand_id
        self.expected_seq = expected_seq
        self.next_seq = next_seq


class HandEnded(Conflict):
    """An action or ending was written for a hand that has already ended."""


class StaleStatus(Conflict):
    """A status change expected a status the row no longer has (e.g. two Start clicks)."""


class StaleTable(Conflict):
    """A write expected the table at a change counter it has moved on from (another
    process wrote it since: shared mode)."""


class SeatTaken(Conflict):
    """Someone already sits in that seat."""


class AlreadySeated(Conflict):
    """That person already sits at this table."""


class ConstraintError(StoreError):
    """A value broke a schema constraint (bad status, malformed wall, ...)."""


class DatabaseUnusable(StoreError):
    """The database file cannot be used at all (locked, damaged, read-only, no folder):
    the message names the path and what to do, in one line for the person starting
    the bot."""

    def __init__(self, path: object, problem: str) -> None:
        super().__init__(problem)
        self.path = path


class DatabaseInUse(DatabaseUnusable):
    """Another bot process already holds this database (its lock file is taken)."""


class MigrationError(StoreError):
    """The migration files are malformed or one of them failed to apply."""


class SchemaTooNew(MigrationError):
    """The database was written by a newer bot; running an older one could corrupt it."""

    def __init__(self, database_version: int, bot_version: int) -> None:
        super().__init__(f"database schema version {database_version} is newer than "
                         f"this bot ({bot_version}); upgrade the bot")
        self.database_version = database_version
        self.bot_version = bot_version
