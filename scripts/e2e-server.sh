#!/usr/bin/env bash
# The server the end-to-end suite runs against: the demo on a fresh embedded database of its own.
set -euo pipefail
export PORT="${E2E_PORT:-3100}"
# The SMS and captcha limits per address stay at their defaults (issue 29). Every browser of the suite connects from
# this machine (Chromium reaches *.localhost over ::1, Node's requests come from 127.0.0.1), which is trusted here as the
# proxy in front of the store; each test buyer's context then says which address it writes from (X-Forwarded-For,
# e2e/buyers.ts), as a proxy would for real buyers. A client on any other address (127.0.0.2, e2e/security.spec.ts)
# is not believed.
export TRUSTED_PROXIES="${TRUSTED_PROXIES:-127.0.0.1,::1}"
export PGLITE_DIR="${PGLITE_DIR:-.data/e2e-pglite-$PORT}"
if [ -z "${DATABASE_URL:-}" ]; then rm -rf "$PGLITE_DIR"; fi
# What the demo prints is kept too: e2e/console.spec.ts enrols the demo owner from the link it prints (issue 31).
mkdir -p .data
exec > >(tee "${E2E_SERVER_LOG:-.data/e2e-server-$PORT.log}") 2>&1
# An owner for the specs that change a channel from outside with an API key (issue 31, e2e/operator-key.ts), made by the
# real command before the demo takes the database; its link is printed into the same log. On a database kept from an
# earlier run the owner exists already and the command says so.
npm run --silent ops:owner -- e2e.automation --again || true
exec npm run --silent demo
