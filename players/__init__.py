"""The player's pages, on the top floor of the house: the home page, the list of players and a
player's public page (ratings and their charts, record, head-to-head, tournaments, tables and
games against the computer). They gather what the other apps keep, reading through their
models and selectors; no app below imports this one (docs/architecture.md)."""
