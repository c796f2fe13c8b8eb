"""Delivery: the ordered queues of work for Discord (outbox), the calls to Discord
and their failures (posting), and what the presenter remembers of each table."""
