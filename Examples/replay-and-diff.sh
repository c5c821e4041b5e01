#!/usr/bin/env bash
# What a user's own CI does: replay each recording in virtual time and diff the events with the
# expected output checked in beside it. Any change in behaviour shows up as a diff; timing cannot
# make it flaky, because a replay is identical to the byte on every run.
# Run from the package root: Examples/replay-and-diff.sh
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product stream-search >/dev/null
bin="$(swift build --show-bin-path)/stream-search"

status=0
for recording in Examples/recordings/*.jsonl; do
  name=$(basename "$recording" .jsonl)
  if "$bin" --replay --latency 400ms --input "$recording" | diff -u "Examples/expected/$name.jsonl" -; then
    echo "ok   $name"
  else
    echo "FAIL $name" >&2
    status=1
  fi
done
exit $status
