#!/usr/bin/env bash
# Builds the executable the README's Install section makes (Scripts/release-build.sh) and checks it
# the way a user runs it: it needs no dynamic loader, a scripted session keeps what it added in its
# SQLite database, validate reports an invalid record with status 1, and, given a league's URL, a
# league session adds a player on the PostgreSQL server (its host looked up by name).
#
#   Scripts/check-release-build.sh [postgres://USER@localhost:PORT/DATABASE]
set -euo pipefail
cd "$(dirname "$0")/.."
fail() {
    echo "error: the release build: $*" >&2
    exit 1
}
program="$(Scripts/release-build.sh)"
headers="$(readelf -lW "$program")" || fail "readelf could not read $program"
if grep -q 'INTERP' <<<"$headers"; then fail "$program asks for a dynamic loader"; fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export XDG_DATA_HOME="$work/data" XDG_STATE_HOME="$work/state"

"$program" --version | grep -Eqx 'playerform [0-9]+\.[0-9]+\.[0-9]+ \(SQLite [0-9.]+, PostgreSQL protocol 3\.0, GNU readline [0-9.]+\)' || fail "--version did not print the version and its libraries"

session="$(printf 'name Zoë\npoints 620\nadd Ann 7\nquit\n' | "$program")" \
    || fail "a scripted session ended with status $?"
grep -q 'points: 620' <<<"$session" || fail "a scripted session did not set the points: $session"
players="$("$program" -c players)" || fail "players ended with status $?"
grep -Eq '^ +[0-9]+ +Ann +7 ' <<<"$players" || fail "a second session did not find the player the first added: $players"

printf '{"name":"Zoë","points":5}\n{"name":"","points":5}\n' >"$work/players.jsonl"
status=0
findings="$("$program" validate "$work/players.jsonl" 2>&1)" || status=$?
[ "$status" = 1 ] || fail "validate ended with status $status, not 1: $findings"
grep -q '2 records, 1 invalid' <<<"$findings" || fail "validate did not count the records: $findings"

if [ $# -gt 0 ]; then
    league="$("$program" --store "$1" -c 'add Smoke 5' -c players)" \
        || fail "a league session ended with status $?"
    grep -Eq '^ +[0-9]+ +Smoke +5 ' <<<"$league" || fail "a league session did not list the player it added: $league"
fi
echo "the release build at $program: static, session, validate${1:+ and league} checked"
