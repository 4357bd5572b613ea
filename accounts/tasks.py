"""Celery tasks for e-mail to players: ids in, a call to ``accounts.mail``.

A task run twice mails twice, which is harmless here: a second verification or reset link
works as well as the first.
"""

from __future__ import annotations

from celery import shared_task

from accounts import mail


@shared_task(name=mail.VERIFICATION_TASK, ignore_result=True)
def mail_verification(user_id: int) -> bool:
    """Mail the player a link that verifies their address; whether one was sent."""
    return mail.verification_send(user_id=user_id)


@shared_task(name=mail.PASSWORD_RESET_TASK, ignore_result=True)
def mail_password_reset(user_id: int) -> bool:
    """Mail the player a link to choose a new password; whether one was sent."""
    return mail.password_reset_send(user_id=user_id)
