"""``/mahjong history``: the last finished hand told with the channel's own "what
happened" lines (`table.words.describe_events`, as the public sees them), then its revealed
wall. A hand rarely fits one message: the message then keeps the title, the end of the
hand and the wall, and the whole hand goes with it as a text file."""

from __future__ import annotations

from dataclasses import dataclass

from bot.discord.core.i18n import LocaleLike, t
from bot.discord.core.words import MAX_CONTENT
from bot.discord.table.words import describe_events, reveal_text
from bot.service.service import HandHistory
from engine.game.events import ClaimWindowOpened


@dataclass(frozen=True)
class HistoryText:
    content: str
    """The message (≤ 2000 characters)."""
    whole: str | None
    """The whole hand, for a text file, when the message could not hold it."""
    filename: str


def history_text(history: HandHistory, locale: LocaleLike) -> HistoryText:
    # A claim window's "may be claimed" is about a decision in progress: after the
    # hand it only adds noise, so the story keeps what was done.
    # Each run of events is told with the names of its time: a person who left the
    # hand made the seat's moves before, the computer after.
    lines = [line for part in history.parts for line in describe_events(
        [e for e in part.events if not isinstance(e, ClaimWindowOpened)], part.names,
        None, locale, hand=history.number)]
    title = t("reply.history.title", locale, table=history.table_id, hand=history.number)
    reveal = reveal_text(history.number, history.wall, history.salt, locale)
    filename = f"history-{history.table_id}-{history.number}.txt"
    full = "\n".join([f"**{title}**", *lines, reveal])
    if len(full) <= MAX_CONTENT:
        return HistoryText(full, None, filename)
    head = [f"**{title}**", t("reply.history.attached", locale)]
    shown: list[str] = []
    for line in reversed(lines):  # the end of the hand, as much as fits
        if len("\n".join([*head, line, *shown, reveal])) > MAX_CONTENT:
            break
        shown.insert(0, line)
    whole = "\n".join([title, *lines, reveal]) + "\n"
    return HistoryText("\n".join([*head, *shown, reveal]), whole, filename)
