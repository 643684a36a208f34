#!/usr/bin/env bash
# Starts a single-node Slurm on this machine (munged, slurmctld, slurmd on
# localhost) for `gpusim sweep --slurm` and its tests (docs/sweeps.md).
# Needs root and Debian's slurm-wlm and munge (`apt-get install slurm-wlm munge`).
# Idempotent: if `sinfo` already answers, it does nothing. Exits non-zero with
# the reason when Slurm cannot be started.
#
# It writes /etc/slurm/slurm.conf only if there is none, or if the one there
# is its own (first line starting "# gpusim local single-node Slurm"): a real
# cluster's configuration is never touched.
#
# Two modes for its test (cosim/tests/sweep_slurm.rs), needing neither root
# nor Slurm:
#   start-local.sh --write-config FILE   writes the configuration to FILE
#   start-local.sh --check-config FILE   exits 0 if FILE is absent or ours
set -euo pipefail

die() { echo "start-local.sh: $*" >&2; exit 1; }

marker="# gpusim local single-node Slurm"

# True when $1 is absent or was written by this script. Its first line is the
# marker followed by the script's name, so it is compared as a prefix (an
# exact comparison refused the file this script had written the run before).
ours() {
  [ ! -e "$1" ] && return 0
  case "$(head -1 "$1")" in
    "$marker"*) return 0 ;;
    *) return 1 ;;
  esac
}

# Writes the single-node configuration to $1.
write_conf() {
  local host cpus mem
  host=$(hostname -s)
  cpus=$(nproc)
  mem=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 / 2 ))
  cat > "$1" <<CONF
$marker (scripts/slurm/start-local.sh)
ClusterName=gpusim-local
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
# Containers often have no usable cgroup hierarchy: track processes by parentage.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
# A time limit sends SIGTERM, then SIGKILL KillWait seconds later: gpusim
# writes its partial result in between.
KillWait=30
OverTimeLimit=0
InactiveLimit=0
MinJobAge=600
SlurmctldTimeout=30
SlurmdTimeout=60
NodeName=gpusim-node NodeHostname=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=local Nodes=gpusim-node Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
CONF
}

case "${1:-}" in
  --write-config) [ -n "${2:-}" ] || die "--write-config needs a file"; write_conf "$2"; exit 0 ;;
  --check-config) [ -n "${2:-}" ] || die "--check-config needs a file"
    ours "$2" || die "$2 exists and is not ours"; exit 0 ;;
  "") ;;
  *) die "unknown argument $1 (none, --write-config FILE or --check-config FILE)" ;;
esac

for tool in munged slurmctld slurmd sinfo; do
  command -v "$tool" >/dev/null 2>&1 || die "$tool not found (apt-get install slurm-wlm munge)"
done
[ "$(id -u)" -eq 0 ] || die "must run as root (it starts munged, slurmctld and slurmd)"

if sinfo -h >/dev/null 2>&1 && [ "$(sinfo -h -o %T 2>/dev/null | head -1)" = idle ]; then
  echo "start-local.sh: Slurm already running"; exit 0
fi

conf=/etc/slurm/slurm.conf
ours "$conf" || die "$conf exists and is not ours: not touching a real cluster's configuration"

mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm /run/munge /var/lib/munge /var/log/munge
write_conf "$conf"

# munge: a key, then the daemon (as root it needs --force).
if [ ! -s /etc/munge/munge.key ]; then
  mkdir -p /etc/munge
  dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
fi
chown -R munge:munge /etc/munge /run/munge /var/lib/munge /var/log/munge 2>/dev/null || true
chmod 0700 /etc/munge; chmod 0400 /etc/munge/munge.key
if ! pgrep -x munged >/dev/null; then
  if id munge >/dev/null 2>&1; then
    runuser -u munge -- munged || munged --force
  else
    munged --force
  fi
fi
munge -n | unmunge >/dev/null 2>&1 || die "munge does not work (see /var/log/munge/munged.log)"

pgrep -x slurmctld >/dev/null || slurmctld -c -i || die "slurmctld did not start (see /var/log/slurm/slurmctld.log)"
pgrep -x slurmd >/dev/null || slurmd -N gpusim-node || die "slurmd did not start (see /var/log/slurm/slurmd.log)"

for _ in $(seq 1 30); do
  state=$(sinfo -h -n gpusim-node -o %T 2>/dev/null | head -1 || true)
  case "$state" in
    idle|mixed|allocated) echo "start-local.sh: Slurm up (node gpusim-node, $(nproc) CPUs, partition local)"; exit 0 ;;
    down*|drain*) scontrol update nodename=gpusim-node state=resume >/dev/null 2>&1 || true ;;
  esac
  sleep 1
done
die "the node did not become idle (sinfo: ${state:-no answer}; see /var/log/slurm/)"
