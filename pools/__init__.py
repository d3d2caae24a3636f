"""Quick play: pools, one per clock preset, where players wait to be paired with someone of a
close rating (lichess's quick pairing). A player joins a pool with one click; two waiting
players whose ratings are close enough play a rated game at once, and the range of "close
enough" widens the longer they wait. ``matching.py`` pairs (pure); ``services.py`` keeps the
seeks, creates the games and tells the players' tabs."""
