#!/usr/bin/env bash
# Bounded fuzz smoke run of every fuzz target (fuzz/fuzz_targets), for CI:
# seeds the corpora from tests/vectors, runs each target in turn for a fixed
# time, and exits non-zero if any target crashes, fails an assertion or times
# out on an input. Installs cargo-fuzz from crates.io if it is missing.
#
# Environment:
#   FUZZ_SECONDS    seconds per target (default 60)
#   FUZZ_TARGETS    space-separated targets (default: all four)
#   FUZZ_SANITIZER  address | none (default: address, falling back to none
#                   with a warning when AddressSanitizer cannot be built)
# Works on the stable toolchain: RUSTC_BOOTSTRAP=1 unlocks the nightly flags
# cargo-fuzz passes to rustc.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${FUZZ_SECONDS:-60}"
targets="${FUZZ_TARGETS:-canonical callback validate keys}"
sanitizer="${FUZZ_SANITIZER:-address}"
export RUSTC_BOOTSTRAP=1

if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "fuzz-smoke: installing cargo-fuzz"
  cargo install cargo-fuzz --locked
fi

if command -v python3 >/dev/null; then
  fuzz/seed.sh
else
  echo "fuzz-smoke: warning: python3 missing, fuzzing from empty corpora" >&2
fi

build() { (cd fuzz && nice -n 10 cargo fuzz build -O -a -s "$1"); }
if ! build "$sanitizer"; then
  if [ "$sanitizer" = none ]; then exit 1; fi
  echo "fuzz-smoke: warning: build with sanitizer '$sanitizer' failed; using none" >&2
  sanitizer=none
  build none
fi

max_len() { case "$1" in keys) echo 8192 ;; *) echo 16384 ;; esac; }

failed=()
for target in $targets; do
  log="fuzz/smoke-$target.log"
  echo "fuzz-smoke: $target for ${seconds}s (sanitizer $sanitizer)"
  if (cd fuzz && nice -n 10 cargo fuzz run -O -a -s "$sanitizer" "$target" -- \
        -max_total_time="$seconds" -max_len="$(max_len "$target")" -timeout=30 \
        -print_final_stats=1) >"$log" 2>&1; then
    runs="$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')"
    echo "fuzz-smoke: $target ok, $runs executions"
  else
    echo "fuzz-smoke: $target FAILED; last lines of $log:" >&2
    tail -n 40 "$log" >&2
    failed+=("$target")
  fi
done

if [ "${#failed[@]}" -gt 0 ]; then
  echo "fuzz-smoke: failed: ${failed[*]} (inputs in fuzz/artifacts/)" >&2
  exit 1
fi
echo "fuzz-smoke: all targets ok"
