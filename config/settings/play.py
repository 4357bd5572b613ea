"""Settings of play: post-match analysis, fair play's detectors, the play-money grant."""

from __future__ import annotations

from core.env import SettingError, env_bool, env_int, env_list, env_str

# Post-match analysis (the reviews app): every finished match is analysed by GNU Backgammon
# at this depth (0 to 4 plies) on the ``review`` queue. 2 ply keeps up with about 190
# seven-point matches an hour per analysis worker (bench/bench_match_analysis.py).
ANALYSIS_PLIES = env_int("CRAWFORD_ANALYSIS_PLIES", 2, minimum=0)
if ANALYSIS_PLIES > 4:
    raise SettingError(f"CRAWFORD_ANALYSIS_PLIES must be 0 to 4, not {ANALYSIS_PLIES}")
ANALYSE_FINISHED_MATCHES = env_bool("CRAWFORD_ANALYSE_FINISHED_MATCHES", True)

# The engine (analysis.gnubg_found): "auto" runs Debian's program where it is installed,
# else the gnubg Python package of the virtual environment; "program", "package" or "none"
# (practice and analysis shown as unavailable) force a choice.
CRAWFORD_ENGINE = env_str("CRAWFORD_ENGINE", "auto")
if CRAWFORD_ENGINE not in ("auto", "program", "package", "none"):
    raise SettingError(
        f"CRAWFORD_ENGINE must be auto, program, package or none, not {CRAWFORD_ENGINE!r}"
    )
GNUBG_PROGRAM = env_str("GNUBG_PROGRAM", "/usr/games/gnubg")

# Fair play (the fairplay app; thresholds explained in the README's fair-play section).
# Real-money play is barred for players of these countries (ISO codes, "US,FR" say); the
# GeoIP file, when set, adds the country of the address a player logs in from.
CRAWFORD_BARRED_REGIONS = [code.upper() for code in env_list("CRAWFORD_BARRED_REGIONS", [])]
CRAWFORD_GEOIP_DATABASE = env_str("CRAWFORD_GEOIP_DATABASE", "")
# Salted digests of log-in addresses and device cookies are forgotten after this many days.
CRAWFORD_SIGHTING_DAYS = env_int("CRAWFORD_SIGHTING_DAYS", 180, minimum=1)
# Chat lines holding one of these words (case and accents ignored) are refused.
CRAWFORD_CHAT_BANNED_WORDS = env_list("CRAWFORD_CHAT_BANNED_WORDS", [])
FAIRPLAY = {
    # Engine assistance: the last ENGINE_WINDOW analysed matches of a player, once they
    # hold ENGINE_MIN_DECISIONS unforced decisions; a case when the PR lies ENGINE_Z
    # standard deviations below what the rating predicts (on a log scale), or agreement
    # with the engine's best play reaches ENGINE_AGREEMENT. Set from real human matches
    # (bench/bench_fairplay_calibration.py, README "Fair play"): 80 decisions is one
    # 7-point match or two 5-point ones; people agreed with GNU Backgammon's 2-ply best
    # play 69 % of the time on average, and no window of 80 decisions or more of theirs
    # reached 0.89.
    "ENGINE_WINDOW": env_int("CRAWFORD_FAIRPLAY_ENGINE_WINDOW", 10, minimum=1),
    "ENGINE_MIN_DECISIONS": env_int("CRAWFORD_FAIRPLAY_ENGINE_MIN_DECISIONS", 80, minimum=1),
    "ENGINE_Z": float(env_str("CRAWFORD_FAIRPLAY_ENGINE_Z", "4.0")),
    "ENGINE_AGREEMENT": float(env_str("CRAWFORD_FAIRPLAY_ENGINE_AGREEMENT", "0.90")),
    # Dumping: over DUMPING_DAYS, this many early resignations (at a player's first or
    # second turn) to one opponent, or clear takes dropped to one opponent, open a case.
    "DUMPING_DAYS": env_int("CRAWFORD_FAIRPLAY_DUMPING_DAYS", 30, minimum=1),
    "EARLY_RESIGNATIONS": env_int("CRAWFORD_FAIRPLAY_EARLY_RESIGNATIONS", 5, minimum=1),
    "WRONG_DROPS": env_int("CRAWFORD_FAIRPLAY_WRONG_DROPS", 3, minimum=1),
    # A drop is "wrong" when GNU Backgammon makes it at least this costly (EMG or MWC).
    "WRONG_DROP_ERROR": float(env_str("CRAWFORD_FAIRPLAY_WRONG_DROP_ERROR", "0.15")),
    # ... and this many games resigned where the analysis rated the last position at least
    # WINNING_RESIGNATION_EQUITY (EMG) in the resigner's favour.
    "WINNING_RESIGNATIONS": env_int("CRAWFORD_FAIRPLAY_WINNING_RESIGNATIONS", 3, minimum=1),
    "WINNING_RESIGNATION_EQUITY": float(
        env_str("CRAWFORD_FAIRPLAY_WINNING_RESIGNATION_EQUITY", "0.3")
    ),
    # ... and a one-way series: at least ONE_WAY_MATCHES matches in the window, the loser
    # losing so many that players of their ratings would with a chance of ONE_WAY_CHANCE
    # at most (14 straight losses between equals: 0.00006). bench/bench_one_way_series.py:
    # 0.25 % of honest pairs playing 20 matches flagged, 81 % of dumpers caught.
    "ONE_WAY_MATCHES": env_int("CRAWFORD_FAIRPLAY_ONE_WAY_MATCHES", 8, minimum=1),
    "ONE_WAY_CHANCE": float(env_str("CRAWFORD_FAIRPLAY_ONE_WAY_CHANCE", "0.0001")),
    # Stalling: this many abandoned or timed-out matches in STALLING_DAYS open a case and
    # keep the player from seeks and registration for COOLDOWN_HOURS.
    "STALLING_DAYS": env_int("CRAWFORD_FAIRPLAY_STALLING_DAYS", 14, minimum=1),
    "STALLED_MATCHES": env_int("CRAWFORD_FAIRPLAY_STALLED_MATCHES", 4, minimum=1),
    "COOLDOWN_HOURS": env_int("CRAWFORD_FAIRPLAY_COOLDOWN_HOURS", 24, minimum=1),
}


# Play money each new player starts with, in cents (100000 is 1,000.00 FUN).
CRAWFORD_FUN_GRANT_CENTS = env_int("CRAWFORD_FUN_GRANT_CENTS", 100_000, minimum=0)
# A staff adjustment of real money above this many cents moves only once a second staff
# member approves it (accounts.ledger.approvals); 0: every real-money adjustment does.
CRAWFORD_REAL_ADJUSTMENT_APPROVAL_CENTS = env_int(
    "CRAWFORD_REAL_ADJUSTMENT_APPROVAL_CENTS", 100_000, minimum=0
)
