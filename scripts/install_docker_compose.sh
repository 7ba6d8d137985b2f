#!/usr/bin/env bash
# Builds the `docker compose` CLI plugin from the Go module proxy, for machines whose docker
# client lacks it (needed only to check docker-compose.yml with `docker compose config -q`).
set -euo pipefail
version=${1:-v2.29.7}
work=$(mktemp -d)
GOBIN="$work/bin" GOFLAGS=-mod=mod go install "github.com/docker/compose/v2/cmd@$version"
mkdir -p ~/.docker/cli-plugins
cp "$work/bin/cmd" ~/.docker/cli-plugins/docker-compose
docker compose version
