"""Reads of the player's pages: ``profile`` (a player's record, games, head-to-head,
tournaments and games against the computer) and ``home`` (what is happening for a player and on
the site). They read through the other apps' models and selectors and write nothing."""
