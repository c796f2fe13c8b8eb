"""The Discord adapter: strings (i18n), custom ids and dynamic items (ids), the options
of ``/mahjong new`` (options) and the builders of views and texts (components).

Everything here is pure apart from the dynamic items' callbacks, which delegate to the
handler the client carries (see `bot.discord.ids.InteractionHandler`).
"""
