#!/bin/sh
# Draws the pictures of 'duckchess serve' in docs/ again from the page as it is:
# serve.png (a game, the red horse selected), serve-replay.png (a replay and the judge's
# output), serve-engine.png (the engine's evaluation and line) and serve-analysis.png (a
# replay analysed) in a 1280x1024 window, and serve-1280x800.png, serve-800x600.png and
# serve-390x844.png (a game in windows of those sizes; the last one a phone's).
#
# The pictures' test (serve_browser::the_guides_pictures_show_the_page, headless
# Chromium through WebDriver) takes them, with DUCKCHESS_PICTURES naming docs/; in the
# full tier the same test draws them again and fails when one differs from docs/. Its
# fonts are fixed, whatever else the machine has: DejaVu Sans and Sans Mono, and
# WenQuanYi Micro Hei for the Chinese names (.ci/run installs the same packages, so that
# CI draws alike). Installs Chromium, chromedriver and those fonts when they are missing
# (root, once).
set -eu
cd "$(dirname "$0")/.."
need=""
[ -x /usr/bin/chromium ] || need="$need chromium"
[ -x /usr/bin/chromedriver ] || need="$need chromium-driver"
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf ] || need="$need fonts-dejavu-core"
[ -f /usr/share/fonts/truetype/wqy/wqy-microhei.ttc ] || need="$need fonts-wqy-microhei"
if [ -n "$need" ]; then
  echo "installing$need" >&2
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need >/dev/null
fi
DUCKCHESS_PICTURES="$PWD/docs" cargo test --quiet --test all -- --ignored --exact \
  serve_browser::the_guides_pictures_show_the_page --nocapture
ls -l docs/serve.png docs/serve-replay.png docs/serve-engine.png docs/serve-analysis.png \
  docs/serve-1280x800.png docs/serve-800x600.png docs/serve-390x844.png
