"""``mahjong-bot demo``: a match of four computer players through the real service and
store, offline. The channel's public events are printed; every picture a player would
have been sent (their hand when a decision is theirs, the table, the settlement, the
leaderboard) is saved into ``--out``. Pictures come from `render/` when it imports;
without it the demo still runs and says so.

    mahjong-bot demo [--rules shanghai|hangzhou] [--hands N] [--out DIR] [--db PATH]

With ``--db`` naming an existing database, a demo cut short (Ctrl-C, a kill) carries on
where it stopped: the service recovers its live table from the log.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from bot.service import (
    AwayNotice,
    Cause,
    HandStartNotice,
    LeaderboardNotice,
    LobbyNotice,
    MatchEndNotice,
    MoveNotice,
    Notice,
    PrivateNotice,
    RevealNotice,
    SettlementNotice,
    SystemClock,
    TableNotice,
    TableService,
    WarningNotice,
    commitment,
)
from bot.store import Store
from engine.rules import RULESETS

DEMO_GUILD = 1
DEMO_CHANNEL = 1
DEMO_HOST = 1
log = logging.getLogger(__name__)


def _amount(value: Any) -> str:
    text = str(value)
    return text if text.startswith("-") else f"+{text}"


class DemoNotifier:
    """Prints what the channel would read and saves what players would see."""

    def __init__(self, out: Path | None, stream: TextIO = sys.stdout) -> None:
        self.out = out
        self.stream = stream
        self.pictures = 0
        self.finished = asyncio.Event()
        self._render_missing: str | None = None
        self._rules = "shanghai"

    # -- helpers -----------------------------------------------------------------

    def say(self, text: str) -> None:
        print(text, file=self.stream, flush=True)

    def _save(self, name: str, make: Callable[[], bytes]) -> None:
        """Render lazily; any failure of render/ degrades the demo to text only."""
        if self.out is None or self._render_missing is not None:
            return
        try:
            data = make()
        except ImportError as exc:
            self._render_missing = str(exc)
            self.say(f"(pictures unavailable: {exc}; continuing with text only)")
            return
        except Exception as exc:
            self.say(f"(could not draw {name}: {exc})")
            return
        self.out.mkdir(parents=True, exist_ok=True)
        (self.out / name).write_bytes(data)
        self.pictures += 1

    @staticmethod
    async def _told(notice: Any) -> None:
        """An announcement was printed: delivered (a rerun on this database does not
        print it again)."""
        if notice.receipt is not None:
            await notice.receipt.delivered()

    # -- the Notifier protocol ----------------------------------------------------

    async def publish(self, notice: Notice) -> None:
        match notice:
            case LobbyNotice():
                await self.lobby(notice)
            case HandStartNotice():
                await self.hand_started(notice)
            case TableNotice():
                self.table(notice)
            case PrivateNotice():
                self.private_hand(notice)
            case AwayNotice():
                self.say(f"   {notice.name} is {'away' if notice.away else 'back'}")
            case SettlementNotice():
                await self.settlement(notice)
            case RevealNotice():
                await self.reveal(notice)
            case LeaderboardNotice():
                await self.leaderboard(notice)
            case MatchEndNotice():
                await self.match_ended(notice)
            case MoveNotice() | WarningNotice():
                pass  # computer seats are never pinged nor warned

    async def lobby(self, notice: LobbyNotice) -> None:
        self._rules = notice.table.rules
        seats = ", ".join(notice.table.names)
        self.say(f"[table {notice.table.ref.table_id}] {notice.what}: {seats}")
        await self._told(notice)

    async def hand_started(self, notice: HandStartNotice) -> None:
        extra = (", 荒番" if notice.huangfan else "") + \
            (f", streak {notice.streak}" if notice.streak > 1 else "")
        self.say(f"\n== hand {notice.hand_number}/{notice.hands_in_match}: dealer "
                 f"{notice.names[notice.dealer]}, dice {notice.dice[0]}+{notice.dice[1]}"
                 f"{extra}")
        self.say(f"   wall commitment sha256(salt+wall) = {notice.commitment}")
        await self._told(notice)

    def table(self, notice: TableNotice) -> None:
        for line in notice.lines:
            self.say(f"   {line}")
        melded = any(" pong " in f" {x} " or "kong" in x or " chi " in f" {x} "
                     for x in notice.lines)
        ended = any(e.name == "hand_ended" for e in notice.events)
        if notice.seq == 0 or melded or ended:
            self._save(f"h{notice.hand_number:02d}_{notice.seq:03d}_table.png",
                       lambda: _table_png(notice))

    def private_hand(self, notice: PrivateNotice) -> None:
        if notice.step is None:
            return  # the adapter would edit the DM quietly; the demo keeps decisions only
        self._save(f"h{notice.hand_number:02d}_{notice.step:03d}_seat{notice.seat + 1}.png",
                   lambda: _hand_png(notice))

    async def settlement(self, notice: SettlementNotice) -> None:
        result = notice.result
        if result.drawn:
            self.say("   drawn hand (流局)")
        for win in result.settlements:
            patterns = ", ".join(f"{p.zh} {p.en} ({p.value})" for p in win.patterns) \
                or "平胡 plain win"
            value = f"×{win.value}" if win.value_unit == "×" else f"{win.value} {win.value_unit}"
            self.say(f"   {notice.names[win.winner]} wins ({win.win.replace('_', '-')}): "
                     f"{patterns}; {value}")
        pays = ", ".join(f"{n} {_amount(a)}" for n, a in zip(notice.names, result.payments,
                                                             strict=True))
        self.say(f"   payments: {pays}")
        self._save(f"h{notice.hand_number:02d}_settlement.png",
                   lambda: _settlement_png(notice))
        await self._told(notice)

    async def reveal(self, notice: RevealNotice) -> None:
        ok = commitment(notice.salt, notice.wall) == notice.commitment
        self.say(f"   wall revealed (salt {notice.salt}): commitment "
                 f"{'verified' if ok else 'MISMATCH'}")
        await self._told(notice)

    async def leaderboard(self, notice: LeaderboardNotice) -> None:
        board = "; ".join(f"{r.display_name} {r.points}" for r in notice.rows) or \
            "nobody yet (computers never rank)"
        self.say(f"   leaderboard: {board}")
        self._save("leaderboard.png", lambda: _leaderboard_png(notice))
        await self._told(notice)

    async def match_ended(self, notice: MatchEndNotice) -> None:
        totals = ", ".join(f"{n} {_amount(t)}" for n, t in zip(notice.names, notice.totals,
                                                               strict=True))
        self.say(f"\n== match {'cancelled' if notice.cancelled else 'over'} after "
                 f"{notice.hands_played} hand(s): {totals}")
        await self._told(notice)
        self.finished.set()


def _table_png(notice: TableNotice) -> bytes:
    from render.table import table_image
    return table_image(notice.view(), notice.names)


def _hand_png(notice: PrivateNotice) -> bytes:
    from render.hand import hand_image
    return hand_image(notice.view())


def _settlement_png(notice: SettlementNotice) -> bytes:
    from bot.discord.table.words import how_paid_lines
    from render.cards import settlement_card
    return settlement_card(notice.result, notice.names, notice.rules,
                           how_paid=how_paid_lines(notice.result, notice.names, "en"))


def _leaderboard_png(notice: LeaderboardNotice) -> bytes:
    from bot.discord.leaderboard import board_png
    return board_png(notice.rows, "en")


async def run_demo(rules: str, hands: int, out: Path | None, db: Path,
                   pause: float = 0.01, stream: TextIO = sys.stdout) -> int:
    """Play (or resume) the demo match; return the number of pictures saved."""
    store = await Store.open(db)
    notifier = DemoNotifier(out, stream)
    service = TableService(store, notifier, clock=SystemClock(), computer_pause=pause,
                           grace=0.0, notify_computer_hands=True)
    try:
        await service.recover()
        live = await store.lobby.tables_in_channel(DEMO_CHANNEL, live_only=True)
        if live:
            notifier.say(f"resuming table {live[0].id} from {db}")
            table_id = live[0].id
        else:
            info = await service.create_table(Cause(DEMO_HOST, "Host"), guild_id=DEMO_GUILD,
                                              channel_id=DEMO_CHANNEL, rules=rules,
                                              options={"hands": hands}, sit=False)
            table_id = info.ref.table_id
            for _ in range(4):
                await service.add_computer(Cause(DEMO_HOST), table_id)
            await service.start(Cause(DEMO_HOST), table_id)
        runner = asyncio.create_task(service.run())
        while not notifier.finished.is_set():
            row = await store.lobby.get_table(table_id)
            if row is None or row.status != "playing":
                break
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(notifier.finished.wait(), 0.5)
        service.stop()
        runner.cancel()
        await service.drain()
    finally:
        await store.close()
    if out is not None:
        notifier.say(f"{notifier.pictures} picture(s) saved in {out}")
    return notifier.pictures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="mahjong-bot demo",
                                     description="Four computer players play a match "
                                                 "offline through the real service.")
    parser.add_argument("--rules", choices=sorted(RULESETS), default="shanghai")
    parser.add_argument("--hands", type=int, default=4)
    parser.add_argument("--out", type=Path, default=None,
                        help="folder for the pictures (none saved without it)")
    parser.add_argument("--db", type=Path, default=None,
                        help="database file (default: a temporary one)")
    parser.add_argument("--pause", type=float, default=0.01,
                        help="seconds a computer player waits before moving")
    args = parser.parse_args(argv)
    if not 1 <= args.hands <= 64:
        parser.error("--hands must be between 1 and 64")
    logging.basicConfig(level=logging.WARNING)
    if args.db is not None:
        return _on_named_database(args)
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(run_demo(args.rules, args.hands, args.out, Path(tmp) / "demo.sqlite3",
                             args.pause))
    return 0


def _on_named_database(args: argparse.Namespace) -> int:
    """A database of the user's: one line, not a traceback, when it cannot be used, and
    never while a bot (or another demo) is playing on it — as `mahjong-bot` itself."""
    from bot.store import ProcessLock, StoreError

    try:
        lock = ProcessLock.acquire(args.db)
    except StoreError as exc:
        sys.stderr.write(f"mahjong-bot demo: {exc}\n")
        return 2
    try:
        asyncio.run(run_demo(args.rules, args.hands, args.out, args.db, args.pause))
    except StoreError as exc:
        sys.stderr.write(f"mahjong-bot demo: {exc}\n")
        return 2
    finally:
        lock.release()
    return 0
