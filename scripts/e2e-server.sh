#!/usr/bin/env bash
# The server the end-to-end suite runs against: the demo on a fresh embedded database of its own.
set -euo pipefail
export PORT="${E2E_PORT:-3100}"
export PGLITE_DIR="${PGLITE_DIR:-.data/e2e-pglite-$PORT}"
if [ -z "${DATABASE_URL:-}" ]; then rm -rf "$PGLITE_DIR"; fi
exec npm run --silent demo
