# `make run`, `make check` and `make test` do all the set-up on a fresh Debian/Ubuntu machine, each
# installing only what it needs: the window (run), the Python test tools (check), everything (test).
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PYTEST := $(PY) -m pytest
# uv installs the versions pip would (the same `pip freeze`, checked), fetching in parallel, and
# compiles them as pip does (with PYTHONDONTWRITEBYTECODE set, each process would compile them again).
INSTALL := $(VENV)/bin/uv pip install --quiet --compile-bytecode --python $(PY)
# The window's dependencies and Qt's Debian libraries: what `make run` needs.
RUN_STAMP := $(VENV)/.run-stamp
# ...and the Python test tools: what `make check` needs (no Chromium, Java, Spark or Xvfb).
STAMP := $(VENV)/.installed-stamp
# ...and the rest of `make test`: Xvfb, Chromium and the validators (Debian), Java and pyspark,
# PyInstaller, build and twine, MkDocs.
TEST_STAMP := $(VENV)/.test-stamp
# What the quick loop leaves to `make test` (see the markers in pyproject.toml).
QUICK := not slow and not system and not xvfb
# Both cores; a test group (ranx's compile, one JVM, one bundle) on one worker. A worker that crashes
# ends the run: pytest-xdist's loadgroup waits forever once a crashed worker is replaced
# (pytest-xdist#1323, #1378), and a crash is a failure either way.
XDIST := -n 2 --dist loadgroup --max-worker-restart 0

.PHONY: run test check lint docs docs-build dist bench screenshot screenshots package clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet uv

$(RUN_STAMP): pyproject.toml packaging/install-debian-deps.sh | $(PY)
	bash packaging/install-debian-deps.sh
	$(INSTALL) -e .
	touch $@

$(STAMP): $(RUN_STAMP)
	$(INSTALL) -e '.[test]'
	# rbo (the check of RBO in tests) declares numpy < 2 but runs on numpy 2: no dependencies.
	$(INSTALL) --no-deps rbo
	touch $@

$(TEST_STAMP): $(STAMP)
	bash packaging/install-debian-deps.sh --test
	bash packaging/install-debian-deps.sh --java
	$(INSTALL) -e '.[test,spark,package,docs]'
	touch $@

run: $(RUN_STAMP)
	$(PY) -m ndcg_gui $(ARGS)

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports

# The quick loop: ruff, the import contracts and every test but the marked ones, on both cores, with
# a fifth of each property test's examples (the quick profile: tests/conftest.py).
check: lint
	QT_QPA_PLATFORM=offscreen $(PYTEST) -m "$(QUICK)" -q $(XDIST) --hypothesis-profile quick

# Every test and check: the quick loop's, the documentation built strictly, the marked tests
# (offscreen, on both cores) and the real-mouse tests under Xvfb (on both cores too: each worker
# starts an X server and a window manager of its own, tests/qt/real_display.py).
test: lint docs-build
	QT_QPA_PLATFORM=offscreen $(PYTEST) -m "not xvfb" $(XDIST) --hypothesis-profile full --durations=40
	@if command -v xvfb-run >/dev/null; then \
		QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 1600x1000x24" $(PYTEST) -m xvfb $(XDIST); \
	else echo "xvfb-run not found (not root?): the real-mouse tests did not run"; exit 1; fi

# The documentation site (docs/, mkdocs.yml): a broken link or reference fails the build.
docs-build: $(TEST_STAMP)
	$(VENV)/bin/mkdocs build --strict --site-dir build/site

docs: $(TEST_STAMP)
	$(VENV)/bin/mkdocs serve

# A release: the sdist and the wheel in dist/, checked as PyPI would.
dist: $(RUN_STAMP)
	$(INSTALL) 'build>=1.2' 'twine>=6'
	rm -f dist/ndcg_gui-*.whl dist/ndcg_gui-*.tar.gz
	$(PY) -m build --outdir dist .
	$(VENV)/bin/twine check --strict dist/ndcg_gui-*

bench: $(STAMP)
	$(PY) benchmarks/run_all.py

screenshot: $(RUN_STAMP)
	QT_QPA_PLATFORM=offscreen $(PY) -m ndcg_gui --screenshot packaging/screenshots/window.png

# The grid looked at before a release: four files, three sizes, light and dark (packaging/screenshots.py).
screenshots: $(RUN_STAMP)
	QT_QPA_PLATFORM=offscreen $(PY) packaging/screenshots.py

# The window's dependencies, DuckDB and nothing else of the venv (packaging/bundle_contents.py).
package: $(RUN_STAMP)
	$(INSTALL) -e '.[duckdb,package]'
	$(PY) -m PyInstaller --noconfirm --clean --distpath dist --workpath build/pyinstaller packaging/ndcg-gui.spec

clean:
	rm -rf build dist .pytest_cache .ruff_cache *.egg-info
