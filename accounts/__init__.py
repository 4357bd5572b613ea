"""Accounts: users, player profiles and preferences, roles, wallets and ratings."""
