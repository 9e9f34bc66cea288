#!/usr/bin/env bash
# Installs what the test suite needs beyond npm packages: Debian's Chromium for the end-to-end tests (Playwright's own
# browser download is not used; DESIGN §11) and Debian's PostgreSQL server, on which `npm test` runs the service tests
# too (scripts/with-postgres.sh starts a throwaway cluster of its own; the system one is never used).
set -euo pipefail
need=()
if ! command -v chromium >/dev/null 2>&1 && [ ! -x /usr/bin/chromium ]; then need+=(chromium); fi
if ! ls -d /usr/lib/postgresql/*/bin >/dev/null 2>&1; then need+=(postgresql); fi
if [ "${#need[@]}" -gt 0 ]; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
echo "chromium: $(chromium --version 2>/dev/null || echo present)"
echo "postgresql: $(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
