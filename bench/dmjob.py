"""``python bench/dmjob.py [--hands 8] [--baseline REV --rounds 2]``: the event loop's
share of a seat's DM outside discord.py: its job pickled for the picture process (and
read back there), its result read back from it, and its upload's multipart body joined;
and, in the picture process, the DM's words and components with the view's advice they
read (``dm_compose_us``: the moves' 听 hints, the suggestion, the waits; the picture
itself not included), each state's view made and read once, in play order, as a bot
composes them.

Every state of ``--hands`` seeded self-played hands of each rule set gives the DM job
of its deciding seat, as `bot.discord.play.dms.DmPresenter` sends it, with the public
events of the move before it as its news: the state encoded for the store first (as
each move does, so a seat's kept snapshot text is warm), then the job pickled as this
checkout sends it (``dm_job_*``: its `bot.discord.play.dms.dm_job` where it has one,
plain values pickled by `WorkerPool.run_named`; else its
`bot.discord.core.pictures.job_bytes` of a `prepare_dm` partial, else `pickle.dumps` of
the notice's bound ``view``). ``dm_partial_*``: the `prepare_dm` partial by ``job_bytes``
(a DM's job before session 22, `/mahjong hand`'s still) in the same run. ``dm_result_*``:
the worker's answer read back, of the first 100 jobs (``dm_result_prepared_*``: a
`PreparedDm`, before session 22). CPU time, best of five.
"""

from __future__ import annotations

import asyncio
import json
import os
import pickle
import random
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

if Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:  # run as a script
    # The checkout on the path instead of this folder (whose discord.py, engine.py and
    # render.py are not those packages): `bench.baseline` is read from it.
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from bench.baseline import hands_and_rounds_main, use_engine_root

use_engine_root()

import discord  # noqa: E402
from discord.http import handle_message_parameters  # noqa: E402

from bot.discord.core import pictures  # noqa: E402
from bot.discord.core.i18n import lang  # noqa: E402
from bot.discord.delivery import posting  # noqa: E402
from bot.discord.play import dms  # noqa: E402
from bot.discord.play.dms import prepare_dm, private_message  # noqa: E402
from bot.discord.table.words import describe_events  # noqa: E402
from bot.service.cause import Cause  # noqa: E402
from bot.service.live import step_of  # noqa: E402
from bot.service.notices import PrivateNotice, TableRef  # noqa: E402
from engine import rules  # noqa: E402
from engine.ai import choose_action  # noqa: E402
from engine.game import apply, deciding_seats, new_hand  # noqa: E402
from engine.game.snapshot import encode  # noqa: E402
from engine.game.state import Phase  # noqa: E402
from engine.tiles import full_set  # noqa: E402
from engine.view import view  # noqa: E402

REPEATS = 5
NAMES = ("Ann", "Bob", "Cy", "Di")


def _compose(shown: Any, news: Any, lang_: Any, **fields: Any) -> object:
    """`prepare_dm` without its picture: the view, its advice and the DM's words."""
    view = shown if not callable(shown) else shown()
    happened = describe_events(news, NAMES, view.seat, lang_, fields["hand"])
    return private_message(view, locale=lang_, happened=happened, **fields)


def _jobs(hands: int, compose: list[Callable[[], Any]] | None = None,
          plain: list[Any] | None = None) -> list[Callable[[], Any]]:
    """The DM jobs as `prepare_dm` partials (``plain``: given each as a call of `dm_job`,
    where this checkout has it)."""
    dumps_views = not hasattr(pictures, "job_bytes")
    jobs: list[Callable[[], Any]] = []
    news: tuple[Any, ...] = ()
    for ruleset in rules.RULESETS:
        for seed in range(hands):
            rng = random.Random(seed)
            wall = full_set(rules.get(ruleset).has_flowers)
            rng.shuffle(wall)
            state, _ = new_hand(ruleset, None, tuple(wall), seed % 4, (3, 4))
            while state.phase is not Phase.ENDED:
                encode(state)  # the service's snapshot of it, written with the move
                seat = deciding_seats(state)[0]
                notice = PrivateNotice(TableRef(1, 2, 3), seat, 10**17 + seat, NAMES, 1,
                                       step_of(state, seat), 1e9, state, news=news,
                                       cause=Cause(10**17 + seat, NAMES[seat], "en-US"))
                shown = notice.view if dumps_views else notice.viewing()
                if plain is not None and hasattr(dms, "dm_job"):
                    plain.append(partial(dms.dm_job, notice, notice.news, lang("en-US")))
                jobs.append(partial(prepare_dm, shown, notice.news, lang("en-US"),
                                    table_id=1, hand=1, step=notice.public_step, names=NAMES,
                                    deadline=notice.deadline, choices=notice.choices,
                                    away=False))
                if compose is not None:
                    compose.append(partial(
                        _compose, partial(view, state, seat, 1), notice.news,
                        lang("en-US"), table_id=1, hand=1, step=notice.public_step,
                        names=NAMES, deadline=notice.deadline, choices=notice.choices, away=False))
                state, events = apply(state, choose_action(state, seat, rng))
                news = tuple(e for e in events if e.private_to is None)
    return jobs


def _best_us(work: Callable[[], object], count: int) -> float:
    best = float("inf")
    for _ in range(REPEATS):
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    return best / count * 1e6


def _upload_fields() -> list[dict[str, Any]]:
    picture = posting.memory_file(os.urandom(30_000), "hand-1-2.png")
    with handle_message_parameters(content="your move " * 20, file=picture,
                                   view=discord.ui.View(timeout=None)) as params:
        return [dict(f) for f in params.multipart or []]


async def _bodies(fields: list[list[dict[str, Any]]]) -> None:
    for one in fields:
        await posting.one_body(one)


def _plain_dumps() -> Callable[[Any], bytes] | None:
    """How this checkout pickles a `dm_job` (`WorkerPool.run_named`), if it has one."""
    if not hasattr(dms, "dm_job"):
        return None
    from bot.discord.core.workers import name_of
    name = name_of(dms.compose_dm)
    return lambda make: pickle.dumps((name, make()), pickle.HIGHEST_PROTOCOL)


def _answers(jobs: list[Callable[[], Any]], plain: list[Any]) -> dict[str, list[bytes]]:
    """The worker's answers to the first 100 jobs, as it pickles them: ``prepared`` (a
    `PreparedDm`), and ``plain`` (`compose_dm`'s, where this checkout has it)."""
    answers: dict[str, list[bytes]] = {"prepared": [], "plain": []}
    for job in jobs[:100]:
        answers["prepared"].append(pickle.dumps((True, job()), pickle.HIGHEST_PROTOCOL))
    for make in plain[:100]:
        answers["plain"].append(pickle.dumps((True, dms.compose_dm(*make())),
                                             pickle.HIGHEST_PROTOCOL))
    return answers


def _each(work: Callable[[Any], object], items: list[Any]) -> None:
    for item in items:
        work(item)


def _request_json(prepared: list[Any]) -> None:
    """A DM request's JSON: ``dm_request_json_view_us`` as discord.py encodes a view's
    components, ``dm_request_json_us`` with them composed as JSON in the worker."""
    from bot.discord.delivery.posting import with_components

    payloads = [{"content": dm.text, "tts": False, "nonce": "n" * 20, "attachments": [
        {"id": 0, "filename": "hand-1-2.png"}]} for dm in prepared]
    composed = [json.dumps(dm.components, separators=(",", ":")) for dm in prepared]

    def views() -> None:
        for payload, dm in zip(payloads, prepared, strict=True):
            discord.utils._to_json({**payload, "components": dm.components})

    def joined() -> None:
        for payload, text in zip(payloads, composed, strict=True):
            with_components(discord.utils._to_json(payload), text)

    print(f"dm_request_json_view_us {_best_us(views, len(prepared)):.1f} us")
    print(f"dm_request_json_us {_best_us(joined, len(prepared)):.1f} us")


def measure(hands: int) -> None:
    compose: list[Callable[[], Any]] = []
    plain: list[Any] = []
    jobs = _jobs(hands, compose, plain)
    # Once each (a state's view keeps its advice): CPU per DM, memos as warm as play made
    # them by then (the engine's, the pickles' above not yet).
    start = time.process_time()
    for job in compose:
        job()
    print(f"dm_compose_us {(time.process_time() - start) / len(compose) * 1e6:.1f} us")
    dumps: Callable[[object], bytes] = getattr(pictures, "job_bytes", pickle.dumps)
    print(f"dm_jobs {len(jobs)} count")
    plain_dumps = _plain_dumps()
    shapes: list[tuple[str, Callable[[Any], bytes], list[Any]]] = [("dm_partial", dumps, jobs)]
    if plain_dumps is not None:
        shapes.append(("dm_job", plain_dumps, plain))
    else:
        shapes.append(("dm_job", dumps, jobs))
    for prefix, dump, made in shapes:
        sent = [dump(job) for job in made]
        print(f"{prefix}_pickle_us "
              f"{_best_us(partial(_each, dump, made), len(made)):.1f} us")
        print(f"{prefix}_unpickle_us "
              f"{_best_us(partial(_each, pickle.loads, sent), len(sent)):.1f} us")
        print(f"{prefix}_bytes {sum(map(len, sent)) / len(sent):.0f} bytes")
    answers = _answers(jobs, plain)
    names = {"prepared": "dm_result_prepared" if plain else "dm_result", "plain": "dm_result"}
    for kind, read in answers.items():
        if read:
            print(f"{names[kind]}_unpickle_us "
                  f"{_best_us(partial(_each, pickle.loads, read), len(read)):.1f} us")
    if plain:
        _request_json([pickle.loads(a)[1] for a in answers["prepared"]])
    fields = [_upload_fields() for _ in range(500)]
    print(f"upload_body_us {_best_us(lambda: asyncio.run(_bodies(fields)), len(fields)):.1f} us")


if __name__ == "__main__":
    hands_and_rounds_main(__file__, measure, default_hands=8)
