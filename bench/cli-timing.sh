#!/usr/bin/env bash
# bench/cli-timing.sh [RUNS]: how fast bin/claimguard answers, against `java -jar` of the packaged jar (the baseline).
# Each command runs RUNS times (default 5) by each path, each run a fresh JVM; prints median and worst wall time,
# the ratio fast/baseline, the CPU time each used (steadier than wall time when other work shares the machine)
# and the target of issue 28, and writes bench/results/cli-<UTC>.md.
# The database commands run against a database of their own (created from db/migration with psql, dropped after);
# without psql or PostgreSQL on $PGHOST:$PGPORT (default 127.0.0.1:5432, user postgres) they are left out.
set -euo pipefail

runs=${1:-5}
home=$(cd -- "$(dirname -- "$0")/.." && pwd)
cd "$home"
jar=$(ls -t target/claimguard-*.jar 2>/dev/null | grep -v -e '-sources\.jar$' -e '-javadoc\.jar$' | head -n 1 || true)
if [ -z "$jar" ]; then
    echo "no target/claimguard-*.jar: build it first with ./mvnw -B -DskipTests package" >&2
    exit 3
fi

export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres}
database=claimguard_cli_bench_$$
db_args=()
if command -v psql >/dev/null && psql -qAtc 'select 1' postgres >/dev/null 2>&1; then
    psql -qc "CREATE DATABASE $database" postgres >/dev/null
    trap 'psql -qc "DROP DATABASE IF EXISTS $database" postgres >/dev/null' EXIT
    psql -qc 'CREATE SCHEMA claimguard' "$database" >/dev/null
    # in Flyway's order (by version number), each in one transaction as Flyway runs it
    for migration in $(ls db/migration/V*__*.sql | sort -t V -k 2 -n); do
        PGOPTIONS="-c search_path=claimguard" psql -q -1 -v ON_ERROR_STOP=1 -f "$migration" "$database" >/dev/null
    done
    db_args=(--db-url "jdbc:postgresql://$PGHOST:$PGPORT/$database" --db-user "$PGUSER")
fi

now_ms() { date +%s%3N; }

# runs "$@" once; prints its wall time and its CPU time (user and system, the JVM's threads summed) in
# milliseconds. The exit code is not judged (status exits 0 or 3 by the broker's presence), but the command must
# answer on standard output.
time_once() {
    local TIMEFORMAT='%R %U %S' out=$(mktemp) times
    times=$( { time "$@" >"$out" 2>/dev/null; } 2>&1 || true)
    if [ ! -s "$out" ]; then
        echo "no output from: $*" >&2
        exit 1
    fi
    rm -f "$out"
    awk -v t="$times" 'BEGIN { split(t, v, " "); printf "%d %d\n", v[1] * 1000, (v[2] + v[3]) * 1000 }'
}

# median and worst of the wall times, median of the CPU times, of the lines "wall cpu" on standard input
summary() {
    local lines wall cpu
    lines=$(cat)
    wall=$(cut -d ' ' -f 1 <<< "$lines" | sort -n | awk '{ v[NR] = $1 } END {
        printf "%d %d", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2, v[NR] }')
    cpu=$(cut -d ' ' -f 2 <<< "$lines" | sort -n | awk '{ v[NR] = $1 } END {
        printf "%d", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
    echo "$wall $cpu"
}

seconds() { awk -v ms="$1" 'BEGIN { printf "%.2f", ms / 1000 }'; }

rows=()
measure() {
    local name=$1 target_ms=$2
    shift 2
    local fast base
    # one run of each beforehand, so that both paths start with the jar and the layout in the page cache
    time_once bin/claimguard "$@" >/dev/null
    time_once java -jar "$jar" "$@" >/dev/null
    fast=$(for _ in $(seq "$runs"); do time_once bin/claimguard "$@"; done | summary)
    base=$(for _ in $(seq "$runs"); do time_once java -jar "$jar" "$@"; done | summary)
    local fm fw fc bm bw bc ratio cpu_ratio verdict
    read -r fm fw fc <<< "$fast"
    read -r bm bw bc <<< "$base"
    ratio=$(awk -v f="$fm" -v b="$bm" 'BEGIN { printf "%.2f", f / b }')
    cpu_ratio=$(awk -v f="$fc" -v b="$bc" 'BEGIN { printf "%.2f", f / b }')
    verdict=$([ "$fm" -le "$target_ms" ] && echo met || echo missed)
    rows+=("| \`$name\` | $(seconds "$bm") / $(seconds "$bw") | $(seconds "$fm") / $(seconds "$fw") | $ratio | $(seconds "$bc") -> $(seconds "$fc") ($cpu_ratio) | under $(seconds "$target_ms") | $verdict |")
    echo "${rows[-1]}"
}

stamp=$(date -u +%Y%m%dT%H%M%SZ)
header="| command | baseline \`java -jar\` median / worst (s) | \`bin/claimguard\` median / worst (s) | fast / baseline | CPU median (s), baseline -> fast (ratio) | target (wall, median) | |
|---|---:|---:|---:|---|---|---|"
echo "$header"
measure "--help" 500 --help
measure "status --help" 500 status --help
if [ ${#db_args[@]} -gt 0 ]; then
    # no broker: the inbox and queue parts show as unavailable, as the target's "small database" run allows
    measure "status (empty database)" 1500 status "${db_args[@]}" --broker tcp://127.0.0.1:1 --inbox /nonexistent
    measure "verify-chain (empty database)" 1500 verify-chain "${db_args[@]}"
fi

load=$(cut -d ' ' -f 1-3 /proc/loadavg 2>/dev/null || echo unknown)
mkdir -p bench/results
result=bench/results/cli-$stamp.md
{
    echo "# ClaimGuard command-line start, $stamp"
    echo
    echo "$header"
    printf '%s\n' "${rows[@]}"
    echo
    echo "runs: $runs of each command by each path, each a fresh JVM, after one run of each to warm the page cache"
    echo "baseline: java -jar $jar (the Spring Boot launcher reading nested jars)"
    echo "fast: bin/claimguard ($( [ -f target/claimguard-fast/layout.stamp ] && echo 'extracted layout and class-data-sharing archive in target/claimguard-fast' || echo 'no extracted layout: the jar'))"
    echo "machine: $(nproc) cores, load average $load, $(java -version 2>&1 | head -n 1)"
} > "$result"
echo "written: $result"
