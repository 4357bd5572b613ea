"""Matches: challenges, live play, clocks, presence, fair dice and match records."""
