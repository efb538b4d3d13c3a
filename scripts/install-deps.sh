#!/usr/bin/env bash
# Installs the system packages Quarry needs on Debian, only when missing.
set -euo pipefail
# postgresql: the throwaway server of the PostgreSQL tests (scripts/postgres.sh), never started
# as a system service by Quarry.
packages=(libsqlite3-dev libncursesw5-dev zlib1g-dev libpq-dev tmux sqlite3 postgresql)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi
