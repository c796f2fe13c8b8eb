"""Delivery: the ordered queues of work for Discord (outbox), the calls to Discord
and their failures (posting), waiting out Discord's passing failures (retry: the gate,
nonces), and what the presenter remembers of each table."""
