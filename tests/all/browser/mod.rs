//! What the browser tests share: a WebDriver client (headless Chromium driven through
//! chromedriver over plain HTTP and JSON, so the client is std only) and a plain static
//! file server. The served board (`serve_browser`) and the static site (`site_browser`)
//! are tested through them.
#![allow(dead_code)]

use crate::serve_common;

use duckchess::cli::json::Json;
use serve_common::{wait, PATIENCE};
use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

pub const CHROMIUM: &str = "/usr/bin/chromium";
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
/// The key under which WebDriver returns an element reference.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// A chromedriver process and one browser session in it.
pub struct Browser {
    driver: Child,
    port: u16,
    session: String,
    profile: PathBuf,
}

impl Browser {
    pub fn start() -> Browser {
        Browser::start_with(&[])
    }

    /// A browser whose Chromium runs with `env` added to its environment (chromedriver
    /// passes its own on).
    pub fn start_with(env: &[(&str, &Path)]) -> Browser {
        Browser::start_configured(env, Json::obj([]))
    }

    /// A browser that refuses pages their storage, as it does when its person blocks
    /// cookies and site data: `localStorage` throws.
    pub fn start_refusing_storage() -> Browser {
        Browser::start_configured(
            &[],
            Json::obj([(
                "profile.default_content_setting_values.cookies",
                Json::int(2),
            )]),
        )
    }

    /// A browser with `env` added to Chromium's environment and `prefs` as its
    /// profile's preferences.
    fn start_configured(env: &[(&str, &Path)], prefs: Json) -> Browser {
        let mut driver = Command::new(CHROMEDRIVER)
            .arg("--port=0")
            .envs(env.iter().map(|&(k, v)| (k, v)))
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
        static PROFILES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = PROFILES.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let profile =
            std::env::temp_dir().join(format!("duckchess-chromium-{}-{n}", std::process::id()));
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
                    // The console's messages, for [`Browser::console_errors`].
                    (
                        "goog:loggingPrefs",
                        Json::obj([("browser", Json::str("ALL"))]),
                    ),
                    (
                        "goog:chromeOptions",
                        Json::obj([
                            ("binary", Json::str(CHROMIUM)),
                            ("args", Json::Arr(args)),
                            ("prefs", prefs),
                        ]),
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
    pub fn call(&self, method: &str, path: &str, body: Option<&Json>) -> Json {
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

    pub fn at(&self, path: &str) -> String {
        format!("/session/{}{path}", self.session)
    }

    pub fn open(&self, url: &str) {
        self.call(
            "POST",
            &self.at("/url"),
            Some(&Json::obj([("url", Json::str(url))])),
        );
    }

    pub fn find(&self, css: &str) -> String {
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

    pub fn click(&self, css: &str) {
        let id = self.find(css);
        self.call(
            "POST",
            &self.at(&format!("/element/{id}/click")),
            Some(&Json::obj([])),
        );
    }

    pub fn click_square(&self, x: u8, y: u8) {
        self.click(&format!(".hit[data-x=\"{x}\"][data-y=\"{y}\"]"));
        self.idle();
    }

    pub fn type_into(&self, css: &str, text: &str) {
        let id = self.find(css);
        self.call(
            "POST",
            &self.at(&format!("/element/{id}/value")),
            Some(&Json::obj([("text", Json::str(text))])),
        );
    }

    pub fn text(&self, css: &str) -> String {
        let id = self.find(css);
        let v = self.call("GET", &self.at(&format!("/element/{id}/text")), None);
        v.as_str().unwrap_or("").to_string()
    }

    pub fn script(&self, code: &str) -> Json {
        let body = Json::obj([("script", Json::str(code)), ("args", Json::Arr(Vec::new()))]);
        self.call("POST", &self.at("/execute/sync"), Some(&body))
    }

    /// Waits until `code` (a JS expression) is true, at most [`PATIENCE`].
    pub fn until(&self, code: &str) {
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
    pub fn idle(&self) {
        self.until("document.body.dataset.busy === '0'");
    }

    pub fn count(&self, css: &str) -> i64 {
        self.script(&format!(
            "return document.querySelectorAll({css:?}).length;"
        ))
        .as_int()
        .unwrap_or(-1)
    }

    /// The `[x, y]` of every element matching `css`, as `x,y` strings, sorted.
    pub fn squares(&self, css: &str) -> Vec<String> {
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

    /// Presses `keys` (WebDriver key codes or characters) one after the other on the
    /// element that has the focus.
    pub fn keys(&self, keys: &[&str]) {
        let mut actions = Vec::new();
        for key in keys {
            for kind in ["keyDown", "keyUp"] {
                actions.push(Json::obj([
                    ("type", Json::str(kind)),
                    ("value", Json::str(*key)),
                ]));
            }
        }
        let body = Json::obj([(
            "actions",
            Json::Arr(vec![Json::obj([
                ("type", Json::str("key")),
                ("id", Json::str("keyboard")),
                ("actions", Json::Arr(actions)),
            ])]),
        )]);
        self.call("POST", &self.at("/actions"), Some(&body));
        self.idle();
    }

    /// Makes the page's viewport `width` x `height` CSS pixels, as a phone's or a small
    /// window's would be.
    pub fn viewport(&self, width: i64, height: i64) {
        let params = Json::obj([
            ("width", Json::int(width)),
            ("height", Json::int(height)),
            ("deviceScaleFactor", Json::int(1)),
            ("mobile", Json::Bool(width < 600)),
        ]);
        let body = Json::obj([
            ("cmd", Json::str("Emulation.setDeviceMetricsOverride")),
            ("params", params),
        ]);
        self.call("POST", &self.at("/goog/cdp/execute"), Some(&body));
    }

    /// The result of `code` (a JS expression) as text.
    pub fn eval_text(&self, code: &str) -> String {
        self.script(&format!("return String({code});"))
            .as_str()
            .unwrap_or("")
            .to_string()
    }

    /// The errors the browser's console showed since the last call (its messages at
    /// level SEVERE: a script's error, an exception nobody caught, a failed load).
    pub fn console_errors(&self) -> Vec<String> {
        let body = Json::obj([("type", Json::str("browser"))]);
        let v = self.call("POST", &self.at("/se/log"), Some(&body));
        v.as_array()
            .unwrap_or(&[])
            .iter()
            .filter(|e| e.get("level").and_then(Json::as_str) == Some("SEVERE"))
            .map(|e| {
                e.get("message")
                    .and_then(Json::as_str)
                    .unwrap_or("")
                    .to_string()
            })
            .collect()
    }

    pub fn screenshot(&self, path: &Path) {
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

pub fn base64(text: &str) -> Vec<u8> {
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

/// Key codes of WebDriver.
pub const TAB: &str = "\u{E004}";
pub const ENTER: &str = "\u{E007}";
pub const ESCAPE: &str = "\u{E00C}";
pub const LEFT: &str = "\u{E012}";
pub const UP: &str = "\u{E013}";
pub const RIGHT: &str = "\u{E014}";

/// The browser and its driver are here: a browser test runs only in the full tier,
/// which needs them (`apt-get install chromium chromium-driver`).
pub fn browser_present() {
    assert!(
        Path::new(CHROMIUM).exists() && Path::new(CHROMEDRIVER).exists(),
        "cannot run here: {CHROMIUM} or {CHROMEDRIVER} is missing \
         (apt-get install chromium chromium-driver)"
    );
}

/// A plain static file server, as any host of a static site is: `GET` and `HEAD` of the
/// files under a folder, at a path prefix, with their types; 404 for anything else, 405
/// for any other method. It serves until dropped.
pub struct StaticFiles {
    /// `http://127.0.0.1:PORT/PREFIX/`, the site's address.
    pub url: String,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    addr: std::net::SocketAddr,
}

impl StaticFiles {
    /// Serves `root` at `/prefix/` on a free loopback port.
    pub fn start(root: &Path, prefix: &str) -> StaticFiles {
        use std::sync::atomic::{AtomicBool, Ordering};
        let listener = std::net::TcpListener::bind(("127.0.0.1", 0)).expect("a free port");
        let addr = listener.local_addr().unwrap();
        let stop = std::sync::Arc::new(AtomicBool::new(false));
        let (flag, root, mount) = (stop.clone(), root.to_path_buf(), format!("/{prefix}/"));
        thread::spawn(move || {
            for stream in listener.incoming() {
                if flag.load(Ordering::SeqCst) {
                    return;
                }
                let Ok(stream) = stream else { continue };
                let (root, mount) = (root.clone(), mount.clone());
                thread::spawn(move || serve_file(stream, &root, &mount));
            }
        });
        StaticFiles {
            url: format!("http://{addr}/{prefix}/"),
            stop,
            addr,
        }
    }
}

impl Drop for StaticFiles {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::SeqCst);
        // Wake the accepting thread, which then ends.
        let _ = TcpStream::connect(self.addr);
    }
}

/// Answers one request of a [`StaticFiles`] and closes the connection.
fn serve_file(mut stream: TcpStream, root: &Path, mount: &str) {
    let _ = stream.set_read_timeout(Some(PATIENCE));
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") && head.len() < 16384 {
        match stream.read(&mut byte) {
            Ok(1) => head.push(byte[0]),
            _ => return,
        }
    }
    let head = String::from_utf8_lossy(&head).into_owned();
    let mut words = head.split_whitespace();
    let (method, target) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
    let path = target.split(['?', '#']).next().unwrap_or("");
    let file = path
        .strip_prefix(mount)
        .filter(|f| !f.contains("..") && !f.contains('/'))
        .map(|f| if f.is_empty() { "index.html" } else { f });
    let (status, kind, body) = match (method, file.map(|f| (f, fs::read(root.join(f))))) {
        ("GET" | "HEAD", Some((name, Ok(bytes)))) => {
            let kind = match name.rsplit('.').next().unwrap_or("") {
                "html" => "text/html; charset=utf-8",
                "js" => "text/javascript; charset=utf-8",
                "css" => "text/css; charset=utf-8",
                "svg" => "image/svg+xml",
                "json" => "application/json",
                "wasm" => "application/wasm",
                _ => "application/octet-stream",
            };
            ("200 OK", kind, bytes)
        }
        ("GET" | "HEAD", _) => ("404 Not Found", "text/plain", b"not found\n".to_vec()),
        _ => (
            "405 Method Not Allowed",
            "text/plain",
            b"a static site\n".to_vec(),
        ),
    };
    let answer = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let _ = stream.write_all(answer.as_bytes());
    if method != "HEAD" {
        let _ = stream.write_all(&body);
    }
}
