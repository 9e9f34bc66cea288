#!/usr/bin/env bash
# Installs what the test suite needs beyond npm packages: Debian's Chromium for the end-to-end tests
# (Playwright's own browser download is not used; DESIGN §11).
set -euo pipefail
if command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ]; then
  echo "chromium: $(chromium --version 2>/dev/null || echo present)"
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq chromium >/dev/null
echo "chromium: $(chromium --version)"
