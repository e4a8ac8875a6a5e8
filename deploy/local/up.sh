#!/usr/bin/env bash
# Bring up the Toolgate test stack on a bare Debian machine, without Docker:
# PostgreSQL, Redis, Apache Kafka (KRaft, from Maven Central jars) and
# ClickHouse (Debian package, private config). Idempotent: whatever already
# answers is reused, nothing is started twice.
#
# stdout: only the four connection lines (also written to <state>/stack.env).
# stderr: progress and diagnostics. Exit code != 0 when a component fails.
set -euo pipefail

# Everything goes to stderr except the final connection lines (fd 3).
exec 3>&1 1>&2

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(cd "$SCRIPT_DIR/../.." && pwd)
STATE_DIR=${TOOLGATE_STACK_DIR:-$REPO_DIR/.stack}
mkdir -p "$STATE_DIR"
STATE_DIR=$(cd "$STATE_DIR" && pwd)

WAIT_SECS=${TOOLGATE_STACK_WAIT:-90}
KAFKA_VERSION=3.9.1
KAFKA_PORT=${TOOLGATE_KAFKA_PORT:-9092}
KAFKA_CONTROLLER_PORT=${TOOLGATE_KAFKA_CONTROLLER_PORT:-9093}
CH_HTTP_PORT=${TOOLGATE_CLICKHOUSE_HTTP_PORT:-8123}
CH_TCP_PORT=${TOOLGATE_CLICKHOUSE_TCP_PORT:-}
PG_PORT=5432
REDIS_PORT=6379

KAFKA_DIR=$STATE_DIR/kafka
KAFKA_LIBS=$KAFKA_DIR/libs
CH_DIR=$STATE_DIR/clickhouse

T0=$SECONDS
log() { printf '[up %3ds] %s\n' "$((SECONDS - T0))" "$*"; }
die() { printf '[up] ERROR: %s\n' "$*"; exit 1; }

# Serialise concurrent runs. Daemons started below get fds 3 and 9 closed
# (3>&- 9>&-) so they neither hold this lock nor keep a caller's pipe open.
exec 9>"$STATE_DIR/.up.lock"
if ! flock -w 600 9; then die "another up.sh holds $STATE_DIR/.up.lock"; fi

port_open() { timeout 2 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null; }

# pid_alive PIDFILE PATTERN: true when the pid in PIDFILE runs a command line containing PATTERN.
pid_alive() {
  local pid
  [[ -s $1 ]] || return 1
  pid=$(<"$1")
  [[ $pid =~ ^[0-9]+$ ]] || return 1
  [[ -r /proc/$pid/cmdline ]] || return 1
  [[ $(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null) == *"$2"* ]]
}

APT_UPDATED=0
apt_install() {
  local missing=() p
  for p in "$@"; do
    [[ $(dpkg-query -W -f='${Status}' "$p" 2>/dev/null) == 'install ok installed' ]] || missing+=("$p")
  done
  ((${#missing[@]})) || return 0
  command -v apt-get >/dev/null || die "need packages ${missing[*]} but apt-get is not available"
  if ((APT_UPDATED == 0)); then
    log "apt-get update (needed for: ${missing[*]})"
    apt-get update -qq || die "apt-get update failed"
    APT_UPDATED=1
  fi
  log "apt-get install ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >"$STATE_DIR/apt.log" 2>&1 3>&- 9>&- ||
    { tail -n 20 "$STATE_DIR/apt.log"; die "apt-get install ${missing[*]} failed (log: $STATE_DIR/apt.log)"; }
}

command -v curl >/dev/null || apt_install curl

# ---------------------------------------------------------------- PostgreSQL
up_postgres() {
  if pg_isready -q -h 127.0.0.1 -p "$PG_PORT" 2>/dev/null; then
    log "postgres: already answering on 127.0.0.1:$PG_PORT"
    return 0
  fi
  if ! command -v pg_ctlcluster >/dev/null || [[ ! -d /etc/postgresql ]]; then
    die "postgres: not answering on 127.0.0.1:$PG_PORT and no PostgreSQL cluster is installed (apt-get install postgresql, trust auth for 127.0.0.1)"
  fi
  local ver
  ver=$(find /etc/postgresql -mindepth 1 -maxdepth 1 -printf '%f\n' | sort -V | tail -n 1)
  [[ -n $ver ]] || die "postgres: no cluster under /etc/postgresql"
  log "postgres: starting cluster $ver/main"
  pg_ctlcluster --skip-systemctl-redirect "$ver" main start 3>&- 9>&- || die "postgres: pg_ctlcluster $ver main start failed"
  echo "$ver" >"$STATE_DIR/postgres.started"
  local end=$((SECONDS + WAIT_SECS))
  until pg_isready -q -h 127.0.0.1 -p "$PG_PORT"; do
    ((SECONDS < end)) || die "postgres: started but not answering on 127.0.0.1:$PG_PORT after ${WAIT_SECS}s"
    sleep 1
  done
  log "postgres: up"
}

# --------------------------------------------------------------------- Redis
redis_ping() { [[ $(redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping 2>/dev/null) == PONG ]]; }

up_redis() {
  if redis_ping; then
    log "redis: already answering on 127.0.0.1:$REDIS_PORT"
    return 0
  fi
  command -v redis-server >/dev/null || apt_install redis-server redis-tools
  # The package's postinst may have started it through its init script.
  if redis_ping; then
    log "redis: answering after install"
    return 0
  fi
  mkdir -p /var/lib/redis /var/log/redis
  log "redis: starting redis-server on 127.0.0.1:$REDIS_PORT"
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port "$REDIS_PORT" --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log --pidfile "$STATE_DIR/redis.pid" 3>&- 9>&- ||
    die "redis: redis-server failed to start (see /var/log/redis/ci.log)"
  local end=$((SECONDS + WAIT_SECS))
  until redis_ping; do
    ((SECONDS < end)) || die "redis: not answering after ${WAIT_SECS}s (see /var/log/redis/ci.log)"
    sleep 0.5
  done
  log "redis: up"
}

# --------------------------------------------------------------------- Kafka
kafka_ensure_libs() {
  local pom=$SCRIPT_DIR/kafka/pom.xml marker=$KAFKA_LIBS/.complete sum
  sum=$(sha256sum "$pom" | cut -d' ' -f1)
  if [[ -f $marker && $(<"$marker") == "$sum" ]]; then return 0; fi
  command -v mvn >/dev/null || apt_install maven
  log "kafka: resolving Kafka $KAFKA_VERSION jars with Maven into $KAFKA_LIBS"
  rm -rf "$KAFKA_LIBS.tmp"
  mvn -q -B -f "$pom" dependency:copy-dependencies -DincludeScope=runtime \
    -DoutputDirectory="$KAFKA_LIBS.tmp" >"$KAFKA_DIR/mvn.log" 2>&1 ||
    { tail -n 30 "$KAFKA_DIR/mvn.log"; die "kafka: mvn dependency:copy-dependencies failed (log: $KAFKA_DIR/mvn.log)"; }
  [[ -f $KAFKA_LIBS.tmp/kafka_2.13-$KAFKA_VERSION.jar ]] || die "kafka: kafka_2.13-$KAFKA_VERSION.jar missing after Maven run"
  echo "$sum" >"$KAFKA_LIBS.tmp/.complete"
  rm -rf "$KAFKA_LIBS"
  mv "$KAFKA_LIBS.tmp" "$KAFKA_LIBS"
  log "kafka: $(find "$KAFKA_LIBS" -name '*.jar' | wc -l) jars ready"
}

kafka_ensure_probe() {
  local src=$SCRIPT_DIR/kafka/KafkaProbe.java cls=$KAFKA_DIR/probe/KafkaProbe.class
  if [[ -f $cls && $cls -nt $src && $cls -nt $KAFKA_LIBS/.complete ]]; then return 0; fi
  mkdir -p "$KAFKA_DIR/probe"
  javac -nowarn -cp "$KAFKA_LIBS/*" -d "$KAFKA_DIR/probe" "$src" || die "kafka: compiling KafkaProbe.java failed"
}

kafka_probe() {
  local timeout=$1
  if java -Xmx128m -cp "$KAFKA_LIBS/*:$KAFKA_DIR/probe" \
    -Dlog4j.configuration="file:$SCRIPT_DIR/kafka/tools-log4j.properties" \
    KafkaProbe "127.0.0.1:$KAFKA_PORT" "$timeout" >"$KAFKA_DIR/probe.log" 2>&1; then
    log "$(tail -n 1 "$KAFKA_DIR/probe.log")"
    return 0
  fi
  tail -n 15 "$KAFKA_DIR/probe.log"
  return 1
}

kafka_write_config() {
  cat >"$KAFKA_DIR/server.properties" <<EOF
# Generated by deploy/local/up.sh - single-node KRaft (combined broker+controller).
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$KAFKA_CONTROLLER_PORT
listeners=PLAINTEXT://127.0.0.1:$KAFKA_PORT,CONTROLLER://127.0.0.1:$KAFKA_CONTROLLER_PORT
advertised.listeners=PLAINTEXT://127.0.0.1:$KAFKA_PORT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=$KAFKA_DIR/data
num.partitions=3
default.replication.factor=1
min.insync.replicas=1
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
auto.create.topics.enable=false
group.initial.rebalance.delay.ms=0
delete.topic.enable=true
log.retention.hours=24
EOF
}

up_kafka() {
  mkdir -p "$KAFKA_DIR/logs"
  command -v javac >/dev/null || apt_install openjdk-17-jdk-headless
  local pidfile=$KAFKA_DIR/kafka.pid ours=0
  if pid_alive "$pidfile" kafka.Kafka; then ours=1; fi

  if ((ours == 0)) && port_open "$KAFKA_PORT"; then
    log "kafka: something answers on 127.0.0.1:$KAFKA_PORT (not started by up.sh) - reusing it"
    kafka_ensure_libs
    kafka_ensure_probe
    kafka_probe 30 || die "kafka: 127.0.0.1:$KAFKA_PORT is open but is not a working Kafka broker"
    return 0
  fi

  kafka_ensure_libs
  kafka_ensure_probe

  if ((ours == 1)); then
    log "kafka: already running (pid $(<"$pidfile"))"
  else
    rm -f "$pidfile"
    port_open "$KAFKA_CONTROLLER_PORT" &&
      die "kafka: controller port 127.0.0.1:$KAFKA_CONTROLLER_PORT is taken by another process (set TOOLGATE_KAFKA_CONTROLLER_PORT)"
    kafka_write_config
    if [[ ! -f $KAFKA_DIR/data/meta.properties ]]; then
      [[ -s $KAFKA_DIR/cluster.id ]] ||
        head -c 16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n' >"$KAFKA_DIR/cluster.id"
      log "kafka: formatting storage (cluster id $(<"$KAFKA_DIR/cluster.id"))"
      java -Xmx256m -cp "$KAFKA_LIBS/*" -Dlog4j.configuration="file:$SCRIPT_DIR/kafka/tools-log4j.properties" \
        kafka.tools.StorageTool format --ignore-formatted -t "$(<"$KAFKA_DIR/cluster.id")" \
        -c "$KAFKA_DIR/server.properties" >"$KAFKA_DIR/format.log" 2>&1 ||
        { tail -n 20 "$KAFKA_DIR/format.log"; die "kafka: storage format failed (log: $KAFKA_DIR/format.log)"; }
    fi
    log "kafka: starting broker $KAFKA_VERSION on 127.0.0.1:$KAFKA_PORT (controller :$KAFKA_CONTROLLER_PORT)"
    nohup java -Xms256m -Xmx512m -XX:+UseG1GC -Djava.awt.headless=true \
      -Dkafka.logs.dir="$KAFKA_DIR/logs" \
      -Dlog4j.configuration="file:$SCRIPT_DIR/kafka/log4j.properties" \
      -cp "$KAFKA_LIBS/*" kafka.Kafka "$KAFKA_DIR/server.properties" \
      >"$KAFKA_DIR/kafka.out" 2>&1 </dev/null 3>&- 9>&- &
    echo $! >"$pidfile"
  fi

  local end=$((SECONDS + WAIT_SECS))
  until port_open "$KAFKA_PORT"; do
    if ! pid_alive "$pidfile" kafka.Kafka; then
      tail -n 20 "$KAFKA_DIR/kafka.out" "$KAFKA_DIR/logs/server.log" 2>/dev/null || true
      die "kafka: broker process exited during startup (logs: $KAFKA_DIR/kafka.out, $KAFKA_DIR/logs/server.log)"
    fi
    ((SECONDS < end)) || die "kafka: port $KAFKA_PORT not open after ${WAIT_SECS}s (log: $KAFKA_DIR/logs/server.log)"
    sleep 1
  done
  local left=$((end - SECONDS))
  ((left >= 20)) || left=20
  kafka_probe "$left" || die "kafka: broker started but the produce/consume probe failed (log: $KAFKA_DIR/logs/server.log)"
}

# ---------------------------------------------------------------- ClickHouse
ch_ping() { [[ $(curl -fsS --max-time 2 "http://127.0.0.1:$CH_HTTP_PORT/ping" 2>/dev/null) == "Ok." ]]; }

ch_write_config() {
  mkdir -p "$CH_DIR/etc" "$CH_DIR/data" "$CH_DIR/tmp" "$CH_DIR/user_files" "$CH_DIR/format_schemas" "$CH_DIR/log"
  cat >"$CH_DIR/etc/config.xml" <<EOF
<?xml version="1.0"?>
<!-- Generated by deploy/local/up.sh - private ClickHouse instance for tests. -->
<yandex>
    <logger>
        <level>information</level>
        <log>$CH_DIR/log/clickhouse-server.log</log>
        <errorlog>$CH_DIR/log/clickhouse-server.err.log</errorlog>
        <size>50M</size>
        <count>3</count>
    </logger>
    <listen_host>127.0.0.1</listen_host>
    <http_port>$CH_HTTP_PORT</http_port>
    <tcp_port>$CH_TCP_PORT</tcp_port>
    <max_connections>1024</max_connections>
    <keep_alive_timeout>3</keep_alive_timeout>
    <max_concurrent_queries>100</max_concurrent_queries>
    <uncompressed_cache_size>268435456</uncompressed_cache_size>
    <mark_cache_size>268435456</mark_cache_size>
    <path>$CH_DIR/data/</path>
    <tmp_path>$CH_DIR/tmp/</tmp_path>
    <user_files_path>$CH_DIR/user_files/</user_files_path>
    <format_schema_path>$CH_DIR/format_schemas/</format_schema_path>
    <users_config>users.xml</users_config>
    <default_profile>default</default_profile>
    <default_database>default</default_database>
    <timezone>UTC</timezone>
    <mlock_executable>false</mlock_executable>
    <builtin_dictionaries_reload_interval>3600</builtin_dictionaries_reload_interval>
    <max_session_timeout>3600</max_session_timeout>
    <default_session_timeout>60</default_session_timeout>
</yandex>
EOF
  cat >"$CH_DIR/etc/users.xml" <<'EOF'
<?xml version="1.0"?>
<!-- Generated by deploy/local/up.sh: user "default", empty password, loopback only. -->
<yandex>
    <profiles>
        <default>
            <max_memory_usage>4000000000</max_memory_usage>
            <use_uncompressed_cache>0</use_uncompressed_cache>
            <load_balancing>random</load_balancing>
        </default>
    </profiles>
    <users>
        <default>
            <password></password>
            <networks>
                <ip>::1</ip>
                <ip>127.0.0.1</ip>
            </networks>
            <profile>default</profile>
            <quota>default</quota>
        </default>
    </users>
    <quotas>
        <default>
            <interval>
                <duration>3600</duration>
                <queries>0</queries>
                <errors>0</errors>
                <result_rows>0</result_rows>
                <read_rows>0</read_rows>
                <execution_time>0</execution_time>
            </interval>
        </default>
    </quotas>
</yandex>
EOF
}

ch_select_1() {
  local out
  out=$(curl -fsS --max-time 10 "http://127.0.0.1:$CH_HTTP_PORT/" --data-binary 'SELECT 1' 2>&1) ||
    die "clickhouse: SELECT 1 over HTTP failed: $out"
  [[ $out == 1 ]] || die "clickhouse: SELECT 1 returned '$out'"
  log "clickhouse: SELECT 1 ok ($(curl -fsS --max-time 5 "http://127.0.0.1:$CH_HTTP_PORT/" --data-binary 'SELECT version()' 2>/dev/null || echo '?'))"
}

up_clickhouse() {
  local pidfile=$CH_DIR/clickhouse.pid
  if ch_ping; then
    if pid_alive "$pidfile" "$CH_DIR/etc/config.xml"; then
      log "clickhouse: already running (pid $(<"$pidfile")) on 127.0.0.1:$CH_HTTP_PORT"
    else
      log "clickhouse: something answers on 127.0.0.1:$CH_HTTP_PORT (not started by up.sh) - reusing it"
    fi
    ch_select_1
    return 0
  fi

  apt_install clickhouse-server clickhouse-client
  mkdir -p "$CH_DIR"
  # The package's postinst may have started the system service (where init allows it).
  if ch_ping; then
    log "clickhouse: answering on 127.0.0.1:$CH_HTTP_PORT after install (system service) - reusing it"
    ch_select_1
    return 0
  fi

  if ! pid_alive "$pidfile" "$CH_DIR/etc/config.xml"; then
    rm -f "$pidfile"
    port_open "$CH_HTTP_PORT" &&
      die "clickhouse: 127.0.0.1:$CH_HTTP_PORT is taken by something that is not ClickHouse (set TOOLGATE_CLICKHOUSE_HTTP_PORT)"
    if [[ -z $CH_TCP_PORT ]]; then
      CH_TCP_PORT=9000
      if port_open 9000; then CH_TCP_PORT=19000; fi
    fi
    port_open "$CH_TCP_PORT" &&
      die "clickhouse: native port 127.0.0.1:$CH_TCP_PORT is taken (set TOOLGATE_CLICKHOUSE_TCP_PORT)"
    ch_write_config
    echo "$CH_TCP_PORT" >"$CH_DIR/tcp_port"
    log "clickhouse: starting clickhouse-server (http 127.0.0.1:$CH_HTTP_PORT, native 127.0.0.1:$CH_TCP_PORT)"
    (
      cd "$CH_DIR"
      nohup clickhouse-server --config-file="$CH_DIR/etc/config.xml" >"$CH_DIR/server.out" 2>&1 </dev/null 3>&- 9>&- &
      echo $! >"$pidfile"
    )
  else
    log "clickhouse: already starting (pid $(<"$pidfile"))"
  fi

  local end=$((SECONDS + WAIT_SECS))
  until ch_ping; do
    if ! pid_alive "$pidfile" "$CH_DIR/etc/config.xml"; then
      tail -n 20 "$CH_DIR/server.out" "$CH_DIR/log/clickhouse-server.err.log" 2>/dev/null || true
      die "clickhouse: server exited during startup (logs: $CH_DIR/server.out, $CH_DIR/log/)"
    fi
    ((SECONDS < end)) || die "clickhouse: /ping not answering after ${WAIT_SECS}s (logs: $CH_DIR/log/)"
    sleep 0.5
  done
  log "clickhouse: up"
  ch_select_1
}

# ------------------------------------------------------------------ chromium
# Browser tests (Swagger UI, screenshots) drive Debian's Chromium through puppeteer-core; nothing downloads a
# browser of its own.
up_chromium() {
  if command -v chromium >/dev/null; then
    log "chromium: $(chromium --version 2>/dev/null | head -n 1)"
    return 0
  fi
  apt_install chromium
  command -v chromium >/dev/null || die "chromium: installed but not on PATH"
  log "chromium: installed $(chromium --version 2>/dev/null | head -n 1)"
}

# ---------------------------------------------------------------------- main
log "state dir: $STATE_DIR"
up_postgres
up_redis
up_kafka
up_clickhouse
up_chromium

ENV_LINES="DATABASE_URL=postgres://postgres@127.0.0.1:$PG_PORT/postgres
REDIS_URL=redis://127.0.0.1:$REDIS_PORT
KAFKA_BROKERS=127.0.0.1:$KAFKA_PORT
CLICKHOUSE_URL=http://127.0.0.1:$CH_HTTP_PORT
CHROMIUM_PATH=$(command -v chromium)"
printf '%s\n' "$ENV_LINES" >"$STATE_DIR/stack.env.tmp"
mv "$STATE_DIR/stack.env.tmp" "$STATE_DIR/stack.env"
log "stack ready in $((SECONDS - T0))s (env: $STATE_DIR/stack.env)"
printf '%s\n' "$ENV_LINES" >&3
