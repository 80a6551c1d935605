#!/usr/bin/env bash
# Refreshes tests/vectors/ from ../shared/vectors/, the independent
# implementation's test vectors. The tests fail when the two drift apart.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
source_dir=${1:-"$here/../shared/vectors"}
[ -d "$source_dir" ] || { echo "no vectors at $source_dir" >&2; exit 1; }
rm -rf "$here/tests/vectors"
mkdir -p "$here/tests/vectors"
cp -R "$source_dir"/. "$here/tests/vectors/"
echo "tests/vectors refreshed from $source_dir"
