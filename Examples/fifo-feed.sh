#!/usr/bin/env bash
# Feeds stream-search through a FIFO from another process, as a search field's keystroke logger
# would, and shows each event as it happens. --follow keeps reading after each writer closes.
# Run from the package root: Examples/fifo-feed.sh
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product stream-search >/dev/null
bin="$(swift build --show-bin-path)/stream-search"

dir=$(mktemp -d)
trap 'kill "$reader" 2>/dev/null || true; rm -rf "$dir"' EXIT
mkfifo "$dir/keys"

"$bin" --input "$dir/keys" --follow --format jsonl --latency 120ms > "$dir/events.jsonl" &
reader=$!

# Two writers, one after the other: each opens the FIFO, types, and closes it.
for word in taylor radiohead; do
  {
    for ((i = 1; i <= ${#word}; i++)); do
      printf '%s\n' "${word:0:i}"
    done
  } > "$dir/keys"
  # Wait (by data, not by time) until this word's results have been written.
  until grep -q "\"type\":\"results\".*\"term\":\"$word\"" "$dir/events.jsonl" 2>/dev/null; do
    sleep 0.1
  done
done

kill -TERM "$reader"
wait "$reader" || status=$?
echo "stream-search exited with status ${status:-0} (143 is SIGTERM, as documented)" >&2
cut -c1-120 "$dir/events.jsonl"
