"""The benchmarks' own PostgreSQL databases: made afresh and migrated, dropped after.

Each benchmark names its database and sets ``DATABASE_URL`` to it before calling these,
so a run never touches the development or test databases.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parent.parent
POSTGRES = "postgres://postgres@127.0.0.1:5432"


def fresh_database(name: str) -> None:
    """Drop ``name`` (closing whatever still uses it), create it and migrate it."""
    drop_database(name)
    with psycopg.connect(f"{POSTGRES}/postgres", autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"], cwd=ROOT, check=True
    )


def drop_database(name: str) -> None:
    with psycopg.connect(f"{POSTGRES}/postgres", autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
