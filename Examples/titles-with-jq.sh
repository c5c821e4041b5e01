#!/usr/bin/env bash
# Replays a recording and prints only the titles of the results, one per line, with jq.
# Run from the package root: Examples/titles-with-jq.sh
set -euo pipefail
cd "$(dirname "$0")/.."
command -v jq >/dev/null || { echo "this example needs jq (apt-get install jq)" >&2; exit 1; }
swift build --product stream-search >/dev/null
bin="$(swift build --show-bin-path)/stream-search"

"$bin" --replay --input Examples/recordings/taylor-twice.jsonl \
  | jq -r 'select(.type == "results") | .categories[] | select(.items) | .items[].title'
