"""The texts of ``/mahjong score``'s calculator (calculator.py), in English and 简体中文, by
key.

A feature's strings module: what that means and what holds it, `bot.discord.core.i18n`.
"""

from __future__ import annotations

EN: dict[str, str] = {
    "reply.score.calc_title": "**Score: {rules}**",
    "reply.score.value": "Value: {value}",
    "reply.score.payments": "Payments: {payments}",
    "calc.pays": "{a} pays {b} ({c} × one share)",
    "calc.share": "One share = {a}",
    "reply.score.invalid": "Not a valid win: {reason}",
    "reply.score.bad_case": "That case is not valid JSON (line {line}, column {column}).",
    "reply.score.not_object": "A case is one JSON object, as the calculator's README shows.",
    "reply.score.too_deep": "That case nests lists or objects more than {depth} deep; a case "
                            "needs three (the case, its melds, a meld).",
    "reply.score.long_number": "That case has a number of {digits} digits; no field needs more "
                               "than {limit}.",
    "reply.score.bad_meld": "I can't read the meld {meld}; write pong:555m, chi:123s, "
                            "kong:1111z, akong:4444p or ckong:9999p.",
}

ZH: dict[str, str] = {
    "reply.score.calc_title": "**算分：{rules}**",
    "reply.score.value": "分值：{value}",
    "reply.score.payments": "输赢：{payments}",
    "calc.pays": "{a}付 {b}（{c} 份）",
    "calc.share": "每份 = {a}",
    "reply.score.invalid": "不能这样胡：{reason}",
    "reply.score.bad_case": "这个案例不是有效的 JSON（第 {line} 行第 {column} 列）。",
    "reply.score.not_object": "案例应是一个 JSON 对象（见算分器的说明）。",
    "reply.score.too_deep": "这个案例的列表或对象嵌套超过 {depth} "
                            "层；一个案例只需三层（案例、副露列表、副露）。",
    "reply.score.long_number": "这个案例里有一个 {digits} 位的数字；任何字段都用不到超过 "
                               "{limit} 位。",
    "reply.score.bad_meld": "看不懂副露 {meld}；请写成 pong:555m、chi:123s、kong:1111z、akong:4"
                            "444p 或 ckong:9999p。",
}
