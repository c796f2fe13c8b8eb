"""The table service: commands in, notices out, every move committed first.

    service = TableService(store, notifier, clock=SystemClock())
    await service.recover()                  # after start-up: serving again at once
    asyncio.create_task(service.run())       # the timers (each table loaded when used)
    ann = Cause(user_id, "Ann", locale="en-US")   # who asks: every command takes one
    info = await service.create_table(ann, guild_id=…, channel_id=…, rules="shanghai")
    await service.act(ann, info.ref.table_id, action, public_step=step)
"""

from bot.service.cause import Cause, Place
from bot.service.clock import Clock, FakeClock, SystemClock
from bot.service.errors import Refused
from bot.service.fairness import commitment, parse_wall, wall_text
from bot.service.live import step_of
from bot.service.notices import (
    AwayNotice,
    ClaimAnswer,
    DigestNotice,
    HandStartNotice,
    LeaderboardNotice,
    LeaveNotice,
    LobbyNotice,
    MatchEndNotice,
    MoveNotice,
    NextDiscard,
    Notice,
    PrivateNotice,
    RecapNotice,
    Receipt,
    RevealNotice,
    SeatInfo,
    SettlementNotice,
    TableInfo,
    TableNotice,
    TableRef,
    WaitingMove,
    WarningNotice,
)
from bot.service.notifier import Notifier, NullNotifier, RecordingNotifier
from bot.service.results import Standings
from bot.service.scheduler import Scheduler, Wake
from bot.service.service import (
    ActResult,
    HandHistory,
    HandInfo,
    RecoveryReport,
    Seated,
    TablePicture,
    TableService,
)
from bot.store import (
    BestHand,
    LeaderboardRow,
    Moved,
    Rating,
    RatingChange,
    Rebuilt,
    StandingChoices,
)

__all__ = [
    "ActResult",
    "AwayNotice",
    "BestHand",
    "Cause",
    "ClaimAnswer",
    "Clock",
    "DigestNotice",
    "FakeClock",
    "HandHistory",
    "HandInfo",
    "HandStartNotice",
    "LeaderboardNotice",
    "LeaderboardRow",
    "LeaveNotice",
    "LobbyNotice",
    "MatchEndNotice",
    "MoveNotice",
    "Moved",
    "NextDiscard",
    "Notice",
    "Notifier",
    "NullNotifier",
    "Place",
    "PrivateNotice",
    "Rating",
    "RatingChange",
    "Rebuilt",
    "RecapNotice",
    "Receipt",
    "RecordingNotifier",
    "RecoveryReport",
    "Refused",
    "RevealNotice",
    "Scheduler",
    "SeatInfo",
    "Seated",
    "SettlementNotice",
    "StandingChoices",
    "Standings",
    "SystemClock",
    "TableInfo",
    "TableNotice",
    "TablePicture",
    "TableRef",
    "TableService",
    "WaitingMove",
    "Wake",
    "WarningNotice",
    "commitment",
    "parse_wall",
    "step_of",
    "wall_text",
]
