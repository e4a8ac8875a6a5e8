#!/usr/bin/env bash
# Stop what deploy/local/up.sh started (and only that), using the pid files and
# markers in the state dir. PostgreSQL/Redis that were already running before
# up.sh are left alone. Data in the state dir is kept (delete it to reset).
set -euo pipefail

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(cd "$SCRIPT_DIR/../.." && pwd)
STATE_DIR=${TOOLGATE_STACK_DIR:-$REPO_DIR/.stack}
STOP_WAIT=${TOOLGATE_STACK_STOP_WAIT:-60}

log() { printf '[down] %s\n' "$*" >&2; }

if [[ ! -d $STATE_DIR ]]; then
  log "no state dir $STATE_DIR - nothing to stop"
  exit 0
fi
STATE_DIR=$(cd "$STATE_DIR" && pwd)

# Same lock as up.sh, so down never races a running up.
exec 9>"$STATE_DIR/.up.lock"
flock -w 600 9 || { log "ERROR: could not take $STATE_DIR/.up.lock"; exit 1; }

# pid_of PIDFILE PATTERN: print the pid if it is alive and its command line contains PATTERN.
pid_of() {
  local pid
  [[ -s $1 ]] || return 1
  pid=$(<"$1")
  [[ $pid =~ ^[0-9]+$ && -r /proc/$pid/cmdline ]] || return 1
  [[ $(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null) == *"$2"* ]] || return 1
  echo "$pid"
}

# stop_pidfile NAME PIDFILE PATTERN: SIGTERM, wait up to STOP_WAIT s, then SIGKILL.
stop_pidfile() {
  local name=$1 pidfile=$2 pattern=$3 pid end
  if ! pid=$(pid_of "$pidfile" "$pattern"); then
    [[ -e $pidfile ]] && log "$name: not running (stale pid file removed)"
    rm -f "$pidfile"
    return 0
  fi
  log "$name: stopping pid $pid"
  kill -TERM "$pid" 2>/dev/null || true
  end=$((SECONDS + STOP_WAIT))
  while [[ -d /proc/$pid ]] && pid_of "$pidfile" "$pattern" >/dev/null; do
    if ((SECONDS >= end)); then
      log "$name: still alive after ${STOP_WAIT}s - sending SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
      sleep 1
      break
    fi
    sleep 0.5
  done
  rm -f "$pidfile"
  log "$name: stopped"
}

stop_pidfile clickhouse "$STATE_DIR/clickhouse/clickhouse.pid" "$STATE_DIR/clickhouse/etc/config.xml"
stop_pidfile kafka "$STATE_DIR/kafka/kafka.pid" kafka.Kafka

# Redis: only if up.sh started it (it then wrote redis.pid via --pidfile).
if [[ -e $STATE_DIR/redis.pid ]]; then
  stop_pidfile redis "$STATE_DIR/redis.pid" redis-server
else
  log "redis: not started by up.sh - left alone"
fi

# PostgreSQL: only if up.sh started it.
if [[ -s $STATE_DIR/postgres.started ]]; then
  ver=$(<"$STATE_DIR/postgres.started")
  if ! pg_ctlcluster --skip-systemctl-redirect "$ver" main status >/dev/null 2>&1; then
    rm -f "$STATE_DIR/postgres.started"
    log "postgres: cluster $ver/main not running"
  elif log "postgres: stopping cluster $ver/main" && pg_ctlcluster --skip-systemctl-redirect "$ver" main stop; then
    rm -f "$STATE_DIR/postgres.started"
    log "postgres: stopped"
  else
    log "ERROR: postgres: pg_ctlcluster $ver main stop failed"
    exit 1
  fi
else
  log "postgres: not started by up.sh - left alone"
fi

rm -f "$STATE_DIR/stack.env"
log "done"
