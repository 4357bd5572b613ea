"""Fair play's detectors: each reads what happened (matches, analyses, log-ins, chat), decides
whether it looks like cheating, and opens or adds to a case (``fairplay.cases``) with the
evidence; staff decide. None sanctions anyone by itself.

``engine_use`` compares a player's decisions with the engine's over a window of analysed
matches against the human fit of ``engine_fit``; ``dumping`` finds one-way series of
resignations and money between two accounts; ``stalling`` finds players who let their clock
run out in lost positions; ``shared_accounts`` finds accounts logging in from the same
addresses and devices.
"""
