#!/usr/bin/env bash
# The server the end-to-end suite runs against: the demo on a fresh embedded database of its own.
set -euo pipefail
export PORT="${E2E_PORT:-3100}"
# Every browser of the suite comes from 127.0.0.1, so the per-IP SMS limits (finding 4) would count the whole run as
# one network; lib/auth/sms-codes.test.ts proves those limits instead.
export SMS_CODES_PER_IP_MINUTE="${SMS_CODES_PER_IP_MINUTE:-1000}"
export SMS_CODES_PER_IP_HOUR="${SMS_CODES_PER_IP_HOUR:-10000}"
export PGLITE_DIR="${PGLITE_DIR:-.data/e2e-pglite-$PORT}"
if [ -z "${DATABASE_URL:-}" ]; then rm -rf "$PGLITE_DIR"; fi
exec npm run --silent demo
