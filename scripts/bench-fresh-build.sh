#!/usr/bin/env bash
# fresh-build: README's first command, verbatim, on a fresh clone of this repository's HEAD (no
# .build, no package cache of its own), in a tmux pane of its own, from Enter to the demo's
# first data rows on screen; then `q`. Prints `figure fresh-build-seconds S` and each module's
# share of the build: the compiler processes (swift-frontend `-module-name M`, clang for C/C++
# targets) are sampled every 0.5 s, and a module's time is from its first sighting to its last.
#
# Usage: bash scripts/bench-fresh-build.sh [--work DIR] [--socket NAME]
# Needs the network as a first build does (SwiftPM fetches the packages into the clone's own
# .build). Not run by the tests or CI.
set -euo pipefail
cd "$(dirname "$0")/.."
work="" socket="quarry-fresh-build-$$"
while [ $# -gt 0 ]; do
  case "$1" in
    --work) work=$2; shift 2 ;;
    --socket) socket=$2; shift 2 ;;
    *) echo "usage: $0 [--work DIR] [--socket NAME]" >&2; exit 2 ;;
  esac
done
own_work=0
if [ -z "$work" ]; then work=$(mktemp -d "${TMPDIR:-/tmp}/quarry-fresh.XXXXXX"); own_work=1; fi
clone="$work/fresh-clone"
trap 'tmux -L "$socket" kill-server 2>/dev/null || true; [ "$own_work" = 1 ] && rm -rf "$work"; true' EXIT

# README's first command: the first line of its first ```sh block.
command=$(awk '/^```sh$/ { inside = 1; next } inside { print; exit }' README.md)
[ -n "$command" ] || { echo "bench-fresh-build.sh: no first command in README.md" >&2; exit 1; }
rm -rf "$clone"
git clone -q --no-hardlinks . "$clone"
echo "fresh clone of $(git rev-parse --short HEAD) in $clone"
echo "command: $command"

capture() { tmux -L "$socket" capture-pane -p -t fresh; }
tmux -L "$socket" -f /dev/null new-session -d -s fresh -x 120 -y 40 \
  "cd '$clone' && env TERM=tmux-256color LANG=C.UTF-8 PS1='fresh$ ' bash --norc --noprofile"
tmux -L "$socket" set-option -t fresh status off
deadline=$(( $(date +%s) + 30 ))
until capture | grep -q 'fresh\$'; do [ "$(date +%s)" -lt "$deadline" ] || { echo "no shell in the pane" >&2; exit 1; }; sleep 0.05; done
start=$(date +%s.%N)
tmux -L "$socket" send-keys -t fresh -l "$command; echo fresh-exit-\$?"; tmux -L "$socket" send-keys -t fresh Enter
deadline=$(( $(date +%s) + 3600 ))
: > "$work/compilers.log"
while ! capture | grep -qE 'row 1/|fresh-exit-[0-9]+'; do
  [ "$(date +%s)" -lt "$deadline" ] || { echo "bench-fresh-build.sh: no demo after an hour" >&2; capture >&2; exit 1; }
  # Which module each running compiler works on, and when (only this clone's).
  now=$(date +%s.%N)
  ps -eo args= | awk -v now="$now" -v clone="$clone" 'index($0, clone) && ($1 ~ /swift-frontend$/ || $1 ~ /clang(\+\+)?(-[0-9]+)?$/) {
      m = ""
      for (i = 2; i <= NF; i++) if ($i == "-module-name") { m = $(i + 1); break }
      # clang without -c links (its arguments name other modules'' objects): the link step.
      if (m == "" && $1 ~ /clang/) { m = "(link)"; for (i = 2; i <= NF; i++) if ($i == "-c") { m = ""; break } }
      if (m == "") for (i = 2; i <= NF; i++) if (match($i, /\/[^\/]+\.build\//)) { m = substr($i, RSTART + 1, RLENGTH - 8); break }
      if (m != "") print now, m
    }' >> "$work/compilers.log"
  sleep 0.5
done
end=$(date +%s.%N)
if capture | grep -qE 'fresh-exit-[0-9]+'; then
  echo "bench-fresh-build.sh: the command ended before the demo showed:" >&2; capture | tail -15 >&2; exit 1
fi
tmux -L "$socket" send-keys -t fresh -l q
seconds=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
echo "README's first command, fresh clone to the demo's first rows: $seconds s"

if [ -s "$work/compilers.log" ]; then
  echo "build by module (seconds a compiler was seen on it, sampled every 0.5 s; finished at, from Enter):"
  awk -v start="$start" '
    { if (!($2 in first)) first[$2] = $1; last[$2] = $1 }
    END { for (m in first) printf "  %-36s %7.1f s   done at %6.1f s\n", m, last[m] - first[m] + 0.5, last[m] - start }
  ' "$work/compilers.log" | sort -k2 -n -r | head -25
fi
echo "figure fresh-build-seconds $seconds"
