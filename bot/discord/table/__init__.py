"""The table's channel: the presenter of the service's notices (notifier: lobby
message, table picture, mentions, announcements, and private notices routed to their
feature) and the channel's words (words)."""
