#!/usr/bin/env bash
# The second server process of the two-server journey (issue 31, playwright.servers.config.ts): the same build on the
# same PostgreSQL as the first (scripts/e2e-server.sh), started once the first answers (it migrated, seeded and built),
# without the background jobs (one process runs those), as docs/deploy.md runs a second server.
set -euo pipefail
: "${DATABASE_URL:?the two-server journey runs on PostgreSQL (npm run test:e2e:servers starts one)}"
FIRST="http://127.0.0.1:${E2E_PORT:?}/api/health" node -e '
  const deadline = Date.now() + 600_000;
  const once = () => fetch(process.env.FIRST).then((r) => r.ok, () => false);
  (async () => { while (!(await once())) { if (Date.now() > deadline) process.exit(1); await new Promise((r) => setTimeout(r, 500)); } })();
'
export PORT="${E2E_SECOND_PORT:?}" JOBS=off
export DEMO_MODE="${DEMO_MODE:-1}" DEFAULT_CHANNEL="${DEFAULT_CHANNEL:-AURORA}"
export TRUSTED_PROXIES="${TRUSTED_PROXIES:-127.0.0.1,::1}"
exec npm run --silent start
