"""The garbage collector of a bot process, set once the bot has started.

A collection stops the event loop, and every answer in flight with it. With CPython's
defaults (a young collection every 700 new container objects) a click, which makes a
few thousand (discord.py's parsing, aiohttp's request and response, the move's records),
paid about ten young collections, and every few seconds a full one went through the
whole heap (~95,000 tracked objects after start-up: modules, discord.py's state, the
engine's tables): `bench/discord.py` at 200 tables counted 5–6 full collections per run
of 4,000 clicks, 100–130 ms each when the machine was quiet, 300–400 ms under load, and
about 0.5 s of young pauses per 1,000 clicks.

So, once the bot has started (`tune`, from `MahjongBot.setup_hook`):

- what start-up made is collected once, then frozen (`gc.freeze`): it lives as long as
  the process and is never traversed again;
- the young generation is collected every `YOUNG` new objects instead of 700: most of a
  click's objects die before then, so far fewer survive into the older generations, and
  a full collection is rarely due (its pause is then about the objects made since
  start-up that are still alive, not the whole heap).

Measured with `python bench/discord.py --mode split --tables 200 --think 0 --clicks 20
--baseline 0481d14`, two runs under load (with the other changes of that round): full
collections 5 (1,060 and 607 ms of pauses, the longest 344 and 148 ms) → 0; young
pauses in all 1,615 → 856 and 1,099 → 1,461 ms, the longest 67 → 131 and 21 → 193 ms
(a middle-generation collection has more to go through: `YOUNG` is worth measuring
lower on a quiet machine).

Session 8 found what filled the young generation: each click's interaction, the view
rebuilt from its message and its pictures' buffers were garbage in reference cycles
(~90 objects a click). They are cut once answered (`tests/e2e/test_bot_garbage.py`), so
a young collection now comes only every 20,000 objects the bot keeps, and none of a
run's clicks in flight are carried into the middle generation.
"""

from __future__ import annotations

import gc
import logging

log = logging.getLogger(__name__)

YOUNG = 20_000
"""New container objects between two young collections (CPython's default: 700)."""
MIDDLE = 10
"""Young collections between two collections of the middle generation (default 10)."""
OLD = 10
"""Middle collections before a full one is considered (default 10; CPython also waits
until a quarter more objects than the last full collection left have come along)."""

_tuned = False


def tune() -> bool:
    """Collect and freeze what start-up made, then collect less often; once per process
    (a second bot in the same process, as in the tests, leaves it as it is). True when
    this call tuned it."""
    global _tuned
    if _tuned:
        return False
    _tuned = True
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG, MIDDLE, OLD)
    log.info("garbage collector: %s objects frozen, thresholds %s", gc.get_freeze_count(),
             gc.get_threshold())
    return True
