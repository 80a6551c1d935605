#!/usr/bin/env bash
# Builds the package of another commit into a folder, for `npm run bench -- --against DIR`:
#   bash scripts/build-rev.sh b17390a /tmp/pkg-b17390a
# It checks REV out in a temporary git worktree, runs its own `npm run build`, copies its
# pkg/ to DIR and removes the worktree.
set -euo pipefail
rev=${1:?usage: scripts/build-rev.sh REV OUTDIR}
out=${2:?usage: scripts/build-rev.sh REV OUTDIR}
cd "$(dirname "$0")/.."
tree=$(mktemp -d)/tree
git worktree add --detach -q "$tree" "$rev"
trap 'git worktree remove --force "$tree"' EXIT
(cd "$tree" && npm run build)
rm -rf "$out"
cp -r "$tree/pkg" "$out"
echo "built $rev into $out"
