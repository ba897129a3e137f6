#!/bin/sh
# A UGI engine that leaves a child behind, as a wrapper script or an engine with helper
# processes may: it starts `sleep 1000` in the background, appends that child's pid and its
# own to PIDFILE, then becomes the real engine (the rest of the arguments).
# Usage: with_child.sh PIDFILE PROGRAM ARGS...
pidfile=$1
shift
sleep 1000 >/dev/null 2>&1 &
echo "$! $$" >> "$pidfile"
exec "$@"
