from django.apps import AppConfig


class LobbyConfig(AppConfig):
    name = "lobby"
    verbose_name = "Lobby"

    def ready(self) -> None:
        from accounts.ledger.reads import name_escrows
        from core import bus
        from disputes.events import DisputeDecided
        from fairplay.events import SanctionApplied
        from lobby import (
            endings,
            subscribers,
            tasks,  # noqa: F401 - registers the tasks the subscribers queue by name
            tournament_notices,
            wallet_lines,
        )
        from matches.events import (
            ChallengeAnswered,
            ChallengeIssued,
            MatchesReady,
            MatchFinished,
            MatchStopped,
            PlayerAwaited,
            PracticeVoided,
        )
        from reviews.events import AnalysisChanged
        from tournaments.events import (
            PlayerEliminated,
            SwingWaiting,
            TournamentCancelled,
            TournamentFinished,
            TournamentStarted,
        )

        bus.subscribe(ChallengeIssued, subscribers.on_challenge_issued)
        bus.subscribe(ChallengeAnswered, subscribers.on_challenge_answered)
        bus.subscribe(MatchesReady, subscribers.on_matches_ready)
        bus.subscribe(PlayerAwaited, subscribers.on_player_awaited)
        bus.subscribe(MatchFinished, subscribers.on_match_finished)
        bus.subscribe(MatchFinished, endings.on_match_finished)
        bus.subscribe(MatchStopped, endings.on_match_stopped)
        bus.subscribe(PracticeVoided, subscribers.on_practice_voided)
        bus.subscribe(TournamentStarted, tournament_notices.on_tournament_started)
        bus.subscribe(PlayerEliminated, tournament_notices.on_player_eliminated)
        bus.subscribe(SwingWaiting, tournament_notices.on_swing_waiting)
        bus.subscribe(TournamentFinished, tournament_notices.on_tournament_finished)
        bus.subscribe(TournamentCancelled, tournament_notices.on_tournament_cancelled)
        bus.subscribe(DisputeDecided, subscribers.on_dispute_decided)
        bus.subscribe(AnalysisChanged, subscribers.on_analysis_changed)
        bus.subscribe(SanctionApplied, subscribers.on_sanction_applied)
        # Wallet lines name the match or tournament their money was for.
        name_escrows("match", wallet_lines.match_escrow_names)
        name_escrows("tournament", wallet_lines.tournament_escrow_names)
