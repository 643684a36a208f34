#!/usr/bin/env bash
# Stops the single-node Slurm that start-local.sh started (slurmd, slurmctld,
# munged), by the process ids in their pid files.
set -u
for pidfile in /run/slurmd.pid /run/slurmctld.pid /run/munge/munged.pid; do
  [ -s "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null && echo "stopped $(basename "$pidfile" .pid)"
done
exit 0
