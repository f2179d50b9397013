# tcgtiming: `make site` (the main job on the shipped rules), `make test` and `make fuzz`.
# Both set up what they need: Debian packages when missing, Python packages in .venv.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
OUT := build
APT_PACKAGES := graphviz fonts-ipaexfont-gothic

.PHONY: site test setup system-deps python-deps clean schema reference bench fuzz

site: setup
	@# one pass: models/, charts/ (and timing tables), traces/ and site/ (ja/, en/), moved into $(OUT) together
	@$(BIN)/tcgtiming site --rules rules --out $(OUT)

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

# the long fuzz run: seeded, for minutes; prints inputs, tracebacks, hangs and unlocated diagnostics
FUZZ_SEED ?= 14
FUZZ_MINUTES ?= 5
fuzz: setup
	$(BIN)/python tests/fuzz/run.py --seed $(FUZZ_SEED) --minutes $(FUZZ_MINUTES)

schema: setup
	$(BIN)/tcgtiming schema --out schema/tcgtiming-rules.schema.json

reference: setup
	$(BIN)/tcgtiming reference README.md --update

clean:
	rm -rf $(OUT) $(VENV) .pytest_cache .hypothesis
