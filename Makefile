# Two commands for a new user: `make run` and `make test`; `make check` lints
# and type-checks, as CI does before the tests.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: run test test-core test-gui check install dev clean bench

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# A regular (non-editable) install: the tests run against the installed
# package, not the checkout.
install: $(PY)
	$(PY) -m pip install --quiet ".[test]"
	@touch $(STAMP)

run: install
	$(VENV)/bin/tsume-studio --sample

# tsshogi (ShogiHome's KIF parser) checks our records where node and npm exist;
# without them that test skips.
test: install
	@if command -v npm >/dev/null 2>&1 && [ ! -d tests/js/node_modules ]; then \
		(cd tests/js && npm ci --silent --no-audit --no-fund) || echo "tsshogi not installed: its test will skip"; \
	fi
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest $(PYTEST_ARGS)

test-core: install
	$(PY) -m pytest -m "not gui" $(PYTEST_ARGS)

# ruff and mypy --strict at the versions pinned in pyproject.toml's `check`
# extra (the package's own dependencies come too: mypy reads PySide6's stubs).
# mypy reads core/ and gui/ under their import names, tsume_studio.core and
# tsume_studio.gui, so that gui's `..core` imports resolve: build/typecheck
# links those names to the folders (see [tool.mypy] in pyproject.toml), and
# its report names the folders again.
# Both run, so that one pass shows every finding.
check: $(PY)
	$(PY) -m pip install --quiet ".[check]"
	@mkdir -p build/typecheck/tsume_studio
	@ln -sfn ../../../core build/typecheck/tsume_studio/core
	@ln -sfn ../../../gui build/typecheck/tsume_studio/gui
	@status=0; \
	echo "ruff check core gui tests"; $(VENV)/bin/ruff check core gui tests || status=1; \
	echo "mypy"; $(VENV)/bin/mypy > build/typecheck/report.txt || status=1; \
	sed 's|^build/typecheck/tsume_studio/||' build/typecheck/report.txt; exit $$status

# The benchmark of docs/benchmarks.md: this solver and cshogi's C++ df-pn in one run.
bench: install
	$(VENV)/bin/tsume bench tests/data/mate.tsv tests/data/nomate.tsv --seconds 60
	$(VENV)/bin/tsume bench tests/data/microcosmos.tsv --seconds 60 --stop-after 2

# The kernel's tests (board, move generation, df-pn, the length search) against a build of it with AddressSanitizer and UBSan
# (tools/sanitize_kernel.py); any finding aborts the run.  SANITIZE_ARGS go to
# pytest (CI passes a smaller --random-positions); SANITIZE_JOBS bounds the
# compiles run at once (default: every source at once).  `sanitize-run` is the
# same without the install, for a .venv installed already: it writes nothing
# there, so it may run beside `make test` (as CI runs it).
CXX ?= g++
SANITIZE_ARGS ?=
SANITIZE_JOBS ?= 0
.PHONY: sanitize sanitize-run
sanitize: install
	@$(MAKE) --no-print-directory sanitize-run

sanitize-run:
	$(PY) tools/sanitize_kernel.py --jobs $(SANITIZE_JOBS)
	export LD_PRELOAD="$$($(CXX) -print-file-name=libasan.so) $$($(CXX) -print-file-name=libubsan.so)" \
		ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 PYTHONPATH=build/sanitize; \
	$(PY) -c "from tsume_studio.core.kernel import _kernel; assert '/build/sanitize/' in _kernel.__file__" && \
	$(PY) -m pytest -q -p no:cacheprovider tests/core/test_kernel_movegen.py tests/core/test_kernel_perft.py \
		tests/core/test_kernel_fuzz.py tests/core/test_kernel_dfpn.py tests/core/test_kernel_oracle.py \
		tests/core/test_kernel_length.py tests/core/test_kernel_length_live.py tests/core/test_kernel_lower.py \
		$(SANITIZE_ARGS)

# The kernel's move generation speed (docs/benchmarks.md); CSHOGI_BENCH=path adds cshogi's
# (tools/cshogi_movegen_bench.cpp built against cshogi's C++ sources).
.PHONY: bench-kernel
bench-kernel: install
	$(PY) tools/bench_kernel.py $(if $(CSHOGI_BENCH),--cshogi $(CSHOGI_BENCH))

dev: $(PY)
	$(PY) -m pip install --quiet -e ".[test]"

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache

# A one-folder bundle for people without Python: dist/tsume-studio/ (tsume-studio,
# tsume, tsume-usi) and dist/tsume-studio-VERSION-linux-ARCH.tar.gz.
.PHONY: package
package: install
	$(PY) -m pip install --quiet "pyinstaller>=6"
	$(PY) packaging/build.py
