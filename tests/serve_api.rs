//! `duckchess serve` over a real socket: every endpoint, the replay against the judge's
//! own answers (samples and official cases), bad requests and their status codes, a
//! slow client, more clients than the server admits, garbage bodies, and a clean stop
//! at the end of standard input. After each abuse the server must still answer.

mod serve_common;

use duckchess::web::json::Json;
use serve_common::{
    connect, exchange, get, parse_answer, post, read_all, request, Server, PATIENCE,
};
use std::fs;
use std::io::Write;
use std::path::Path;
use std::thread;
use std::time::{Duration, Instant};

fn json(answer: &serve_common::Answer) -> Json {
    Json::parse(&answer.body).unwrap_or_else(|e| panic!("{e} in {:?}", answer.text()))
}

fn still_serving(server: &Server) {
    let page = get(server.addr, "/");
    assert_eq!(page.status, 200, "the server still answers");
}

#[test]
fn the_page_and_its_files() {
    let server = Server::start(&[]);
    let page = get(server.addr, "/");
    assert_eq!(page.status, 200);
    assert_eq!(
        page.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    assert_eq!(page.header("connection"), Some("close"));
    assert!(page
        .header("content-security-policy")
        .is_some_and(|p| p.starts_with("default-src 'self'")));
    assert!(page.text().contains("<svg id=\"board\""));
    for (path, kind) in [
        ("/app.js", "text/javascript; charset=utf-8"),
        ("/style.css", "text/css; charset=utf-8"),
        ("/favicon.svg", "image/svg+xml"),
    ] {
        let a = get(server.addr, path);
        assert_eq!(
            (a.status, a.header("content-type")),
            (200, Some(kind)),
            "{path}"
        );
        assert!(!a.body.is_empty());
    }
    let head = request(server.addr, "HEAD", "/", b"");
    assert_eq!(head.status, 200);
    assert!(head.body.is_empty(), "HEAD has no body");
    assert_eq!(
        head.header("content-length").map(str::to_string),
        page.header("content-length").map(str::to_string)
    );
    let (status, stderr) = server.stop();
    assert!(status.success(), "{stderr}");
    assert_eq!(stderr, "duckchess: serve: end of input: stopping\n");
}

#[test]
fn play_a_game_through_the_api() {
    let server = Server::start(&[]);
    let state = json(&post(server.addr, "/api/state", "{}"));
    assert_eq!(
        state
            .get("pieces")
            .and_then(Json::as_array)
            .map(|p| p.len()),
        Some(32)
    );
    assert_eq!(state.get("side").and_then(Json::as_str), Some("red"));

    let t = json(&post(server.addr, "/api/targets", r#"{"from":[3,4]}"#));
    assert_eq!(
        t.get("targets").unwrap().to_string(),
        "[[4,4],[2,4],[3,5],[3,3],[4,5],[4,3],[2,5],[2,3]]",
        "a soldier steps to its eight neighbours"
    );
    // Five moves to the first capture: red soldier takes blue soldier.
    let moves = [[0, 1, 2, 2], [9, 1, 7, 2], [3, 4, 4, 4], [6, 4, 5, 4]];
    let list = |n: usize| {
        let items: Vec<String> = moves[..n]
            .iter()
            .map(|m| format!("{m:?}").replace(' ', ""))
            .collect();
        format!("[{}]", items.join(","))
    };
    let a = json(&post(
        server.addr,
        "/api/play",
        &format!(r#"{{"moves":{},"move":[4,4,5,4]}}"#, list(4)),
    ));
    assert_eq!(
        a.get("line").and_then(Json::as_str),
        Some("red soldier;blue soldier;no;no")
    );
    let s = a.get("state").unwrap();
    assert_eq!(
        s.get("lost").unwrap().to_string(),
        r#"{"red":[],"blue":["s"]}"#
    );
    assert_eq!(
        s.get("history").and_then(Json::as_array).map(|h| h.len()),
        Some(5)
    );

    let saved = post(
        server.addr,
        "/api/save",
        &format!(r#"{{"moves":{}}}"#, list(4)),
    );
    assert_eq!(saved.status, 200);
    assert_eq!(
        saved.header("content-type"),
        Some("text/plain; charset=utf-8")
    );
    assert_eq!(
        saved.text(),
        "rhegkgehr/9/d7d/s1s1s1s1s/9/9/S1S1S1S1S/D7D/9/RHEGKGEHR r\n4\n0 1 2 2\n9 1 7 2\n3 4 4 4\n6 4 5 4\n"
    );
    let loaded = json(&post(server.addr, "/api/load", &saved.text()));
    assert_eq!(loaded.get("moves").unwrap().to_string(), list(4));

    let ai = json(&post(
        server.addr,
        "/api/ai",
        &format!(r#"{{"moves":{},"think":50}}"#, list(4)),
    ));
    let m = ai
        .get("move")
        .and_then(duckchess::web::state::ints::<4>)
        .expect("a move");
    let after = json(&post(
        server.addr,
        "/api/play",
        &format!(
            r#"{{"moves":{},"move":[{},{},{},{}]}}"#,
            list(4),
            m[0],
            m[1],
            m[2],
            m[3]
        ),
    ));
    assert_eq!(
        after.get("legal"),
        Some(&Json::Bool(true)),
        "the computer's move is legal"
    );
    assert_eq!(ai.get("think").and_then(Json::as_int), Some(50));
}

/// The judge's lines for `input`, from the binary's judge.
fn judge_lines(input: &[u8]) -> Vec<String> {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_duckchess"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("the judge runs");
    let mut stdin = child.stdin.take().unwrap();
    let data = input.to_vec();
    let feeder = thread::spawn(move || {
        let _ = stdin.write_all(&data);
    });
    let out = child.wait_with_output().expect("the judge ends");
    let _ = feeder.join();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn replay_shows_the_judges_lines() {
    let server = Server::start(&[]);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut inputs: Vec<(String, Vec<u8>)> = Vec::new();
    for dir in [
        root.join("samples"),
        root.join("../shared/official/duckchess"),
    ] {
        let Ok(entries) = fs::read_dir(&dir) else {
            println!("note: {} is absent; skipping it", dir.display());
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().is_some_and(|e| e == "in") {
                inputs.push((path.display().to_string(), fs::read(&path).unwrap()));
            }
        }
    }
    assert!(inputs.len() >= 10, "the samples are there");
    for (name, input) in &inputs {
        let answer = request(server.addr, "POST", "/api/replay", input);
        assert_eq!(answer.status, 200, "{name}");
        let r = json(&answer);
        let lines: Vec<String> = r
            .get("steps")
            .and_then(Json::as_array)
            .unwrap()
            .iter()
            .map(|s| s.get("line").and_then(Json::as_str).unwrap().to_string())
            .collect();
        assert_eq!(lines, judge_lines(input), "{name}");
        let invalid: Vec<usize> = lines
            .iter()
            .enumerate()
            .filter(|(_, l)| *l == "Invalid command")
            .map(|(i, _)| i + 1)
            .collect();
        let listed: Vec<usize> = r
            .get("invalid")
            .and_then(Json::as_array)
            .unwrap()
            .iter()
            .map(|n| n.as_int().unwrap() as usize)
            .collect();
        assert_eq!(listed, invalid, "{name}");
    }
}

#[test]
fn bad_requests_get_status_codes_and_the_server_lives() {
    let server = Server::start(&[]);
    let host = format!("Host: {}\r\n", server.addr);
    let many_headers: String = (0..100).map(|i| format!("X-{i}: {i}\r\n")).collect();
    let table: Vec<(String, u16)> = vec![
        ("GARBAGE\r\n\r\n".to_string(), 400),
        ("GET / HTTP/1.1 extra\r\n\r\n".to_string(), 400),
        ("GET / HTTP/3\r\n\r\n".to_string(), 505),
        (format!("GET /nope HTTP/1.1\r\n{host}\r\n"), 404),
        (format!("GET /api/play HTTP/1.1\r\n{host}\r\n"), 405),
        (format!("DELETE / HTTP/1.1\r\n{host}\r\n"), 405),
        (
            format!("GET /{} HTTP/1.1\r\n{host}\r\n", "a".repeat(5000)),
            414,
        ),
        (format!("GET / HTTP/1.1\r\n{host}{many_headers}\r\n"), 431),
        (
            format!("GET / HTTP/1.1\r\n{host}X: {}\r\n\r\n", "b".repeat(20_000)),
            431,
        ),
        (
            format!("POST /api/replay HTTP/1.1\r\n{host}Content-Length: 999999999\r\n\r\n"),
            413,
        ),
        (
            format!("POST /api/replay HTTP/1.1\r\n{host}Transfer-Encoding: chunked\r\n\r\n"),
            411,
        ),
        (
            format!("POST /api/state HTTP/1.1\r\n{host}Content-Length: 3\r\n\r\n{{x}}"),
            400,
        ),
        (
            format!("POST /api/state HTTP/1.1\r\n{host}Content-Length: 5\r\n\r\n{{}}"),
            400,
        ),
        (
            "GET / HTTP/1.1\r\nHost: evil.example:5380\r\n\r\n".to_string(),
            403,
        ),
    ];
    for (raw, status) in &table {
        let a = exchange(server.addr, raw.as_bytes());
        assert_eq!(a.status, *status, "{:?}", &raw[..raw.len().min(60)]);
        let message = json(&a);
        assert!(
            message.get("error").and_then(Json::as_str).is_some(),
            "{}",
            a.text()
        );
        if *status == 405 {
            assert!(a.header("allow").is_some());
        }
    }
    // A body over the limit that is actually sent: refused, and the answer arrives.
    let big = vec![b'1'; 300 * 1024];
    let a = request(server.addr, "POST", "/api/replay", &big);
    assert_eq!(a.status, 413);
    // Bad positions and moves: 400 with the reason.
    for (body, message) in [
        (
            r#"{"start":"rhegkgehr/9 r"}"#,
            "start: 2 ranks, expected 10 separated by '/'",
        ),
        (
            r#"{"start":"kk7/9/9/9/9/9/9/9/9/4K4 r"}"#,
            "start: blue has two captains",
        ),
        (
            r#"{"moves":[[0,0,4,0]]}"#,
            "move 1 (0 0 4 0) is invalid: the car is blocked at (2, 0)",
        ),
    ] {
        let a = post(server.addr, "/api/state", body);
        assert_eq!(a.status, 400, "{body}");
        assert_eq!(json(&a).get("error").and_then(Json::as_str), Some(message));
    }
    still_serving(&server);
}

#[test]
fn slow_clients_get_408() {
    let server = Server::start(&["--read-timeout", "0.3"]);
    // Half a request line, then silence.
    let mut stream = connect(server.addr);
    stream.write_all(b"GET / HTTP/1.1\r\n").unwrap();
    assert_eq!(parse_answer(&read_all(&mut stream)).status, 408);
    // A byte at a time: the deadline covers the whole request, not each read.
    let mut stream = connect(server.addr);
    let mut writer = stream.try_clone().unwrap();
    let trickle = thread::spawn(move || {
        for b in b"POST /api/state HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}"
            .iter()
            .cycle()
            .take(400)
        {
            if writer.write_all(&[*b]).is_err() {
                break;
            }
            thread::sleep(Duration::from_millis(25));
        }
    });
    assert_eq!(parse_answer(&read_all(&mut stream)).status, 408);
    drop(stream);
    let _ = trickle.join();
    still_serving(&server);
}

#[test]
fn beyond_workers_and_queue_the_answer_is_503() {
    // One worker and a queue of 8: nine idle connections fill it.
    let server = Server::start(&["--workers", "1", "--read-timeout", "60"]);
    let idle: Vec<_> = (0..9).map(|_| connect(server.addr)).collect();
    let a = get(server.addr, "/");
    assert_eq!(a.status, 503);
    assert_eq!(a.header("retry-after"), Some("1"));
    drop(idle);
    // The idle connections close, the worker sees them end, the server admits again.
    let deadline = Instant::now() + PATIENCE;
    loop {
        let a = get(server.addr, "/");
        if a.status == 200 {
            break;
        }
        assert_eq!(a.status, 503);
        assert!(Instant::now() < deadline, "the server never recovered");
        thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn many_clients_at_once_are_all_served() {
    let server = Server::start(&["--workers", "4"]);
    let addr = server.addr;
    let clients: Vec<_> = (0..24)
        .map(|i| {
            thread::spawn(move || {
                (0..15)
                    .map(|j| {
                        let from = if (i + j) % 2 == 0 { "[0,1]" } else { "[3,4]" };
                        post(addr, "/api/targets", &format!(r#"{{"from":{from}}}"#)).status
                    })
                    .collect::<Vec<u16>>()
            })
        })
        .collect();
    for c in clients {
        // 24 clients never exceed 4 workers plus a queue of 32.
        assert!(c.join().unwrap().iter().all(|&s| s == 200));
    }
    still_serving(&server);
}

#[test]
fn garbage_bodies_never_hurt_the_server() {
    let server = Server::start(&[]);
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let pieces: [&[u8]; 12] = [
        b"{",
        b"}",
        b"[",
        b"]",
        b"\"moves\"",
        b"\"start\"",
        b":",
        b",",
        b"[0,1,2,2]",
        b"1e999",
        b"\"\\ud800\"",
        b"\xff",
    ];
    // Not /api/ai: a body that happens to be `{}` would think for a second; its body is
    // read by the same code as the others'.
    let paths = [
        "/api/state",
        "/api/targets",
        "/api/play",
        "/api/replay",
        "/api/load",
        "/api/save",
    ];
    for i in 0..300 {
        let mut body = Vec::new();
        for _ in 0..next() % 12 {
            body.extend_from_slice(pieces[(next() % 12) as usize]);
        }
        let path = paths[i % paths.len()];
        let a = request(server.addr, "POST", path, &body);
        assert!(
            a.status == 200 || a.status == 400,
            "{path} {:?}: {}",
            String::from_utf8_lossy(&body),
            a.status
        );
    }
    still_serving(&server);
}

#[test]
fn command_line() {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_duckchess"))
        .args(["serve", "--help"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    let help = String::from_utf8_lossy(&o.stdout);
    assert!(help.contains("usage: duckchess serve"), "{help}");
    for line in help.lines() {
        assert!(line.chars().count() <= 80, "{line:?}");
    }
    let top = std::process::Command::new(env!("CARGO_BIN_EXE_duckchess"))
        .arg("--help")
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&top.stdout).contains("\n  serve "));
    for (args, status, message) in [
        (
            &["serve", "--port", "70000"][..],
            2,
            "--port: 70000 is above the largest allowed, 65535",
        ),
        (
            &["serve", "--workers", "0"],
            2,
            "--workers: 0 is below the smallest allowed, 1",
        ),
        (&["serve", "extra"], 2, "unexpected argument \"extra\""),
        (
            &["serve", "--host", "192.0.2.1"],
            1,
            "cannot listen on 192.0.2.1 port",
        ),
    ] {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_duckchess"))
            .args(args)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(status), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.starts_with("duckchess: serve: ") && err.contains(message),
            "{args:?}: {err}"
        );
    }
    // Another address than loopback: a warning, and it still serves.
    let server = Server::start(&["--host", "0.0.0.0"]);
    let (status, stderr) = server.stop();
    assert!(status.success());
    assert!(
        stderr.contains("warning: listening on 0.0.0.0:"),
        "{stderr}"
    );
}
