"""Claim offers through the real bot: a DM asking to claim with no win on offer arrives
silently (Discord's suppress-notifications flag, which the fake records), a turn's DM
notifies as any DM; a claim answered in advance from the DM (the menu, or "win only")
closes its window without a prompt."""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import partial
from pathlib import Path

import pytest
from botkit import Driver, World, latest_bot, make_bot, make_world, open_table, press, quiet
from fakediscord import SUPPRESS_NOTIFICATIONS, BotLauncher, FakeDiscord, FakeMessage, FakeUser

from bot.service.fairness import Deal, deal_of
from engine.game import stack_wall
from tests.service.helpers import QUIET, SCENE_PONG

# The dealer discards 9m; only seat 1 (the next) may claim it: a chi with 7m 8m.
SCENE_CHI = {0: QUIET[0] + "9m", 1: "278m369p147s1234z", 2: QUIET[2], 3: QUIET[3]}


def _first_ids(message: FakeMessage) -> list[str]:
    """The custom ids the DM was sent with (a click takes its buttons off later)."""
    components = message.versions[0]["components"] if message.versions \
        else message.components
    found: list[str] = []

    def walk(items: list[dict[str, object]]) -> None:
        for item in items:
            if isinstance(item.get("custom_id"), str):
                found.append(str(item["custom_id"]))
            inner = item.get("components")
            if isinstance(inner, list):
                walk(inner)

    walk(components)
    return found


def _moves(message: FakeMessage) -> list[str]:
    """The move letters of a DM's buttons (``mj:mv:t:h:pN:move:sS``)."""
    return [c.split(":")[5][:1] for c in _first_ids(message) if c.startswith("mj:mv:")]


def _claim_offer(message: FakeMessage) -> bool:
    """A DM asking to claim (a Pass button) with no Win button."""
    moves = _moves(message)
    return "x" in moves and "w" not in moves


def _turn(message: FakeMessage) -> bool:
    return any(c.startswith("mj:dc:") for c in _first_ids(message))


async def test_a_claim_offer_without_a_win_arrives_silently(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path) -> None:
    world = make_world(fake)
    await bots.start(make_bot(tmp_path / "db.sqlite3", picture_processes=0))
    await open_table(world)
    driver = Driver(world, win=False)

    def offers() -> list[FakeMessage]:
        return [m for p in world.players for m in fake.dms(p) if _claim_offer(m)]

    await driver.play_until(lambda: len(offers()) >= 2, idle=lambda: quiet(bots))
    await quiet(bots)
    assert all(m.silent and m.flags & SUPPRESS_NOTIFICATIONS for m in offers())
    turns = [m for p in world.players for m in fake.dms(p) if _turn(m)]
    assert turns and not any(m.silent for m in turns)


# ---------------------------------------------------------------------------
# Claims answered in advance, from the DM's menu


def _deal(_rules: str, _dealer: int, scene: Mapping[int, str] = SCENE_PONG) -> Deal:
    """Seat 2 holds 9m 9m (``SCENE_CHI``: seat 1 holds 7m 8m); the dealer discards 9m,
    and each seat its 5z after."""
    return deal_of(stack_wall("shanghai", scene, 0, draws="5z5z5z5z"))


def _prompts(fake: FakeDiscord, user: FakeUser) -> list[FakeMessage]:
    """The DMs that asked ``user`` to claim (a Pass button when sent)."""
    return [m for m in fake.dms(user) if "x" in _moves(m)]


async def _started(fake: FakeDiscord, bots: BotLauncher, folder: Path,
                   monkeypatch: pytest.MonkeyPatch,
                   scene: Mapping[int, str] = SCENE_PONG) -> World:
    monkeypatch.setattr("bot.service.fairness.first_dealer", lambda: 0)
    world = make_world(fake)
    await bots.start(make_bot(folder / "db.sqlite3", picture_processes=0,
                              service_options={"deal": partial(_deal, scene=scene)}))
    await open_table(world)
    await quiet(bots)
    return world


async def _discard(fake: FakeDiscord, bots: BotLauncher, user: FakeUser, tile: str) -> None:
    message = fake.dms(user)[-1]
    menu = next(c for c in fake.custom_ids(message) if c.startswith("mj:dc:"))
    response = await (await fake.select(user, message, menu, [tile])).response()
    assert not (response.ephemeral and response.content), response.content
    await quiet(bots)


async def test_a_pong_answered_in_advance_closes_the_window_without_a_prompt(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    world = await _started(fake, bots, tmp_path, monkeypatch)
    ann, cid = world.players[0], world.players[2]
    idle = fake.dms(cid)[-1]                     # the deal's DM: Cid decides nothing
    menu = next(c for c in fake.custom_ids(idle) if c.startswith("mj:ca:"))
    handle = await fake.select(cid, idle, menu, ["p9m"])
    answered = await handle.response()           # the DM itself shows the answer now
    assert answered.type == 7 and "Answered in advance: 碰 Pong" in str(answered.content)
    selects = [c for row in answered.components for c in row.get("components", [])
               if str(c.get("custom_id", "")).startswith("mj:ca:")]
    assert [[o["value"] for o in m["options"] if o.get("default")] for m in selects] == [["p9m"]]
    assert any(str(c.get("custom_id", "")).startswith("mj:nx:")        # the other rows kept
               for row in answered.components for c in row.get("components", []))
    (saved,) = await handle.wait_followups()
    assert "Saved for this hand" in saved.content
    before = len(fake.dms(cid))
    await _discard(fake, bots, ann, "9m")
    assert _prompts(fake, cid) == []             # never asked to claim
    (turn,) = fake.dms(cid)[before:]             # his discard after the pong, at once
    assert _turn(turn) and not turn.silent
    caption = fake.messages(world.channel)[-1].content
    assert "pong" in caption.lower()


async def test_win_only_passes_in_advance_and_the_channel_sees_a_window_as_ever(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    world = await _started(fake, bots, tmp_path, monkeypatch)
    ann, bob, cid = world.players[:3]
    idle = fake.dms(cid)[-1]
    toggle = next(c for c in fake.custom_ids(idle) if c.endswith(":pass_claims:on"))
    assert (await (await fake.click(cid, idle, toggle)).response()).ephemeral
    before = len(fake.dms(cid))
    await _discard(fake, bots, ann, "9m")
    assert _prompts(fake, cid) == [] and fake.dms(cid)[before:] == []  # nothing at all
    assert _turn(fake.dms(bob)[-1])              # the window closed: Bob's turn


async def _answer(fake: FakeDiscord, bots: BotLauncher, user: FakeUser, value: str,
                  then: str | None = None) -> None:
    """From the DM showing no decision: the claim ``value`` answered in advance, and
    (``then``) the discard after it chosen on the reply's follow-up menu."""
    idle = fake.dms(user)[-1]
    menu = next(c for c in fake.custom_ids(idle) if c.startswith("mj:ca:"))
    handle = await fake.select(user, idle, menu, [value])
    await handle.response()
    (saved,) = await handle.wait_followups()
    await quiet(bots)
    if then is not None:
        after = next(c for c in fake.custom_ids(saved) if c.startswith("mj:cat:"))
        reply = await (await fake.select(user, saved, after, [then])).response()
        assert reply.ephemeral or reply.type == 4, reply
        await quiet(bots)


async def test_a_named_chi_closes_the_window_without_a_prompt(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    world = await _started(fake, bots, tmp_path, monkeypatch, SCENE_CHI)
    ann, bob = world.players[:2]
    await _answer(fake, bots, bob, "c9m7m8m")
    before = len(fake.dms(bob))
    await _discard(fake, bots, ann, "9m")
    assert _prompts(fake, bob) == []             # never asked to claim
    (turn,) = fake.dms(bob)[before:]             # his discard after the chi, at once
    assert _turn(turn)
    assert "chi" in fake.messages(world.channel)[-1].content.lower()


async def test_a_pong_then_its_discard_play_without_a_prompt(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """"Pong 9m, then East": the window closes, the pong and the discard are played,
    and Cid gets one silent DM saying so, asking nothing."""
    world = await _started(fake, bots, tmp_path, monkeypatch)
    ann, _, cid, dee = world.players
    await _answer(fake, bots, cid, "p9m", then="1z")
    before = len(fake.dms(cid))
    await _discard(fake, bots, ann, "9m")
    assert _prompts(fake, cid) == []
    (told,) = fake.dms(cid)[before:]
    assert told.silent and not _turn(told) and not _moves(told)
    assert "then East Wind discarded" in told.content
    assert _turn(fake.dms(dee)[-1])              # Dee's turn: both were played


# ---------------------------------------------------------------------------
# Secrecy: a covered seat and one asked that answered at once look the same to others


def _same_names(fake: FakeDiscord) -> World:
    """A second server whose players are named as the first's (other ids)."""
    players = [fake.add_user(201 + i, f"p{i + 1}") for i in range(4)]
    guild = fake.add_guild(902, "Club", members=players)
    return World(fake, guild, fake.channel(guild, "general"), players, players[0])


def _plain(text: str, table: int, world: World) -> str:
    """A message's words with its table's number and its people's ids left out."""
    text = re.sub(rf"#{table}\b|table-{table}\b|第 {table} 桌", "#T", text)
    text = re.sub(r"\b[0-9a-f]{64}\b", "H", text)  # each wall's commitment (its salt)
    # the deadlines: each table played in its own real seconds (the service's test
    # compares them on one fake clock)
    text = re.sub(r"<t:\d+:([A-Za-z])>", r"<t:D:\1>", text)
    for i, user in enumerate(world.players):
        text = text.replace(str(user.id), f"P{i}")
    return text


def _ids(message: FakeMessage, table: int) -> list[str]:
    return [re.sub(rf"^(mj:[a-z]+):{table}:", r"\1:T:", c) for c in _first_ids(message)]


Seen = tuple[list[tuple[str, list[str], list[str], int]],
             dict[int, list[tuple[str, list[str], int]]]]


def _seen(fake: FakeDiscord, world: World, table: int, secret: int) -> Seen:
    """What the channel shows now and what every seat but ``secret`` was DMed."""
    channel = [(_plain(m.content, table, world), [a.filename.replace(str(table), "T")
                                                  for a in m.attachments],
                _ids(m, table), m.flags)
               for m in fake.messages(world.channel)]
    dms = {i: [(_plain(m.content, table, world), _ids(m, table), m.flags)
               for m in fake.dms(user)]
           for i, user in enumerate(world.players) if i != secret}
    return channel, dms


# (the secret seat, its menu value, the discard it names after; the claim's button)
CASES = {"pong": (SCENE_PONG, 2, "p9m", None, "p"), "chi": (SCENE_CHI, 1, "c9m7m8m", None, "c"),
         "pong, then 1z": (SCENE_PONG, 2, "p9m", "1z", "p")}


@pytest.mark.parametrize("case", list(CASES))
async def test_a_covered_seat_and_a_quick_answer_look_the_same_to_everyone_else(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, case: str) -> None:
    """Two tables play the same moves; at the first the secret seat answered its claim
    in advance (a pong, a named chi, a pong and the discard after it), at the second it
    is asked and claims (and discards) at once. The channel (every message as it ends,
    with its pictures' names, buttons and flags) and every other seat's DMs (their
    words, buttons and flags) are the same."""
    scene, secret, value, then, letter = CASES[case]
    monkeypatch.setattr("bot.service.fairness.first_dealer", lambda: 0)
    monkeypatch.setattr("bot.service.fairness.roll_dice", lambda: (3, 4))
    covered, asked = make_world(fake), _same_names(fake)
    deals = iter([_deal("shanghai", 0, scene) for _ in range(2)])
    await bots.start(make_bot(tmp_path / "db.sqlite3", picture_processes=0,
                              service_options={"deal": lambda _r, _d: next(deals)}))
    for world in (covered, asked):
        await open_table(world)
        await quiet(bots)
        ann = world.players[0]
        claimer = world.players[secret]
        after = world.players[(secret + 1) % 4]
        if world is covered:
            await _answer(fake, bots, claimer, value, then)
        await _discard(fake, bots, ann, "9m")
        if world is asked:
            (prompt,) = _prompts(fake, claimer)
            claim = next(c for c in fake.custom_ids(prompt)
                         if c.startswith("mj:mv:") and c.split(":")[5].startswith(letter))
            await (await fake.click(claimer, prompt, claim)).response()
            await quiet(bots)
            if then is not None:
                await _discard(fake, bots, claimer, then)
        if then is None:
            await _discard(fake, bots, claimer, "1z")
        await _discard(fake, bots, after, "5z")
    assert _seen(fake, covered, 1, secret) == _seen(fake, asked, 2, secret)
    assert len(_seen(fake, covered, 1, secret)[0]) >= 3


# The dealer holds 1z 1z: once she has discarded, she may answer a pong of 1z in advance.
SCENE_PAIR = {0: "147m258p369s1134z9m", 1: QUIET[1], 2: QUIET[2], 3: QUIET[3]}


def _rows(message: FakeMessage) -> list[list[str]]:
    """A message's custom ids, row by row."""
    return [[str(c.get("custom_id", "")) for c in row.get("components", [])]
            for row in message.components]


async def test_the_message_discarded_from_offers_the_claims_in_advance_too(
        fake: FakeDiscord, bots: BotLauncher, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The reply to a discard click offers the next discard (row 0) and the claims in
    advance (row 1), in the same visit; a save from it keeps the other row, and its
    presses are judged in their own place (a stranger, a foreign table, an earlier
    hand: refused, nothing saved)."""
    world = await _started(fake, bots, tmp_path, monkeypatch, scene=SCENE_PAIR)
    ann = world.players[0]
    clicked = fake.dms(ann)[-1]
    await _discard(fake, bots, ann, "9m")
    shown = fake.message(clicked)
    assert _rows(shown) == [["mj:nx:1:1:s0"], ["mj:ca:1:1"]], _rows(shown)
    table_message = fake.messages(world.channel)[-1]
    said = {
        "stranger": await press(fake, world.outsider, table_message, "mj:ca:1:1", ["p1z"],
                                "en-US"),
        "foreign table": await press(fake, ann, shown, "mj:ca:7:1", ["p1z"], "en-US"),
        "earlier hand": await press(fake, ann, shown, "mj:ca:1:0", ["p1z"], "en-US"),
    }
    assert said == {
        "stranger": "You don't sit at this table.",
        "foreign table": "There is no table here; open one with /mahjong new.",
        "earlier hand": "That button is from an earlier hand.",
    }
    store = latest_bot(bots).store
    assert store is not None
    hand = await store.hands.live(1)
    assert hand is not None
    assert await store.claim_answers.of_hand(hand.id) == []
    handle = await fake.select(ann, shown, "mj:ca:1:1", ["p1z"])
    answered = await handle.response()
    assert answered.type == 7 and "Answered in advance: 碰 Pong" in str(answered.content)
    assert [[str(c.get("custom_id", "")) for c in row.get("components", [])]
            for row in answered.components] == [["mj:nx:1:1:s0"], ["mj:ca:1:1"]]
    await quiet(bots)
    saved = await store.claim_answers.of_hand(hand.id)
    assert [(r.seat, r.tile, r.kind) for r in saved] == [(0, "1z", "pong")]
