# pixgate: `make run` serves both APIs on the embedded database; `make test` is the gate.
SHELL := /bin/bash
export PATH := $(CURDIR)/node_modules/.bin:$(PATH)

.PHONY: install generate check lint typecheck test test-only run bench fuzz gate

# Installs exactly what package-lock.json says, again whenever it changes.
node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

# The embedded database templates (pristine and migrated), again whenever a migration changes.
node_modules/.embedded: node_modules/.installed $(wildcard src/db/migrations/*.ts)
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

# The gate: fresh codegen, lint, types, then every test (embedded database unless DATABASE_URL).
test: check lint typecheck test-only

test-only: install
	tsx scripts/test.ts

gate: test

run: install
	tsx src/main.ts

bench: install
	tsx scripts/bench.ts

fuzz: install
	tsx scripts/fuzz.ts
