#!/usr/bin/env bash
# The browser tests (test/charges/payment-page-browser.test.ts) drive Debian's Chromium with
# playwright-core. Installs it when missing, as root through apt; without root, apt-get or a
# package mirror it says so and succeeds: those tests are then skipped by name with the reason.
set -uo pipefail
CHROMIUM=/usr/bin/chromium
[ -x "$CHROMIUM" ] && exit 0
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "chromium: $CHROMIUM missing and no root apt-get here; the browser tests will be skipped" >&2
  exit 0
fi
echo "chromium: installing Debian's chromium (apt-get install -y chromium)" >&2
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y -q chromium >/dev/null 2>&1; then
  apt-get update -q >/dev/null 2>&1 && apt-get install -y -q chromium >/dev/null 2>&1
fi
[ -x "$CHROMIUM" ] || echo "chromium: could not be installed; the browser tests will be skipped" >&2
exit 0
