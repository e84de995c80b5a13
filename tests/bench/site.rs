//! The static site's figures, as benchmarks: a test target that `cargo test` leaves out
//! (`test = false` in `Cargo.toml`); `scripts/bench-site.sh` builds the site and runs
//! them in release mode.
//!
//! - `speed`: the engine's search to a fixed depth (`DEPTH`, default 10) on each of the
//!   32 positions of `scripts/bench-positions.txt`, one thread, a fresh engine each, the
//!   same function ([`duckchess::web::wasm::bench`]) natively and in headless Chromium's
//!   WebAssembly (in a Web Worker, as the page runs it): nodes, time, nodes a second,
//!   and the ratio. The two searches visit the same nodes, so the ratio of their times
//!   is the ratio of their speeds.
//! - `load`: the site opened in a fresh browser from a local static server, `RUNS`
//!   times (default 5): the time until the board is ready (the module fetched,
//!   compiled and its first answer given), and what each file weighs on the wire.

#[path = "../all/browser/mod.rs"]
mod browser;
#[path = "../all/serve_common/mod.rs"]
mod serve_common;

use browser::{browser_present, Browser, StaticFiles};
use duckchess::cli::json::Json;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn site() -> PathBuf {
    match std::env::var_os("DUCKCHESS_SITE").map(PathBuf::from) {
        Some(dir) if dir.join("duckchess.wasm").is_file() => dir,
        _ => panic!("set DUCKCHESS_SITE to a folder scripts/site.sh wrote"),
    }
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Nodes and microseconds of each line of a benchmark's answer.
fn figures(answer: &str) -> Vec<(u64, u64)> {
    answer
        .lines()
        .map(|l| {
            let mut w = l.split(' ').map(|n| n.parse::<u64>().expect(l));
            (w.next().unwrap(), w.next().unwrap())
        })
        .collect()
}

/// Opens the site in a fresh browser and waits for the board.
/// Opens the site in a fresh browser and waits for the board; the time from the start
/// of the navigation to the board's being ready, as the page marks it.
fn open(url: &str) -> (Browser, Duration) {
    let browser = Browser::start();
    browser.open(url);
    browser.until("document.body.dataset.ready === '1'");
    let ms = browser
        .script("return Math.round(performance.getEntriesByName('duckchess-ready')[0].startTime);")
        .as_int()
        .unwrap_or(0);
    (browser, Duration::from_millis(ms as u64))
}

#[test]
fn speed() {
    browser_present();
    let depth = env_number("DEPTH", 10) as u32;
    let positions = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/bench-positions.txt"),
    )
    .unwrap();

    let native = figures(&duckchess::web::wasm::bench(&positions, depth));

    let files = StaticFiles::start(&site(), "board");
    let (browser, _) = open(&files.url);
    // The benchmark's worker, given the module the page compiled; its answer is left
    // in `window.benchAnswer`.
    let code = r#"
        const job = `onmessage = (e) => {
          const { module, text, depth } = e.data;
          const x = new WebAssembly.Instance(module, { duckchess: { now_ms: () => performance.now() } }).exports;
          const bytes = new TextEncoder().encode(text);
          const at = x.dc_input(BigInt(bytes.length)) >>> 0;
          new Uint8Array(x.memory.buffer, at, bytes.length).set(bytes);
          x.dc_bench(depth);
          postMessage(new TextDecoder().decode(new Uint8Array(x.memory.buffer, x.dc_output() >>> 0, x.dc_output_len() >>> 0)));
        };`;
        window.benchAnswer = null;
        wasmModule().then((module) => {
          const w = new Worker(URL.createObjectURL(new Blob([job], { type: 'text/javascript' })));
          w.onmessage = (e) => { window.benchAnswer = e.data; };
          w.postMessage({ module, text: TEXT, depth: DEPTH });
        });
    "#
    .replace("TEXT", &Json::str(positions.as_str()).to_string())
    .replace("DEPTH", &depth.to_string());
    browser.script(&code);
    let deadline = Instant::now() + Duration::from_secs(1800);
    let answer = loop {
        if let Some(a) = browser.script("return window.benchAnswer;").as_str() {
            break a.to_string();
        }
        assert!(Instant::now() < deadline, "the benchmark did not end");
        std::thread::sleep(Duration::from_millis(200));
    };
    let wasm = figures(&answer);
    assert_eq!(wasm.len(), native.len());

    println!("depth {depth}, one thread, a fresh engine a position");
    println!("position  nodes  native ms  wasm ms  wasm/native speed");
    let (mut nodes, mut native_us, mut wasm_us, mut same) = (0, 0, 0, true);
    for (i, (n, w)) in native.iter().zip(&wasm).enumerate() {
        println!(
            "{:>8}  {:>9}  {:>9.1}  {:>7.1}  {:.2}",
            i + 1,
            n.0,
            n.1 as f64 / 1000.0,
            w.1 as f64 / 1000.0,
            n.1 as f64 / w.1.max(1) as f64
        );
        same &= n.0 == w.0;
        nodes += n.0;
        native_us += n.1;
        wasm_us += w.1;
    }
    let nps = |us: u64| nodes as f64 / (us.max(1) as f64 / 1e6);
    println!(
        "native: {nodes} nodes in {:.2} s, {:.0} k nodes/s",
        native_us as f64 / 1e6,
        nps(native_us) / 1000.0
    );
    println!(
        "wasm:   {} nodes in {:.2} s, {:.0} k nodes/s",
        wasm.iter().map(|w| w.0).sum::<u64>(),
        wasm_us as f64 / 1e6,
        nps(wasm_us) / 1000.0
    );
    println!(
        "wasm/native: {:.2} of the speed; the same nodes on every position: {}",
        native_us as f64 / wasm_us.max(1) as f64,
        if same { "yes" } else { "no" }
    );
}

#[test]
fn load() {
    browser_present();
    let runs = env_number("RUNS", 5);
    let files = StaticFiles::start(&site(), "board");
    let mut times = Vec::new();
    for run in 0..runs {
        let (browser, took) = open(&files.url);
        times.push(took);
        if run == 0 {
            let sizes = browser.script(
                "return performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'))\
                 .map(e => (e.name.split('/').pop() || 'index.html') + ' ' + e.transferSize + ' ' + e.decodedBodySize);",
            );
            println!("file  transferred  body (bytes, first load, no compression)");
            let mut total = 0;
            for line in sizes.as_array().unwrap_or(&[]) {
                let line = line.as_str().unwrap_or("");
                println!("{line}");
                total += line
                    .split(' ')
                    .nth(1)
                    .and_then(|n| n.parse::<u64>().ok())
                    .unwrap_or(0);
            }
            println!("transferred in all: {total} bytes");
        }
    }
    // The same page served by `duckchess serve`, which needs no module: the part of
    // the time that is the page's own.
    let server = serve_common::Server::start(&[]);
    let mut served = Vec::new();
    for _ in 0..runs {
        served.push(open(&server.url).1);
    }
    drop(server);
    let median = |t: &mut Vec<Duration>| {
        t.sort();
        (t[t.len() / 2].as_millis(), t[t.len() - 1].as_millis())
    };
    let (site_median, site_slowest) = median(&mut times);
    let (served_median, served_slowest) = median(&mut served);
    println!(
        "from the navigation to the board ready, {runs} fresh browsers each: static site \
         (the module fetched, compiled, its first answer given) median {site_median} ms, \
         slowest {site_slowest} ms; served by duckchess serve median {served_median} ms, \
         slowest {served_slowest} ms"
    );
}
