"""How every interaction is answered: the plumbing the ``/mahjong`` commands
(`bot.discord.commands`) and the buttons (`bot.discord.core.items` and each feature's items) share.

    async with answering(interaction) as answer:
        table_id = await answer.table_id(table)  # judged where it was asked
        seated = await answer.run(answer.service.join(answer.cause, table_id))
        await answer.say(t("reply.joined", answer.locale, ...))

- Discord wants an answer within 3 seconds. The service commits in milliseconds, so the
  answer is normally the reply itself; a call passed to `Answer.run` that is still
  running after `DEFER_AFTER` seconds is deferred and answered by a followup. A reply
  that uploads a picture calls `Answer.defer` first, before anything is read or drawn.
  A move's click that arrives alone, or with a few others (`ANSWERED_TOGETHER`), is
  answered with its move (`Answer.answer_first`: the move is played at once and, when
  it is committed within `MOVE_ANSWER_WAIT`, the clicked message is edited in the
  click's one response); one that arrives while more wait for their first response,
  or whose move takes longer, is acknowledged before the move goes on
  (`Answer.acknowledge_first`: its answer never waits behind moves, its own or those
  of the clicks that arrived with it).
- `Refused` becomes a private sentence in the reader's language (`refusal_text`);
  anything unexpected a private apology (and a log line); a bot not yet ready or
  shutting down, the same apology, and no service call.
- Every interaction tells the service who is here (`service.seen`: their language),
  when it does not know their language yet (`service.new_language`).
- The calls in flight are tracked (`InFlight`): shutdown waits for them. A service call
  is awaited in the interaction's own task, and a slow one acknowledged from a timer.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from types import TracebackType
from typing import TYPE_CHECKING, Any, TypeVar, cast

import discord

from bot import metrics
from bot.discord.core.i18n import LocaleLike, t
from bot.discord.core.refusals import refusal_text
from bot.discord.core.words import MAX_CONTENT, clip
from bot.service import Cause, Place, Refused

if TYPE_CHECKING:
    from bot.discord.client import MahjongBot
    from bot.discord.core.pictures import Pictures
    from bot.discord.table.notifier import DiscordNotifier
    from bot.service import TableService

log = logging.getLogger(__name__)
T = TypeVar("T")
DEFER_AFTER = 2.0
"""Seconds a call may run before the interaction is deferred (Discord allows 3)."""
ACKNOWLEDGE_WAIT = 0.05
"""Seconds a click's move waits at most for the other interactions' first responses
(`Answer.acknowledge_first`): their answers first, but a stream of clicks never
stalls the moves."""


MOVE_ANSWER_WAIT = 0.015
"""Seconds a click that arrived alone waits for its move before it is acknowledged
(`Answer.answer_first`). A move commits in a few ms; answered with it, the click costs
one response (the edited message) instead of two (a deferral, then the edit): a
request less for the bot and for Discord per click."""


ANSWERED_TOGETHER = 4
"""Clicks waiting for their first response (the click itself included) up to which a
click is still answered with its move (`Answer.alone`), each within `MOVE_ANSWER_WAIT`
of its own: one request instead of two (a deferral, then the edit) for each, a third
of a burst's requests. More at once (every table's dealer at the start of a round) are
acknowledged first (`Answer.acknowledge_first`), their moves after."""


class NotServing(Exception):
    """The bot is not ready yet, or shutting down: nothing new is started."""


class InFlight:
    """The service calls interactions are waiting for (one per bot)."""

    def __init__(self) -> None:
        self.tasks: set[asyncio.Task[Any]] = set()
        self.closing = False
        self.answering = 0
        """Interactions between arriving and being answered."""
        self.answered = asyncio.Event()
        """Set while none is (`Outbox.yield_to`: deliveries let the answers go first)."""
        self.answered.set()
        self.unacknowledged = 0
        """Interactions between arriving and their first response (a deferral, say)."""
        self.acknowledged = asyncio.Event()
        """Set while none is: a click's move waits for it (`Answer.acknowledge_first`)."""
        self.acknowledged.set()

    def begin(self) -> None:
        self.answering += 1
        self.answered.clear()
        self.unacknowledged += 1
        self.acknowledged.clear()

    def first_response(self) -> None:
        """One interaction got its first response (or ended without one)."""
        self.unacknowledged -= 1
        if self.unacknowledged <= 0:
            self.unacknowledged = 0
            self.acknowledged.set()

    def end(self) -> None:
        self.answering -= 1
        if self.answering <= 0:
            self.answering = 0
            self.answered.set()

    def track(self, work: Awaitable[T]) -> asyncio.Future[T]:
        """Run ``work`` as a task of its own, waited for at shutdown (what nobody awaits:
        a changed language's write)."""
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    @contextlib.contextmanager
    def holding(self) -> Iterator[None]:
        """The running task (an interaction's own) is waited for at shutdown while inside:
        a service call awaited in it needs no task of its own (one task, a shield and a
        timer less a click)."""
        task = asyncio.current_task()
        if task is None or task in self.tasks:  # held already (a call inside a call)
            yield
            return
        self.tasks.add(task)
        try:
            yield
        finally:
            self.tasks.discard(task)

    async def close(self, timeout: float = 10.0) -> None:
        """Refuse new work; let the calls in flight finish (under their table locks)."""
        self.closing = True
        if self.tasks:
            await asyncio.wait(set(self.tasks), timeout=timeout)


def cause_of(interaction: discord.Interaction) -> Cause:
    """Who asks, as the service knows people."""
    permissions = interaction.permissions
    message = interaction.message
    return Cause(user_id=interaction.user.id, name=interaction.user.display_name,
                 locale=interaction.locale.value,
                 is_manager=bool(permissions is not None and permissions.manage_guild),
                 interaction_id=interaction.id,
                 message_id=message.id if message is not None else None,
                 place=Place(interaction.guild_id, interaction.channel_id or 0))


class Answer:
    """One interaction being answered; made by `answering`."""

    def __init__(self, interaction: discord.Interaction) -> None:
        self.interaction = interaction
        self.cause = cause_of(interaction)
        self._bot = cast("MahjongBot", interaction.client)  # the only client there is
        self._public_deferral = False
        """Deferred publicly and not answered yet (see `say`)."""
        self._counted = False
        """Counted among the unacknowledged interactions (`InFlight.first_response`)."""
        self._started = time.perf_counter()
        self._latency: float | None = None
        """Seconds from arriving to the first response (`bot.metrics`)."""

    @property
    def locale(self) -> discord.Locale:
        """The reader's language: private answers speak it."""
        return self.interaction.locale

    @property
    def public_locale(self) -> LocaleLike:
        """The channel's language, for what everyone there reads (the server's locale,
        the user's when Discord does not say)."""
        return self.interaction.guild_locale or self.interaction.locale

    @property
    def channel_id(self) -> int:
        return self.interaction.channel_id or 0

    @property
    def in_flight(self) -> InFlight:
        return self._bot.in_flight

    @property
    def pictures(self) -> Pictures:
        """Where this bot draws (its picture processes, warm from start-up)."""
        return self._bot.pictures

    @property
    def service(self) -> TableService:
        """The table service; raises `NotServing` before it is built and once the bot
        is shutting down, so no new work starts then."""
        service: TableService | None = getattr(self._bot, "service", None)
        if service is None or self.in_flight.closing:
            raise NotServing
        return service

    @property
    def notifier(self) -> DiscordNotifier:
        return self._bot.notifier

    async def table_id(self, given: int | None, *, decision: bool = False) -> int:
        """The table a command or a button means, judged where it was used (`find_table`:
        ``given`` if it is this channel's, else the channel's; ``decision``: a decision's
        button, also in the private messages of a person seated at ``given``)."""
        return await self.service.find_table(self.cause, given, decision=decision)

    async def run(self, work: Awaitable[T], *, ephemeral: bool = True) -> T:
        """Await a service call (shutdown waits for it), deferring the interaction if it
        takes longer than ``DEFER_AFTER`` (``ephemeral``: whether the answer to come is
        private; a click's deferral is a silent update)."""
        async def defer() -> None:
            if not self.interaction.response.is_done():
                await self.interaction.response.defer(ephemeral=ephemeral)
                self._responded()

        return await self._awaited(work, DEFER_AFTER, defer)

    async def _awaited(self, work: Awaitable[T], after: float,
                       acknowledge: Callable[[], Coroutine[Any, Any, None]]) -> T:
        """Await ``work`` in the interaction's own task, held for shutdown
        (`InFlight.holding`); if it runs longer than ``after`` seconds, ``acknowledge``
        starts from a timer, beside it, and is done before the result (or the error) is
        returned, so that the answer that follows sees the interaction acknowledged. The
        work is never cut or cancelled by the wait. (It was a task of its own, shielded
        under a timeout: a task, a future and a timer more a click; session 22.)"""
        loop = asyncio.get_running_loop()
        late: list[asyncio.Task[None]] = []

        def start() -> None:
            late.append(loop.create_task(acknowledge()))
            late[0].add_done_callback(_retrieved)

        deadline = loop.time() + after
        timer = loop.call_at(deadline, start)
        try:
            with self.in_flight.holding():
                result = await work
        except Exception:
            timer.cancel()
            with contextlib.suppress(Exception):  # the work's error is the answer
                await self._acknowledged(late, deadline, acknowledge)
            raise
        finally:
            timer.cancel()
        await self._acknowledged(late, deadline, acknowledge)  # its failure is the answer's
        return result

    @staticmethod
    async def _acknowledged(late: list[asyncio.Task[None]], deadline: float,
                            acknowledge: Callable[[], Coroutine[Any, Any, None]]) -> None:
        """The acknowledgment the timer started, finished; or made now when the work
        outran the deadline without letting the loop run the timer (a move's SQL runs
        on the loop's thread): the same answer as if it had."""
        if late:
            await late[0]
        elif asyncio.get_running_loop().time() >= deadline:
            await acknowledge()

    async def defer(self, *, ephemeral: bool) -> None:
        """Acknowledge now ("thinking…"), before slow work (a picture); the answer
        follows. ``ephemeral``: whether it will be private (a deferral fixes that)."""
        if self.interaction.response.is_done():
            return
        await self.interaction.response.defer(ephemeral=ephemeral, thinking=True)
        self._public_deferral = not ephemeral
        self._responded()

    async def say(self, content: str, *, ephemeral: bool = True, wait: bool = False,
                  **kwargs: Any) -> discord.WebhookMessage | None:
        """Reply, or follow up when the interaction was already answered (deferred).
        A private answer after a public deferral (a refusal, "no game here") first takes
        the channel's "thinking…" away: its first followup would be public. ``wait``: a
        followup's message is returned (None: a direct reply). ``content`` longer than
        Discord takes is clipped: a refused message would leave the user with nothing."""
        content = clip(content, MAX_CONTENT)
        response = self.interaction.response
        if self._public_deferral and ephemeral:
            with contextlib.suppress(discord.HTTPException):
                await self.interaction.delete_original_response()
        self._public_deferral = False
        sent = None
        if response.is_done() and wait:
            sent = await self.interaction.followup.send(content, ephemeral=ephemeral,
                                                        wait=True, **kwargs)
        elif response.is_done():
            await self.interaction.followup.send(content, ephemeral=ephemeral, **kwargs)
        else:
            await response.send_message(content, ephemeral=ephemeral, **kwargs)
        self._responded()
        return sent

    async def acknowledge(self) -> None:
        """A click whose result shows elsewhere or later (an edited message): nothing to
        say now (a deferred update)."""
        if not self.interaction.response.is_done():
            await self.interaction.response.defer()
        self._responded()

    def alone(self) -> bool:
        """Few enough interactions wait for their first response (`ANSWERED_TOGETHER`,
        this one included) that this one may be answered with its move
        (`answer_first`)."""
        return self.in_flight.unacknowledged <= ANSWERED_TOGETHER - (0 if self._counted else 1)

    async def answer_first(self, work: Awaitable[T]) -> T:
        """Await a move's service call for up to `MOVE_ANSWER_WAIT` (never longer than
        `DEFER_AFTER`) without answering; after that, acknowledge the click (a deferred
        update) and wait on. The caller answers with the result: `update` edits the
        clicked message in the click's first response when it is still unanswered."""
        return await self._awaited(work, min(MOVE_ANSWER_WAIT, DEFER_AFTER), self.acknowledge)

    async def update(self, **fields: Any) -> None:
        """Edit the message the component is on: as the first response when the click
        is not answered yet (one request), else through the original response."""
        response = self.interaction.response
        if response.is_done():
            await self.interaction.edit_original_response(**fields)
            return
        await response.edit_message(**fields)
        self._responded()

    async def acknowledge_first(self) -> None:
        """Acknowledge this click, then let the other interactions that arrived with it
        be acknowledged before its work goes on (up to `ACKNOWLEDGE_WAIT`): when many
        arrive at once, every one is answered in the time of their parsing and
        deferring, not behind the moves of the ones before."""
        await self.acknowledge()
        if self.in_flight.acknowledged.is_set():  # nothing to wait for: no timer
            return
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(ACKNOWLEDGE_WAIT):  # wait_for would make a task
                await self.in_flight.acknowledged.wait()

    def _responded(self) -> None:
        if self._latency is None:
            self._latency = time.perf_counter() - self._started
        if self._counted:
            self._counted = False
            self.in_flight.first_response()

    async def __aenter__(self) -> Answer:
        """Tell the service who is here, without waiting: the answer (a deferral first)
        must not wait on it, and what it remembers (a language) is never worth a failure.
        Only when it has something to remember (`TableService.new_language`): a task a
        click less."""
        self.in_flight.begin()
        self._counted = True
        with contextlib.suppress(NotServing):
            service = self.service
            if service.new_language(self.cause):
                self.in_flight.track(service.seen(self.cause)).add_done_callback(_noted)
        return self

    async def __aexit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> bool:
        """Say what went wrong, privately, and swallow it (the interaction is answered);
        a cancellation or an exit goes on."""
        try:
            return await self._exit(exc)
        finally:
            self._responded()
            self.in_flight.end()
            outcome = "ok" if exc is None else "refused" if isinstance(exc, Refused) \
                else "error"
            metrics.interaction(self.interaction.type.name, outcome,
                                self._latency or 0.0)
            let_go(self.interaction)

    async def _exit(self, exc: BaseException | None) -> bool:
        if exc is None or not isinstance(exc, Exception):
            return False
        try:
            if isinstance(exc, Refused):
                await self.say(refusal_text(exc.code, exc.reason, self.locale, exc.params))
            elif isinstance(exc, discord.HTTPException):
                log.warning("answering an interaction failed: %s %s", exc.status, exc.code)
            else:
                if not isinstance(exc, NotServing):
                    log.error("interaction failed", exc_info=exc)
                await self.say(t("error.unexpected", self.locale))
        except discord.HTTPException as failed:
            log.warning("answering an interaction failed: %s %s", failed.status, failed.code)
        return True


def let_go(interaction: discord.Interaction) -> None:
    """Cut the reference cycles discord.py leaves on an answered interaction: it and its
    response point at each other (``Interaction.response``, cached, whose ``_parent`` is
    the interaction), and so do it and its edited original response (whose state holds
    the interaction). Only the garbage collector frees such cycles, and each held the
    click's message, user and channel: ~90 objects a click, a young collection every few
    dozen clicks (`tests/e2e/test_bot_garbage.py`). Nothing reads them once the
    interaction is answered; a later read would find a fresh, unanswered response."""
    with contextlib.suppress(AttributeError):  # never read: nothing cached
        delattr(interaction, "_cs_response")
    interaction._original_response = None


def _retrieved(acknowledging: asyncio.Task[None]) -> None:
    """A late acknowledgment's failure is read where it is awaited; read here too, for
    an answer cancelled meanwhile (no "exception was never retrieved")."""
    if not acknowledging.cancelled():
        acknowledging.exception()


def _noted(seen: asyncio.Future[None]) -> None:
    if not seen.cancelled() and seen.exception() is not None:
        log.info("could not note who is here: %s", type(seen.exception()).__name__)


def answering(interaction: discord.Interaction) -> Answer:
    """``async with answering(interaction) as answer:`` — see the module's docstring."""
    return Answer(interaction)
