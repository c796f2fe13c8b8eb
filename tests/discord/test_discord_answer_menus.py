"""A click's answer offers the "Next discard…" and "Claim in advance…" menus composed as
Discord receives them (`next_discard_row`, `claims_row`: built through discord.ui they
were about a twentieth of the bot's CPU a click). What it sends must be what discord.py
sends for the same menus as a DM places them (`next_items`, `claims_menu`), for any hand,
any 财神, any answers chosen before, in both languages."""

from __future__ import annotations

import random
from typing import Any

import discord

from bot.discord.play.choices import claimable, claims_menu, claims_row
from bot.discord.play.premoves import next_discard_row, next_items, tile_options
from bot.service.notices import ClaimAnswer
from engine.tiles import Tile

TILES = [tile for tile in Tile if not tile.is_flower]


def _through_discord_ui(held: list[Tile], caishen: Tile | None, answers: Any,
                        locale: str) -> list[dict[str, Any]]:
    ui = discord.ui.View(timeout=None)
    for item in next_items(7, 2, 3, tile_options(held, None, locale, caishen), None, locale,
                           row=0):
        ui.add_item(item)
    claims = claims_menu(held, caishen, 7, 2, answers, locale, row=1)
    if claims is not None:
        ui.add_item(claims)
    return ui.to_components()


def _composed(held: list[Tile], caishen: Tile | None, answers: Any,
              locale: str) -> list[dict[str, Any]]:
    rows = [next_discard_row(7, 2, 3, held, caishen, locale)]
    claims = claims_row(held, caishen, 7, 2, answers, locale)
    if claims is not None:
        rows.append(claims)
    return rows


def _answers(rng: random.Random, held: list[Tile], caishen: Tile | None
             ) -> tuple[tuple[Tile, ClaimAnswer], ...]:
    """Some of what the seat could claim now, and some of an earlier hand's (tiles it no
    longer holds), as answers chosen before."""
    mine = claimable(held, caishen)
    older = claimable(rng.sample(TILES * 4, 13), caishen)
    picked = rng.sample(mine, min(len(mine), rng.randint(0, 3))) + \
        rng.sample(older, min(len(older), rng.randint(0, 2)))
    return tuple(sorted(dict(picked).items()))


def test_the_answer_menus_are_what_discord_ui_sends_for_thousands_of_hands() -> None:
    rng = random.Random(32)
    with_claims = 0
    for n in range(2000):
        held = sorted(rng.sample(TILES * 4, rng.choice((1, 4, 7, 10, 13))))
        caishen = rng.choice([None, *TILES])
        answers = _answers(rng, held, caishen) if n % 2 else ()
        locale = ("en-US", "zh-CN")[n % 4 // 2]
        composed = _composed(held, caishen, answers, locale)
        assert composed == _through_discord_ui(held, caishen, answers, locale), \
            (held, caishen, answers, locale)
        with_claims += len(composed) == 2
    assert with_claims > 500  # the claims menu was compared, not only its absence


def test_a_hand_with_nothing_to_claim_offers_the_next_discard_alone() -> None:
    held = [Tile(0), Tile(4), Tile(8)]  # no two alike, no two in reach of a chi
    rows = _composed(held, None, (), "en-US")
    assert len(rows) == 1 and rows == _through_discord_ui(held, None, (), "en-US")
    assert rows[0]["components"][0]["custom_id"] == "mj:nx:7:2:s3"
