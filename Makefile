# Everything runs from a local virtual environment made on first use: `make test` and `make demo` work on a
# fresh machine with only python3 (3.11) and the package registries.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
NSM := $(BIN)/nsm
DEMO_OUT := $(or $(TMPDIR),/tmp)/nsm-demo

.PHONY: install test lint demo bench clean

$(STAMP): setup.cfg pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check torch==2.13.0
	$(BIN)/pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

lint: install
	$(BIN)/ruff check nsmcli tests bench

test: lint
	$(BIN)/pytest

demo: install
	@echo "== preprocess a bundled mini WikiTableQuestions release"
	$(NSM) preprocess wtq --data-dir examples/mini-wtq --out $(DEMO_OUT)/mini-wtq
	@echo "== execute programs on a bundled table (answer, each intermediate result, SQL)"
	$(NSM) execute '(argmax all_rows r.gold-number) (hop v0 r.nation-string)' examples/tables/medals.csv
	$(NSM) execute '(filter_str_contain_any all_rows "kenya" r.nation-string) (previous v0) (hop v1 r.nation-string)' \
		examples/tables/medals.csv --question "which nation ranked right before kenya?"
	$(NSM) execute '(filter_greater all_rows 1000000 r.population-number) (count v0)' \
		examples/tables/cities.csv --question "how many cities have more than 1,000,000 people?"
	$(NSM) execute '(filter_ge all_rows 2000 r.year-number) (sum v0 r.sales-number)' \
		examples/tables/discography.csv --question "total sales of albums since 2000?"

bench: install
	$(BIN)/python bench/interpreter_speed.py
	$(BIN)/python bench/preprocess_time.py
	$(BIN)/python bench/annotation_agreement.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache *.egg-info
