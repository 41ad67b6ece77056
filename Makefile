# `make run` and `make test` do all the set-up on a fresh Debian/Ubuntu machine.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
PYTEST := $(PY) -m pytest

.PHONY: run test check lint bench screenshot package clean

$(STAMP): pyproject.toml packaging/install-debian-deps.sh
	bash packaging/install-debian-deps.sh
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,package]'
	$(PY) -m pip install --quiet --no-deps rbo
	touch $(STAMP)

# The slow Spark tests need pyspark and a Java runtime: only `make test` installs them.
SPARK_STAMP := $(VENV)/.spark-stamp
$(SPARK_STAMP): $(STAMP)
	@echo "make test: installing a Java runtime (Debian) and pyspark for the Spark tests (marked slow)"
	bash packaging/install-debian-deps.sh --java
	$(PY) -m pip install --quiet -e '.[test,package,spark]'
	touch $(SPARK_STAMP)

run: $(STAMP)
	$(PY) -m ndcg_gui $(ARGS)

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports

# Every test and check: lint, the import contract, the offscreen suite, the real-mouse tests under
# Xvfb (when xvfb-run is there) and the slow tests (packaging; Spark, with pyspark and Java installed).
test: lint $(SPARK_STAMP)
	QT_QPA_PLATFORM=offscreen $(PYTEST) -m "not xvfb" -n 2
	@if command -v xvfb-run >/dev/null; then \
		QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 1600x1000x24" $(PYTEST) -m xvfb; \
	else echo "xvfb-run not found: real-mouse tests not run"; fi

# The quick loop: everything but the slow packaging build and Xvfb.
check: lint
	QT_QPA_PLATFORM=offscreen $(PYTEST) -m "not xvfb and not slow" -q -n 2

bench: $(STAMP)
	$(PY) benchmarks/run_all.py

screenshot: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(PY) -m ndcg_gui --screenshot packaging/screenshots/window.png

package: $(STAMP)
	$(PY) -m PyInstaller --noconfirm --clean --distpath dist --workpath build/pyinstaller packaging/ndcg-gui.spec

clean:
	rm -rf build dist .pytest_cache .ruff_cache *.egg-info
