#!/usr/bin/env bash
# The GPU machine has CUDA but none of roofcast's Debian build dependencies, and no network.
#   Here:  scripts/dev/gpu-deps.sh download      puts their .deb files in .deps/ (git-ignored);
#          name ".deps" in the device run's `carry`.
#   There: source scripts/dev/gpu-deps.sh         unpacks them under /tmp/roofcast-deps (not into /)
#          and exports CMAKE_PREFIX_PATH and LD_LIBRARY_PATH.
# oneTBB: libtbb-dev and the libraries its CMake package names (find_package(TBB) checks that
# libtbbmalloc and libtbbbind are there; roofcast links libtbb only).
packages=(catch2 libcli11-dev libeigen3-dev libfmt-dev libfmt9 nlohmann-json3-dev libsimdjson-dev libsimdjson14
          libtbb-dev libtbb12 libtbbmalloc2 libtbbbind-2-5)
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

if [[ ${1:-} == download ]]; then
  set -euo pipefail
  mkdir -p "$root/.deps"
  exclude=$(git -C "$root" rev-parse --git-path info/exclude)  # .git may be a file (worktrees)
  mkdir -p "$(dirname "$exclude")"
  grep -qx '/.deps/' "$exclude" 2>/dev/null || echo '/.deps/' >>"$exclude"
  (cd "$root/.deps" && apt-get download "${packages[@]}")
  ls "$root/.deps"
  return 0 2>/dev/null || exit 0
fi

# Unpacked whenever carried: the GPU machine may hold other versions (it has Catch2 3).
# Each source package gets a prefix of its own: one package's include folder then never hides
# another's headers (simdjson's include path would otherwise bring nlohmann 3.11.2 into the
# targets that link simdjson, and the machine's own nlohmann into the others: two ABIs).
if ls "$root"/.deps/*.deb >/dev/null 2>&1; then
  for deb in "$root"/.deps/*.deb; do
    source_package=$(dpkg-deb -f "$deb" Source | cut -d' ' -f1)
    [[ -n $source_package ]] || source_package=$(dpkg-deb -f "$deb" Package)
    prefix=/tmp/roofcast-deps/$source_package
    mkdir -p "$prefix"
    dpkg -x "$deb" "$prefix"
    [[ :${CMAKE_PREFIX_PATH:-}: == *":$prefix/usr:"* ]] || export CMAKE_PREFIX_PATH=$prefix/usr${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}
    [[ :${LD_LIBRARY_PATH:-}: == *":$prefix/usr/lib/x86_64-linux-gnu:"* ]] ||
      export LD_LIBRARY_PATH=$prefix/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  done
elif [[ ! -f /usr/include/fmt/format.h ]]; then
  echo "gpu-deps: fmt is not installed and .deps/ has no packages: run 'scripts/dev/gpu-deps.sh download' here and carry .deps" >&2
  return 1 2>/dev/null || exit 1
fi
