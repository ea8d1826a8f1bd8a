# Tabletop Companion. `make run` and `make test` do all set-up themselves on a
# fresh Debian or Raspberry Pi OS: system packages (installed when missing and
# root, otherwise named), the virtual environment and the Python packages.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# Two stamps: `make run` installs only what running needs (on a Pi, too); the tests' tools come with `make test`.
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev
ARCH   := $(shell uname -m)
ON_PI  := $(shell test -e /proc/device-tree/model && grep -qi 'raspberry pi' /proc/device-tree/model && echo yes)

# What Kivy's wheel needs from the system (it bundles SDL2 itself), and for tests a virtual screen (and X's XTest
# library: a click through X itself, tests/support/x_input.py).
RUN_DEBS  := python3-venv libgl1 libegl1 libgles2 libmtdev1 libgbm1 libdrm2
TEST_DEBS := xvfb libxtst6 chromium chromium-driver
PI_DEBS   := python3-lgpio

# On a Pi the venv also sees Raspberry Pi OS's python3-lgpio (the lgpio pin factory).
VENV_FLAGS := $(if $(ON_PI),--system-site-packages,)

INSTALL_DIR ?= /opt/tabletop-companion
SERVICE_USER ?= companion

.PHONY: run setup test lint bench coverage screenshots install system-deps test-deps pi-check clean

run: setup
	$(BIN)/companion run

# What `make run` sets up before it opens the app (used alone by `make pi-check`).
setup: system-deps $(RUN_STAMP)

# Three workers on the two cores CI has: many tests wait on a child process, a socket or Xvfb, and a third
# worker fills that idle CPU (the whole suite: 567 s with two, 494 s with three, on this machine, 2026-11-27).
TEST_WORKERS ?= 3

test: system-deps test-deps $(DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy --strict companion ui hardware
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadgroup

lint: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy --strict companion ui hardware

bench: system-deps test-deps $(DEV_STAMP)
	$(BIN)/python -m bench

# Branch coverage of the suite `make test` runs, and of every Python process it starts (`companion ...`, the app,
# the xdist workers); TESTS narrows it (`make coverage TESTS=tests/hardware`). The data, the report and the HTML
# (build/coverage/html/index.html) stay in build/; see docs/testing.md. pytest-cov measures the xdist workers and
# saves each one's data as the worker ends (a worker leaves without Python's exit handlers, so coverage.py's own
# subprocess patch alone lost a whole worker's data in a full run); coverage.py's patch measures every other child
# (pyproject.toml). COVERAGE_FILE is absolute so that a child started in another folder writes its data beside the
# others. A failing test still gets its report; the target fails after it.
TESTS ?=
coverage: export COVERAGE_FILE = $(abspath build/coverage/data/.coverage)
coverage: system-deps test-deps $(DEV_STAMP)
	rm -rf build/coverage
	@$(BIN)/python -m pytest -n 2 --dist loadgroup --cov --cov-report= $(TESTS); status=$$?; \
	{ $(BIN)/coverage combine --quiet --append 2>/dev/null || true; } && \
	$(BIN)/coverage report && \
	$(BIN)/coverage html --quiet && \
	echo "HTML: build/coverage/html/index.html" && \
	for part in companion ui hardware; do \
	  echo "$$part/: $$($(BIN)/coverage report --include="$$part/*" --format=total)% (statements and branches)"; \
	done && exit $$status

# The UI tests take their screenshots into build/screenshots/; the pictures the README, docs/ and
# bench/README.md show are copied from there into docs/screenshots/ (only those), so that a test run
# never changes tracked files. Each page names them relative to itself, hence the basename. The pictures keep
# Kivy's own multisampling (the tests draw without it, for speed: tests/ui/conftest.py).
screenshots: system-deps test-deps $(DEV_STAMP)
	COMPANION_TEST_MULTISAMPLES=2 $(BIN)/python -m pytest -n 2 --dist loadgroup -q tests/ui tests/hardware/test_firmware.py
	@for f in $$(grep -oh 'screenshots/[A-Za-z0-9_.-]*\.png' README.md bench/README.md $$(find docs -name '*.md') \
	  | xargs -n 1 basename | sort -u); do \
	  cp build/screenshots/$$f docs/screenshots/$$f && echo "updated docs/screenshots/$$f"; done

$(RUN_STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV_FLAGS) $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .
	touch $@

$(DEV_STAMP): $(RUN_STAMP)
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

# Install the Debian packages named in $(1) when missing: as root directly,
# otherwise say exactly what to run and stop.
define need_debs
	@missing=""; for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "Installing system packages:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else \
	    echo "Missing system packages:$$missing"; \
	    echo "Install them with:  sudo apt-get install$$missing"; exit 1; \
	  fi; \
	fi
endef

system-deps:
	@command -v dpkg-query >/dev/null || { echo "Not a Debian system: install Kivy's SDL2/OpenGL libraries and Xvfb by hand."; exit 0; }
	$(call need_debs,$(RUN_DEBS) $(if $(ON_PI),$(PI_DEBS),))

test-deps:
	@command -v dpkg-query >/dev/null || exit 0
	$(call need_debs,$(TEST_DEBS))

# On the Pi, as root: the app in $(INSTALL_DIR), a service user, the systemd unit.
# Where systemd is not running (a chroot, an image being prepared) the unit is enabled for the next boot.
install: system-deps
	@test "$$(id -u)" = 0 || { echo "make install needs root: sudo make install"; exit 1; }
	id -u $(SERVICE_USER) >/dev/null 2>&1 || useradd --system --create-home --home-dir /var/lib/$(SERVICE_USER) \
	    --shell /usr/sbin/nologin $(SERVICE_USER)
	for g in gpio dialout video input render; do getent group $$g >/dev/null && usermod -aG $$g $(SERVICE_USER); done; true
	mkdir -p $(INSTALL_DIR)
	rm -rf $(addprefix $(INSTALL_DIR)/,companion ui hardware systemd build)
	cp -r pyproject.toml README.md companion ui hardware systemd $(INSTALL_DIR)/
	$(PYTHON) -m venv $(VENV_FLAGS) $(INSTALL_DIR)/.venv
	$(INSTALL_DIR)/.venv/bin/pip install --quiet --upgrade pip
	$(INSTALL_DIR)/.venv/bin/pip install --quiet $(INSTALL_DIR)
	sed 's#@INSTALL_DIR@#$(INSTALL_DIR)#g; s#@USER@#$(SERVICE_USER)#g' systemd/tabletop-companion.service \
	    > /etc/systemd/system/tabletop-companion.service
	@if [ -d /run/systemd/system ]; then \
	  systemctl daemon-reload && systemctl enable --now tabletop-companion.service; \
	else \
	  systemctl enable tabletop-companion.service && echo "systemd is not running here: the unit starts on the next boot."; \
	fi
	@echo "Installed. Logs: journalctl -u tabletop-companion -f"

# An emulated arm64 Debian bookworm (Raspberry Pi OS's base) in build/pi-root, as root: the README's set-up,
# the app's first frame, every golden game, the tests, `make install`. 12 to 21 minutes (the first
# time 11 more); see docs/architecture.md. Too long for CI: run before changes to set-up, hardware/ or systemd/.
pi-check: setup
	HOST_PYTHON=$(abspath $(BIN))/python bash tests/pi/pi_check.sh

clean:
	@! grep -q "$$(pwd)/build/pi-" /proc/mounts || { echo "build/pi-* is still mounted (a pi-check running?)"; exit 1; }
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache .hypothesis
