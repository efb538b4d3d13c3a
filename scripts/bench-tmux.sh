# Shared helpers of the terminal benchmarks (sourced by bench-browser.sh and bench-foreign.sh):
# a tmux server on its own socket ($socket), one 120x40 pane named bench running a bare bash
# whose prompt is "bench$ ", polled with capture-pane.
now() { date +%s.%N; }
elapsed() { echo "$1 $2" | awk '{ printf "%.3f", $2 - $1 }'; }
capture() { tmux -L "$socket" capture-pane -p -t bench; }
wait_for() { # wait_for TIMEOUT REGEX...: until every REGEX matches the pane; polls every 10 ms
  local deadline=$(( $(date +%s) + $1 )); shift
  while true; do
    local screen ok=1; screen=$(capture)
    for re in "$@"; do grep -qE -- "$re" <<<"$screen" || { ok=0; break; }; done
    [ "$ok" = 1 ] && return 0
    [ "$(date +%s)" -lt "$deadline" ] || { echo "timeout waiting for: $*" >&2; capture >&2; return 1; }
    sleep 0.01
  done
}
start_session() {
  tmux -L "$socket" kill-session -t bench 2>/dev/null || true
  tmux -L "$socket" -f /dev/null new-session -d -s bench -x 120 -y 40 "env TERM=tmux-256color LANG=C.UTF-8 PS1='bench$ ' bash --norc --noprofile"
  tmux -L "$socket" set-option -t bench status off
  wait_for 30 'bench\$'
}
pane_child() { pgrep -P "$(tmux -L "$socket" display-message -p -t bench '#{pane_pid}')" | head -1; }
run_in_pane() { tmux -L "$socket" send-keys -t bench -l "$1"; tmux -L "$socket" send-keys -t bench Enter; }
