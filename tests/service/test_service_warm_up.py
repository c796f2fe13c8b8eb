"""`bot.service.tables.warm_up`: what a cold table's first click would pay alone (the
engine's fingerprint, each rule set's first deal, moves and snapshot) paid once when
the service starts running (`LiveTables.run`), for every registered rule set."""

from __future__ import annotations

from bot.service import snapshots, tables


def test_the_warm_up_plays_every_rule_set_once() -> None:
    tables.warm_up.cache_clear()
    snapshots.engine_version.cache_clear()
    tables.warm_up()
    assert snapshots.engine_version.cache_info().currsize == 1  # the fingerprint made
    assert tables.warm_up.cache_info().currsize == 1
    tables.warm_up()  # once a process
    assert tables.warm_up.cache_info().hits == 1
