#!/bin/sh
# Makes the screenshots of 'duckchess serve' in docs/: serve.png (a game),
# serve-replay.png (a replay), serve-engine.png (the engine's evaluation and line) and
# serve-analysis.png (a replay analysed) at 1280x1000, and serve-1280x800.png,
# serve-800x600.png and serve-390x844.png (a game at those window sizes; the last one
# a phone's). The
# browser test (headless Chromium through WebDriver) saves them there. Installs
# Chromium, chromedriver and a font with the Chinese piece names when they are missing
# (the page loads no font of its own: it uses what the machine has, and shows letters
# by itself on a machine without one).
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
DUCKCHESS_SCREENSHOTS="$PWD/docs" cargo test --quiet --test all -- --ignored serve_browser::
ls -l docs/serve.png docs/serve-replay.png docs/serve-1280x800.png docs/serve-800x600.png \
  docs/serve-390x844.png docs/serve-engine.png docs/serve-analysis.png
