"""The Discord adapter, grouped by feature: the ``/mahjong`` commands (commands), a
seat's decision (play: its buttons and menu, standing choices, DMs and their words),
the lobby (lobby: its message and buttons, leaving, the options of ``/mahjong new``,
computers' names), ``/mahjong hand``'s reply (hand), the table's channel (table: the
presenter of the service's notices and the channel's words), the calculator, history,
leaderboard, rules and stats commands (one module each), delivery (outbox, posting, retry, the
presenter's memory) and the shared mechanism (core: strings, answering an interaction,
the id scheme, refusals, shared words, pictures). Each feature owns its components'
ids; core imports no feature. The client (client) wires it together.
"""
