"""Write sample pictures as PNGs, for a person to look at: a seeded game of each rule
set played by computer players (a hand per seat mid-game, the table, the settlement),
then the hand-made samples of every case (kongs, flowers, 财神, long rivers …).

    python -m render.gallery OUTDIR [--seed N]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from engine import rules
from engine.ai import choose_action
from engine.game import apply, deciding_seats, new_hand
from engine.game.state import Phase
from engine.view import open_view, spectator_view, view
from render import samples
from render.cards import leaderboard_card, settlement_card
from render.hand import hand_image
from render.stats import stats_card
from render.table import open_table_image, table_image


def game_pictures(seed: int = 7) -> dict[str, bytes]:
    """A seeded hand of each rule set, played by computer players, as players see it."""
    out: dict[str, bytes] = {}
    for rules_name, ruleset in rules.RULESETS.items():
        rng = random.Random(seed)
        wall = ruleset.tile_set()
        rng.shuffle(wall)
        state, _ = new_hand(rules_name, {}, tuple(wall), 0, (3, 5))
        snapshot = None
        while state.phase is not Phase.ENDED:
            discards = sum(len(s.discards) for s in state.seats)
            if snapshot is None and discards >= 20 and state.phase is Phase.TURN:
                snapshot = state
            state, _ = apply(state, choose_action(state, deciding_seats(state)[0], rng))
        for seat in range(4):
            out[f"game_{rules_name}_hand_seat{seat}"] = hand_image(view(snapshot or state,
                                                                       seat))
        out[f"game_{rules_name}_table_midgame"] = table_image(
            spectator_view(snapshot or state), samples.NAMES)
        out[f"game_{rules_name}_table_end"] = table_image(spectator_view(state), samples.NAMES)
        # the replay of the hand (/mahjong replay): every hand open, and one seat's view
        out[f"game_{rules_name}_replay_open"] = open_table_image(
            open_view(snapshot or state), samples.NAMES)
        out[f"game_{rules_name}_replay_seat1"] = open_table_image(
            open_view(snapshot or state, viewer=1), samples.NAMES, 1)
        result = spectator_view(state).result
        if result is not None:
            out[f"game_{rules_name}_settlement"] = settlement_card(
                result, samples.NAMES, rules_name, caishen=state.wildcards.joker)
    return out


def pictures(seed: int = 7) -> dict[str, bytes]:
    """The seeded games, then every sample, rendered: name -> PNG bytes."""
    out: dict[str, bytes] = game_pictures(seed)
    for name, make in samples.HANDS.items():
        out[name] = hand_image(make())
    for name, make_table in samples.TABLES.items():
        out[name] = table_image(make_table(), samples.NAMES)
    out["table_late_from_seat_2"] = table_image(samples.table_late(), samples.NAMES, 2)
    for name, (make_result, rules_name) in samples.SETTLEMENTS.items():
        ruleset = rules.get(rules_name)  # the samples play the default 财神, if any
        caishen = ruleset.wildcards(ruleset.options()).joker
        out[name] = settlement_card(make_result(), samples.NAMES, rules_name, caishen=caishen)
    out["leaderboard_20"] = leaderboard_card(samples.leaderboard_rows(20),
                                             "Mahjong night · 上海 Shanghai")
    for name, card in samples.stats_cards().items():
        out[name] = stats_card(card)
    return out


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m render.gallery")
    parser.add_argument("outdir", type=Path)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    out = args.outdir
    out.mkdir(parents=True, exist_ok=True)
    for name, data in pictures(args.seed).items():
        path = out / f"{name}.png"
        path.write_bytes(data)
        print(f"{path}  {len(data) / 1024:.0f} KiB")


if __name__ == "__main__":
    main(sys.argv[1:])
