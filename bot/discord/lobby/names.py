"""How computer players are named: in the server's language, when they sit down.

The service stores a seat's name when it is taken (`TableService` asks this namer for
computer seats), so the lobby, the table picture and its caption, the settlement, the
history and the leaderboard all show the same words without each knowing which seats
are computers. The server's language is its preferred locale at that moment.
"""

from __future__ import annotations

from bot.discord.core.i18n import LocaleLike, t


def computer_name(locale: LocaleLike, seat: int, replaces: str | None = None) -> str:
    """"Computer 3", or "Computer 3 (for Ann)" when it took over Ann's seat mid-match."""
    if replaces is None:
        return t("name.computer", locale, n=seat + 1)
    return t("name.computer_for", locale, n=seat + 1, name=replaces)
