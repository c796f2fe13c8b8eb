"""The table service: commands in, notices out, every move committed first.

    service = TableService(store, notifier, clock=SystemClock())
    await service.recover()                  # after start-up: serving again at once
    asyncio.create_task(service.warm())      # replay the other live tables meanwhile
    asyncio.create_task(service.run())       # the timers
    info = await service.create_table(guild_id=…, channel_id=…, creator_id=…,
                                      creator_name="Ann", rules="shanghai")
    await service.act(info.ref.table_id, user_id, action, step=step)
"""

from bot.service.cause import Cause
from bot.service.clock import Clock, FakeClock, SystemClock
from bot.service.errors import Refused
from bot.service.fairness import commitment, parse_wall, wall_text
from bot.service.live import step_of
from bot.service.notices import (
    AwayNotice,
    HandStartNotice,
    LeaderboardNotice,
    LobbyNotice,
    MatchEndNotice,
    MoveNotice,
    Notice,
    PrivateNotice,
    Receipt,
    RevealNotice,
    SeatInfo,
    SettlementNotice,
    TableInfo,
    TableNotice,
    TableRef,
)
from bot.service.notifier import Notifier, NullNotifier, RecordingNotifier
from bot.service.scheduler import Scheduler, Wake
from bot.service.service import ActResult, HandInfo, RecoveryReport, TableService

__all__ = [
    "ActResult", "AwayNotice", "Cause", "Clock", "FakeClock", "HandInfo", "HandStartNotice",
    "LeaderboardNotice", "LobbyNotice", "MatchEndNotice", "MoveNotice", "Notice", "Notifier",
    "NullNotifier", "PrivateNotice", "Receipt", "RecordingNotifier", "RecoveryReport", "Refused",
    "RevealNotice", "Scheduler", "SeatInfo", "SettlementNotice", "SystemClock",
    "TableInfo", "TableNotice", "TableRef", "TableService", "Wake", "commitment",
    "parse_wall", "step_of", "wall_text",
]
