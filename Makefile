# tcgtiming: `make site` (the main job on the shipped rules) and `make test`.
# Both set up what they need: Debian packages when missing, Python packages in .venv.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
OUT := build
APT_PACKAGES := graphviz fonts-ipaexfont-gothic

.PHONY: site test setup system-deps python-deps clean schema reference bench

site: setup
	@rm -rf $(OUT).tmp && mkdir -p $(OUT).tmp/models
	$(BIN)/tcgtiming validate $$(find rules -name "*.yaml" -not -path "*/scenarios/*" -not -path "*/rulings/*" | sort) tests/fixtures/mini
	@for f in $$(find rules -name '*.yaml' -not -path '*/scenarios/*' -not -path '*/rulings/*' | sort) tests/fixtures/mini/game.yaml; do \
	  g=$$(basename $$(dirname $$f)); \
	  $(BIN)/tcgtiming compile $$f --out $(OUT).tmp/models/$$g.json || exit 1; \
	done
	@# --- site: charts ---
	$(BIN)/tcgtiming render rules --lang ja --lang en --format svg --format table --out $(OUT).tmp/charts
	@# --- site: simulations ---
	$(BIN)/tcgtiming simulate $$(find rules -path '*/scenarios/*.yaml' | sort) --strict --out-dir $(OUT).tmp/traces
	@# --- site: the pages (docs/) and the mkdocs build (site/) ---
	$(BIN)/tcgtiming site --rules rules --out $(OUT).tmp
	@rm -rf $(OUT) && mv $(OUT).tmp $(OUT)
	@echo "outputs: $(CURDIR)/$(OUT)/ (models/: compiled models; charts/: charts and timing tables; traces/: example simulations; docs/: the generated pages)"
	@echo "site: $(CURDIR)/$(OUT)/site/index.html"

# the browser tests of the site use Debian's chromium (playwright cannot download browsers here)
test: APT_PACKAGES += chromium
test: setup
	$(BIN)/python -m pytest -q

setup: system-deps python-deps

# Debian packages: installed only when missing (apt-get update runs only then).
system-deps:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO="sudo"; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi

python-deps: $(STAMP)

$(STAMP): pyproject.toml constraints.txt
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --disable-pip-version-check -c constraints.txt -e '.[dev,site,bench]'
	@touch $@

bench: setup
	$(BIN)/python benchmarks/startup.py
	$(BIN)/python benchmarks/frontend.py
	$(BIN)/python benchmarks/anchor_turn.py
	$(BIN)/python benchmarks/engines.py
	$(BIN)/python benchmarks/growth.py
	$(BIN)/python benchmarks/render.py

schema: setup
	$(BIN)/tcgtiming schema --out schema/tcgtiming-rules.schema.json

reference: setup
	$(BIN)/tcgtiming reference README.md --update

clean:
	rm -rf $(OUT) $(OUT).tmp $(VENV) .pytest_cache .hypothesis
