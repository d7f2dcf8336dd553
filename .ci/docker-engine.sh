#!/usr/bin/env bash
# A private Docker engine for the daemon's Docker-runtime tests. CI has no systemd (and package scripts may not
# start services), so dockerd runs by hand with its data, exec root, socket and log under one directory.
#   start: reuse an engine that already answers at DOCKER_HOST, else start one and wait for it (at most 30 s);
#          then build the test images (docker import, no registry).
#   stop:  end the engine `start` started, and only that one (bounded wait, then SIGKILL).
# Directory: AERIE_DOCKER_DIR (default /tmp/aerie-ci-docker); DOCKER_HOST defaults to its socket.
set -euo pipefail
cd "$(dirname "$0")/.."

dir=${AERIE_DOCKER_DIR:-/tmp/aerie-ci-docker}
export DOCKER_HOST=${DOCKER_HOST:-unix://$dir/docker.sock}
started_pid=$dir/dockerd.started.pid

engine_answers() { docker version --format '{{.Server.Version}}' >/dev/null 2>&1; }

start() {
  if engine_answers; then
    echo "A Docker engine already answers at $DOCKER_HOST: using it"
  else
    command -v dockerd >/dev/null || { echo "dockerd is missing (apt-get install docker.io)" >&2; exit 1; }
    mkdir -p "$dir/data" "$dir/exec"
    dockerd --data-root "$dir/data" --exec-root "$dir/exec" --pidfile "$dir/dockerd.pid" \
      --host "$DOCKER_HOST" --storage-driver=overlay2 >"$dir/dockerd.log" 2>&1 </dev/null &
    echo $! >"$started_pid"
    for _ in $(seq 1 60); do
      engine_answers && break
      kill -0 "$(cat "$started_pid")" 2>/dev/null || break
      sleep 0.5
    done
    if ! engine_answers; then
      echo "dockerd did not answer at $DOCKER_HOST within 30 s; its log ends with:" >&2
      tail -n 30 "$dir/dockerd.log" >&2
      exit 1
    fi
  fi
  docker version --format "Docker engine {{.Server.Version}} (API {{.Server.APIVersion}}) at $DOCKER_HOST"
  bash apps/daemon/test-images/build-test-images.sh
}

stop() {
  [[ -f "$started_pid" ]] || return 0
  local pid
  pid=$(cat "$started_pid")
  rm -f "$started_pid"
  kill "$pid" 2>/dev/null || return 0
  # dockerd stops its containers and its containerd before it exits.
  for _ in $(seq 1 40); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.5
  done
  kill -9 "$pid" 2>/dev/null || true
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
