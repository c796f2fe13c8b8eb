"""`Languages`: the language each person last used, as far as this process knows.

Every command remembers its cause's language (`seen`; written to the store only when
it changed, a store failure only logged); a rebuilt table brings its people's
languages from the store (`learn`: what this process heard since wins); the private
notices speak it (`of`).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping

from bot.service.cause import Cause
from bot.service.clock import Clock
from bot.store import Store, StoreError

log = logging.getLogger(__name__)


class Languages:
    """Person → the language they last used (their DMs speak it)."""

    def __init__(self, store: Store, clock: Clock) -> None:
        self._store = store
        self._clock = clock
        self._known: dict[int, str] = {}

    def of(self, user_id: int | None) -> str | None:
        """The person's language (None: never said, or no person)."""
        return None if user_id is None else self._known.get(user_id)

    def learn(self, stored: Mapping[int, str]) -> None:
        """Languages read from the store with a table: what this process heard since wins."""
        for user, locale in stored.items():
            self._known.setdefault(user, locale)

    def forget(self, user_ids: Iterable[int]) -> None:
        """No table in memory seats these people any more: their languages leave memory
        (stored when they changed; read again with their next table)."""
        for user in user_ids:
            self._known.pop(user, None)

    def changed(self, cause: Cause) -> bool:
        """Whether `seen` has anything to remember: a language this process does not
        know the person to speak. Asked first, an interaction that changes nothing (most
        of them) costs no task of its own."""
        return bool(cause.locale) and self._known.get(cause.user_id) != cause.locale

    async def seen(self, cause: Cause) -> None:
        """Any interaction, even one that changes nothing: remember the person's
        language (their private notices speak it), written only when it changed."""
        locale = cause.locale
        if not locale or not self.changed(cause):
            return
        self._known[cause.user_id] = locale
        try:
            await self._store.lobby.set_user_locale(cause.user_id, locale, self._clock.now())
        except StoreError as exc:  # only a language preference: never worth a failure
            log.info("locale of user %s not saved: %s", cause.user_id, exc)
