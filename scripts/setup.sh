#!/usr/bin/env bash
# Prepares this machine for Crawford; the one set-up script behind `make run`,
# `make test`, `make lint` and CI.
#
#   scripts/setup.sh venv   the virtual environment (.venv) with every Python package, and
#                           the move generator compiled (scripts/build_native.py)
#   scripts/setup.sh test   that, plus Chromium and GNU Backgammon, and PostgreSQL and
#                           Redis running (installed when apt-get can, started when not
#                           running)
#   scripts/setup.sh ci     that, plus docker-compose, to validate docker-compose.yml
#
# It stops at the first thing it cannot do, saying what to do instead.
set -euo pipefail
cd "$(dirname "$0")/.."

mode="${1:-venv}"
DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/crawford}"
REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379/1}"

say() { printf '\033[1;32m==>\033[0m %s\n' "$*"; }
die() { printf '\033[1;31mSet-up stopped:\033[0m %s\n' "$*" >&2; exit 1; }

find_python() {
  for candidate in python3.11 python3 python; do
    if command -v "$candidate" >/dev/null 2>&1 &&
      "$candidate" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' 2>/dev/null; then
      echo "$candidate"
      return 0
    fi
  done
  return 1
}

ensure_venv() {
  if [ ! -x .venv/bin/python ]; then
    python=$(find_python) || die "Crawford needs Python 3.11; install it (python3.11 and python3.11-venv) and run this again."
    say "Creating the virtual environment in .venv with $python"
    "$python" -m venv .venv || die "Could not create .venv; on Debian install python3-venv."
  fi
  # Reinstall only when the dependency list changed since the last install.
  stamp=.venv/.crawford-installed
  wanted=$(sha256sum pyproject.toml | cut -d' ' -f1)
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$wanted" ]; then
    ensure_icu_build
    say "Installing Crawford and its dependencies into .venv"
    .venv/bin/python -m pip install --quiet --upgrade pip
    .venv/bin/python -m pip install --quiet -e '.[dev]'
    echo "$wanted" > "$stamp"
  fi
  ensure_native_build
}

ensure_native_build() {  # the move generator compiled by mypyc (backgammon/native.py)
  # Compiles only when a source changed since the last build; without a build, or with an
  # old one, Python runs the sources, slower.
  .venv/bin/python scripts/build_native.py >/dev/null \
    || die "Compiling the move generator failed (above); it needs gcc and Python's headers (apt-get install gcc python3.11-dev)."
}

apt_updated=""
apt_install() {
  if ! command -v apt-get >/dev/null 2>&1; then
    return 1
  fi
  local sudo=""
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null 2>&1 || return 1
    sudo="sudo -n"
  fi
  if [ -z "$apt_updated" ]; then
    $sudo apt-get update -qq >/dev/null || return 1
    apt_updated=1
  fi
  say "Installing Debian packages: $*"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

ensure_program() {  # program, Debian package, what it is for
  if ! command -v "$1" >/dev/null 2>&1 && [ ! -x "$1" ]; then
    apt_install "$2" || die "$3 needs $1; install the Debian package '$2' (apt-get install $2) and run this again."
  fi
}

ensure_icu_build() {  # PyICU (names' confusable skeletons) is built against the system's ICU
  if pkg-config --exists icu-i18n 2>/dev/null && command -v g++ >/dev/null 2>&1; then
    return 0
  fi
  apt_install libicu-dev pkg-config g++ \
    || die "PyICU is built against ICU: install libicu-dev, pkg-config and g++ (apt-get install libicu-dev pkg-config g++) and run this again."
}

url_part() {  # which part (host/port) of a URL
  .venv/bin/python -c 'import sys; from urllib.parse import urlsplit; u = urlsplit(sys.argv[1]); print({"host": u.hostname or "127.0.0.1", "port": u.port or int(sys.argv[3]), "user": u.username or "postgres", "db": u.path.lstrip("/").split("/")[0] or "0"}[sys.argv[2]])' "$@"
}

is_local() { case "$1" in 127.*|localhost|::1) return 0 ;; *) return 1 ;; esac; }

ensure_postgres() {
  local host port user db
  host=$(url_part "$DATABASE_URL" host 5432)
  port=$(url_part "$DATABASE_URL" port 5432)
  user=$(url_part "$DATABASE_URL" user 5432)
  db=$(url_part "$DATABASE_URL" db 5432)
  if ! command -v pg_isready >/dev/null 2>&1; then
    is_local "$host" || die "pg_isready is missing; install postgresql-client to reach $host:$port."
    apt_install postgresql || die "PostgreSQL is not installed; install it (apt-get install postgresql) or set DATABASE_URL to a server."
  fi
  if ! pg_isready -q -h "$host" -p "$port"; then
    is_local "$host" || die "PostgreSQL at $host:$port does not answer; start it or fix DATABASE_URL."
    if ! command -v pg_ctlcluster >/dev/null 2>&1; then
      apt_install postgresql || die "PostgreSQL is not installed; install it (apt-get install postgresql) or set DATABASE_URL."
    fi
    say "Starting PostgreSQL"
    for version in $(ls /etc/postgresql 2>/dev/null); do
      pg_ctlcluster --skip-systemctl-redirect "$version" main start 2>/dev/null || true
    done
    for _ in $(seq 1 30); do pg_isready -q -h "$host" -p "$port" && break; sleep 1; done
    pg_isready -q -h "$host" -p "$port" || die "PostgreSQL did not start on $host:$port; see /var/log/postgresql/."
  fi
  if ! psql -h "$host" -p "$port" -U "$user" -d postgres -Atqc "SELECT 1" >/dev/null 2>&1; then
    die "PostgreSQL at $host:$port refuses user '$user'; allow it (trust or a password in DATABASE_URL)."
  fi
  if [ "$(psql -h "$host" -p "$port" -U "$user" -d postgres -Atqc "SELECT 1 FROM pg_database WHERE datname = '$db'")" != 1 ]; then
    say "Creating the database $db"
    psql -h "$host" -p "$port" -U "$user" -d postgres -qc "CREATE DATABASE \"$db\"" >/dev/null
  fi
}

ensure_redis() {
  local host port
  host=$(url_part "$REDIS_URL" host 6379)
  port=$(url_part "$REDIS_URL" port 6379)
  redis_up() { .venv/bin/python -c 'import sys, redis; redis.Redis(host=sys.argv[1], port=int(sys.argv[2]), socket_connect_timeout=1).ping()' "$host" "$port" 2>/dev/null; }
  if redis_up; then return 0; fi
  is_local "$host" || die "Redis at $host:$port does not answer; start it or fix REDIS_URL."
  if ! command -v redis-server >/dev/null 2>&1; then
    apt_install redis-server || die "Redis is not installed; install it (apt-get install redis-server) or set REDIS_URL."
  fi
  say "Starting Redis on $host:$port"
  mkdir -p /tmp/crawford-redis
  redis-server --daemonize yes --bind "$host" --port "$port" --save "" --appendonly no \
    --dir /tmp/crawford-redis --logfile /tmp/crawford-redis/redis.log
  for _ in $(seq 1 20); do redis_up && return 0; sleep 0.5; done
  die "Redis did not start on $host:$port; see /tmp/crawford-redis/redis.log."
}

ensure_venv
case "$mode" in
  venv) ;;
  test|ci)
    ensure_program /usr/bin/chromium chromium "The browser tests"
    ensure_program /usr/games/gnubg gnubg "Engine analysis"
    ensure_postgres
    ensure_redis
    if [ "$mode" = ci ]; then
      ensure_program docker-compose docker-compose "Validating docker-compose.yml"
    fi
    ;;
  *) die "unknown mode '$mode' (venv, test or ci)" ;;
esac
