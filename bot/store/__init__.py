"""The SQLite store: the only place that speaks SQL (see DESIGN.md, "State").

Usage: ``store = await Store.open(config.database_path)`` at start-up (it creates the
file and applies migrations), then short typed async calls from the table service.
"""

from bot.store.db import connect
from bot.store.errors import (
    AlreadySeated,
    Conflict,
    ConstraintError,
    HandEnded,
    MigrationError,
    NotFound,
    SchemaTooNew,
    SeatTaken,
    StaleAction,
    StaleStatus,
    StoreError,
)
from bot.store.migrate import Migration, apply_migrations, load_migrations, schema_version
from bot.store.rows import (
    ActionRow,
    ActionSource,
    DeadlineKind,
    DeadlineRow,
    HandRow,
    HandStatus,
    LeaderboardDelta,
    LeaderboardRow,
    MatchRow,
    MatchStatus,
    NewAction,
    NewDeadline,
    Rules,
    SeatRow,
    Settlement,
    SettlementRow,
    StandingChoices,
    TableRow,
    TableStatus,
    player_key,
)
from bot.store.store import Store

__all__ = [
    "ActionRow",
    "ActionSource",
    "AlreadySeated",
    "Conflict",
    "ConstraintError",
    "DeadlineKind",
    "DeadlineRow",
    "HandEnded",
    "HandRow",
    "HandStatus",
    "LeaderboardDelta",
    "LeaderboardRow",
    "MatchRow",
    "MatchStatus",
    "Migration",
    "MigrationError",
    "NewAction",
    "NewDeadline",
    "NotFound",
    "Rules",
    "SchemaTooNew",
    "SeatRow",
    "SeatTaken",
    "Settlement",
    "SettlementRow",
    "StaleAction",
    "StaleStatus",
    "StandingChoices",
    "Store",
    "StoreError",
    "TableRow",
    "TableStatus",
    "apply_migrations",
    "connect",
    "load_migrations",
    "player_key",
    "schema_version",
]
