# Two commands on a fresh machine with only python3: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
MAKEMESSAGES_IGNORE := --ignore=.venv --ignore=var --ignore=tests --ignore=staticfiles \
	--ignore=bench --ignore=docs

.PHONY: run test bench lint messages

$(PY):
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --disable-pip-version-check -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $@ $(VENV)/.installed

# The web server, a Celery worker and Celery beat, stopped together by Ctrl-C.
run: $(VENV)/.installed
	$(PY) manage.py migrate --noinput
	$(PY) manage.py create_demo_players
	@echo "Starting Carolo on http://$(HOST):$(PORT)/ (e-mails go to var/mail/ and here)"
	@trap 'kill $$(jobs -p) 2>/dev/null' EXIT; \
	$(VENV)/bin/celery -A carolo_site worker --loglevel=INFO --concurrency=2 & \
	$(VENV)/bin/celery -A carolo_site beat --loglevel=INFO & \
	$(PY) manage.py runserver $(HOST):$(PORT)

# axe-core for the browser tests' accessibility checks; without npm those checks
# are skipped (loudly), and CI, which sets BROWSER_TESTS_REQUIRED, fails instead.
node_modules/.package-lock.json: package.json package-lock.json
	@if command -v npm >/dev/null; then npm ci --no-audit --no-fund --silent; \
	else echo "npm not found: accessibility checks will be skipped"; fi

test: $(VENV)/.installed-dev node_modules/.package-lock.json
	$(PY) -m pytest

# Figures, not pass/fail: writes bench/results.json (QUICK=1 for a short run).
$(VENV)/.installed-bench: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[bench]'
	touch $@ $(VENV)/.installed

bench: $(VENV)/.installed-bench
	$(PY) -m bench.run $(if $(QUICK),--quick)

lint: $(VENV)/.installed-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

# Updates the French catalogue and its compiled .mo (both are committed).
messages: $(VENV)/.installed
	@command -v xgettext >/dev/null || { echo "needs GNU gettext: apt-get install gettext"; exit 1; }
	$(PY) manage.py makemessages -l fr --no-location $(MAKEMESSAGES_IGNORE)
	$(PY) manage.py compilemessages -l fr --ignore=.venv
