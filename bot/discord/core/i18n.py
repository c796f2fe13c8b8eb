"""The strings of the Discord adapter, in English and 简体中文: one lookup by key.

Each feature keeps its own texts in its strings module (``play/strings.py``,
``calculator_strings.py``…, listed in `FEATURES`); this module holds the mechanism,
the command tree's names and descriptions (``cmd.*``, ``param.*``) and the strings
several features share (the engine's refusals ``why.*``, the service's ``refused.*``,
errors, what happened ``ev.*``, tiles, waits, values). All are put in one table per
language when this module is imported.

A feature's strings module is a leaf (it imports nothing) holding ``EN`` and ``ZH``:
listed here and put in the one lookup at import, so a key is found whatever was
imported first. Both tables hold the same keys with the same fields
(tests/discord/test_discord_i18n.py), and every key a feature uses is in its own module
or among core's shared ones (tests/discord/test_feature_layout.py).

Strings are looked up by key so that the same code path can answer in the locale of
the person who clicked (`interaction.locale`) or of the server (`guild_locale`) for
channel messages. Both tables must hold exactly the same keys with the same format
fields: tests enforce it, so a string can never be missing in one language.

Command names, descriptions and choice names go to Discord through discord.py's
translator: build them with `ls(key)` (a `locale_str` whose message is the English
text and whose ``key`` extra names the entry) and install `MahjongTranslator` on the
command tree. Players in zh-CN (and zh-TW, which falls back to zh-CN) see Chinese.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any, Literal

import discord
from discord import app_commands

from engine import rules as rulesets
from engine.rules import Words

Lang = Literal["en", "zh"]
LocaleLike = discord.Locale | str | None

# Command group and subcommands: (name, description). Names obey Discord's
# ^[-_\p{L}\p{N}]{1,32}$ in lower case; descriptions are at most 100 characters.
_COMMANDS_EN: dict[str, tuple[str, str]] = {
    "group": ("mahjong", "Play {either} mahjong, one move at a time"),
    "new": ("new", "Open a new mahjong table in this channel"),
    "join": ("join", "Take a seat at this channel's table"),
    "leave": ("leave", "Leave the table (a computer takes over a game in play)"),
    "addbot": ("addbot", "Seat a computer player in an empty seat"),
    "start": ("start", "Start the match once all four seats are filled"),
    "hand": ("hand", "See your tiles and moves privately (use it when your DMs are closed)"),
    "turns": ("turns", "Every table, in every server, where a decision waits for you (private)"),
    "quiet": ("quiet", "Your quiet hours, at every table: your timers stand still and nothing "
                       "notifies you"),
    "vacation": ("vacation", "Take days off: your timers stand still (each table sets how many "
                             "days)"),
    "table": ("table", "Show the table picture again"),
    "leaderboard": ("leaderboard", "This channel's running leaderboard, one per rule set"),
    "rules": ("rules", "A summary of the rules, this table's options and how to read your hand "
                       "picture"),
    "score": ("score",
              "Score a hand (give hand and win_tile, or a JSON case); alone: the match totals"),
    "cancel": ("cancel", "Cancel the table (its creator or a server manager)"),
    "history": ("history", "The last finished hand: its moves and its revealed wall"),
    "stats": ("stats", "A player's figures: placements, win and deal-in rates, biggest hand, "
                       "head-to-head"),
    "replay": ("replay", "Step through a finished hand with every tile open, and download "
                         "its record"),
    "ratings": ("ratings", "Skill ratings, per server and rule set"),
    "ratings.rebuild": ("rebuild", "Rebuild this server's ratings from its finished matches "
                                   "(server managers)"),
    "season": ("season", "This server's seasons of the leaderboards"),
    "season.close": ("close", "Close this season: every channel's leaderboard archived, the "
                              "next begun (server managers)"),
    "recap": ("recap", "Turn this channel's weekly recap on or off (server managers)"),
}
_COMMANDS_ZH: dict[str, tuple[str, str]] = {
    "group": ("麻将", "{every}麻将：异步对局，随时出牌"),
    "new": ("开桌", "在本频道开一张新牌桌"),
    "join": ("加入", "在本频道的牌桌入座"),
    "leave": ("离开", "离开牌桌（对局中由电脑接替）"),
    "addbot": ("加电脑", "让电脑玩家坐一个空位"),
    "start": ("开始", "四个座位坐满后开始对局"),
    "hand": ("手牌", "私下查看你的手牌和可选操作（私信关闭时使用）"),
    "turns": ("轮到我", "所有服务器中等你决定的牌局（仅你可见）"),
    "quiet": ("免打扰", "你的免打扰时段（所有牌桌）：计时暂停，不发通知"),
    "vacation": ("休假", "休假几天：你的计时暂停（每张牌桌自定上限）"),
    "table": ("牌桌", "重新显示牌桌图片"),
    "leaderboard": ("排行榜", "本频道的累计排行榜（每种规则各一个）"),
    "rules": ("规则", "规则、本桌选项摘要及手牌图的看法"),
    "score": ("算分", "计算一手牌的得分（给出手牌与胡的牌，或 JSON）；不填则显示本场比分"),
    "cancel": ("取消", "取消牌桌（开桌人或服务器管理员）"),
    "history": ("历史", "上一局的全部操作与公开的牌墙"),
    "stats": ("统计", "玩家数据：名次、胡牌率、放铳率、最大的一手、对阵记录"),
    "replay": ("回放", "逐步回看一局已结束的牌，所有手牌公开，并可下载牌谱"),
    "ratings": ("等级分", "等级分（按服务器与规则分别计算）"),
    "ratings.rebuild": ("重建", "按已结束的对局重建本服务器的等级分（服务器管理员）"),
    "season": ("赛季", "本服务器排行榜的赛季"),
    "season.close": ("结束", "结束本赛季：存档所有频道的排行榜，开始新赛季（服务器管理员）"),
    "recap": ("周报", "开启或关闭本频道的每周回顾（服务器管理员）"),
}

# Parameters: (name, description).
_PARAMS_EN: dict[str, tuple[str, str]] = {
    "rules": ("rules", "{either} rules"),
    "hands": ("hands", "Hands in the match (1–64, default 8)"),
    "turn_timer": ("turn_timer", "Time for a turn (default 12 h)"),
    "claim_timer": ("claim_timer", "Time to claim a discard or pass (default 2 h)"),
    "away_after": ("away_after",
                   "Timeouts in a row before the computer plays for a seat (1–10, default 3)"),
    "away_leaves": ("away_leaves",
                    "Those timeouts count as leaving: the computer keeps the seat, 逃跑 penalty "
                    "(default off)"),
    "mentions": ("mentions", "When to mention a player in the channel (default: only "
                             "when needed)"),
    "vacation_days": ("vacation_days",
                      "Days of a player's /mahjong vacation this table honours (0–30, "
                      "default 3; 0: none)"),
    "time_bank": ("time_bank", "Each seat's reserve of time per hand, spent once its timer is "
                               "out (default off)"),
    "time_bank_add": ("time_bank_add", "Given back to a seat's time bank after each of its "
                                       "moves, up to the bank (default none)"),
    "table": ("table", "The table number, when the channel has more than one"),
    "hand": ("hand", "Calculator: the concealed tiles before the winning tile, e.g. 123m456p"),
    "win_tile": ("win_tile", "Calculator: the winning tile, e.g. 5s"),
    "win": ("win", "Calculator: how the hand was won (default self-draw)"),
    "melds": ("melds", "Calculator: melds, e.g. pong:555m chi:123s kong:1111z ckong:9999p"),
    "flowers": ("flowers", "Calculator, Shanghai: the winner's flowers, e.g. 1f5f"),
    "dealer": ("dealer", "Calculator: the winner is the dealer (default no)"),
    "case": ("case", "Calculator: a whole case as JSON, seats 0–3 (see the calculator's README)"),
    "hand_number": ("hand", "The hand's number in the match (default: the last finished one)"),
    "quiet_start": ("start", "When your quiet hours start, HH:MM on your clock (e.g. 23:00)"),
    "quiet_end": ("end", "When they end, HH:MM (e.g. 07:00)"),
    "time_zone": ("time_zone", "Your time zone (e.g. Asia/Shanghai); needed the first time"),
    "quiet_off": ("off", "Turn your quiet hours off"),
    "days": ("days", "How many days, from now (1–30)"),
    "vacation_off": ("off", "End your vacation now"),
    "player": ("player", "Whose figures (default: yours)"),
    "scope": ("scope", "This channel (default), this server, or every server (yours only)"),
    "versus": ("versus", "Head-to-head against this player"),
    "season": ("season", "A past season's number, or all for all time (default: this "
                         "season)"),
    "enabled": ("enabled", "On or off"),
}
_PARAMS_ZH: dict[str, tuple[str, str]] = {
    "rules": ("规则", "{either}规则"),
    "hands": ("局数", "本场局数（1–64，默认 8）"),
    "turn_timer": ("出牌时限", "每次出牌的时限（默认 12 小时）"),
    "claim_timer": ("吃碰时限", "吃、碰、杠、胡或过的时限（默认 2 小时）"),
    "away_after": ("托管次数", "连续超时几次后由电脑托管（1–10，默认 3）"),
    "away_leaves": ("超时算逃跑",
                    "连续超时视为离开：电脑接替座位直到本场结束，并按逃跑处罚（默认关）"),
    "mentions": ("频道提醒", "何时在频道里 @ 玩家（默认：仅在需要时）"),
    "vacation_days": ("休假天数", "本桌接受玩家 /mahjong 休假 的天数（0–30，默认 3；0：不接受）"),
    "time_bank": ("备用时间", "每人每局的备用时间，计时用完后才开始消耗（默认关）"),
    "time_bank_add": ("备用时间补充", "每走一步补回的备用时间，最多补满（默认不补）"),
    "table": ("桌号", "桌号（频道里有多张牌桌时）"),
    "hand": ("手牌", "算分：胡牌前的暗手，例如 123m456p"),
    "win_tile": ("胡的牌", "算分：胡的那张牌，例如 5s"),
    "win": ("胡法", "算分：怎样胡的（默认自摸）"),
    "melds": ("副露", "算分：副露，例如 pong:555m chi:123s kong:1111z ckong:9999p"),
    "flowers": ("花牌", "算分（上海）：胡家的花，例如 1f5f"),
    "dealer": ("庄家", "算分：胡家是庄家（默认否）"),
    "case": ("案例", "算分：用 JSON 写出整个案例（座位编号 0–3）"),
    "hand_number": ("局", "第几局（默认：最近结束的一局）"),
    "quiet_start": ("开始", "免打扰开始时间，按你的时钟 HH:MM（例如 23:00）"),
    "quiet_end": ("结束", "免打扰结束时间 HH:MM（例如 07:00）"),
    "time_zone": ("时区", "你的时区（例如 Asia/Shanghai）；第一次需要填写"),
    "quiet_off": ("关闭", "关闭免打扰"),
    "days": ("天数", "从现在起休假几天（1–30）"),
    "vacation_off": ("结束", "现在结束休假"),
    "player": ("玩家", "查看谁的数据（默认：你自己）"),
    "scope": ("范围", "本频道（默认）、本服务器或全部服务器（仅本人）"),
    "versus": ("对手", "与这位玩家的对阵记录"),
    "season": ("赛季", "往届赛季编号，或 all 查看历届总榜（默认本赛季）"),
    "enabled": ("开启", "开启或关闭"),
}

# The strings several features share (or core's own: refusals, errors, tiles, waits,
# what happened); each feature's own are in its strings module (`FEATURES`).
_EN: dict[str, str] = {
    "list.sep": ", ",
    "refused.wrap": "Not done.",
    "refused.no_table": "There is no table here; open one with /mahjong new.",
    "refused.bad_options": "Those options don't work: {why}.",
    "refused.channel_busy": "This channel already has a table; finish or cancel it first.",
    "refused.bad_name": "A seat can't show your name; set a display name with letters in it "
                        "and try again.",
    "refused.not_in_lobby": "The table has already started and takes no more seats.",
    "refused.not_playing": "No game is being played at this table.",
    "refused.table_full": "The table is full.",
    "refused.already_seated": "You already sit at this table.",
    "refused.seat_taken": "Seat {seat} is taken.",
    "refused.no_such_seat": "Seats are numbered 1 to 4.",
    "refused.not_seated": "You don't sit at this table.",
    "refused.not_member": "Only players at this table, its creator or a server manager can do "
                          "that.",
    "refused.not_yours": "That button is for {name}; you don't sit at this table.",
    "refused.not_allowed": "Only the table's creator or a server manager can do that.",
    "refused.empty_seats": "Seat(s) {seats} are empty: wait for players or add computer players.",
    "refused.not_a_computer": "Seat {seat} is not a computer player.",
    "refused.wrong_seat": "That button is for {name}, not for you.",
    "refused.no_hand": "No hand is being played.",
    "refused.stale": "That button is for a decision that has passed.",
    "refused.stale_hand": "That button is from an earlier hand.",
    "refused.raced": "Another move landed first; look at the table again.",
    "refused.illegal": "That move isn't allowed: {why}.",
    "refused.bad_claim_answer": "You can answer in advance a pong of a tile you hold two of, "
                                "or a kong of one you hold three of: not {tile}.",
    "refused.bad_chi_answer": "A chi in advance takes two tiles of your own hand that make "
                              "a run with the tile, no 财神: not {tile} with {tiles}.",
    "refused.bad_then_discard": "The discard named after a chi or pong in advance must be "
                                "one you still hold after that claim (none after a kong): "
                                "not {tile} after {claimed}.",
    "refused.not_held": "You don't hold {tile}; choose a tile from your hand.",
    "refused.your_turn": "It is your turn now: play it from your move menu; the next "
                         "discard is chosen while others play.",
    "refused.no_next_discard": "You have no next discard chosen now (it was played or "
                               "cancelled): choose one first.",
    "seat.n": "seat {n}",
    "why.hand_over": "the hand is over",
    "why.not_your_turn": "it is {seat}'s turn, not yours",
    "why.turn_only": "there is no discard to claim; it is your turn to discard, kong or win",
    "why.not_held": "you do not hold {tiles}",
    "why.no_pong": "you have no pong that {tile} makes a kong of",
    "why.no_draw": "no tile has been drawn this turn, and a self-draw needs one",
    "why.incomplete": "the tiles do not form a complete hand",
    "why.not_valid": "it is not a valid win",
    "why.own_tile": "the others are deciding on your own discard",
    "why.nothing_to_claim": "you have nothing to claim on {tile}",
    "why.answered": "you already answered this discard",
    "why.not_a_choice": "it is not one of your choices now",
    "why.claim_or_pass": "{seat}'s {tile} is waiting for claims: claim it or pass",
    "why.rob_only": "an added kong may only be robbed by a win (抢杠), or passed",
    "why.chi_upper": "chi is only from the upper player (the seat just before you)",
    "why.not_complete": "{tile} does not complete your hand",
    "why.action_not_object": "a move is written as a JSON object",
    "why.action_field": "a move has no field {field}",
    "why.action_kind": "there is no kind of move {value}",
    "why.not_an_action": "that is not a move",
    "why.not_tile_values": "a move's tiles must be tiles",
    "why.tile_needed": "that move needs a tile",
    "why.tile_unwanted": "that move takes no single tile",
    "why.action_size": "that move takes {size} tile(s) from the hand, not {got}",
    "why.action_seat": "seats are numbered 1 to 4",
    "why.bao_tou": "a 暴头 hand wins by self-draw only",
    "why.seven_pairs": "a seven-pairs hand wins by self-draw only",
    "why.streak": "a win on a discard needs the dealer's streak at 老庄 {need} or more (now "
                  "老庄 {now}); only a self-draw wins",
    "why.dealer_only": "a win on a discard is only between the dealer and another player",
    "why.caishen_discard": "a discarded 财神 can never be claimed",
    "why.caishen_claim": "a discarded 财神 can never be claimed",
    "why.zhua_da_claim": "抓打: {seat} discarded a 财神, and until they draw again nobody else "
                         "may chi, pong, kong or win on a discard",
    "why.zhua_da_turn": "抓打: {seat} discarded a 财神, and until they draw again you may only "
                        "win by self-draw, make a concealed kong or discard the tile just "
                        "drawn",
    "why.last_window": "流局: 20 or fewer tiles are left, so only a win may be claimed",
    "why.lou_hu": "漏胡: you passed a win on {tile}, so no win on another {tile} until your "
                  "own next draw",
    "why.lou_peng": "漏碰: you passed a pong of {tile}, so no pong of it until your own next draw",
    "why.caishen_melds": "at this table a 财神 may not be used in chi, pong or kong",
    "why.tan": "摊: you already have {n} claims on {seat}'s discards, the most allowed",
    "why.tan_third": "摊: you already have {n} claims on {seat}'s discards, the most allowed",
    "why.chi_limit": "without 承包 liability nobody may chi more than {n} times in a hand",
    "why.win_after_claim": "after a chi or pong you must discard, not win",
    "why.plain_hand": "a plain hand cannot win in Shanghai: it needs a flush, all pungs, "
                      "honours, a big crane, a replacement win or another special pattern",
    "why.eight_flowers": "八花 Eight Flowers wins as a self-draw only",
    "why.no_win_tile": "without a winning tile only all eight flowers (八花) win",
    "why.bad_seat": "{field} must be a seat number from 0 to 3, not {value}",
    "why.self_draw_from": "a self-draw comes from nobody: drop 'from'",
    "why.needs_from": "a win on a discard needs 'from', the seat that gave the tile",
    "why.from_winner": "nobody wins on their own discard",
    "why.replacement_discard": "a replacement tile is drawn, so its win must be a self-draw",
    "why.no_flowers": "these rules have no flowers",
    "why.flowers_only": "'flowers' may hold only flowers",
    "why.flower_in_hand": "a flower is never part of a hand: list it under 'flowers'",
    "why.replacement_kong": "a kong replacement needs a kong, and the winner shows none",
    "why.replacement_flower": "a flower replacement needs a flower, and the winner shows none",
    "why.first_go_round": "in the first go-round nobody has made a chi, pong or kong yet",
    "why.concealed_kong_from": "a concealed kong comes from nobody: drop its 'from'",
    "why.meld_from": "a claimed meld needs 'from', whose discard it claimed",
    "why.own_discard": "nobody claims their own discard ({tiles})",
    "why.chi_from_upper": "chi is only from the upper player, {seat} ({tiles})",
    "why.claims_shape": "'claims' must be four rows of four counts",
    "why.claims_count": "{seat}'s count of claims on {seat_b} must be a whole number, 0 or "
                        "more, not {value}",
    "why.claims_own": "{seat} cannot have claimed their own discards",
    "why.claims_row": "{seat} cannot have made {n} claims in one hand: at most {limit}, each "
                      "one a meld",
    "why.claims_fewer": "the winner, {seat}, shows {melds} meld(s) claimed from {seat_b}, so "
                        "their claims on {seat_b} are {melds}, not {n}",
    "why.claims_more": "the winner, {seat}, shows {melds} meld(s) claimed from {seat_b}, so "
                       "their claims on {seat_b} are {melds}, not {n}",
    "why.copies_in_play": "{n} copies of {tile} are in play, but only {limit} can be",
    "why.hand_size": "with {melds} meld(s) the hand before the winning tile holds {want} "
                     "tiles, not {got}",
    "why.meld_size": "{tiles} do not make that meld",
    "why.flower_meld": "flowers never form melds",
    "why.not_a_run": "{tiles} do not make that meld",
    "why.not_identical": "{tiles} do not make that meld",
    "why.flipped_fixed": "'flipped' is only for a table whose 财神 is turned up",
    "why.flip_needs_flipped": "a table whose 财神 is turned up needs 'flipped', the tile "
                              "turned after the deal",
    "why.no_caishen": "{rules} has no 财神, so no 'flipped'",
    "why.needs_win_tile": "a win needs 'win_tile', the tile that completed the hand",
    "why.no_rob_kong": "{rules} rules have no 抢杠 (robbing a kong)",
    "why.streak_range": "the dealer's streak runs from 1 to {top}, not {value}",
    "why.no_flower_replacement": "Hangzhou has no flowers, so no flower replacement",
    "why.tan_count": "{seat} cannot have made {n} claims (摊) on {seat_b}'s discards: at most "
                     "{limit} in this hand",
    "why.chain_kongs": "the chain counts {n} kong(s), but the winner shows {kongs}",
    "why.eight_flowers_tile": "all eight flowers win as 八花 the moment the eighth comes, so "
                              "such a win has no winning tile",
    "why.shanghai_field": "'huangfan' is a Shanghai field",
    "why.hangzhou_fields": "'streak' and 'chain' are Hangzhou fields",
    "why.option_unknown": "{option} is not an option of these rules",
    "why.option_choice": "{option} must be one of {choices}, not {value}",
    "why.option_bool": "{option} is on or off, not {value}",
    "why.option_whole": "{option} must be a whole number, not {value}",
    "why.option_range": "{option} must be between {low} and {high}, not {value}",
    "why.options_type": "those options are not {rules} options",
    "why.unknown_rules": "there are no rules named {name}: choose {choices}",
    "why.notation_not_text": "tiles are written as text, such as 123m",
    "why.no_tiles": "tiles are needed, such as 123m",
    "why.one_tile": "that is {n} tiles ({text}), not one",
    "why.suit_letter": "{letter} in {text} is not a suit letter: use m, p, s, z or f",
    "why.no_such_tile": "there is no tile {face} (in {text})",
    "why.no_suit": "the digits {text} need a suit letter: end each run with m, p, s, z or f",
    "why.stray": "{char} does not belong in the tiles {text}",
    "why.copies": "{n} copies of {tile} are in play, but only {limit} can be",
    "why.case_not_object": "a case is a JSON object",
    "why.too_deep": "the case nests lists or objects more than {depth} deep (it needs three: "
                    "the case, its melds, a meld)",
    "why.number_too_long": "a number of {digits} digits is too long (at most {limit})",
    "why.unknown_field": "a case has no field {field}",
    "why.missing_field": "the case needs the field '{field}'",
    "why.field_whole": "'{field}' must be a whole number, not {value}",
    "why.field_type": "'{field}' must be a {type}, not {value}",
    "why.field_seat": "'{field}' must be a seat number from 0 to 3, not {value}",
    "why.field_choice": "'{field}' must be one of {choices}, not {value}",
    "why.chain_step": "'chain' holds only P (a 财神 discard) and K (a kong), not {char}",
    "why.meld_object": "each meld is an object with 'type' and 'tiles'",
    "why.unknown_meld_field": "a meld has no field {field}",
    "why.claims_list": "'claims' must be four rows of four counts",
    "why.kind.illegal": "it is not allowed now",
    "why.kind.malformed": "that is not a move",
    "why.kind.hand_over": "the hand is over",
    "why.kind.not_your_decision": "there is nothing for you to decide now",
    "why.kind.wrong_phase": "that kind of move does not fit this moment",
    "why.kind.already_answered": "you already answered",
    "why.kind.tile_not_held": "you do not hold those tiles",
    "why.kind.invalid_meld": "those tiles do not make that meld",
    "why.kind.not_a_win": "it is not a valid win",
    "why.kind.restricted": "a rule forbids it now",
    "why.kind.options": "one of the options does not fit these rules",
    "refused.option_not_for_rules": "Option {option} is not part of {rules} rules.",
    "error.unexpected": "Something went wrong on my side; please try again.",
    "error.check": "You can't use that command here.",
    "error.server_only": "That command works in the server channel of its table; in our "
                         "private messages you can use /mahjong turns, quiet, vacation, rules, "
                         "score and stats (your own, of every server).",
    "error.bad_value": "One of the values you gave doesn't fit that command.",
    "error.bad_component": "That button is out of date. Use /mahjong hand for fresh ones.",
    "tile.copies": "{name} ×{count}",
    "tile.caishen": "{name} (财神)",
    "wait.group": "{tiles} ({value})",
    "wait.groups_sep": "; ",
    "wait.many": "{n} tiles",
    "wait.self_draw": "self-draw only, {value}",
    "wait.discard": "on a discard only, {value}",
    "wait.both": "self-draw {self_draw}, on a discard {discard}",
    "value.hua": "{value} 花",
    "value.times": "×{value}",
    "ev.discard": "{name} discarded {tile}.",
    "ev.chi": "{name} chi {tiles}.",
    "ev.pong": "{name} pong {tiles}.",
    "ev.kong": "{name} kong {tiles}.",
    "ev.added_kong": "{name} added to a kong: {tiles}.",
    "ev.concealed_kong": "{name} declared a concealed kong.",
    "ev.my_concealed_kong": "You declared a concealed kong (the others see four backs).",
    "ev.flower": "{name} laid aside the flower {tile}.",
    "ev.wildcard": "Turned {tile}: its other copies are 财神 this hand.",
    "ev.drew": "You drew {tile}.",
    "ev.dealt": "Your tiles are dealt.",
    "ev.hand_start": "Hand {hand} begins; {name} deals.",
    "ev.win": "{name} wins!",
    "ev.drawn_hand": "The hand is drawn: nobody won.",
    "dm.legend.numbers": "the numbers under the tiles are those of the discard menu",
    "dm.legend.caishen": "a red 财 badge and a gold frame mark each 财神",
    "dm.legend.sep": "; ",
    "settle.pattern": "{name} ({value})",
    "settle.amount": "{name} {amount}",
    "refused.cancelled": "This table was cancelled.",
    "refused.confirm_leave": "Leaving a running match needs your confirmation first.",
    "refused.bad_time_zone": "“{zone}” is not a time zone; pick one from the list, like "
                             "Asia/Shanghai or Europe/London.",
    "refused.no_time_zone": "Quiet hours need your time zone the first time: add time_zone.",
    "refused.bad_clock": "“{value}” is not a time of day; write it as HH:MM, like 23:00.",
    "refused.quiet_needs_hours": "Quiet hours need both a start and an end the first time.",
    "refused.quiet_empty": "Quiet hours must end at another time than they start.",
    "refused.quiet_too_long": "Quiet hours last at most {most} hours a day; for longer, take "
                              "a vacation.",
    "refused.bad_days": "A vacation lasts 1 to {most} days.",
    "refused.ratings_not_manager": "Only a server manager (Manage Server) can rebuild this "
                                   "server's ratings.",
    "refused.no_finished_hand": "No hand of table #{table} has ended yet: only finished "
                                "hands can be replayed.",
    "refused.no_such_hand": "Table #{table} has no finished hand {hand} (its last finished "
                            "hand is {last}).",
    "refused.hand_running": "Hand {hand} of table #{table} is still being played: it can be "
                            "replayed once it has ended.",
    "refused.no_such_step": "That hand has steps 0 to {last} only.",
    "refused.not_manager": "Only a server manager (Manage Server) can do that.",
    "refused.season_closed": "Season {season} is already closed; nothing changed.",
    "refused.no_season": "This server has no season {season}: it is in season {current}.",
    "refused.bad_season": "“{value}” is no season: give a season's number, or “all” for "
                          "all time.",
    "refused.stats_bad_scope": "Stats are of this channel, this server or every server.",
    "refused.stats_all_others": "Stats of every server are shown only to their own player; "
                                "ask for this channel or this server instead.",
    "refused.stats_private_scope": "Here, in private messages, only your own stats of "
                                   "every server can be shown; ask in a server's channel "
                                   "for that channel or server.",
    "refused.stats_versus_self": "Head-to-head needs another player.",
}

_ZH: dict[str, str] = {
    "list.sep": "、",
    "refused.wrap": "未能执行。",
    "refused.no_table": "这里没有牌桌；用 /mahjong new 开一张吧。",
    "refused.bad_options": "选项不对：{why}。",
    "refused.channel_busy": "本频道已经有一张牌桌了；请先打完或取消它。",
    "refused.bad_name": "牌桌上无法显示你的名字；请设置一个带文字的显示名称后再试。",
    "refused.not_in_lobby": "牌桌已经开始，不再接受入座。",
    "refused.not_playing": "这张牌桌没有在对局。",
    "refused.table_full": "牌桌已坐满。",
    "refused.already_seated": "你已经在这张牌桌入座了。",
    "refused.seat_taken": "{seat} 号位已经有人了。",
    "refused.no_such_seat": "座位编号是 1 到 4。",
    "refused.not_seated": "你不在这张牌桌上。",
    "refused.not_member": "只有本桌玩家、开桌人或服务器管理员可以这样做。",
    "refused.not_yours": "这个按钮是给 {name} 的；你不在这张牌桌上。",
    "refused.not_allowed": "只有开桌人或服务器管理员可以这样做。",
    "refused.empty_seats": "{seats} 号位还空着：请等玩家入座或加电脑。",
    "refused.not_a_computer": "{seat} 号位不是电脑玩家。",
    "refused.wrong_seat": "这个按钮是给 {name} 的，不是给你的。",
    "refused.no_hand": "现在没有在打的牌局。",
    "refused.stale": "这个按钮对应的决定已经过去了。",
    "refused.stale_hand": "这个按钮来自之前的一局。",
    "refused.bad_chi_answer": "预先吃牌要用你手里能和这张连成顺子的两张牌（不能用财神）："
                              "{tiles} 吃 {tile} 不行。",
    "refused.bad_then_discard": "预先吃碰之后打的牌必须在吃碰后仍在你手里（杠之后不能指定）："
                                "{claimed} 之后打 {tile} 不行。",
    "refused.not_held": "你手里没有 {tile}；请从手牌里选一张。",
    "refused.your_turn": "现在轮到你了：请用出牌菜单打牌；下一张要打的牌在别人打牌时预先选。",
    "refused.no_next_discard": "你现在没有预选下一张要打的牌（已打出或已取消）：请先选一张。",
    "refused.raced": "另一步操作先到了；请重新看看牌桌。",
    "refused.illegal": "这一步不能走：{why}。",
    "refused.bad_claim_answer": "只能预先回答手里有两张的牌的碰、有三张的牌的杠：{tile} 不行。",
    "seat.n": "{n} 号位",
    "why.hand_over": "这一局已经结束",
    "why.not_your_turn": "现在轮到{seat}，不是你",
    "why.turn_only": "现在没有可以吃碰的牌，轮到你打牌、杠或胡",
    "why.not_held": "你手里没有 {tiles}",
    "why.no_pong": "你没有可以用 {tile} 加杠的碰",
    "why.no_draw": "这一轮没有摸牌，不能自摸",
    "why.incomplete": "这些牌还不能和牌",
    "why.not_valid": "这不是有效的胡牌",
    "why.own_tile": "其他人正在决定要不要你打出的牌",
    "why.nothing_to_claim": "{tile} 你没有可以吃碰杠胡的",
    "why.answered": "你已经对这张牌做过决定了",
    "why.not_a_choice": "这不是你现在能做的选择",
    "why.claim_or_pass": "{seat}打出的 {tile} 正等待吃碰杠胡：要么吃碰杠胡，要么过",
    "why.rob_only": "加杠只能抢杠胡，或者过",
    "why.chi_upper": "只能吃上家打出的牌",
    "why.not_complete": "{tile} 不能让你和牌",
    "why.action_not_object": "一步棋要写成一个对象",
    "why.action_field": "一步棋没有 {field} 这一项",
    "why.action_kind": "没有 {value} 这种走法",
    "why.not_an_action": "这不是一步棋",
    "why.not_tile_values": "一步棋里的牌必须是牌",
    "why.tile_needed": "这一步需要一张牌",
    "why.tile_unwanted": "这一步不用单张牌",
    "why.action_size": "这一步要从手里拿 {size} 张牌，不是 {got} 张",
    "why.action_seat": "座位编号是 1 到 4",
    "why.bao_tou": "暴头只能自摸",
    "why.seven_pairs": "七对子只能自摸",
    "why.streak": "胡别人打的牌需要老庄 {need} 以上（现在是老庄 {now}），只能自摸",
    "why.dealer_only": "胡别人打的牌只能在庄家与闲家之间",
    "why.caishen_discard": "打出的财神不能吃、碰、杠或胡",
    "why.caishen_claim": "打出的财神不能吃、碰、杠或胡",
    "why.zhua_da_claim": "抓打：{seat}打出了财神，在其再次摸牌前其他人不能吃、碰、杠或胡打出的牌",
    "why.zhua_da_turn": "抓打：{seat}打出了财神，在其再次摸牌前你只能自摸、暗杠或打出刚摸的牌",
    "why.last_window": "流局在即：只剩 20 张或更少，这张牌只能胡",
    "why.lou_hu": "漏胡：你放过了 {tile} 的胡，在你下次摸牌前不能再胡 {tile}",
    "why.lou_peng": "漏碰：你放过了碰 {tile}，在你下次摸牌前不能再碰它",
    "why.caishen_melds": "本桌财神不能用于吃、碰、杠",
    "why.tan": "摊：你已经吃碰杠了{seat}的牌 {n} 次，不能再多",
    "why.tan_third": "摊：你已经吃碰杠了{seat}的牌 {n} 次，不能再多",
    "why.chi_limit": "不承包时每人每局最多吃 {n} 次",
    "why.win_after_claim": "吃或碰之后必须打牌，不能胡",
    "why.plain_hand": "上海麻将不能平胡：需要清一色、碰碰胡、字牌、大吊车、杠开等牌型",
    "why.eight_flowers": "八花只能算自摸",
    "why.no_win_tile": "没有胡的那张牌时，只有八张花齐了（八花）才算胡",
    "why.bad_seat": "{field} 必须是 0 到 3 号位，不能是 {value}",
    "why.self_draw_from": "自摸的牌不是别人打的：请去掉 'from'",
    "why.needs_from": "胡别人打的牌需要写 'from'：打出这张牌的座位",
    "why.from_winner": "不能胡自己打出的牌",
    "why.replacement_discard": "补牌是摸来的，所以只能算自摸",
    "why.no_flowers": "这套规则没有花牌",
    "why.flowers_only": "'flowers' 里只能有花牌",
    "why.flower_in_hand": "花牌不算手牌：请写在 'flowers' 里",
    "why.replacement_kong": "杠后补牌要先有杠，但胡牌者没有杠",
    "why.replacement_flower": "补花要先有花，但胡牌者没有花",
    "why.first_go_round": "第一圈还没有人吃、碰或杠过",
    "why.concealed_kong_from": "暗杠不是别人打的：请去掉它的 'from'",
    "why.meld_from": "吃碰杠的副露需要写 'from'：吃碰的是谁的牌",
    "why.own_discard": "不能吃碰自己打出的牌（{tiles}）",
    "why.chi_from_upper": "只能吃上家{seat}的牌（{tiles}）",
    "why.claims_shape": "'claims' 必须是四行、每行四个数",
    "why.claims_count": "{seat}对{seat_b}的吃碰杠次数必须是 0 或更大的整数，不能是 {value}",
    "why.claims_own": "{seat}不可能吃碰自己打出的牌",
    "why.claims_row": "{seat}一局最多吃碰杠 {limit} 次（每次成一组副露），不可能有 {n} 次",
    "why.claims_fewer": "胡牌者{seat}亮出 {melds} 组吃碰杠{seat_b}的副露，所以对{seat_b}的吃碰"
                        "杠是 {melds} 次，不是 {n} 次",
    "why.claims_more": "胡牌者{seat}亮出 {melds} 组吃碰杠{seat_b}的副露，所以对{seat_b}的吃碰杠"
                       "是 {melds} 次，不是 {n} 次",
    "why.copies_in_play": "{tile} 出现了 {n} 张，最多只能有 {limit} 张",
    "why.hand_size": "有 {melds} 组副露时，胡牌前的手牌是 {want} 张，而不是 {got} 张",
    "why.meld_size": "{tiles} 组不成这组副露",
    "why.flower_meld": "花牌不能组成副露",
    "why.not_a_run": "{tiles} 组不成这组副露",
    "why.not_identical": "{tiles} 组不成这组副露",
    "why.flipped_fixed": "只有翻财神的牌桌才写 'flipped'",
    "why.flip_needs_flipped": "翻财神的牌桌需要写 'flipped'：开牌后翻出的那张牌",
    "why.no_caishen": "{rules}没有财神，不用写 'flipped'",
    "why.needs_win_tile": "胡牌需要写 'win_tile'：胡的那张牌",
    "why.no_rob_kong": "{rules}没有抢杠",
    "why.streak_range": "老庄只能是 1 到 {top}，不能是 {value}",
    "why.no_flower_replacement": "杭州麻将没有花牌，也就没有补花",
    "why.tan_count": "{seat}不可能吃碰杠了{seat_b}的牌 {n} 次：这一局最多 {limit} 摊",
    "why.chain_kongs": "飘杠里有 {n} 个杠，但胡牌者只有 {kongs} 个杠",
    "why.eight_flowers_tile": "八张花一齐就当场胡八花，没有胡的那张牌",
    "why.shanghai_field": "'huangfan' 是上海麻将的项",
    "why.hangzhou_fields": "'streak' 和 'chain' 是杭州麻将的项",
    "why.option_unknown": "{option}不是这套规则的选项",
    "why.option_choice": "{option}只能是 {choices}，不能是 {value}",
    "why.option_bool": "{option}只能是开或关，不能是 {value}",
    "why.option_whole": "{option}必须是整数，不能是 {value}",
    "why.option_range": "{option}应在 {low} 到 {high} 之间，不能是 {value}",
    "why.options_type": "这些选项不是{rules}的选项",
    "why.unknown_rules": "没有叫 {name} 的规则：请选 {choices}",
    "why.notation_not_text": "牌要写成文字，例如 123m",
    "why.no_tiles": "需要写出牌，例如 123m",
    "why.one_tile": "{text} 是 {n} 张牌，不是一张",
    "why.suit_letter": "{text} 中的 {letter} 不是花色字母：请用 m、p、s、z 或 f",
    "why.no_such_tile": "没有 {face} 这张牌（在 {text} 中）",
    "why.no_suit": "数字 {text} 缺少花色字母：每组以 m、p、s、z 或 f 结尾",
    "why.stray": "{char} 不应出现在 {text} 中",
    "why.copies": "{tile} 出现了 {n} 张，最多只能有 {limit} 张",
    "why.case_not_object": "案例要写成一个对象",
    "why.too_deep": "案例的列表或对象嵌套超过 {depth} 层（只需三层：案例、副露列表、副露）",
    "why.number_too_long": "{digits} 位的数字太长了（最多 {limit} 位）",
    "why.unknown_field": "案例没有 {field} 这一项",
    "why.missing_field": "案例缺少 '{field}' 这一项",
    "why.field_whole": "'{field}' 必须是整数，不能是 {value}",
    "why.field_type": "'{field}' 必须是 {type} 类型，不能是 {value}",
    "why.field_seat": "'{field}' 必须是 0 到 3 号位，不能是 {value}",
    "why.field_choice": "'{field}' 只能是 {choices}，不能是 {value}",
    "why.chain_step": "'chain' 里只能有 P（打出财神）和 K（杠），不能有 {char}",
    "why.meld_object": "每组副露要写成带 'type' 和 'tiles' 的对象",
    "why.unknown_meld_field": "副露没有 {field} 这一项",
    "why.claims_list": "'claims' 必须是四行、每行四个数",
    "why.kind.illegal": "现在不允许",
    "why.kind.malformed": "这不是一步棋",
    "why.kind.hand_over": "这一局已经结束",
    "why.kind.not_your_decision": "你现在没有需要做的决定",
    "why.kind.wrong_phase": "现在不能这样做",
    "why.kind.already_answered": "你已经做过决定了",
    "why.kind.tile_not_held": "你手里没有这些牌",
    "why.kind.invalid_meld": "这些牌组不成这组副露",
    "why.kind.not_a_win": "这不是有效的胡牌",
    "why.kind.restricted": "规则现在不允许",
    "why.kind.options": "有一个选项不符合这套规则",
    "refused.option_not_for_rules": "选项 {option} 不属于{rules}规则。",
    "error.unexpected": "出了点问题，请再试一次。",
    "error.check": "你不能在这里使用这个命令。",
    "error.server_only": "这个命令要在牌桌所在的服务器频道里使用；私信中可以用 /麻将 轮到我、"
                         "免打扰、休假、规则、算分和统计（你自己在全部服务器的统计）。",
    "error.bad_value": "你填写的某个值不适合这个命令。",
    "error.bad_component": "这个按钮已经过时。请用 /mahjong hand 获取新的按钮。",
    "tile.copies": "{name}×{count}",
    "tile.caishen": "{name}（财神）",
    "wait.group": "{tiles}（{value}）",
    "wait.groups_sep": "；",
    "wait.many": "{n} 种牌",
    "wait.self_draw": "只能自摸，{value}",
    "wait.discard": "只能点炮，{value}",
    "wait.both": "自摸 {self_draw}，点炮 {discard}",
    "value.hua": "{value} 花",
    "value.times": "×{value}",
    "ev.discard": "{name} 打出 {tile}。",
    "ev.chi": "{name} 吃 {tiles}。",
    "ev.pong": "{name} 碰 {tiles}。",
    "ev.kong": "{name} 杠 {tiles}。",
    "ev.added_kong": "{name} 加杠 {tiles}。",
    "ev.concealed_kong": "{name} 暗杠。",
    "ev.my_concealed_kong": "你暗杠了（其他人只看到四张牌背）。",
    "ev.flower": "{name} 补花 {tile}。",
    "ev.wildcard": "翻出 {tile}：本局其余三张为财神。",
    "ev.drew": "你摸到 {tile}。",
    "ev.dealt": "发牌完毕。",
    "ev.hand_start": "第 {hand} 局开始，{name} 坐庄。",
    "ev.win": "{name} 胡了！",
    "ev.drawn_hand": "流局：无人胡牌。",
    "dm.legend.numbers": "牌下的编号就是出牌菜单里的编号",
    "dm.legend.caishen": "带红色“财”字和金框的是财神",
    "dm.legend.sep": "；",
    "settle.pattern": "{name}（{value}）",
    "settle.amount": "{name} {amount}",
    "refused.cancelled": "这张牌桌已被取消。",
    "refused.confirm_leave": "对局进行中离开需要先确认。",
    "refused.bad_time_zone": "“{zone}”不是时区；请从列表中选择，例如 Asia/Shanghai 或 "
                             "Europe/London。",
    "refused.no_time_zone": "第一次设置免打扰时段需要时区：请填写时区。",
    "refused.bad_clock": "“{value}”不是时刻；请写成 HH:MM，例如 23:00。",
    "refused.quiet_needs_hours": "第一次设置免打扰时段需要开始和结束时间。",
    "refused.quiet_empty": "免打扰时段的结束时间不能与开始时间相同。",
    "refused.quiet_too_long": "免打扰时段每天最多 {most} 小时；更长请用休假。",
    "refused.bad_days": "休假为 1 到 {most} 天。",
    "refused.ratings_not_manager": "只有服务器管理员（管理服务器权限）可以重建本服务器的等级分。",
    "refused.no_finished_hand": "第 {table} 桌还没有打完的局：只能回放已结束的局。",
    "refused.no_such_hand": "第 {table} 桌没有已结束的第 {hand} 局（最近结束的是第 {last} 局）。",
    "refused.hand_running": "第 {table} 桌的第 {hand} 局还在进行：结束后才能回放。",
    "refused.no_such_step": "这一局只有第 0 到第 {last} 步。",
    "refused.not_manager": "只有服务器管理员（管理服务器权限）可以这样做。",
    "refused.season_closed": "第 {season} 赛季已经结束，未作改动。",
    "refused.no_season": "本服务器没有第 {season} 赛季：现在是第 {current} 赛季。",
    "refused.bad_season": "“{value}”不是赛季：请填写赛季编号，或填 “all” 查看全部。",
    "refused.stats_bad_scope": "统计范围只能是本频道、本服务器或全部服务器。",
    "refused.stats_all_others": "全部服务器的统计只对本人显示；请改查本频道或本服务器。",
    "refused.stats_private_scope": "私信里只能查看你自己在全部服务器的统计；"
                                   "本频道或本服务器的统计请在服务器频道里查询。",
    "refused.stats_versus_self": "对战统计需要选另一位玩家。",
}

FEATURES: tuple[str, ...] = (
    "bot.discord.play.strings", "bot.discord.lobby.strings", "bot.discord.hand.strings",
    "bot.discord.table.strings", "bot.discord.delivery.strings",
    "bot.discord.commands_strings", "bot.discord.calculator_strings",
    "bot.discord.history_strings", "bot.discord.replay_strings",
    "bot.discord.leaderboard_strings",
    "bot.discord.rules_strings", "bot.discord.turns_strings", "bot.discord.quiet_strings",
    "bot.discord.stats_strings", "bot.discord.ratings_strings",
    "bot.discord.seasons_strings")
"""Each feature's strings module: a leaf (it imports nothing) holding ``EN`` and ``ZH``,
the feature's own texts. All are put in the one lookup when this module is first
imported, so a key is found whatever a process (a picture worker, a test) imported
first. A new feature with texts adds its module here."""
OWNED: dict[str, str] = {}
"""Each feature's key, by the strings module that defines it (the rest are core's)."""


def _gather() -> None:
    for name in FEATURES:
        module = importlib.import_module(name)
        for language, table in (("en", module.EN), ("zh", module.ZH)):
            mine = _EN if language == "en" else _ZH
            clash = set(table) & set(mine)
            if clash:
                raise ValueError(f"{name} defines keys defined elsewhere: {sorted(clash)}")
            mine.update(table)
        OWNED.update(dict.fromkeys(module.EN, name))


_gather()


def _add_commands(table: dict[str, str], commands: dict[str, tuple[str, str]],
                  params: dict[str, tuple[str, str]]) -> None:
    for cmd, (name, desc) in commands.items():
        table[f"cmd.{cmd}.name"] = name
        table[f"cmd.{cmd}.desc"] = desc
    for param, (name, desc) in params.items():
        table[f"param.{param}.name"] = name
        table[f"param.{param}.desc"] = desc


_add_commands(_EN, _COMMANDS_EN, _PARAMS_EN)
_add_commands(_ZH, _COMMANDS_ZH, _PARAMS_ZH)

STRINGS: dict[Lang, dict[str, str]] = {"en": _EN, "zh": _ZH}
"""Both tables, by language; tests check they hold the same keys and fields. They also
hold the words of the registered rule sets (`rule_set_words`), kept in step with the
registry."""

# The descriptions naming every rule set: filled in from the registry.
_LISTING = ("cmd.group.desc", "param.rules.desc")
_TEMPLATES: dict[Lang, dict[str, str]] = {
    language: {key: table.pop(key) for key in _LISTING} for language, table in STRINGS.items()}
_DERIVED: set[str] = set()
MAX_DESCRIPTION = 100
"""Discord's limit on a command's or a parameter's description."""


def rule_set_words() -> dict[Lang, dict[str, str]]:
    """What players read of the registered rule sets, by key, as each rule set's object
    says it (`engine.rules.RuleSet`): its name (``rules.<name>``, its choice
    ``choice.rules.<name>``), its paragraph (``rules.about.<name>``), its leaderboard's
    unit (``board.unit.<name>``) and, for each option it adds, the parameter's name and
    description (``param.<option>.*``, one description per rule set having it), its
    ``/mahjong rules`` line (``opt.<option>``) and its choices and values
    (``choice.<option>.<value>``, ``val.<option>.<value>``); and the descriptions that
    list every rule set. Nothing here names a rule set."""
    words: dict[str, Words] = {}
    descs: dict[str, list[Words]] = {}
    sets = list(rulesets.RULESETS.values())
    for ruleset in sets:
        name = ruleset.name
        words[f"rules.{name}"] = Words(ruleset.en, ruleset.zh)
        words[f"choice.rules.{name}"] = Words(f"{ruleset.en} {ruleset.zh}", ruleset.zh)
        words[f"rules.about.{name}"] = ruleset.about
        words[f"board.unit.{name}"] = ruleset.unit
        for option in ruleset.own_options():
            said = ruleset.option_words[option]
            if said.desc not in descs.setdefault(option, []):
                descs[option].append(said.desc)
            if f"opt.{option}" in words:  # the first rule set having it names it
                continue
            words[f"param.{option}.name"] = said.name
            words[f"opt.{option}"] = said.line
            words.update({f"choice.{option}.{v}": w for v, w in said.choices.items()})
            words.update({f"val.{option}.{v}": w for v, w in said.values.items()})
    for option, several in descs.items():
        words[f"param.{option}.desc"] = Words(
            _clip("; ".join(w.en for w in several)), _clip("；".join(w.zh for w in several)))
    out: dict[Lang, dict[str, str]] = {
        "en": {key: w.en for key, w in words.items()},
        "zh": {key: w.zh for key, w in words.items()}}
    listing: dict[Lang, tuple[str, str]] = {
        "en": (_either([r.en for r in sets], ", ", " or "), ", ".join(r.en for r in sets)),
        "zh": (_either([r.zh for r in sets], "、", "或"), "、".join(r.zh for r in sets))}
    for language, (either, every) in listing.items():
        for key in _LISTING:
            out[language][key] = _clip(_TEMPLATES[language][key].format(either=either,
                                                                          every=every))
    return out


def _either(names: Sequence[str], sep: str, last: str) -> str:
    """"A or B", "A, B or C" (or the Chinese "A或B", "A、B或C")."""
    return last.join([sep.join(names[:-1]), names[-1]]) if len(names) > 1 else "".join(names)


def _clip(text: str) -> str:
    return text if len(text) <= MAX_DESCRIPTION else text[:MAX_DESCRIPTION - 1] + "…"


def _follow_the_registry() -> None:
    """Put the registered rule sets' words in `STRINGS` (and take a gone one's out)."""
    for table in STRINGS.values():
        for key in _DERIVED:
            table.pop(key, None)
    _DERIVED.clear()
    for language, words in rule_set_words().items():
        clash = set(words) & set(STRINGS[language])
        if clash:
            raise ValueError(f"a rule set's words would replace the adapter's: {sorted(clash)}")
        STRINGS[language].update(words)
        _DERIVED.update(words)


_follow_the_registry()
rulesets.on_change(_follow_the_registry)

COMMANDS: tuple[str, ...] = tuple(k for k in _COMMANDS_EN if k != "group" and "." not in k)
"""The subcommands of /mahjong, in the order they are registered (a group's own
subcommands, ``ratings.rebuild``, are not among them: `SUBCOMMANDS`)."""
SUBCOMMANDS: tuple[str, ...] = tuple(k for k in _COMMANDS_EN if "." in k)
"""The subcommands of /mahjong's groups, ``<group>.<subcommand>``."""

PARAMS: tuple[str, ...] = tuple(_PARAMS_EN)



def lang(locale: LocaleLike) -> Lang:
    """Chinese for any zh locale (zh-CN; zh-TW falls back to it), English otherwise."""
    if locale is None:
        return "en"
    found = _LANGS.get(locale)
    if found is None:
        value = locale.value if isinstance(locale, discord.Locale) else str(locale)
        found = "zh" if value.lower().startswith("zh") else "en"
        if len(_LANGS) < MAX_LOCALES:
            _LANGS[locale] = found
    return found


MAX_LOCALES = 256
"""Locales whose language `lang` remembers (Discord has about 30; the bound keeps a
stream of made-up locale strings from growing it)."""
_LANGS: dict[LocaleLike, Lang] = {}
"""Each text a message needs asks for its language: a dict look-up instead of an
enum check and a string test each time (a DM asks ~50 times)."""


def t(key: str, locale: LocaleLike = None, /, **kw: Any) -> str:
    """The text of ``key`` in the locale, formatted with ``kw``.

    An unknown key raises KeyError: it is a programming error, caught by the tests that
    check every key exists in both languages.
    """
    text = STRINGS[lang(locale)][key]
    return text.format(**kw) if kw else text


def has(key: str) -> bool:
    return key in _EN


def join(items: list[str] | tuple[str, ...], locale: LocaleLike) -> str:
    """A list in the locale's style: "a, b" or "a、b"."""
    return t("list.sep", locale).join(items)


def ls(key: str, /, **kw: Any) -> app_commands.locale_str:
    """A `locale_str` for discord.py: English message, ``key`` and format fields as extras.

    The message must be the English text: Discord sends it back to dispatch commands.
    A field may itself be an `ls(...)`: the translator translates it too.
    """
    return app_commands.locale_str(t(key, "en", **kw), key=key, **kw)


class MahjongTranslator(app_commands.Translator):
    """Gives Discord the zh-CN (and zh-TW) text of every `ls()` string.

    Install with ``await tree.set_translator(MahjongTranslator())`` before syncing.
    Other locales get None, so Discord shows the English default.
    """

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        return translate(string, locale)


def translate(string: app_commands.locale_str, locale: LocaleLike) -> str | None:
    """The synchronous core of `MahjongTranslator.translate`."""
    if lang(locale) != "zh":
        return None
    extras = dict(string.extras)
    key = extras.pop("key", None)
    if not isinstance(key, str) or key not in _ZH:
        return None
    fields = {k: _field(v, locale) for k, v in extras.items()}
    return t(key, "zh", **fields)


def _field(value: Any, locale: LocaleLike) -> Any:
    """A field that is itself a `locale_str` (a nested `ls`) is translated too."""
    if isinstance(value, app_commands.locale_str):
        return translate(value, locale) or value.message
    return value
