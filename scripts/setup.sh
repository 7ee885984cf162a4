#!/usr/bin/env bash
# Installs what roofcast needs to build and test, from Debian's packages, when missing.
# Usage: scripts/setup.sh [--with-hip] [--with-browser]
set -euo pipefail

# clang and libclang-rt-dev: the fuzz targets (scripts/fuzz.sh, run by scripts/test.sh).
packages=(cmake ninja-build g++ catch2 libfmt-dev libeigen3-dev nlohmann-json3-dev libcli11-dev gnuplot-nox
          clang libclang-rt-dev)
for argument in "$@"; do
  case "$argument" in
    --with-hip) packages+=(hipcc libamdhip64-dev rocm-device-libs) ;;
    --with-browser) packages+=(chromium) ;;
    *) echo "setup.sh: unknown option $argument" >&2; exit 2 ;;
  esac
done

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]} == 0)); then
  echo "setup: all packages present"
  exit 0
fi

echo "setup: installing ${missing[*]}"
sudo=""
if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
