"""The notifier: how the service's output leaves it. The Discord adapter implements
this Protocol (DMs, channel messages, pictures); tests use `RecordingNotifier`.

Every method is called after the change it reports was committed, in order per table,
and an exception raised by a notifier is logged by the service, never undoing a move.

Announcements (a hand's commitment, settlement, reveal, standings, the match's end and
the closed lobby) carry a `Receipt`: they were recorded in the store with the change,
and stay due until the notifier calls ``receipt.delivered()``; a restart hands every
undelivered one over again (``receipt.unsure`` when an attempt may have got through).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.service.notices import (
    AwayNotice,
    HandStartNotice,
    LeaderboardNotice,
    LobbyNotice,
    MatchEndNotice,
    MoveNotice,
    PrivateNotice,
    RevealNotice,
    SettlementNotice,
    TableNotice,
)


class Notifier(Protocol):
    async def lobby(self, notice: LobbyNotice) -> None:
        """Public: the lobby message (seats, status) changed."""

    async def hand_started(self, notice: HandStartNotice) -> None:
        """Public: a hand begins, with the wall's commitment."""

    async def table(self, notice: TableNotice) -> None:
        """Public: the table picture changed (coalesce freely)."""

    async def private_hand(self, notice: PrivateNotice) -> None:
        """Private to ``notice.user_id``: their hand or their decision changed."""

    async def your_move(self, notice: MoveNotice) -> None:
        """Private ping to ``notice.user_id``: a decision awaits them."""

    async def reminder(self, notice: MoveNotice) -> None:
        """Private, once per decision, when half of its time has passed."""

    async def away(self, notice: AwayNotice) -> None:
        """Public: a seat is away (the computer plays it) or back."""

    async def settlement(self, notice: SettlementNotice) -> None:
        """Public: the hand's result."""

    async def reveal(self, notice: RevealNotice) -> None:
        """Public: the finished hand's wall and salt, to check the commitment."""

    async def leaderboard(self, notice: LeaderboardNotice) -> None:
        """Public: the channel's standings after a hand."""

    async def match_ended(self, notice: MatchEndNotice) -> None:
        """Public: the match is over (or was cancelled)."""


class NullNotifier:
    """Tells nobody anything (benchmarks)."""

    async def lobby(self, notice: LobbyNotice) -> None: ...
    async def hand_started(self, notice: HandStartNotice) -> None: ...
    async def table(self, notice: TableNotice) -> None: ...
    async def private_hand(self, notice: PrivateNotice) -> None: ...
    async def your_move(self, notice: MoveNotice) -> None: ...
    async def reminder(self, notice: MoveNotice) -> None: ...
    async def away(self, notice: AwayNotice) -> None: ...
    async def settlement(self, notice: SettlementNotice) -> None: ...
    async def reveal(self, notice: RevealNotice) -> None: ...
    async def leaderboard(self, notice: LeaderboardNotice) -> None: ...
    async def match_ended(self, notice: MatchEndNotice) -> None: ...


@dataclass
class RecordingNotifier:
    """Keeps every notice in order, as (method name, notice), for tests to read; an
    announcement counts as delivered once recorded."""

    sent: list[tuple[str, Any]] = field(default_factory=list)

    def of(self, kind: str) -> list[Any]:
        return [n for k, n in self.sent if k == kind]

    def kinds(self) -> list[str]:
        return [k for k, _ in self.sent]

    def clear(self) -> None:
        self.sent.clear()

    async def lobby(self, notice: LobbyNotice) -> None:
        self.sent.append(("lobby", notice))
        if notice.receipt is not None:
            await notice.receipt.delivered()

    async def hand_started(self, notice: HandStartNotice) -> None:
        self.sent.append(("hand_started", notice))
        if notice.receipt is not None:
            await notice.receipt.delivered()

    async def table(self, notice: TableNotice) -> None:
        self.sent.append(("table", notice))

    async def private_hand(self, notice: PrivateNotice) -> None:
        self.sent.append(("private_hand", notice))

    async def your_move(self, notice: MoveNotice) -> None:
        self.sent.append(("your_move", notice))

    async def reminder(self, notice: MoveNotice) -> None:
        self.sent.append(("reminder", notice))

    async def away(self, notice: AwayNotice) -> None:
        self.sent.append(("away", notice))

    async def settlement(self, notice: SettlementNotice) -> None:
        self.sent.append(("settlement", notice))
        if notice.receipt is not None:
            await notice.receipt.delivered()

    async def reveal(self, notice: RevealNotice) -> None:
        self.sent.append(("reveal", notice))
        if notice.receipt is not None:
            await notice.receipt.delivered()

    async def leaderboard(self, notice: LeaderboardNotice) -> None:
        self.sent.append(("leaderboard", notice))
        if notice.receipt is not None:
            await notice.receipt.delivered()

    async def match_ended(self, notice: MatchEndNotice) -> None:
        self.sent.append(("match_ended", notice))
        if notice.receipt is not None:
            await notice.receipt.delivered()
