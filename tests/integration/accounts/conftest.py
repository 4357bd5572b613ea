"""The accounts tests' mailbox: a real SMTP server receiving the mail they send."""

from tests.mailbox import mailbox  # noqa: F401 - the fixture
