#!/usr/bin/env bash
# Installs what roofcast needs to build and test, from Debian's packages, when missing.
# Usage: scripts/setup.sh [--build-only] [--with-hip]
#   --build-only: only what building the roofcast command needs (scripts/demo.sh)
set -euo pipefail

build_packages=(cmake ninja-build g++ catch2 libfmt-dev libtbb-dev libeigen3-dev nlohmann-json3-dev libcli11-dev libsimdjson-dev)
# gnuplot-nox: the charts; help2man: the man pages; clang and libclang-rt-dev: the fuzz targets
# (scripts/dev/fuzz.sh, run by scripts/test.sh); chromium: the HTML report's browser tests
# (tests/plots/report_in_browser.sh), which CI must not skip; python3: the docs check, the
# browser tests' pixel count and the corpus summary (ctest corpus_summary).
tool_packages=(gnuplot-nox help2man clang libclang-rt-dev chromium python3)
optional_packages=()
for argument in "$@"; do
  case "$argument" in
    --build-only) tool_packages=() ;;
    --with-hip) optional_packages+=(hipcc libamdhip64-dev rocm-device-libs) ;;
    --with-browser) ;;  # chromium is a test dependency now; the option stays for old scripts
    *) echo "setup.sh: unknown option $argument" >&2; exit 2 ;;
  esac
done
packages=("${build_packages[@]}" "${tool_packages[@]}" "${optional_packages[@]}")

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
