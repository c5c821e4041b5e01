#!/usr/bin/env bash
# Records a typed session with real timestamps, then replays it in virtual time.
# Here the "typist" is a small loop; in real use, pipe your search field's keystrokes in.
# Run from the package root: Examples/record-a-session.sh
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product stream-search >/dev/null
bin="$(swift build --show-bin-path)/stream-search"

recording=$(mktemp)
trap 'rm -f "$recording"' EXIT
{
  for text in s se ser seri seria serial; do
    printf '%s\n' "$text"
    sleep 0.05   # a typist's pause between keys
  done
} | "$bin" record > "$recording"

echo "recorded:" >&2
cat "$recording"
echo "replayed:" >&2
"$bin" --replay --input "$recording" | cut -c1-120
