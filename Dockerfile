# One image for every Crawford process: web (ASGI), workers, analysis workers and beat.
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
# gnubg is GNU Backgammon's full program: the analysis workers evaluate positions with it.
# libicu72 is the ICU that PyICU (names' confusable skeletons) runs on; it is built against
# libicu-dev with g++ and pkg-config, which are removed once it is.
RUN apt-get update \
    && apt-get install -y --no-install-recommends gnubg postgresql-client libicu72 \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY pyproject.toml README.md ./
COPY . .
# The move generator is compiled here by mypyc (scripts/build_native.py; mypy brings it,
# gcc builds it), in /app where the processes import it from, and mypy removed after.
RUN apt-get update \
    && apt-get install -y --no-install-recommends libicu-dev pkg-config g++ gcc \
    && pip install . \
    && pip install "mypy>=1.13,<2" \
    && python scripts/build_native.py --force \
    && pip uninstall -y mypy \
    && apt-get purge -y --auto-remove libicu-dev pkg-config g++ gcc \
    && rm -rf /var/lib/apt/lists/* \
    && DEBUG=true python manage.py collectstatic --no-input -v 0

RUN useradd --create-home crawford
USER crawford
EXPOSE 8000
CMD ["scripts/serve", "web", "8000"]
