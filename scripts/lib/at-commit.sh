# Sourced by scripts/bench-ab and scripts/diff-traces: build something as it was at another commit.

# resolve_commit NAME REV: the full commit id of REV, or a one-line message and exit 2.
resolve_commit() {
  git rev-parse --verify --quiet "$2^{commit}" || { echo "$1: no such commit: $2" >&2; exit 2; }
}

# at_commit REV TARGET_DIR CMD...: runs CMD (a command or a shell function) in a temporary
# detached worktree of REV, with CARGO_TARGET_DIR=TARGET_DIR so that the build is kept for the
# next run, then removes the worktree. Returns CMD's status.
at_commit() {
  local rev=$1 target=$2
  shift 2
  local dir status=0
  dir="$(mktemp -d)"
  git worktree add --detach "$dir/tree" "$rev" >/dev/null
  (cd "$dir/tree" && CARGO_TARGET_DIR="$target" "$@") || status=$?
  git worktree remove --force "$dir/tree" >/dev/null 2>&1 || true
  rm -rf "$dir"
  return "$status"
}
