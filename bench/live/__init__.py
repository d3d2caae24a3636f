"""What bench/games.py and bench/notifications.py share: the stack, the players, the phases and
the report."""
