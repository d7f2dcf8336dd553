#!/usr/bin/env bash
# Builds the Docker images the daemon's Docker-runtime tests (and a CI engine) run, without any registry:
# a root filesystem of busybox (sh + applets), bash and this machine's node (each with the libraries ldd lists),
# turned into an image by `docker import`. It is tagged `aerie-test/node:local` and also under the names the demo
# egg uses (`node:20-bookworm-slim` for its server and its install container), so the daemon's pull-or-local path
# finds it with no network. Idempotent: an image whose fingerprint label matches is only re-tagged (well under 1 s).
# Needs: docker (DOCKER_HOST honoured), busybox (Debian: busybox-static), bash, node, ldd.
set -euo pipefail

IMAGE=aerie-test/node:local
ALIASES=(node:20-bookworm-slim)
CONTAINER_UID=988

busybox=$(command -v busybox) || { echo "build-test-images: busybox is missing (apt-get install busybox-static)" >&2; exit 1; }
node=$(readlink -f "$(command -v node)")
bash_bin=$(readlink -f "$(command -v bash)")

# What the image is made of: rebuilt only when one of these (or this script) changes.
fingerprint=$(
  {
    for file in "$busybox" "$node" "$bash_bin" "${BASH_SOURCE[0]}"; do stat -Lc '%n %s %Y' "$file"; done
  } | sha256sum | cut -c1-16
)

tag_aliases() {
  for alias in "${ALIASES[@]}"; do docker tag "$IMAGE" "$alias"; done
}

current=$(docker image inspect "$IMAGE" --format '{{ index .Config.Labels "aerie.test-image" }}' 2>/dev/null || true)
if [[ "$current" == "$fingerprint" ]]; then
  tag_aliases
  echo "build-test-images: $IMAGE is up to date ($fingerprint)"
  exit 0
fi

rootfs=$(mktemp -d)
trap 'rm -rf "$rootfs"' EXIT
mkdir -p "$rootfs"/{bin,usr/bin,usr/local/bin,etc,tmp,home/container,mnt/server,mnt/install,root,proc,sys,dev}
chmod 1777 "$rootfs/tmp"

# busybox and one symlink per applet; the real bash below wins over busybox's own `bash` applet, if any.
cp "$busybox" "$rootfs/bin/busybox"
for applet in $("$busybox" --list); do
  [[ "$applet" == busybox ]] || ln -sf busybox "$rootfs/bin/$applet"
done

# A dynamically linked binary runs in the image only with the very libraries it was linked against here.
copy_with_libraries() {
  local binary=$1 target=$2
  cp "$binary" "$rootfs$target"
  ldd "$binary" | grep -oE '/[^ ]+' | while read -r library; do
    mkdir -p "$rootfs$(dirname "$library")"
    cp -L "$library" "$rootfs$library"
  done
}
rm -f "$rootfs/bin/bash"
copy_with_libraries "$bash_bin" /bin/bash
copy_with_libraries "$node" /usr/bin/node
ln -sf /usr/bin/node "$rootfs/usr/local/bin/node"

# The user servers run as when the daemon runs as root (Wings' pterodactyl user is 988 in its image).
cat >"$rootfs/etc/passwd" <<PASSWD
root:x:0:0:root:/root:/bin/sh
container:x:$CONTAINER_UID:$CONTAINER_UID::/home/container:/bin/sh
nobody:x:65534:65534:nobody:/nonexistent:/bin/false
PASSWD
cat >"$rootfs/etc/group" <<GROUP
root:x:0:
container:x:$CONTAINER_UID:
nogroup:x:65534:
GROUP
chown "$CONTAINER_UID:$CONTAINER_UID" "$rootfs/home/container"

tar -C "$rootfs" -c . | docker import \
  -c 'ENV PATH=/usr/local/bin:/usr/bin:/bin' \
  -c 'CMD ["/bin/sh"]' \
  -c "LABEL aerie.test-image=$fingerprint" \
  -m "Aerie test image: busybox, bash and node $("$node" --version)" \
  - "$IMAGE" >/dev/null
tag_aliases
echo "build-test-images: built $IMAGE ($fingerprint) and tagged ${ALIASES[*]}"
