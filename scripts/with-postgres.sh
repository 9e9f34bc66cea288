#!/usr/bin/env bash
# Runs a command against a throwaway PostgreSQL server of its own: a new cluster in a temporary folder on a spare
# port, stopped and deleted afterwards whatever the command does. The command sees DATABASE_URL; test/db.ts then makes
# one database per test file. Needs Debian's postgresql package (npm run test:deps installs it).
#   bash scripts/with-postgres.sh npm run test:unit -- test/security
set -euo pipefail
PGBIN="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
if [ -z "$PGBIN" ]; then
  echo "PostgreSQL is not installed: run npm run test:deps (Debian's postgresql package)" >&2
  exit 1
fi
PORT="${PG_TEST_PORT:-$(( 55000 + RANDOM % 5000 ))}"
DIR="$(mktemp -d /tmp/storefront-pg.XXXXXX)"
AS=()
if [ "$(id -u)" -eq 0 ]; then
  # initdb refuses to run as root; the cluster belongs to the package's postgres user.
  chown postgres "$DIR"
  AS=(runuser -u postgres --)
fi
stop() {
  "${AS[@]}" "$PGBIN/pg_ctl" -D "$DIR/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$DIR"
}
trap stop EXIT
"${AS[@]}" "$PGBIN/initdb" -D "$DIR/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
"${AS[@]}" "$PGBIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w \
  -o "-p $PORT -k $DIR -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off" start >/dev/null
echo "PostgreSQL $("$PGBIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$PORT (throwaway cluster)"
DATABASE_URL="postgres://postgres@127.0.0.1:$PORT/postgres" "$@"
