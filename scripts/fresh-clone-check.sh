#!/usr/bin/env bash
# Fresh-clone check (issue 11: "npm start on a fresh clone sets up everything itself").
# Clones the checked-out commit into a temporary folder (so no node_modules/, pkg/
# or target/ of its own), runs `npm start` there on a free port, waits until the
# page and the built wasm answer, stops it by its process id; then runs `npm start`
# again and checks, from scripts/setup.mjs's own log lines, that the second run
# installed nothing, and that it served within FRESH_SECOND_MAX seconds.
#
# The clone builds into the cargo target dir of this checkout (CARGO_TARGET_DIR,
# default ./target): compiled dependencies are reused, node_modules/ and pkg/ are not.
# Tools that live outside the clone (rustup target, wasm-bindgen-cli) are installed
# by the first run only when this machine lacks them.
#
# Environment: FRESH_FIRST_MAX (default 900) and FRESH_SECOND_MAX (default 30),
# seconds each run may take to serve; KEEP_FRESH_CLONE=1 keeps the folder.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
commit=$(git rev-parse HEAD)
first_max=${FRESH_FIRST_MAX:-900}
second_max=${FRESH_SECOND_MAX:-30}
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$repo/target}"

work=$(mktemp -d "${TMPDIR:-/tmp}/fresh-clone.XXXXXX")
server_pid=
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM -- "-$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  if [ "${KEEP_FRESH_CLONE:-0}" = 1 ]; then echo "fresh-clone-check: kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

say() { echo "fresh-clone-check: $*"; }

git clone --quiet --no-checkout "$repo" "$work/repo"
git -C "$work/repo" checkout --quiet --detach "$commit"
for absent in node_modules pkg target; do
  if [ -e "$work/repo/$absent" ]; then say "FAILED: the clone already has $absent/"; exit 1; fi
done
say "cloned $commit into $work/repo (no node_modules/, pkg/, target/); CARGO_TARGET_DIR=$CARGO_TARGET_DIR"

# Runs `npm start` in the clone with PORT=0 (a free port), in its own process group
# so that stopping it stops npm, the build and the server. Waits for the
# "Serving … on http://…" line, fetches the page and the wasm, then stops it.
# Sets $served_after (seconds until the page answered).
start_and_stop() {
  local run=$1 max=$2 log="$work/npm-start-$1.log"
  local started=$SECONDS url=
  say "run $run: npm start (PORT=0), log $log"
  (cd "$work/repo" && PORT=0 QUIET=1 exec setsid npm start) >"$log" 2>&1 &
  server_pid=$!
  while [ -z "$url" ]; do
    if ! kill -0 "$server_pid" 2>/dev/null; then
      wait "$server_pid" && rc=0 || rc=$?
      server_pid=
      say "FAILED: run $run: npm start exited ($rc) before serving; last lines:"
      tail -n 30 "$log"
      exit 1
    fi
    if [ $((SECONDS - started)) -gt "$max" ]; then
      say "FAILED: run $run: not serving after ${max} s; last lines:"
      tail -n 30 "$log"
      exit 1
    fi
    sleep 1
    url=$(sed -nE 's/^Serving .* on (http:\/\/[^ ]+\/) .*/\1/p' "$log" | head -n1)
  done
  url=${url/localhost/127.0.0.1}
  node -e '
    const base = process.argv[1];
    (async () => {
      for (const p of ["www/", "pkg/web/payment_intake_bg.wasm"]) {
        const r = await fetch(base + p);
        if (r.status !== 200) throw new Error(`${p}: HTTP ${r.status}`);
        console.log(`fresh-clone-check:   GET ${base}${p} -> ${r.status} (${(await r.arrayBuffer()).byteLength} bytes)`);
      }
    })().catch((e) => { console.error(`fresh-clone-check: FAILED: ${e.message}`); process.exit(1); });
  ' "$url"
  served_after=$((SECONDS - started))
  kill -TERM -- "-$server_pid"
  wait "$server_pid" 2>/dev/null || true
  say "run $run: served after ${served_after} s; stopped process group $server_pid"
  server_pid=
  grep -E '^\[setup\] (installing|installed|nothing to install)' "$log" | sed 's/^/fresh-clone-check:   /'
}

start_and_stop 1 "$first_max"
first=$served_after
if ! grep -q '^\[setup\] installing npm devDependencies' "$work/npm-start-1.log"; then
  say "FAILED: run 1 did not install the npm devDependencies: did it see another node_modules/?"
  exit 1
fi

start_and_stop 2 "$second_max"
second=$served_after
if grep -q '^\[setup\] installing' "$work/npm-start-2.log" || ! grep -q '^\[setup\] nothing to install' "$work/npm-start-2.log"; then
  say "FAILED: the second npm start installed something:"
  grep '^\[setup\]' "$work/npm-start-2.log"
  exit 1
fi
if grep -q 'Compiling payment-intake' "$work/npm-start-2.log"; then
  say "FAILED: the second npm start recompiled the crate"
  exit 1
fi

say "ok: first npm start served after ${first} s, second after ${second} s and installed nothing"
