"""The notifier: the one way the service's output leaves it.

The service calls ``await notifier.publish(notice)`` with one `Notice` (a frozen value
holding everything needed to show it: seats, choices, language, the cause), after the
change it reports was committed, in order per table. A notifier never calls back into
the service; an exception it raises is logged by the service, never undoing a move.

Announcements (a hand's commitment, settlement, reveal, standings, the match's end and
the closed lobby) carry a `Receipt`: they were recorded in the store with the change,
and stay due until the notifier calls ``receipt.delivered()``; a restart hands every
undelivered one over again (``receipt.unsure`` when an attempt may have got through).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.service.notices import Notice


class Notifier(Protocol):
    async def publish(self, notice: Notice) -> None:
        """Show ``notice`` to whom it concerns (public notices to the table's channel,
        private ones to ``notice.user_id``)."""


class NullNotifier:
    """Tells nobody anything (benchmarks); announcements stay undelivered."""

    async def publish(self, notice: Notice) -> None:
        return None


@dataclass
class RecordingNotifier:
    """Keeps every notice in order, as (kind, notice), for tests to read; an
    announcement counts as delivered once recorded."""

    sent: list[tuple[str, Any]] = field(default_factory=list)

    def of(self, kind: str) -> list[Any]:
        return [n for k, n in self.sent if k == kind]

    def kinds(self) -> list[str]:
        return [k for k, _ in self.sent]

    def clear(self) -> None:
        self.sent.clear()

    async def publish(self, notice: Notice) -> None:
        self.sent.append((notice.kind, notice))
        receipt = getattr(notice, "receipt", None)
        if receipt is not None:
            await receipt.delivered()
