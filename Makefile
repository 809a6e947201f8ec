# pixgate: `make run` serves both APIs on the embedded database; `make test` is the gate.
SHELL := /bin/bash
export PATH := $(CURDIR)/node_modules/.bin:$(PATH)

.PHONY: test-tools install build generate check lint lint-code cycles typecheck format format-check commit-subjects test test-only run bench load-charges fuzz gate demo-credentials static-gates

# Installs exactly what package-lock.json says, again whenever it changes.
node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

# The embedded database templates (pristine and migrated), again whenever a migration or the
# way they are made changes.
node_modules/.embedded: node_modules/.installed $(wildcard src/db/migrations/*.ts) src/db/embedded-template.ts src/db/migrate.ts scripts/prepare-embedded.ts
	tsx scripts/prepare-embedded.ts
	touch $@

install: node_modules/.embedded

# Types and handler maps from specs/ into generated/ (committed; never edited by hand).
generate: install
	tsx scripts/generate.ts

# Fails when generated/ is not what the specs produce.
check: install
	tsx scripts/generate.ts --check

lint: install
	redocly lint --config .redocly.yaml specs/platform.yaml specs/pix.yaml

typecheck: install
	tsc --noEmit -p tsconfig.json

# Prettier owns the layout of the TypeScript code (.prettierrc.json); the gate checks it.
format: install
	prettier --write --log-level warn 'src/**/*.ts' 'test/**/*.ts' 'scripts/**/*.ts' 'examples/**/*.ts'

format-check: install
	prettier --check --log-level warn 'src/**/*.ts' 'test/**/*.ts' 'scripts/**/*.ts' 'examples/**/*.ts'

# ESLint over the TypeScript (eslint.config.js): floating promises, unused code, duplicate
# imports, functions over 70 lines, blocks nested over 4 deep.
lint-code: install
	eslint --max-warnings 0 src scripts test

# No import cycles between files, type imports included.
cycles: install
	madge --circular --extensions ts --ts-config tsconfig.json src generated scripts test

# Commit subjects of at most 72 characters, on every commit after the cutoff that
# scripts/commit-subjects.ts records (older history is left as it is).
commit-subjects: install
	tsx scripts/commit-subjects.ts

# The gate: the static checks (fresh codegen, spec lint, code lint, cycles, types, layout,
# commit subjects) side by side, each printing as one block, then every test (embedded
# database unless DATABASE_URL). Any failure stops it.
test: install test-tools
	$(MAKE) --no-print-directory -j3 --output-sync=target static-gates
	$(MAKE) --no-print-directory test-only

static-gates: check lint lint-code cycles typecheck format-check commit-subjects

test-only: install test-tools
	tsx scripts/test.ts

# Debian's chromium and jq for the browser and README tests: installed when missing (root and
# apt-get needed; without them the step says so and those tests are skipped by name).
test-tools:
	@bash scripts/install-test-tools.sh

gate: test

# V8's young generation grows to 3 x 16 MB semi-spaces under load. 8 MB ones made every
# young-generation GC copy the live objects of the 50 requests in flight twice as often: a read
# cost about 15% more server CPU, and the resident memory after `make bench` was no lower.
# One V8 worker thread, not four: each worker thread's malloc arena kept what its
# compilations and GC work had allocated, about 50 MB of resident memory more on the embedded
# database (measured with smaps), for no throughput on these two-core machines.
# A V8 flag Node refuses in NODE_OPTIONS (no allocation-site pretenuring) is set by the server
# itself, first thing: src/v8-tuning.ts.
SERVER_NODE_OPTIONS := --max-semi-space-size=16 --v8-pool-size=1
export SERVER_NODE_OPTIONS

# The server runs as plain JavaScript, bundled by scripts/build.ts into dist/ (tsx's loader
# thread and transpiled sources cost about 40 MB of resident memory in the process).
build: install
	tsx scripts/build.ts

run: build
	NODE_OPTIONS="$(SERVER_NODE_OPTIONS) $$NODE_OPTIONS" node dist/main.js

# New credentials of the demo company (a new MASTER application), on the database make run
# uses (./data, PIXGATE_DATA_DIR or DATABASE_URL); the embedded one only while make run is stopped.
demo-credentials: install
	tsx scripts/demo-credentials.ts

# pixgate beside a bare Koa + pg route, embedded and (with DATABASE_URL) Postgres.
bench: install
	tsx scripts/bench.ts

# Lists at scale: 10,000 and 1,000,000 charges of one company, first and deep pages.
load-charges: install
	tsx scripts/load-charges.ts

fuzz: install
	tsx scripts/fuzz.ts
