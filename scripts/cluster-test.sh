#!/usr/bin/env bash
# npm run test:cluster: the job-array recipe of docs/plans-and-shards.md on a
# real single-node Slurm. It installs Slurm and munge where missing (Debian's
# packages; needs root and apt), starts munged, slurmctld and slurmd on this
# machine (proctrack/linuxproc, task/none, no accounting, no systemd), runs
# the recipe as the doc has it with only its numbers changed (n = 19 in 8
# tasks of 1 CPU), cancels one task once it has written part of its
# checkpoint, resubmits it unchanged, merges with --verify and checks the
# total. The daemons it started are stopped by their PIDs, whatever happens.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
started=$(date +%s)
say() { echo "test:cluster [$(($(date +%s) - started)) s] $*"; }

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
  say "installing Slurm and munge"
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends slurmctld slurmd slurm-client munge
fi

work=$(mktemp -d /tmp/nqueens-cluster.XXXXXX)
chmod 755 "$work"
pids=()
stop() {
  local status=$?
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  done
  if [ "$status" -ne 0 ]; then
    echo "test:cluster FAILED (status $status); logs in $work:" >&2
    tail -n 20 "$work"/*.log "$work"/jobs/slurm-*.out 2>/dev/null >&2 || true
  else
    rm -rf "$work"
  fi
}
trap stop EXIT

# munge, with a key and socket of its own (a machine's own munged is left alone).
dd if=/dev/urandom of="$work/munge.key" bs=1024 count=1 status=none
chmod 400 "$work/munge.key"
/usr/sbin/munged --foreground --force --key-file="$work/munge.key" --socket="$work/munge.socket" \
  --pid-file="$work/munged.pid" --log-file="$work/munged.log" --seed-file="$work/munge.seed" >>"$work/munged.log" 2>&1 &
pids+=($!)

host=$(hostname -s)
cpus=$(nproc)
mkdir -p "$work/state" "$work/spool" "$work/jobs"
cat >"$work/slurm.conf" <<EOF
ClusterName=nqueens-test
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket=$work/munge.socket
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
ReturnToService=2
KillWait=10
MpiDefault=none
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$work/slurm.conf
for _ in $(seq 100); do [ -S "$work/munge.socket" ] && break; sleep 0.1; done
/usr/sbin/slurmctld -D -i -f "$SLURM_CONF" >>"$work/slurmctld.log" 2>&1 &
pids+=($!)
/usr/sbin/slurmd -D -f "$SLURM_CONF" >>"$work/slurmd.log" 2>&1 &
pids+=($!)
for _ in $(seq 300); do
  sinfo -h -o %T 2>/dev/null | grep -qE '^(idle|mixed|allocated)' && break
  sleep 0.2
done
sinfo -h -o %T | grep -qE '^(idle|mixed|allocated)' || { echo "test:cluster: the node never came up" >&2; exit 1; }
say "Slurm is up: $(sinfo -h -o '%N %T %c CPUs')"

# The recipe, exactly as docs/plans-and-shards.md has it but for its numbers.
awk '/^Slurm, a job array/ { found = 1 } found && /^```sh$/ { inside = 1; next } inside && /^```$/ { exit } inside { print }' \
  docs/plans-and-shards.md >"$work/recipe.sh"
grep -q '^#SBATCH --array=0-63 --cpus-per-task=8 ' "$work/recipe.sh" && grep -q '^n=21 m=64 ' "$work/recipe.sh" || {
  echo "test:cluster: the Slurm recipe in docs/plans-and-shards.md no longer has the lines this test changes:" >&2
  cat "$work/recipe.sh" >&2
  exit 1
}
sed -e 's/^#SBATCH --array=0-63 --cpus-per-task=8 /#SBATCH --array=0-7 --cpus-per-task=1 /' -e 's/^n=21 m=64 /n=19 m=8 /' \
  "$work/recipe.sh" >"$work/jobs/nqueens-19.sh"
say "the recipe:"
cat "$work/jobs/nqueens-19.sh"

# `nqueens` on the tasks' PATH: this checkout's build.
mkdir -p "$work/bin"
printf '#!/bin/sh\nexec "%s" "%s/dist/cli/main.js" "$@"\n' "$(command -v node)" "$repo" >"$work/bin/nqueens"
chmod 755 "$work/bin/nqueens"
export PATH=$work/bin:$PATH

cd "$work/jobs"
recipe_started=$(date +%s)
job=$(sbatch --parsable nqueens-19.sh)
say "submitted job array $job"

# Cancel task 3 once its checkpoint holds some finished units (header and 2 lines at least).
victim=3
until [ -f n19-$victim.ckpt ] && [ "$(wc -l <n19-$victim.ckpt)" -ge 3 ]; do
  if ! squeue -h -j "$job" | grep -q .; then echo "test:cluster: the array ended before task $victim was cancelled" >&2; exit 1; fi
  sleep 0.2
done
scancel "${job}_$victim"
say "cancelled task $victim with $(($(wc -l <n19-$victim.ckpt) - 1)) units in its checkpoint"

wait_for() {
  while squeue -h -j "$1" | grep -q .; do sleep 0.5; done
}
wait_for "$job"
[ ! -e n19-$victim.json ] || { echo "test:cluster: the cancelled task wrote its result" >&2; exit 1; }
[ ! -e n19-$victim.json.partial ] || { echo "test:cluster: the cancelled task left n19-$victim.json.partial" >&2; exit 1; }
grep -q "interrupted (SIGTERM); finished units are in n19-$victim.ckpt" "slurm-${job}_$victim.out" || {
  echo "test:cluster: the cancelled task did not say it stopped on SIGTERM:" >&2
  cat "slurm-${job}_$victim.out" >&2
  exit 1
}
say "array done but task $victim; resubmitting it unchanged"

rerun=$(sbatch --parsable --array=$victim nqueens-19.sh)
wait_for "$rerun"
grep -q "resumed from n19-$victim.ckpt" "slurm-${rerun}_$victim.out" || {
  echo "test:cluster: the resubmitted task did not resume from its checkpoint:" >&2
  cat "slurm-${rerun}_$victim.out" >&2
  exit 1
}
recipe_s=$(($(date +%s) - recipe_started))

nqueens merge n19-*.json --verify 8 --json >merged.json
total=$(node -e 'console.log(JSON.parse(require("fs").readFileSync("merged.json", "utf8")).total)')
say "merged: $(cat merged.json)"
if [ "$total" != 4968057848 ]; then
  echo "test:cluster: total $total, expected 4968057848 (OEIS A000170, n = 19)" >&2
  exit 1
fi
say "passed: n = 19 exact after a cancel and a resubmit (recipe ${recipe_s} s, all $(($(date +%s) - started)) s)"
