"""Secrecy of public output: what the channel, the table picture, spectators and the
other seats learn must not depend on who holds what.

A claim window says only that the discard may be claimed: two deals identical in
public information, where different seats (or different claims) may take the same
discard, give identical public notices, spectator views, captions and pictures. A
concealed kong leaves the service without its tiles.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path

import pytest

from bot.discord.play.words import dm_text
from bot.discord.table.words import table_caption
from bot.service import FakeClock, RecordingNotifier, TableNotice, TableService
from bot.service.fairness import Deal, deal_of
from bot.store import Store
from engine.game import (
    Action,
    ActionKind,
    ClaimWindowOpened,
    MeldDeclared,
    legal_actions,
    stack_wall,
)
from engine.melds import MeldKind
from engine.tiles import parse_tiles
from render.table import table_image
from tests.narrowing import known
from tests.service.helpers import ANN, BOB, QUIET, SCENE_PONG, D, P, World, by, stacked

pytestmark = pytest.mark.usefixtures("dealer_zero")


@pytest.fixture(autouse=True)
def same_dice(monkeypatch: pytest.MonkeyPatch) -> None:
    """The dice are public: the scenes compared below roll the same."""
    monkeypatch.setattr("bot.service.fairness.roll_dice", lambda: (2, 3))

DEALER = QUIET[0] + "9p"
"""The dealer (Ann, seat 0) discards 9p in every scene below; only who may claim it
(and how) differs, never anything the table shows."""

CLAIM_SCENES: dict[str, tuple[Mapping[int, str], dict[int, set[str]]]] = {
    # name: (the other seats' hands, who may claim 9p and how)
    "Cid pongs": ({1: QUIET[1], 2: "369m799p258s1467z", 3: QUIET[3]},
                  {2: {"pong"}}),
    "Dee pongs": ({1: QUIET[1], 2: QUIET[2], 3: "258m799p369s2347z"},
                  {3: {"pong"}}),
    "Bob wins or pongs": ({1: "123456789m11z99p", 2: QUIET[2], 3: QUIET[3]},
                          {1: {"win", "pong"}}),
    "Dee may only win": ({1: QUIET[1], 2: QUIET[2], 3: "123456789m55z78p"},
                         {3: {"win"}}),
    "Bob chis and Dee pongs": ({1: "258m789p147s1234z", 2: QUIET[2],
                                3: "258m799p369s2347z"},
                               {1: {"chi"}, 3: {"pong"}}),
}

MakeWorld = Callable[..., Awaitable[World]]


async def _world(path: Path, deal: Callable[[str, int], Deal]) -> World:
    """A service of its own (table 1 in each, so the table numbers agree)."""
    store = await Store.open(path)
    notes = RecordingNotifier()
    clock = FakeClock()
    return World(store, clock, notes,
                 TableService(store, notes, clock=clock, computer_pause=0.0, deal=deal))


async def _discarded(path: Path, hands: Mapping[int, str]) -> tuple[World, int]:
    world = await _world(path, stacked({0: DEALER, **hands}))
    table = await world.table()
    await world.service.act(by(ANN), table, D(0, "9p"), step=1, hand_number=1)
    return world, table


async def _public(world: World, table: int) -> dict[str, object]:
    """Everything public about the table now, and what the discarder is shown."""
    notice: TableNotice = world.notes.of("table")[-1]
    view = notice.view()
    mention = {s: f"<@{s + 1}>" for s in range(4)}
    info = await world.service.table_info(table)
    ann = await world.service.hand(by(ANN), table)
    return {
        "lines": notice.lines, "deciding": notice.deciding,
        "events": [e.to_json() for e in notice.events],
        "view": view, "service view": (await world.service.table_picture(table)).view,
        "caption": [table_caption(view, table_id=table, names=notice.names, locale=loc,
                                  happened=notice.lines, mention=mention)
                    for loc in ("en-US", "zh-CN")],
        "picture": table_image(view, notice.names),
        "info deciding": info.deciding,
        "discarder's view": ann.view,
        "discarder's DM": dm_text(ann.view, table_id=table, names=notice.names,
                                  locale="en-US"),
    }


def _claimants(world: World, table: int) -> dict[int, set[str]]:
    """Who may claim now (the private truth), from the live hand's legal actions."""
    state = known(world.service._tables[table].hand).state  # the test peeks
    out = {}
    for seat in range(4):
        kinds = {a.kind.value for a in legal_actions(state, seat)} - {"pass"}
        if kinds:
            out[seat] = kinds
    return out


async def test_a_claim_window_looks_the_same_whoever_may_claim_and_however(
        tmp_path: Path) -> None:
    seen = {}
    for i, (name, (hands, claimants)) in enumerate(CLAIM_SCENES.items()):
        world, table = await _discarded(tmp_path / f"{i}.sqlite3", hands)
        assert _claimants(world, table) == claimants, name  # the scenes are what they claim
        seen[name] = await _public(world, table)
        await world.store.close()
    first, *rest = seen.values()
    for name, public in zip(list(seen)[1:], rest, strict=True):
        for key in first:
            assert public[key] == first[key], f"{key} differs for {name!r}"
    # and it says that the discard may be claimed, naming nobody
    lines, captions = first["lines"], first["caption"]
    assert isinstance(lines, tuple | list) and isinstance(captions, list)
    assert any("9p" in line for line in lines)
    assert first["deciding"] == () and first["info deciding"] == ()
    for caption in captions:
        assert not any(f"<@{s + 1}>" in caption for s in range(4))
        for name in ("Ann", "Bob", "Cid", "Dee"):
            assert f"{name} to claim" not in caption


async def test_an_answer_that_leaves_the_window_open_changes_nothing_public(
        tmp_path: Path) -> None:
    hands, _ = CLAIM_SCENES["Bob chis and Dee pongs"]
    world, table = await _discarded(tmp_path / "db.sqlite3", hands)
    before = await _public(world, table)
    await world.service.act(by(BOB), table, P(1), step=2, hand_number=1)
    after = await _public(world, table)
    for key in before:  # the caption's "what happened" lines come with events only
        assert after[key] == before[key] or key in ("lines", "events", "caption"), key
    assert after["view"] == before["view"] and after["picture"] == before["picture"]
    assert world.notes.of("table")[-1].events == ()  # the pass itself is not told
    await world.store.close()


async def test_public_claim_window_events_name_no_one(tmp_path: Path) -> None:
    hands, _ = CLAIM_SCENES["Bob chis and Dee pongs"]
    world, _table = await _discarded(tmp_path / "db.sqlite3", hands)
    opened = [e for n in world.notes.of("table") for e in n.events
              if isinstance(e, ClaimWindowOpened)]
    assert len(opened) == 1 and opened[0].asked == ()
    await world.store.close()


def _kong_deal(_rules: str, _dealer: int) -> Deal:
    hands = {0: "1111m258p369s1234z", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}
    return deal_of(stack_wall("shanghai", hands, 0, back="9s"))


async def test_a_concealed_kong_leaves_the_service_without_its_tiles(
        make_world: MakeWorld) -> None:
    world = await make_world(deal=_kong_deal)
    table = await world.table()
    world.notes.clear()
    kong = Action(ActionKind.CONCEALED_KONG, 0, tiles=tuple(parse_tiles("1111m")))
    await world.service.act(by(ANN), table, kong, step=1, hand_number=1)
    notices = world.notes.of("table")
    assert notices
    for notice in notices:
        for event in notice.events:
            assert not (isinstance(event, MeldDeclared)
                        and event.meld.kind is MeldKind.CONCEALED_KONG)
        text = json.dumps([e.to_json() for e in notice.events])
        assert "1m" not in text, text
        assert not any("1m" in line for line in notice.lines)
    told = [e for n in notices for e in n.events if e.name == "concealed_kong_declared"]
    assert [e.to_json()["seat"] for e in told] == [0]
    # the owner still sees their own kong, face up, in their hand
    mine = (await world.service.hand(by(ANN), table)).view
    assert mine.me.melds[0].tiles == tuple(parse_tiles("1111m"))


async def test_a_silent_claimant_is_not_announced_away_at_the_claim_deadline(
        make_world: MakeWorld) -> None:
    """"Cid is away" right when a claim window times out would tell the channel Cid had
    been asked; only turns (everyone's to see) count towards being away."""
    world = await make_world(deal=stacked(SCENE_PONG))
    table = await world.table(options={"claim_timer": 20, "away_after": 1})
    await world.service.act(by(ANN), table, D(0, "9m"))
    await world.advance(20)                      # Cid's claim timer: a pass for them
    assert (await world.service.table_info(table)).deciding == (1,)  # Bob's turn now
    assert world.notes.of("away") == []
    assert (await world.store.lobby.seats(table))[2].consecutive_timeouts == 0
