"""The Discord adapter: the ``/mahjong`` commands (commands), the buttons as dynamic
items (ids), how both answer an interaction (answering), strings (i18n), the options of
``/mahjong new`` (options) and the builders of views and texts (components, texts).

The commands and the items' callbacks call the table service (``interaction.client
.service``) with a `bot.service.Cause`; everything else here is pure, apart from the
notifier, which presents the service's notices.
"""
