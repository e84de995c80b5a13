#!/bin/sh
# Makes docs/serve.png and docs/serve-replay.png: the browser test of 'duckchess serve'
# (headless Chromium through WebDriver) saves its screenshots there. Installs Chromium,
# chromedriver and a font with the Chinese piece names when they are missing (the page
# loads no font of its own: it uses what the machine has).
set -eu
cd "$(dirname "$0")/.."
need=""
[ -x /usr/bin/chromium ] || need="$need chromium"
[ -x /usr/bin/chromedriver ] || need="$need chromium-driver"
fc-list 2>/dev/null | grep -qi 'wenquanyi\|noto sans cjk' || need="$need fonts-wqy-microhei"
if [ -n "$need" ]; then
  echo "installing$need" >&2
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need >/dev/null
fi
mkdir -p docs
DUCKCHESS_SCREENSHOTS="$PWD/docs" cargo test --quiet --test serve_browser
ls -l docs/serve.png docs/serve-replay.png
