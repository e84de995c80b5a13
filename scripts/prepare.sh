# Sourced by the benchmark scripts: from the project root, make sure GNU time (for peak
# RSS) is installed, build the release binary and set $bin to it.
cd "$(dirname "$0")/.."
if [ ! -x /usr/bin/time ]; then
  echo "installing GNU time for peak-RSS measurement" >&2
  apt-get update -qq && apt-get install -y -qq time >/dev/null
fi
cargo build --release --quiet
# Cargo builds where CARGO_TARGET_DIR says, when it is set.
bin=${CARGO_TARGET_DIR:-target}/release/duckchess
