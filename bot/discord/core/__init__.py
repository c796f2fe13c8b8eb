"""Shared mechanism of the Discord adapter: strings and their translator (i18n),
how an interaction is answered, refusals in words, the picture processes, the tree's
error handler and the garbage collector's settings."""
