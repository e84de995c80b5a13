//! `duckchess serve` in a real browser: headless Chromium driven through chromedriver
//! over WebDriver (plain HTTP and JSON, so the client below is std only). The test opens
//! the page, clicks a piece and checks the target marks, clicks a target and checks the
//! judge's line in the move list, tries an invalid move, plays to a capture, undoes,
//! reloads from the address, lets the computer move, loads a saved game, and replays a
//! judge input opened as a file, stepping through it.
//!
//! Skips with a note when Chromium or chromedriver is missing, except under CI, which
//! installs both (`.ci/run`). It saves two screenshots, `serve.png` (a game) and
//! `serve-replay.png` (a replay), in `DUCKCHESS_SCREENSHOTS` (a folder; the test's
//! temporary folder by default): `scripts/screenshot-serve.sh` makes `docs/` that way.

mod serve_common;

use duckchess::web::json::Json;
use serve_common::{wait, Server, PATIENCE};
use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
/// The key under which WebDriver returns an element reference.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// A chromedriver process and one browser session in it.
struct Browser {
    driver: Child,
    port: u16,
    session: String,
    profile: PathBuf,
}

impl Browser {
    fn start() -> Browser {
        let mut driver = Command::new(CHROMEDRIVER)
            .arg("--port=0")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let out = driver.stdout.take().expect("piped");
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(out).lines().map_while(Result::ok) {
                // "ChromeDriver was started successfully on port 41105."
                if !line.contains("started successfully") {
                    continue;
                }
                if let Some(rest) = line.split("on port ").nth(1) {
                    let _ = tx.send(rest.trim_end_matches('.').trim().parse::<u16>().ok());
                }
            }
        });
        let port = rx
            .recv_timeout(PATIENCE)
            .ok()
            .flatten()
            .expect("chromedriver tells its port");
        let profile =
            std::env::temp_dir().join(format!("duckchess-chromium-{}", std::process::id()));
        let _ = fs::remove_dir_all(&profile);
        let mut browser = Browser {
            driver,
            port,
            session: String::new(),
            profile,
        };
        let args: Vec<Json> = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            "--window-size=1280,1000",
            &format!("--user-data-dir={}", browser.profile.display()),
        ]
        .iter()
        .map(|a| Json::str(*a))
        .collect();
        let caps = Json::obj([(
            "capabilities",
            Json::obj([(
                "alwaysMatch",
                Json::obj([
                    ("browserName", Json::str("chrome")),
                    (
                        "goog:chromeOptions",
                        Json::obj([("binary", Json::str(CHROMIUM)), ("args", Json::Arr(args))]),
                    ),
                ]),
            )]),
        )]);
        let value = browser.call("POST", "/session", Some(&caps));
        browser.session = value
            .get("sessionId")
            .and_then(Json::as_str)
            .expect("a session")
            .to_string();
        browser
    }

    /// One WebDriver command; returns its `value`, failing the test on an error.
    fn call(&self, method: &str, path: &str, body: Option<&Json>) -> Json {
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        let mut stream =
            TcpStream::connect(("127.0.0.1", self.port)).expect("chromedriver listens");
        stream.set_read_timeout(Some(PATIENCE)).unwrap();
        let raw = format!(
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.port,
            body.len()
        );
        stream
            .write_all(raw.as_bytes())
            .expect("the command goes out");
        let answer = serve_common::parse_answer(&read_message(&mut stream));
        let mut bytes = answer.body.clone();
        if answer.header("transfer-encoding") == Some("chunked") {
            bytes = unchunk(&bytes);
        }
        let json = Json::parse(&bytes)
            .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&bytes)));
        let value = json.get("value").cloned().unwrap_or(Json::Null);
        assert_eq!(answer.status, 200, "{method} {path}: {value}");
        value
    }

    fn at(&self, path: &str) -> String {
        format!("/session/{}{path}", self.session)
    }

    fn open(&self, url: &str) {
        self.call(
            "POST",
            &self.at("/url"),
            Some(&Json::obj([("url", Json::str(url))])),
        );
    }

    fn find(&self, css: &str) -> String {
        let query = Json::obj([
            ("using", Json::str("css selector")),
            ("value", Json::str(css)),
        ]);
        let v = self.call("POST", &self.at("/element"), Some(&query));
        v.get(ELEMENT)
            .and_then(Json::as_str)
            .unwrap_or_else(|| panic!("no {css}: {v}"))
            .to_string()
    }

    fn click(&self, css: &str) {
        let id = self.find(css);
        self.call(
            "POST",
            &self.at(&format!("/element/{id}/click")),
            Some(&Json::obj([])),
        );
    }

    fn click_square(&self, x: u8, y: u8) {
        self.click(&format!(".hit[data-x=\"{x}\"][data-y=\"{y}\"]"));
        self.idle();
    }

    fn type_into(&self, css: &str, text: &str) {
        let id = self.find(css);
        self.call(
            "POST",
            &self.at(&format!("/element/{id}/value")),
            Some(&Json::obj([("text", Json::str(text))])),
        );
    }

    fn text(&self, css: &str) -> String {
        let id = self.find(css);
        let v = self.call("GET", &self.at(&format!("/element/{id}/text")), None);
        v.as_str().unwrap_or("").to_string()
    }

    fn script(&self, code: &str) -> Json {
        let body = Json::obj([("script", Json::str(code)), ("args", Json::Arr(Vec::new()))]);
        self.call("POST", &self.at("/execute/sync"), Some(&body))
    }

    /// Waits until `code` (a JS expression) is true, at most [`PATIENCE`].
    fn until(&self, code: &str) {
        let deadline = Instant::now() + PATIENCE;
        loop {
            if self.script(&format!("return !!({code});")) == Json::Bool(true) {
                return;
            }
            assert!(Instant::now() < deadline, "waited in vain for {code}");
            thread::sleep(Duration::from_millis(30));
        }
    }

    /// Waits until the page has no request in flight.
    fn idle(&self) {
        self.until("document.body.dataset.busy === '0'");
    }

    fn count(&self, css: &str) -> i64 {
        self.script(&format!(
            "return document.querySelectorAll({css:?}).length;"
        ))
        .as_int()
        .unwrap_or(-1)
    }

    /// The `[x, y]` of every element matching `css`, as `x,y` strings, sorted.
    fn squares(&self, css: &str) -> Vec<String> {
        let v = self.script(&format!(
            "return Array.from(document.querySelectorAll({css:?})).map(e => e.dataset.x + ',' + e.dataset.y);"
        ));
        let mut out: Vec<String> = v
            .as_array()
            .unwrap_or(&[])
            .iter()
            .filter_map(|s| s.as_str().map(str::to_string))
            .collect();
        out.sort();
        out
    }

    fn screenshot(&self, path: &Path) {
        let v = self.call("GET", &self.at("/screenshot"), None);
        let png = base64(v.as_str().expect("base64 text"));
        assert!(png.starts_with(b"\x89PNG"), "a PNG");
        fs::write(path, png).expect("the screenshot is written");
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            // Best effort: end the session so Chromium exits, then chromedriver.
            let path = format!("/session/{}", self.session);
            if let Ok(mut s) = TcpStream::connect(("127.0.0.1", self.port)) {
                let _ = s.set_read_timeout(Some(PATIENCE));
                let _ = write!(
                    s,
                    "DELETE {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
                );
                let _ = read_message(&mut s);
            }
        }
        let _ = self.driver.kill();
        let _ = wait(&mut self.driver, PATIENCE);
        let _ = fs::remove_dir_all(&self.profile);
    }
}

/// One HTTP response from `stream`: chromedriver may keep the connection open, so the
/// end is found from `Content-Length` (or the last chunk), not from the stream's end.
fn read_message(stream: &mut TcpStream) -> Vec<u8> {
    let mut raw = Vec::new();
    let mut chunk = [0u8; 16384];
    loop {
        if let Some(end) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&raw[..end]).to_ascii_lowercase();
            let body = &raw[end + 4..];
            let length = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse::<usize>().ok());
            let done = match length {
                Some(n) => body.len() >= n,
                None => body.ends_with(b"0\r\n\r\n"),
            };
            if done {
                return raw;
            }
        }
        match stream.read(&mut chunk) {
            Ok(0) => return raw,
            Ok(n) => raw.extend_from_slice(&chunk[..n]),
            // The caller's parse fails loudly on a cut-off answer.
            Err(_) => return raw,
        }
    }
}

fn unchunk(mut bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(end) = bytes.windows(2).position(|w| w == b"\r\n") {
        let size =
            usize::from_str_radix(String::from_utf8_lossy(&bytes[..end]).trim(), 16).unwrap_or(0);
        if size == 0 {
            break;
        }
        out.extend_from_slice(&bytes[end + 2..end + 2 + size]);
        bytes = &bytes[end + 4 + size..];
    }
    out
}

fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let digits: Vec<u8> = text.bytes().filter_map(value).collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let mut n = 0u32;
        for (i, &d) in chunk.iter().enumerate() {
            n |= (d as u32) << (18 - 6 * i);
        }
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&bytes[..chunk.len().saturating_sub(1)]);
    }
    out
}

fn browser_present() -> bool {
    let present = Path::new(CHROMIUM).exists() && Path::new(CHROMEDRIVER).exists();
    if !present {
        if std::env::var_os("CI").is_some() {
            panic!("{CHROMIUM} or {CHROMEDRIVER} is missing; CI must install chromium and chromium-driver");
        }
        println!("note: {CHROMIUM} or {CHROMEDRIVER} is missing; skipping the browser test");
    }
    present
}

#[test]
fn base64_decodes() {
    assert_eq!(base64("aGVsbG8="), b"hello");
    assert_eq!(base64("aGVsbG8h"), b"hello!");
    assert_eq!(base64("aGk="), b"hi");
}

#[test]
fn play_and_replay_in_a_browser() {
    if !browser_present() {
        return;
    }
    let server = Server::start(&[]);
    let browser = Browser::start();
    browser.open(&server.url);
    browser.until("document.body.dataset.ready === '1'");

    // The start position, in Chinese names and the two colours.
    assert_eq!(browser.count("#board .piece"), 32);
    assert_eq!(browser.text("#status"), "red to move");
    assert_eq!(
        browser.script(
            "return document.querySelector('.piece[data-x=\"0\"][data-y=\"0\"] text').textContent;"
        ),
        Json::str("车")
    );
    assert_eq!(browser.count(".piece.red"), 16);
    assert_eq!(browser.count(".piece.blue"), 16);
    assert_eq!(browser.text("#side-marker"), "红");

    // Select the red horse: its one target is marked; then move there.
    browser.click_square(0, 1);
    assert_eq!(browser.squares(".selected"), vec!["0,1"]);
    assert_eq!(browser.squares(".target"), vec!["2,2"]);
    browser.click_square(2, 2);
    browser.until("document.querySelectorAll('#moves li').length === 1");
    assert_eq!(browser.text("#moves li .line"), "red horse;NA;no;no");
    assert_eq!(browser.text("#moves li .why"), "red horse (0, 1) -> (2, 2)");
    assert_eq!(browser.squares(".last"), vec!["0,1", "2,2"]);
    assert_eq!(browser.text("#status"), "blue to move");
    assert!(browser
        .script("return location.hash;")
        .as_str()
        .unwrap()
        .contains("moves=0122"));

    // An invalid move: the judge's verdict and reason, and nothing changes.
    browser.click_square(9, 0);
    assert_eq!(browser.squares(".target"), vec!["8,0"]);
    browser.click_square(5, 0);
    let message = browser.text("#message");
    assert!(
        message.contains("Invalid command") && message.contains("blocked at (7, 0)"),
        "{message}"
    );
    assert_eq!(browser.count("#moves li"), 1);

    // Three more moves, then a capture: red soldier takes blue soldier.
    for (from, to) in [
        ((9, 1), (7, 2)),
        ((3, 4), (4, 4)),
        ((6, 4), (5, 4)),
        ((4, 4), (5, 4)),
    ] {
        browser.click_square(from.0, from.1);
        browser.click_square(to.0, to.1);
    }
    browser.until("document.querySelectorAll('#moves li').length === 5");
    assert_eq!(
        browser.text("#moves li:last-child .line"),
        "red soldier;blue soldier;no;no"
    );
    assert_eq!(browser.text("#lost-blue"), "兵");

    // Undo takes the capture back; a reload restores the game from the address.
    browser.click("#undo");
    browser.idle();
    browser.until("document.querySelectorAll('#moves li').length === 4");
    assert_eq!(browser.text("#lost-blue"), "");
    browser.call("POST", &browser.at("/refresh"), Some(&Json::obj([])));
    browser.until("document.body.dataset.ready === '1'");
    assert_eq!(browser.count("#moves li"), 4);
    browser.click_square(4, 4);
    browser.click_square(5, 4);
    browser.until("document.querySelectorAll('#moves li').length === 5");

    // Letters instead of Chinese names; the flipped board puts row 0 on top.
    browser.click("#letters");
    assert_eq!(
        browser.script(
            "return document.querySelector('.piece[data-x=\"0\"][data-y=\"0\"] text').textContent;"
        ),
        Json::str("R")
    );
    browser.click("#letters");
    let top_of = |b: &Browser| {
        b.script("return Number(document.querySelector('.hit[data-x=\"0\"][data-y=\"0\"]').getAttribute('y'));")
            .as_int()
            .unwrap()
    };
    let before = top_of(&browser);
    browser.click("#flip");
    assert!(top_of(&browser) < before, "row 0 moves to the top");
    browser.click("#flip");

    // The computer plays blue (quickly) and answers the position.
    browser.script("document.getElementById('think').value = '200';");
    browser.script(
        "const s = document.getElementById('player-blue'); s.value = 'ai'; s.dispatchEvent(new Event('change'));",
    );
    browser.until("document.querySelectorAll('#moves li').length === 6");
    browser.idle();
    assert!(browser.text("#status").starts_with("red to move"));
    browser.script(
        "const s = document.getElementById('player-blue'); s.value = 'human'; s.dispatchEvent(new Event('change'));",
    );

    // Select a piece so the screenshot shows the target marks.
    browser.click_square(2, 2);
    let shots = std::env::var_os("DUCKCHESS_SCREENSHOTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_TARGET_TMPDIR")));
    browser.screenshot(&shots.join("serve.png"));

    // Load a saved game through the file picker.
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let saved = dir.join(format!("serve-browser-{}.txt", std::process::id()));
    fs::write(&saved, "4k4/9/9/9/9/9/9/9/9/R3K4 r\n1\n0 0 9 0\n").unwrap();
    browser.type_into("#load", &saved.display().to_string());
    browser.until("document.querySelectorAll('#moves li').length === 1");
    browser.idle();
    assert_eq!(browser.text("#moves li .line"), "red car;NA;yes;no");
    assert_eq!(browser.squares(".checked"), vec!["9,4"]);
    assert!(browser.text("#status").contains("check"));

    // Replay a judge input opened as a file, and step through it.
    let input = dir.join(format!("serve-browser-{}.in", std::process::id()));
    fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/statement.in"),
        &input,
    )
    .unwrap();
    browser.click("#tab-replay");
    browser.type_into("#replay-file", &input.display().to_string());
    browser.until("document.querySelectorAll('#replay-steps li').length === 18");
    assert_eq!(
        browser.text("#replay-pos"),
        "command 0 of 18 (the start position)"
    );
    assert_eq!(browser.text("#replay-invalid"), "1 2 3 4 6 9 10 15 18");
    browser.click("#replay-next");
    assert_eq!(browser.text("#replay-line"), "Invalid command");
    assert_eq!(
        browser.text("#replay-reason"),
        "invalid: the car is blocked at (2, 0)"
    );
    assert_eq!(browser.squares(".highlight"), vec!["2,0"]);
    for _ in 0..4 {
        browser.click("#replay-next");
    }
    assert_eq!(browser.text("#replay-command"), "0 3 1 2");
    assert_eq!(browser.text("#replay-line"), "red guard;NA;no;no");
    assert_eq!(browser.text("#replay-reason"), "red guard (0, 3) -> (1, 2)");
    browser.click("#replay-prev");
    assert_eq!(browser.text("#replay-pos"), "command 4 of 18");
    browser.script("document.getElementById('replay-goto').value = '';");
    browser.type_into("#replay-goto", "17");
    browser.click("#replay-go");
    assert_eq!(browser.text("#replay-line"), "red duck;blue captain;no;yes");
    assert_eq!(
        browser.text("#replay-reason"),
        "red duck (6, 6) -> (9, 4), captures the blue captain; game over, red wins"
    );
    assert_eq!(browser.count(".piece"), 30);
    browser.screenshot(&shots.join("serve-replay.png"));
    browser.click("#replay-invalid button[data-index=\"15\"]");
    assert_eq!(browser.text("#replay-pos"), "command 15 of 18");
    assert_eq!(browser.text("#replay-line"), "Invalid command");

    let _ = fs::remove_file(saved);
    let _ = fs::remove_file(input);
    drop(browser);
    let (status, _) = server.stop();
    assert!(status.success());
}
