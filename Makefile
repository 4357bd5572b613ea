# Crawford: `make run` serves the embedded set-up, `make test` runs the whole suite
# (`make test-fast` all but its slow tests).
.PHONY: run test test-fast lint format venv bench faults messages

VENV := .venv/bin
HOST ?= 127.0.0.1
PORT ?= 8000

run:
	@scripts/setup.sh venv
	@DEBUG=true $(VENV)/python manage.py migrate --no-input -v 0
	@DEBUG=true $(VENV)/python manage.py load_demo
	@DEBUG=true $(VENV)/python manage.py collectstatic --no-input -v 0
	@echo
	@DEBUG=true $(VENV)/python manage.py engine
	@echo
	@echo "Crawford is serving at http://$(HOST):$(PORT)/ (Ctrl-C stops it)"
	@echo
	@DEBUG=true $(VENV)/uvicorn config.asgi:application --host $(HOST) --port $(PORT) --log-level warning

# The suite runs in TEST_PROCESSES processes (pytest-xdist, one test file to a process at
# a time); each claims a Redis database and a test database of its own
# (scripts/test_slot.py). TEST_PROCESSES=0 runs it in this one process.
TEST_PROCESSES ?= 2
define run_suite
	@scripts/setup.sh test
	@eval "$$($(VENV)/python scripts/test_slot.py claim $$(( $(TEST_PROCESSES) > 1 ? $(TEST_PROCESSES) : 1 )))" && \
	  trap '$(VENV)/python scripts/test_slot.py release $$CRAWFORD_TEST_SLOT' EXIT && \
	  echo "Test run in slots $$CRAWFORD_TEST_SLOT: $$CRAWFORD_TEST_REDIS_URLS, $$CRAWFORD_TEST_DATABASE" && \
	  $(VENV)/pytest -n $(TEST_PROCESSES) --dist loadfile --no-loadscope-reorder $(1) $(PYTEST_ARGS)
endef

test:
	$(call run_suite,)

# The suite without the tests marked slow: those that start Celery workers, Redis or
# PostgreSQL servers of their own, the embedded server or a browser.
test-fast:
	$(call run_suite,-m "not slow")

lint:
	@scripts/setup.sh venv
	$(VENV)/ruff check .
	$(VENV)/ruff format --check .
	DEBUG=true $(VENV)/mypy .
	DEBUG=true $(VENV)/lint-imports
	$(VENV)/python scripts/module_sizes.py

# Every benchmark run small, with one table of figures beside their baselines
# (the full runs: bench/README.md). Needs PostgreSQL and Redis as for the tests.
bench:
	@scripts/setup.sh venv
	$(VENV)/python bench/all.py

# The production shape with its own PostgreSQL and Redis, every plug pulled in turn while
# players play (tests/faults). FAULTS=--short is CI's form.
FAULTS ?=
faults:
	@scripts/setup.sh test
	$(VENV)/python -m tests.faults $(FAULTS)

# The translations (locale/<language>/LC_MESSAGES): every marked string of the templates, the
# Python code and the browser's scripts gathered into the .po files, then compiled to the .mo
# files Django reads. Needs GNU gettext (apt-get install gettext). Both are committed.
MESSAGE_IGNORES := --ignore=.venv --ignore=staticfiles --ignore=tests --ignore=bench --ignore=node_modules --ignore=build
messages:
	@scripts/setup.sh venv
	DEBUG=true $(VENV)/python manage.py makemessages -l it --no-obsolete $(MESSAGE_IGNORES)
	DEBUG=true $(VENV)/python manage.py makemessages -d djangojs -l it --no-obsolete $(MESSAGE_IGNORES) --ignore=staticfiles
	DEBUG=true $(VENV)/python manage.py compilemessages --ignore=.venv --ignore=staticfiles --ignore=node_modules --ignore=build

format:
	$(VENV)/ruff check --fix .
	$(VENV)/ruff format .

venv:
	@scripts/setup.sh venv
