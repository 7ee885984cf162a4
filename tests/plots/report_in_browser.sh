#!/usr/bin/env bash
# Opens a `roofcast report` page in headless Chromium (Debian's `chromium` package) and checks
# that it loads with no console message (errors, blocked fetches, CSP violations) and that its
# charts are drawn. Exit 77 (ctest SKIP) when chromium or python3 is absent.
#
# Usage: report_in_browser.sh ROOFCAST_BINARY            check a fresh report
#        report_in_browser.sh ROOFCAST_BINARY --self-test  check that a broken page is caught
set -euo pipefail

roofcast=$1
mode=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
command -v chromium >/dev/null || { echo "SKIP: chromium is not installed (scripts/setup.sh installs it)"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: python3 is not installed"; exit 77; }

work=$(mktemp -d /tmp/roofcast-browser-XXXXXX)
trap 'rm -rf "$work"' EXIT

# chromium ARGS... URL: a fresh profile each time, nothing fetched behind our back.
browse() {
  rm -rf "$work/profile"
  timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync --disable-extensions \
    --user-data-dir="$work/profile" --enable-logging=stderr --v=0 "$@"
}

# Console messages of a page, one per line (empty when it is clean).
console_messages() {
  browse --dump-dom "file://$1" 2>"$work/stderr" >"$work/dom.html" || true
  grep ':CONSOLE' "$work/stderr" || true
}

if [[ $mode == --self-test ]]; then
  cat >"$work/broken.html" <<'HTML'
<!DOCTYPE html><html><head><meta charset="utf-8"><title>broken</title></head>
<body><p>broken on purpose</p><img src="http://127.0.0.1:9/missing.png"><script>no_such_function();</script></body></html>
HTML
  messages=$(console_messages "$work/broken.html")
  if [[ -z $messages ]]; then
    echo "FAIL: the console check missed a script error on a broken page"
    exit 1
  fi
  echo "ok: a broken page is caught:"
  echo "$messages" | head -3
  exit 0
fi

"$roofcast" report --profile thesis-rodinia --device GTX-660 --device "GTX-1060 6GB" --output "$work/report" >/dev/null
page="$work/report/index.html"

messages=$(console_messages "$page")
if [[ -n $messages ]]; then
  echo "FAIL: the report logs console messages:"
  echo "$messages"
  exit 1
fi
charts=$(grep -o '<svg' "$work/dom.html" | wc -l)
if ((charts != 5)); then
  echo "FAIL: the loaded page holds $charts charts, expected 5 (2 rooflines, 3 quadrant-split)"
  exit 1
fi

browse --window-size=1000,7000 --hide-scrollbars --screenshot="$work/page.png" "file://$page" 2>/dev/null >/dev/null
read -r colored rows < <(python3 "$here/colored_pixels.py" "$work/page.png")
# Five charts of coloured lines and markers: thousands of sampled pixels over hundreds of rows.
if ((colored < 3000 || rows < 300)); then
  echo "FAIL: the charts are not visible in the rendered page ($colored coloured pixels sampled on $rows rows)"
  exit 1
fi
echo "ok: report loads with no console message; $charts charts drawn ($colored coloured pixels on $rows sampled rows)"
