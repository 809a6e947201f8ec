#!/usr/bin/env bash
# Debian packages some tests drive: chromium (the payment page and the API reference in a
# browser, through playwright-core), jq (the README's quick start runs as written) and
# poppler-utils (pdftotext reads the Pix receipts as an outsider would). Installs
# what is missing, as root through apt; without root, apt-get or a package mirror it says so and
# succeeds: those tests are then skipped by name with the reason.
set -uo pipefail
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v jq >/dev/null 2>&1 || missing+=(jq)
command -v pdftotext >/dev/null 2>&1 || missing+=(poppler-utils)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "test tools: ${missing[*]} missing and no root apt-get here; the tests that need them will be skipped" >&2
  exit 0
fi
echo "test tools: installing ${missing[*]} (apt-get install -y)" >&2
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y -q "${missing[@]}" >/dev/null 2>&1; then
  apt-get update -q >/dev/null 2>&1 && apt-get install -y -q "${missing[@]}" >/dev/null 2>&1
fi
for tool in "${missing[@]}"; do
  [ "$tool" = poppler-utils ] && tool=pdftotext
  command -v "$tool" >/dev/null 2>&1 || echo "test tools: $tool could not be installed; its tests will be skipped" >&2
done
exit 0
