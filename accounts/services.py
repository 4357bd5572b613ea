"""Writes for accounts: creating players, staff and organizers, their profiles, ratings.

Money is not written here: ``accounts.ledger`` is the one module that moves it.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import Group
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import get_supported_language_variant
from django.utils.translation import gettext as _

from accounts import ledger
from accounts.mail import verification_ask
from accounts.models import STARTING_RATING, MadeBy, Profile, RatingChange, User
from accounts.names import display_name_cleaned, name_skeleton, username_problem
from accounts.ratings import fibs_update
from accounts.roles import Role
from accounts.selectors import names_taken
from accounts.sessions import sessions_end
from accounts.tokens import tokens_revoke_all
from core import locks, rows
from core.errors import DomainError
from core.locks import Lock


@transaction.atomic
def user_create(
    *,
    username: str,
    password: str,
    email: str = "",
    display_name: str = "",
    country: str = "",
    role: Role = Role.PLAYER,
    rating: float = STARTING_RATING,
    experience: int = 0,
    made_by: MadeBy = MadeBy.SIGNUP,
    bot_strength: str = "",
    language: str = "",
) -> User:
    """Create a user with a profile and a role; staff also get the admin site. An e-mail
    address given is mailed a link that verifies it.

    ``made_by`` says who made the account (the demo loader, staff) when not its player;
    ``bot_strength`` makes it a demo player the computer plays at that strength.
    ``language`` is the one the site writes to the player in (the sign-up page's; the
    site's own when not given or not offered).

    The username is kept to one script (``accounts.names``); the display name loses its
    hidden characters and is the username when nothing visible is left. Neither may pass
    for another player's name.
    """
    username = User.normalize_username(username)
    problem = username_problem(username)
    if problem is not None:
        raise DomainError(problem)
    display_name = display_name_cleaned(display_name) or username
    require_names_free(names={"username": username, "display name": display_name}, user_id=None)
    user = User.objects.create_user(
        username=username,
        password=password,
        email=email,
        is_staff=role is Role.STAFF,
        profile={
            "display_name": display_name,
            "country": country,
            "rating": rating,
            "experience": experience,
            "made_by": made_by,
            "bot_strength": bot_strength,
            "language": offered_language(language),
        },
    )
    user.groups.add(Group.objects.get(name=role.value))
    if settings.CRAWFORD_FUN_GRANT_CENTS > 0:
        ledger.grant(user=user, key=f"grant:{user.pk}")
    verification_ask(user=user)
    return user


def offered_language(language: str) -> str:
    """``language`` ("it", "it-IT") as one of the site's languages; the site's own when it
    offers nothing like it."""
    try:
        return get_supported_language_variant(language or settings.LANGUAGE_CODE)
    except LookupError:
        return str(settings.LANGUAGE_CODE)


def language_remember(*, user_id: int, language: str) -> str:
    """Remember the language the player chose (the switcher's): notices and e-mails are
    written in it from now on. Returns the language kept."""
    kept = offered_language(language)
    Profile.objects.filter(user_id=user_id).exclude(language=kept).update(language=kept)
    return kept


@transaction.atomic
def profile_update(*, profile: Profile, **changes: object) -> Profile:
    """Save the given profile fields; unknown names are a programming error. A new display
    name may not pass for another player's name."""
    editable = {
        "display_name",
        "country",
        "checker_colour",
        "highlight_legal_moves",
        "automatic_forced_moves",
        "use_doubling_cube",
        "notification_sound",
        "mail_tournament_soon",
        "mail_challenge_away",
        "mail_dispute_decided",
    }
    unknown = set(changes) - editable
    if unknown:
        raise TypeError(f"not editable profile fields: {sorted(unknown)}")
    if "display_name" in changes:
        changes["display_name"] = display_name_cleaned(str(changes["display_name"]))
        if not changes["display_name"]:
            raise DomainError(_("Choose a display name others can see."))
        require_names_free(
            names={"display name": str(changes["display_name"])}, user_id=profile.user_id
        )
        changes["display_name_skeleton"] = name_skeleton(str(changes["display_name"]))
    for name, value in changes.items():
        setattr(profile, name, value)
    profile.full_clean()
    profile.save(update_fields=list(changes))
    return profile


_NAME_TAKEN = {
    "username": _(
        "“%(name)s” looks like another player's name: choose a username nobody could take"
        " for theirs."
    ),
    "display name": _(
        "“%(name)s” looks like another player's name: choose a display name nobody could"
        " take for theirs."
    ),
}


def require_names_free(*, names: dict[str, str], user_id: int | None) -> None:
    """Refuse any of ``names`` (what each is: "username", "display name") that passes for
    another player's username or display name; ``user_id``'s own names are theirs to keep.

    Runs in the caller's transaction, which then writes the names: on PostgreSQL a lock on
    each skeleton, held until it commits, keeps two players from taking look-alikes at once.
    """
    for skeleton in sorted({name_skeleton(name) for name in names.values()}):
        locks.advisory(Lock.NAME, skeleton)
    taken = names_taken(names=names.values(), user_id=user_id)
    for what, name in names.items():
        if name in taken:
            raise DomainError(_NAME_TAKEN.get(what, _NAME_TAKEN["username"]) % {"name": name})


@transaction.atomic
def password_change(*, user: User, new_password: str, keep_session: str | None = None) -> None:
    """Set a new password; every API token and every log-in session of the old one stops
    working with it (their sockets close), but ``keep_session``: the browser that changed
    it stays logged in."""
    user.set_password(new_password)
    user.save(update_fields=["password"])
    tokens_revoke_all(user=user)
    sessions_end(user_id=user.pk, keep=keep_session)


@transaction.atomic
def password_reset(*, user: User, new_password: str) -> None:
    """Set the password chosen through a reset link: as a change, it ends every session and
    API token (this browser logs in afresh), and the address the link went to is proven."""
    password_change(user=user, new_password=new_password)
    User.objects.filter(pk=user.pk, email=user.email).exclude(email="").update(email_verified=True)


SEEN_EVERY = timedelta(minutes=1)
"""How often a player's ``Profile.seen_at`` is written while they go from page to page."""


def seen_on_site(*, user_id: int, now: datetime | None = None) -> None:
    """Note that the player opened a page of the site now, at most once a ``SEEN_EVERY``
    (one statement of its own, which waits on nobody but a rating change in progress)."""
    moment = now or timezone.now()
    Profile.objects.filter(user_id=user_id).exclude(seen_at__gt=moment - SEEN_EVERY).update(
        seen_at=moment
    )


@transaction.atomic
def logout_everywhere(*, user: User) -> tuple[int, int]:
    """End every log-in session and revoke every API token of ``user``, wherever they are
    used (open sockets close); how many sessions and tokens ended."""
    return sessions_end(user_id=user.pk), tokens_revoke_all(user=user)


@transaction.atomic(savepoint=False)
def rating_record_match(
    *,
    winner: User,
    loser: User,
    match_length: int,
    match_id: int | None,
    played_at: datetime | None = None,
) -> tuple[RatingChange, RatingChange]:
    """Move both players' FIBS ratings after a rated match; the winner's change first.

    Locks both profiles in primary-key order. Recording the same ``match_id`` again
    returns the changes already made and moves nothing (``None`` is for results entered
    by hand and is never matched). ``played_at`` dates the change (now by default).

    Part of the caller's transaction (no savepoint of its own: nothing here is refused
    once the profiles are locked), its writes held with the caller's inside
    ``core.rows.written_together``, as a match's settlement does.
    """
    if winner.pk == loser.pk:
        raise ValueError("a player cannot beat themselves")
    profiles, done = _profiles_locked_with_changes(
        user_ids=(winner.pk, loser.pk), match_id=match_id
    )
    if done:
        return done[winner.pk], done[loser.pk]
    won, lost = profiles[winner.pk], profiles[loser.pk]
    new_winner, new_loser = fibs_update(
        won.rating, lost.rating, match_length, won.experience, lost.experience
    )
    changes = []
    for profile, opponent, new_rating, is_winner in (
        (won, loser, new_winner, True),
        (lost, winner, new_loser, False),
    ):
        before = profile.rating
        profile.rating = max(0.0, new_rating)
        profile.experience += match_length
        rows.save_changed(profile)
        changes.append(
            rows.insert(
                RatingChange(
                    user_id=profile.user_id,
                    opponent=opponent,
                    match_id=match_id,
                    match_length=match_length,
                    won=is_winner,
                    rating_before=before,
                    rating_after=profile.rating,
                    experience_after=profile.experience,
                    created_at=played_at or timezone.now(),
                )
            )
        )
    return changes[0], changes[1]


def _profiles_locked_with_changes(
    *, user_ids: tuple[int, int], match_id: int | None
) -> tuple[dict[int, Profile], dict[int, RatingChange]]:
    """Both players' profiles, locked in primary-key order, and the rating changes
    ``match_id`` already made them, in one statement: a match's settlement sends its held
    writes with it, and building two ORM queries cost more CPU than PostgreSQL spends on
    them."""
    profile, change = rows.columns(Profile, "p"), rows.columns(RatingChange, "r")
    user, match = rows.column(Profile, "user"), rows.column(RatingChange, "match_id")
    locks.taken(Lock.PROFILE)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {profile.sql}, {change.sql} FROM {rows.table(Profile)} p"  # noqa: S608
            f" LEFT JOIN {rows.table(RatingChange)} r"
            f" ON r.{rows.column(RatingChange, 'user')} = p.{user} AND r.{match} = %s"
            f" WHERE p.{user} IN (%s, %s) ORDER BY p.{rows.column(Profile, 'id')}"
            + locks.clause("p"),
            [match_id, *user_ids],
        )
        found = cursor.fetchall()
    profiles: dict[int, Profile] = {}
    done: dict[int, RatingChange] = {}
    width = len(profile.fields)
    for values in found:
        locked = profile.build(values[:width])
        assert isinstance(locked, Profile)
        profiles[locked.user_id] = locked
        if values[width] is not None:
            made = change.build(values[width:])
            assert isinstance(made, RatingChange)
            done[made.user_id] = made
    return profiles, done


@transaction.atomic
def ratings_void(*, match_ids: list[int], user_ids: list[int]) -> list[RatingChange]:
    """Undo the rating changes of these players in these matches (a manipulated series).

    Each player's rating loses what the voided matches gave it (or gets back what they took)
    and their experience those matches' lengths; the changes stay in the history, marked
    void. Voiding twice changes nothing more.
    """
    changes = list(
        locks.select(
            Lock.RATING_CHANGE,
            RatingChange.objects.filter(
                match_id__in=match_ids, user_id__in=user_ids, voided_at__isnull=True
            ),
        )
    )
    profiles = {
        profile.user_id: profile
        for profile in locks.select(
            Lock.PROFILE, Profile.objects.filter(user_id__in={c.user_id for c in changes})
        )
    }
    now = timezone.now()
    for change in changes:
        profile = profiles[change.user_id]
        profile.rating = max(0.0, profile.rating - change.delta)
        profile.experience = max(0, profile.experience - change.match_length)
        change.voided_at = now
        change.save(update_fields=["voided_at"])
    for profile in profiles.values():
        profile.save(update_fields=["rating", "experience"])
    return changes
