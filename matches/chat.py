"""Chat beside the board: players talk to each other, spectators among themselves.

A person may send at most ``BURST`` lines in ``WINDOW`` seconds to one board, and at most
the ``chat`` rate (``CRAWFORD_THROTTLE_CHAT``) across all boards; a line past either is
refused with ``ChatTooFast`` (HTTP 429). The lines are kept with the match so a dispute or
a conduct report can quote them.

Who may say what (``accounts.standing``): a muted, suspended or closed account says
nothing; in the players' room a player cannot write to an opponent when either of them
*blocked* the other. A reader never sees the lines of the people they *muted* or blocked,
nor of those who blocked them (``unheard_by``): ``chat_recent`` leaves them out, and the
match socket drops them from the live frames (``matches.consumers``).

The *word filter* refuses a line holding a word of ``CRAWFORD_CHAT_BANNED_WORDS`` as a
whole word, read without case or accents, also when it is stretched ("baaad"), spelt with
look-alike digits ("b4d"), cut by punctuation ("b.a.d") or spelt out letter by letter
("b a d"). A word that only contains a banned one ("badge") passes.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import timedelta
from functools import lru_cache

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import Block, BlockKind, Profile, User
from accounts.standing import require_may_chat, unheard_by
from core.errors import DomainError, Forbidden
from core.throttles import retry_after, throttle_player
from matches import events
from matches.models import ChatMessage, ChatRoom, Match

BURST = 5
WINDOW = timedelta(seconds=10)
MAX_LENGTH = 500
REFUSED_WORD = gettext_lazy(
    "That message was not sent: it holds a word this site does not allow in chat. "
    "Say it another way."
)


class ChatTooFast(DomainError):
    """A line past the per-board burst or the chat rate; ``wait`` is in whole seconds."""

    status_code = 429

    def __init__(self, wait: float) -> None:
        self.wait = retry_after(wait)
        super().__init__(f"You are sending messages too fast; wait {self.wait} s")


@transaction.atomic
def chat_send(*, match_id: int, author: User, seat: int | None, text: str) -> ChatMessage:
    """Send ``text`` to the players' room (``seat`` 0 or 1) or the spectators' (None)."""
    text = " ".join(text.split())
    if not text:
        raise DomainError(_("Write something first"))
    if len(text) > MAX_LENGTH:
        raise DomainError(_("Keep a message under %(most)s characters") % {"most": MAX_LENGTH})
    require_may_chat(author)
    if has_banned_word(text):
        raise DomainError(str(REFUSED_WORD))
    room = ChatRoom.PLAYERS if seat is not None else ChatRoom.SPECTATORS
    if seat is not None:
        _require_heard_by_opponent(match_id, author, seat)
    _require_not_too_fast(match_id, author)
    message = ChatMessage.objects.create(match_id=match_id, author=author, room=room, text=text)
    events.publish_chat(match_id, chat_line(message, author=author), author_id=author.pk)
    return message


def chat_line(message: ChatMessage, *, author: User) -> dict[str, object]:
    """A line as the board shows it (and the live frame carries it)."""
    return {
        "id": message.pk,
        "room": message.room,
        "author": author.username,
        "name": author.profile.display_name,
        "text": message.text,
        "at": message.created_at.isoformat(),
    }


def _require_heard_by_opponent(match_id: int, author: User, seat: int) -> None:
    players = Match.objects.filter(pk=match_id).values_list("player_0_id", "player_1_id").first()
    if players is None:
        return
    opponent_id = players[1 - seat]
    if opponent_id == author.pk:  # pass and play: one player at both seats
        return
    blockers = set(
        Block.objects.filter(
            Q(owner=author, other_id=opponent_id) | Q(owner_id=opponent_id, other=author),
            kind=BlockKind.BLOCK,
        ).values_list("owner_id", flat=True)
    )
    if not blockers:
        return
    name = Profile.objects.filter(user_id=opponent_id).values_list("display_name", flat=True)
    opponent = name.first() or _("Your opponent")
    if author.pk in blockers:
        raise Forbidden(
            _("You blocked %(name)s: unblock them on their page to write to them.")
            % {"name": opponent}
        )
    raise Forbidden(_("%(name)s does not take messages from you.") % {"name": opponent})


def _require_not_too_fast(match_id: int, author: User) -> None:
    now = timezone.now()
    recent = list(
        ChatMessage.objects.filter(match_id=match_id, author=author, created_at__gte=now - WINDOW)
        .order_by("-created_at")
        .values_list("created_at", flat=True)[:BURST]
    )
    if len(recent) >= BURST:
        raise ChatTooFast((recent[-1] + WINDOW - now).total_seconds())
    wait = throttle_player("chat", author.pk)
    if wait is not None:
        raise ChatTooFast(wait)


def chat_recent(
    *, match_id: int, players_room: bool, viewer_id: int | None, limit: int = 50
) -> list[dict[str, object]]:
    """The last ``limit`` lines of the players' room or the spectators', oldest first, as
    ``viewer_id`` may read them (None: an anonymous visitor, who reads every line)."""
    room = ChatRoom.PLAYERS if players_room else ChatRoom.SPECTATORS
    lines = ChatMessage.objects.filter(match_id=match_id, room=room)
    if viewer_id is not None:
        lines = lines.exclude(author_id__in=unheard_by(viewer_id))
    newest = lines.select_related("author__profile").order_by("-created_at", "-pk")[:limit]
    return [chat_line(line, author=line.author) for line in reversed(list(newest))]


# The word filter --------------------------------------------------------------------------

# Digits and signs written for the letters they look like, read as letters inside a word.
LOOK_ALIKES = str.maketrans(
    {"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s"}
)
LETTERS = re.compile(r"[^\W\d_]+")


def has_banned_word(text: str) -> bool:
    """Whether ``text`` holds a word of ``CRAWFORD_CHAT_BANNED_WORDS`` (see the module)."""
    banned = _banned_pattern(tuple(settings.CRAWFORD_CHAT_BANNED_WORDS))
    if banned is None:
        return False
    words, spelt_out = _words(text)
    return any(banned.fullmatch(word) for word in words) or any(
        banned.search(letters) for letters in spelt_out
    )


def _plain(text: str) -> str:
    """``text`` in lower case without accents or invisible characters ("Ç\u200ba" is "ca")."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(
        character
        for character in decomposed
        if not unicodedata.combining(character) and unicodedata.category(character) != "Cf"
    ).casefold()


def _words(text: str) -> tuple[set[str], list[str]]:
    """The words of ``text`` as the filter reads them, and its runs of lone letters.

    Each space-separated chunk gives its words split at punctuation and the same joined
    ("b.a-d" gives "b", "a", "d" and "bad"); look-alike digits count as letters in a chunk
    that holds a letter ("b4d"), never in a plain number ("13/7"). A run of chunks of one
    letter each ("b a d") is spelt out, and searched for the word anywhere in it.
    """
    words: set[str] = set()
    spelt_out: list[str] = []
    run: list[str] = []
    for chunk in _plain(text).split():
        if LETTERS.search(chunk):
            chunk = chunk.translate(LOOK_ALIKES)
        parts = LETTERS.findall(chunk)
        words.update(parts)
        if len(parts) > 1:
            words.add("".join(parts))
        if len(parts) == 1 and len(parts[0]) == 1:
            run.append(parts[0])
            continue
        if len(run) > 1:
            spelt_out.append("".join(run))
        run = []
    if len(run) > 1:
        spelt_out.append("".join(run))
    return words, spelt_out


@lru_cache(maxsize=4)
def _banned_pattern(banned: tuple[str, ...]) -> re.Pattern[str] | None:
    """One pattern for every banned word, each letter allowed to repeat: "bad" is
    ``b{1,}a{1,}d{1,}``, and "ass" ``a{1,}s{2,}`` (so "as" stays allowed)."""
    alternatives = []
    for word in banned:
        letters = "".join(LETTERS.findall(_plain(word)))
        if letters:
            runs = re.finditer(r"(.)\1*", letters)
            alternatives.append("".join(f"{run[1]}{{{len(run[0])},}}" for run in runs))
    if not alternatives:
        return None
    return re.compile("|".join(f"(?:{alternative})" for alternative in sorted(alternatives)))
