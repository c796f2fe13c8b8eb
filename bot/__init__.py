"""The asynchronous side: configuration, the store, the table service, the Discord adapter."""
