# Crawford: `make run` serves the embedded set-up, `make test` runs the whole suite.
.PHONY: run test lint format venv

VENV := .venv/bin
HOST ?= 127.0.0.1
PORT ?= 8000

run:
	@scripts/setup.sh venv
	@DEBUG=true $(VENV)/python manage.py migrate --no-input -v 0
	@DEBUG=true $(VENV)/python manage.py load_demo
	@DEBUG=true $(VENV)/python manage.py collectstatic --no-input -v 0
	@echo
	@echo "Crawford is serving at http://$(HOST):$(PORT)/ (Ctrl-C stops it)"
	@echo
	@DEBUG=true $(VENV)/daphne -b $(HOST) -p $(PORT) config.asgi:application

test:
	@scripts/setup.sh test
	$(VENV)/pytest $(PYTEST_ARGS)

lint:
	@scripts/setup.sh venv
	$(VENV)/ruff check .
	$(VENV)/ruff format --check .
	DEBUG=true $(VENV)/mypy .

format:
	$(VENV)/ruff check --fix .
	$(VENV)/ruff format .

venv:
	@scripts/setup.sh venv
