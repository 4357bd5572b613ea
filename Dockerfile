# One image for every Crawford process: web (ASGI), workers, analysis workers and beat.
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
# gnubg is GNU Backgammon's full program: the analysis workers evaluate positions with it.
RUN apt-get update \
    && apt-get install -y --no-install-recommends gnubg postgresql-client \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY pyproject.toml README.md ./
COPY . .
RUN pip install . && DEBUG=true python manage.py collectstatic --no-input -v 0

RUN useradd --create-home crawford
USER crawford
EXPOSE 8000
CMD ["scripts/serve", "web", "8000"]
