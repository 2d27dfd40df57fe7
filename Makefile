# Arena: `make demo` runs a tournament of the sample players for each game; `make test` runs every test.
# Both set up what is missing first (the guest toolchain, the sample players, the host).

CARGO        ?= cargo
# The Rust toolchain rust-toolchain.toml pins, installed with rustup if missing, before any cargo below.
TOOLCHAIN    := $(shell scripts/toolchain.sh >&2)
TARGET_DIR   ?= $(shell $(CARGO) metadata --format-version 1 --no-deps 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])' 2>/dev/null || echo target)
PLAYERS      := $(TARGET_DIR)/players
# Every game's Rust components (its referee and Rust sample players) and hand-written WAT players, found
# in the game folders (games/<name>/): adding a game edits no list here.
RUST_PLAYERS := $(shell scripts/components.sh)
WAT_PLAYERS  := $(wildcard games/*/players/wat/*.wat)
ARENA        := $(TARGET_DIR)/debug/arena
DEMO_DATA    := $(TARGET_DIR)/demo-data

.PHONY: all setup players build book demo test bench clean-players

all: build players

# Every language's toolchain (`make players` also installs what it lacks, lazily).
setup:
	@CARGO="$(CARGO)" TARGET_DIR="$(TARGET_DIR)" scripts/setup.sh

# Every sample player as a component in target/players/<name>.wasm (WAT players are copied as text).
# build-guests.sh installs its toolchain itself: rustup's wasm32-wasip2 target, or a Debian fallback
# when rustup cannot add it (ARENA_GUEST_FALLBACK=1 forces the fallback). build-py-js.sh builds the
# Python and JavaScript players with componentize-py (PyPI) and componentize-qjs (npm), installed on first use.
players:
	CARGO="$(CARGO)" TARGET_DIR="$(TARGET_DIR)" scripts/build-guests.sh $(PLAYERS) $(RUST_PLAYERS)
	TARGET_DIR="$(TARGET_DIR)" scripts/build-py-js.sh $(PLAYERS)
	@for f in $(WAT_PLAYERS); do cp $$f $(PLAYERS)/; done
	TARGET_DIR="$(TARGET_DIR)" scripts/build-c.sh $(PLAYERS)
	@# Go players are written by the host's `arena new --lang go` (built first if missing), then built with Go from PyPI.
	CARGO="$(CARGO)" TARGET_DIR="$(TARGET_DIR)" ARENA="$(ARENA)" scripts/build-go.sh $(PLAYERS)
	@# Game packages, assembled from games/ and the components built above: target/packages/<name>.
	scripts/assemble-packages.sh $(PLAYERS) $(TARGET_DIR)/packages
	@echo "players: $$(ls $(PLAYERS) | tr '\n' ' ')"

build:
	$(CARGO) build --quiet -p arena

# The book (docs/: guides, reference, operations, benchmarks), built with mdBook into target/book/;
# mdBook is installed from crates.io under the target dir on first use.
book:
	scripts/build-book.sh $(TARGET_DIR)

# A tournament of each game, misbehaving sample players included: watch them get banned. Every game is a
# package (target/packages/<name>: its manifest, WIT and referee component) that the host loads by name.
demo: players build
	@echo "== The games: packages the host loads (arena games) =="
	$(ARENA) games
	@echo
	$(ARENA) tournament --game yahtzee --format knockout --games-per-match 3 --seed 2026 \
		--replay-dir $(TARGET_DIR)/demo-replays/yahtzee \
		$(PLAYERS)/yahtzee-greedy.wasm $(PLAYERS)/yahtzee-loop.wasm \
		$(PLAYERS)/yahtzee-random.wasm $(PLAYERS)/yahtzee-panic.wasm \
		$(PLAYERS)/yahtzee-hog.wasm $(PLAYERS)/yahtzee-cheat.wasm \
		$(PLAYERS)/yahtzee-sleep.wasm $(PLAYERS)/yahtzee-wat-loop.wat
	@echo
	$(ARENA) tournament --game fish --format rounds --seed 2026 \
		--replay-dir $(TARGET_DIR)/demo-replays/fish \
		$(PLAYERS)/fish-greedy.wasm $(PLAYERS)/fish-random.wasm $(PLAYERS)/fish-loop.wasm \
		$(PLAYERS)/fish-panic.wasm $(PLAYERS)/fish-hog.wasm $(PLAYERS)/fish-cheat.wasm \
		$(PLAYERS)/fish-quitter.wasm random2=builtin:random
	@echo
	$(ARENA) tournament --game santorini --format round-robin --games-per-match 2 --seed 2026 \
		--replay-dir $(TARGET_DIR)/demo-replays/santorini \
		$(PLAYERS)/santorini-minimax.wasm $(PLAYERS)/santorini-random.wasm $(PLAYERS)/santorini-loop.wasm \
		$(PLAYERS)/santorini-panic.wasm $(PLAYERS)/santorini-hog.wasm $(PLAYERS)/santorini-cheat.wasm \
		$(PLAYERS)/santorini-quitter.wasm
	@echo
	@echo "== Goofspiel, a game added as a package alone: secret simultaneous bids, private hands =="
	$(ARENA) tournament --game goofspiel --format round-robin --games-per-match 2 --seed 2026 \
		--replay-dir $(TARGET_DIR)/demo-replays/goofspiel \
		$(PLAYERS)/goofspiel-smart.wasm $(PLAYERS)/goofspiel-random.wasm $(PLAYERS)/goofspiel-py.wasm \
		$(PLAYERS)/goofspiel-cheat.wasm $(PLAYERS)/goofspiel-loop.wasm
	@echo "-- one game as seat 0 saw it: its own hand and bids, the others' bids only at each reveal --"
	$(ARENA) play --game goofspiel --seed 2026 --seat 0 \
		smart=$(PLAYERS)/goofspiel-smart.wasm random=$(PLAYERS)/goofspiel-random.wasm | head -16
	@echo "replays of every game: $(TARGET_DIR)/demo-replays/"
	@echo
	@echo "== Nim, the smallest package =="
	$(ARENA) play --game nim --seed 2026 \
		optimal=$(PLAYERS)/nim-optimal.wasm cheat=$(PLAYERS)/nim-cheat.wasm
	@echo
	@echo "== The results store: submissions (a looping player refused), a registered tournament, ratings =="
	rm -rf $(DEMO_DATA)
	$(ARENA) submit --data $(DEMO_DATA) --game santorini --name minimax $(PLAYERS)/santorini-minimax.wasm
	$(ARENA) submit --data $(DEMO_DATA) --game santorini --name random $(PLAYERS)/santorini-random.wasm
	$(ARENA) submit --data $(DEMO_DATA) --game santorini --name js $(PLAYERS)/santorini-js.wasm
	$(ARENA) submit --data $(DEMO_DATA) --game santorini --name quitter $(PLAYERS)/santorini-quitter.wasm
	-$(ARENA) submit --data $(DEMO_DATA) --game santorini --name loop $(PLAYERS)/santorini-loop.wasm
	$(ARENA) tournament --data $(DEMO_DATA) --game santorini --format round-robin --games-per-match 2 \
		--seed 2026 --registered
	$(ARENA) leaderboard --data $(DEMO_DATA) --game santorini
	$(ARENA) stats --data $(DEMO_DATA) minimax
	@echo "== A stored game replayed: its record re-run through Santorini's referee (the start of it) =="
	$(ARENA) replay --data $(DEMO_DATA) 1/R1-M1-G1 | head -40
	@echo "== The ladder: 60 more rated games, paired by rating (Ctrl-C stops one that runs without --games) =="
	$(ARENA) ladder --data $(DEMO_DATA) --game santorini --games 60 --seed 2026
	$(ARENA) tournaments --data $(DEMO_DATA)
	@echo
	@echo "The same store in a browser: $(ARENA) serve --data $(DEMO_DATA)   (then http://127.0.0.1:8080/;"
	@echo "an account to upload with: $(ARENA) user add NAME --data $(DEMO_DATA), or a sign-up link:"
	@echo " $(ARENA) user invite --data $(DEMO_DATA))"

# The book built (its examples are run by the Rust tests), every Rust test (those of distributed play
# start Debian's nats-server, installed when missing), then the web arena in a real browser (Debian's
# chromium driven by Playwright, both installed by scripts/setup-browser.sh when missing) and the
# replay viewer's own checks.
test: players book
	scripts/setup-nats.sh
	@# The Debian fallback of the Rust players (for a machine where rustup cannot download the pinned
	@# toolchain), kept working: Nim's referee and player built with it, checked in tests/all/check_game.rs.
	ARENA_GUEST_FALLBACK=1 CARGO="$(CARGO)" TARGET_DIR="$(TARGET_DIR)" \
	  scripts/build-guests.sh $(TARGET_DIR)/fallback-players nim-referee nim-optimal
	$(CARGO) test --workspace
	scripts/setup-browser.sh $(TARGET_DIR)
	ARENA=$(ARENA) ARENA_PLAYERS=$(PLAYERS) $(TARGET_DIR)/browser-venv/bin/python tests/browser/test_web.py
	$(TARGET_DIR)/browser-venv/bin/python tests/browser/check_viewer.py

bench: players
	scripts/setup-nats.sh
	$(CARGO) bench -p arena --bench games
	$(CARGO) bench -p arena --bench web
	$(CARGO) bench -p arena --bench cluster
	$(CARGO) bench -p arena --bench languages

clean-players:
	rm -rf $(PLAYERS) $(TARGET_DIR)/wasm32-wasip2 $(TARGET_DIR)/guest-fallback
