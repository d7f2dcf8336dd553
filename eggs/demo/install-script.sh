#!/bin/bash
# Aerie Demo installation script
#
# Server files: /mnt/server
# The game server is one file, embedded below so installing needs no network.
set -euo pipefail

mkdir -p /mnt/server
cd /mnt/server

echo "Writing demo-server.mjs..."
cat > demo-server.mjs <<'AERIE_DEMO_SERVER_MJS'
@@DEMO_SERVER_SOURCE@@
AERIE_DEMO_SERVER_MJS

echo "Installed demo-server.mjs ($(wc -c < demo-server.mjs) bytes). Start the server to play."
