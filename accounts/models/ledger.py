"""The ledger's rows: currencies, accounts, transactions and their entries, and the audit of
staff adjustments (``accounts.models`` says what each is; only ``accounts.ledger`` writes
them)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Currency(models.TextChoices):
    FUN = "FUN", "Play money"
    REAL = "REAL", "Real money"


# The most one movement of money may be, in cents (1,000,000,000.00): far above any real
# payment, and far enough below PostgreSQL's bigint that no sum of balances overflows it.
MAX_AMOUNT_CENTS = 100_000_000_000


class AccountKind(models.TextChoices):
    PLAYER = "player", "Player"
    HOUSE = "house", "House"
    ESCROW = "escrow", "Escrow"
    EXTERNAL = "external", "External"


# Accounts with a floor keep a cached balance, checked by the database. The house and
# the external world have none: their balance is the sum of their entries, so no single
# row becomes a lock that every payment in the site waits on.
KINDS_WITH_BALANCE = (AccountKind.PLAYER, AccountKind.ESCROW)


class LedgerAccount(models.Model):
    kind = models.CharField(max_length=8, choices=AccountKind.choices)
    currency = models.CharField(max_length=4, choices=Currency.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="ledger_accounts",
    )
    escrow_ref = models.CharField(max_length=64, blank=True, default="")
    balance = models.BigIntegerField(
        default=0,
        help_text="Cents; kept in step with the entries for player and escrow accounts only.",
    )

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(balance__gte=0), name="ledger_account_balance_not_negative"
            ),
            models.CheckConstraint(
                condition=(
                    models.Q(kind=AccountKind.PLAYER, user__isnull=False, escrow_ref="")
                    | (
                        models.Q(kind=AccountKind.ESCROW, user__isnull=True)
                        & ~models.Q(escrow_ref="")
                    )
                    | models.Q(
                        kind__in=[AccountKind.HOUSE, AccountKind.EXTERNAL],
                        user__isnull=True,
                        escrow_ref="",
                        balance=0,
                    )
                ),
                name="ledger_account_owner_matches_kind",
            ),
            models.UniqueConstraint(
                fields=["user", "currency"],
                condition=models.Q(kind=AccountKind.PLAYER),
                name="ledger_account_one_per_player_and_currency",
            ),
            models.UniqueConstraint(
                fields=["escrow_ref", "currency"],
                condition=models.Q(kind=AccountKind.ESCROW),
                name="ledger_account_one_per_escrow_and_currency",
            ),
            models.UniqueConstraint(
                fields=["kind", "currency"],
                condition=models.Q(kind__in=[AccountKind.HOUSE, AccountKind.EXTERNAL]),
                name="ledger_account_one_house_and_external_per_currency",
            ),
        ]

    def __str__(self) -> str:
        if self.kind == AccountKind.PLAYER:
            owner = f"player {self.user_id}"
        elif self.kind == AccountKind.ESCROW:
            owner = f"escrow {self.escrow_ref}"
        else:
            owner = self.kind
        return f"{owner} {self.currency}"


class TransactionKind(models.TextChoices):
    GRANT = "grant", "Sign-up grant"
    DEPOSIT = "deposit", "Deposit"
    WITHDRAWAL = "withdrawal", "Withdrawal"
    STAKE = "stake", "Stake"
    RELEASE = "release", "Payout"
    SETTLEMENT = "settlement", "Match settlement"
    REFUND = "refund", "Refund"
    PRIZE = "prize", "Prize"
    TRANSFER = "transfer", "Money game"
    BUY_IN = "buy_in", "Tournament buy-in"
    COMPENSATION = "compensation", "Correction"


class LedgerTransaction(models.Model):
    """One movement of money; its entries sum to zero per currency."""

    key = models.CharField(max_length=200, unique=True, help_text="Idempotency key.")
    kind = models.CharField(max_length=12, choices=TransactionKind.choices)
    memo = models.CharField(max_length=300, blank=True, default="")
    escrow_ref = models.CharField(max_length=64, blank=True, default="", db_index=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        help_text="The staff member who made it, for adjustments and corrections.",
    )
    reverses = models.OneToOneField(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="reversed_by",
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.key}"


class LedgerEntry(models.Model):
    transaction = models.ForeignKey(
        LedgerTransaction, on_delete=models.PROTECT, related_name="entries"
    )
    account = models.ForeignKey(LedgerAccount, on_delete=models.PROTECT, related_name="entries")
    amount = models.BigIntegerField(help_text="Cents: positive in, negative out.")
    balance_after = models.BigIntegerField(
        null=True, blank=True, help_text="The account's balance after this entry, when kept."
    )

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(amount=0), name="ledger_entry_amount_not_zero"
            ),
        ]
        indexes = [models.Index(fields=["account", "transaction"])]

    def __str__(self) -> str:
        return f"{self.account}: {self.amount:+d}"


class AdjustmentDirection(models.TextChoices):
    DEPOSIT = "deposit", _("Deposit")
    WITHDRAW = "withdraw", _("Withdraw")


class WalletAdjustment(models.Model):
    """The audit of a staff deposit or withdrawal: who, when, what, and the balances."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="wallet_adjustments"
    )
    staff = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        help_text="The second staff member, for real money above the approval threshold.",
    )
    transaction = models.OneToOneField(
        LedgerTransaction, on_delete=models.PROTECT, related_name="adjustment"
    )
    currency = models.CharField(max_length=4, choices=Currency.choices)
    direction = models.CharField(max_length=8, choices=AdjustmentDirection.choices)
    amount_cents = models.BigIntegerField()
    reason = models.CharField(max_length=300)
    balance_before = models.BigIntegerField()
    balance_after = models.BigIntegerField()
    request_hash = models.CharField(
        max_length=64,
        blank=True,
        default="",
        help_text="SHA-256 of what was asked, to tell a retry from another request under"
        " the same key; blank for adjustments made before it was kept.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(amount_cents__gt=0), name="wallet_adjustment_amount_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.direction} {self.amount_cents} {self.currency} for {self.user_id}"


class ApprovalState(models.TextChoices):
    PENDING = "pending", "Waiting for approval"
    APPROVED = "approved", "Approved"
    REJECTED = "rejected", "Rejected"


class AdjustmentApproval(models.Model):
    """A staff adjustment of real money above ``CRAWFORD_REAL_ADJUSTMENT_APPROVAL_CENTS``:
    asked by one staff member, it moves nothing until another approves it (then it becomes
    a ``WalletAdjustment`` under ``key``), or is rejected."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="adjustment_approvals"
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    currency = models.CharField(max_length=4, choices=Currency.choices)
    direction = models.CharField(max_length=8, choices=AdjustmentDirection.choices)
    amount_cents = models.BigIntegerField()
    reason = models.CharField(max_length=300)
    key = models.CharField(
        max_length=200, unique=True, help_text="The ledger key the approved adjustment posts."
    )
    request_hash = models.CharField(max_length=64, help_text="SHA-256 of what was asked.")
    state = models.CharField(
        max_length=8, choices=ApprovalState.choices, default=ApprovalState.PENDING
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_reason = models.CharField(max_length=300, blank=True, default="")
    transaction = models.OneToOneField(
        LedgerTransaction, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [
            models.Index(
                fields=["created_at"],
                condition=models.Q(state="pending"),
                name="adjustment_approval_pending",
            )
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(amount_cents__gt=0), name="adjustment_approval_amount_positive"
            ),
            models.CheckConstraint(
                condition=models.Q(state="approved", transaction__isnull=False)
                | (~models.Q(state="approved") & models.Q(transaction__isnull=True)),
                name="adjustment_approval_transaction_when_approved",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.state} {self.direction} {self.amount_cents} {self.currency}"

    @property
    def client_key(self) -> str:
        """The key as the staff member sent it (the ledger key names the wallet too)."""
        return self.key.split(":", 2)[-1]
