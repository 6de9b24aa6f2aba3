#!/bin/sh
# Installs Debian's chromium for the browser tests (test/browser/*.test.ts) when it is missing.
# .ci/run calls this before the test suite; it needs root (or sudo) and network access to the Debian mirror.
set -eu

if [ -x /usr/bin/chromium ]; then
  exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
  run_as_root=""
elif command -v sudo >/dev/null 2>&1; then
  run_as_root="sudo"
else
  echo "ensure-chromium: /usr/bin/chromium is missing and this user cannot install packages (not root, no sudo)." >&2
  exit 1
fi

$run_as_root apt-get update -qq
$run_as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium

if [ ! -x /usr/bin/chromium ]; then
  echo "ensure-chromium: apt-get finished but /usr/bin/chromium is still missing." >&2
  exit 1
fi
echo "ensure-chromium: $(/usr/bin/chromium --version 2>/dev/null || echo chromium installed)"
