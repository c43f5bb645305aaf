#!/usr/bin/env bash
# The whole test suite, as CI runs it (.ci/run calls exactly this script).
# It installs what the tests need when it is missing, then runs formatting
# and vet checks, every Go test (unit, table, property, golden, fuzz seed
# corpora) and a short live fuzzing pass of each fuzz target.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf '\n== %s\n' "$*"; }

if ! command -v go >/dev/null 2>&1; then
  if [ -x /usr/local/go/bin/go ]; then
    export PATH="/usr/local/go/bin:$PATH"
  else
    echo "test.sh: Go is not installed (want go 1.26 or newer)" >&2
    exit 1
  fi
fi

# Debian packages the tests need: Chromium for the browser tests, WordNet
# and the American and British word lists (default and small sizes) for the check that Bookworm's
# committed word lists and dictionary match their generator, and for the
# French ones the French word list and FreeDict's English-French and
# French-English dictionaries (data files only: no dict server).
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
[ -f /usr/share/wordnet/data.noun ] || need+=(wordnet-base)
[ -f /usr/share/dict/american-english ] || need+=(wamerican)
[ -f /usr/share/dict/british-english ] || need+=(wbritish)
[ -f /usr/share/dict/american-english-small ] || need+=(wamerican-small)
[ -f /usr/share/dict/british-english-small ] || need+=(wbritish-small)
[ -f /usr/share/dict/french ] || need+=(wfrench)
[ -f /usr/share/dictd/freedict-eng-fra.index ] || need+=(dict-freedict-eng-fra)
[ -f /usr/share/dictd/freedict-fra-eng.index ] || need+=(dict-freedict-fra-eng)
# npm fetches axe-core (pinned in web/e2e/axe) for the accessibility scan.
command -v npm >/dev/null 2>&1 || need+=(npm)
# PostgreSQL (the postgres store, the cluster tests; they start their own
# server in a temp dir, never Debian's) and NATS (the cluster's messaging).
ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || command -v postgres >/dev/null 2>&1 || need+=(postgresql)
command -v nats-server >/dev/null 2>&1 || need+=(nats-server)
if [ ${#need[@]} -gt 0 ]; then
  log "installing Debian packages: ${need[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
# With them present these tests must run, never skip.
export DICEHALL_E2E="${DICEHALL_E2E:-require}"
export DICEHALL_WORDNET="${DICEHALL_WORDNET:-require}"
export DICEHALL_CLUSTER="${DICEHALL_CLUSTER:-require}"

log "go $(go env GOVERSION): download modules"
go mod download

log "npm ci: axe-core for the browser tests' accessibility scan"
(cd web/e2e/axe && npm ci --no-audit --no-fund --loglevel=error)

log "gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
  echo "gofmt would change:" >&2
  echo "$unformatted" >&2
  exit 1
fi

log "go vet"
go vet ./...

log "go test"
go test -count=1 -timeout 15m $(go list ./... | grep -v '/web/e2e$')

# Browser tests drive a real Chromium, several tests side by side (about
# 2-3 minutes on 2 cores); one retry absorbs a browser hiccup (a DevTools
# node gone between lookup and click), never a logic failure that repeats.
# The retry runs only the tests that failed (all of them when none can be
# named, e.g. after a time-out), and is announced in the log.
log "go test ./web/e2e (Chromium)"
e2elog=$(mktemp)
if ! go test -count=1 -timeout 6m ./web/e2e 2>&1 | tee "$e2elog"; then
  failed=$(sed -n 's/^--- FAIL: \(Test[A-Za-z0-9_]*\).*/\1/p' "$e2elog" | sort -u | paste -sd'|' -)
  if [ -n "$failed" ] && ! grep -q '^panic: ' "$e2elog"; then
    log "browser tests failed once: running them again ($failed)"
    go test -count=1 -timeout 6m -run "^($failed)\$" ./web/e2e
  else
    log "browser tests failed once: running them all again"
    go test -count=1 -timeout 6m ./web/e2e
  fi
fi
rm -f "$e2elog"

log "go test -race (core packages)"
go test -count=1 -race -short -timeout 10m ./engine/... ./games/... ./script/... ./store/... ./server/...

# A short live fuzzing pass per target: the seed corpora already ran above;
# this explores a little further on every run. FUZZTIME=0 skips it.
fuzztime="${FUZZTIME:-10s}"
if [ "$fuzztime" != "0" ]; then
  log "fuzz ($fuzztime per target)"
  for pkg in $(go list ./...); do
    dir=$(go list -f '{{.Dir}}' "$pkg")
    for target in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //' | sort -u); do
      echo "fuzz $pkg $target"
      go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" "$pkg" >/tmp/dicehall-fuzz.log 2>&1 || {
        cat /tmp/dicehall-fuzz.log >&2
        exit 1
      }
    done
  done
fi

log "all tests passed"
