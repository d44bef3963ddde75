#!/usr/bin/env bash
# System calls and CPU time of the service per sequential execution, on the embedded database.
#
#   bash bench/syscalls.sh [checkout] [executions]      (default: this checkout, 2000)
#
# Starts `node dist/src/main.js` of the checkout (built: npm run build) on a fresh DATA_DIR and port 3778, a
# receiver on 127.0.0.1:4888, bootstraps a tenant with the command line, makes one action, runs 500 executions to
# warm up, then `executions` more one at a time, twice: once under `strace -f -c` (the system calls, by kind) and
# once without (the service's CPU ticks from /proc and the p50 latency seen by the client). Linux only; needs strace.
set -euo pipefail
ROOT=$(cd "${1:-$(dirname "$0")/..}" && pwd)
COUNT=${2:-2000}
HERE=$(cd "$(dirname "$0")" && pwd)
DATA=$(mktemp -d /tmp/agw-syscalls-XXXXXX)
URL=http://127.0.0.1:3778
cleanup() { kill "${SERVICE:-}" "${RECEIVER:-}" 2>/dev/null || true; rm -rf "$DATA"; }
trap cleanup EXIT

node -e "require('node:http').createServer((q, r) => { q.resume(); q.on('end', () => r.writeHead(200, {'content-type': 'application/json'}).end('{\"result\":\"ok\",\"error\":\"\"}')); }).listen(4888, '127.0.0.1')" &
RECEIVER=$!
(cd "$ROOT" && RATE_LIMIT_PER_HOUR=100000000 PORT=3778 HOST=127.0.0.1 DATA_DIR="$DATA" LOG_LEVEL=warn exec node dist/src/main.js) &
SERVICE=$!
for _ in $(seq 1 120); do curl -sf -o /dev/null "$URL/readyz" && break; sleep 0.5; done
TOKEN=$(cd "$ROOT" && DATA_DIR="$DATA" node dist/src/cli/gateway.js bootstrap --tenant syscalls | node -e "let s = ''; process.stdin.on('data', (d) => (s += d)).on('end', () => console.log(JSON.parse(s).api_token.token))")
JWT=$(curl -sf -X POST "$URL/api/v1/gateway/token/exchange" -H 'content-type: application/json' -d "{\"api_token\":\"$TOKEN\"}" | node -e "let s = ''; process.stdin.on('data', (d) => (s += d)).on('end', () => console.log(JSON.parse(s).jwt_token))")
curl -sf -o /dev/null -X POST "$URL/api/v1/gateway/actions" -H "authorization: Bearer $JWT" -H 'content-type: application/json' \
  -d '{"name":"syscalls","description":"bench","webhook_url":"http://127.0.0.1:4888/hook","json_schema":{"type":"object"}}'
run() { node "$HERE/lib/sequential-executions.mjs" "$URL" "$JWT" syscalls "$1"; }
run 500 > /dev/null

strace -f -c -o "$DATA/strace.txt" -p "$SERVICE" 2> /dev/null &
STRACE=$!
sleep 1
run "$COUNT" > /dev/null
kill -INT "$STRACE"
wait "$STRACE" || true
echo "system calls of the service during $COUNT sequential executions (strace -f -c):"
grep -E 'calls|total|epoll_pwait|writev|write$|read$|pwrite64|sendto|recvfrom' "$DATA/strace.txt"

BEFORE=$(awk '{print $14 + $15}' "/proc/$SERVICE/stat")
LATENCY=$(run "$COUNT")
AFTER=$(awk '{print $14 + $15}' "/proc/$SERVICE/stat")
echo "without strace: $LATENCY; service CPU $(( (AFTER - BEFORE) * 10 )) ms for $COUNT executions"
