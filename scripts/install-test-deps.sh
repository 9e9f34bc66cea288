#!/usr/bin/env bash
# Installs what the test suite needs beyond npm packages: Debian's Chromium for the end-to-end tests (Playwright's own
# browser download is not used; DESIGN §11), Debian's PostgreSQL server, on which `npm test` runs the service tests
# too (scripts/with-postgres.sh starts a throwaway cluster of its own; the system one is never used), and Caddy,
# openssl and curl for the deployment check (scripts/deploy-check.sh runs a Caddy of its own on its own ports; where
# systemd runs, Debian's package also starts its `caddy` service on port 80, which the check neither needs nor touches),
# and iproute2, whose `ip` makes the network namespace the check plays its visitor from outside in (without it, the
# check plays that visitor from 127.0.0.2 instead).
set -euo pipefail
need=()
if ! command -v chromium >/dev/null 2>&1 && [ ! -x /usr/bin/chromium ]; then need+=(chromium); fi
if ! ls -d /usr/lib/postgresql/*/bin >/dev/null 2>&1; then need+=(postgresql); fi
if ! command -v caddy >/dev/null 2>&1; then need+=(caddy); fi
if ! command -v openssl >/dev/null 2>&1; then need+=(openssl); fi
if ! command -v curl >/dev/null 2>&1; then need+=(curl); fi
if ! command -v ip >/dev/null 2>&1; then need+=(iproute2); fi
if [ "${#need[@]}" -gt 0 ]; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
echo "chromium: $(chromium --version 2>/dev/null || echo present)"
echo "postgresql: $(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
echo "caddy: $(caddy version | awk '{print $1}')"
echo "openssl: $(openssl version | awk '{print $2}')"
echo "iproute2: $(ip -V | sed -n 's/.*iproute2-\([^, ]*\).*/\1/p')"
