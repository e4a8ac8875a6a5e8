#!/usr/bin/env bash
# `npm test`: bring up the local stack (PostgreSQL, Redis, Kafka, ClickHouse; see deploy/local/), then run every
# vitest project. Stack URLs reach the tests as TEST_* variables so that no suite switches profile by accident.
set -euo pipefail
cd "$(dirname "$0")/.."
# Static checks first: types, Biome, and the layering rules of DESIGN.md section 3.
npm run -s typecheck
npm run -s lint
bash deploy/local/up.sh >/dev/null
while IFS='=' read -r key value; do
  [ -n "$key" ] && export "TEST_${key}=${value}"
done < "${TOOLGATE_STACK_DIR:-.stack}/stack.env"
exec npx vitest run "$@"
