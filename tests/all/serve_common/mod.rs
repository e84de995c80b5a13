//! Helpers for the `serve` tests: starting the server on a free port (the address read
//! from its first line), stopping it through its standard input, and a raw HTTP client.
//! Every wait is bounded by a deadline, so no test can hang on a broken server.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

/// How long any single wait in these tests may take before the test fails.
pub const PATIENCE: Duration = Duration::from_secs(60);

/// A running `duckchess serve`.
pub struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    /// `http://127.0.0.1:PORT/`.
    pub url: String,
    /// The address it listens on.
    pub addr: SocketAddr,
    stderr: mpsc::Receiver<String>,
}

/// Reads the first line of `source` on a thread, so waiting for it can time out.
fn first_line<R: Read + Send + 'static>(source: R) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let mut reader = BufReader::new(source);
        let mut line = String::new();
        let _ = reader.read_line(&mut line);
        let _ = tx.send(line);
        // Keep draining so the child never blocks on a full pipe.
        let mut rest = Vec::new();
        let _ = reader.read_to_end(&mut rest);
    });
    rx
}

/// Collects all of `source` on a thread.
fn collect<R: Read + Send + 'static>(mut source: R) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let mut text = String::new();
        let _ = source.read_to_string(&mut text);
        let _ = tx.send(text);
    });
    rx
}

impl Server {
    /// Starts `duckchess serve --port 0 ARGS` and waits for its address.
    pub fn start(args: &[&str]) -> Server {
        let mut command = Command::new(env!("CARGO_BIN_EXE_duckchess"));
        command.args(["serve", "--port", "0"]).args(args);
        Server::start_command(command)
    }

    /// Starts `command`, a `duckchess serve` that prints its address first (through a
    /// shell, say), and waits for its address.
    pub fn start_command(mut command: Command) -> Server {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary starts");
        let stdin = child.stdin.take();
        let lines = first_line(child.stdout.take().expect("piped stdout"));
        let stderr = collect(child.stderr.take().expect("piped stderr"));
        let line = lines
            .recv_timeout(PATIENCE)
            .expect("serve prints its address in time");
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        let addr: SocketAddr = url
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .parse()
            .unwrap_or_else(|e| panic!("bad address in {url}: {e}"));
        Server {
            child,
            stdin,
            url,
            addr,
            stderr,
        }
    }

    /// Closes the server's standard input and waits for it to stop; returns its exit
    /// status and standard error. Fails the test if it does not stop in time.
    pub fn stop(mut self) -> (ExitStatus, String) {
        drop(self.stdin.take());
        let status =
            wait(&mut self.child, PATIENCE).expect("the server stops at the end of its input");
        let stderr = self.stderr.recv_timeout(PATIENCE).unwrap_or_default();
        (status, stderr)
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// A line of the server's `/proc/PID/status` (Linux), such as `VmRSS`, in kB.
    pub fn status_kb(&self, field: &str) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid())).ok()?;
        let line = status
            .lines()
            .find(|l| l.split(':').next() == Some(field))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }

    /// Whether the process is still running.
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Waits for `child` at most `limit`.
pub fn wait(child: &mut Child, limit: Duration) -> Option<ExitStatus> {
    let deadline = Instant::now() + limit;
    while Instant::now() < deadline {
        if let Ok(Some(status)) = child.try_wait() {
            return Some(status);
        }
        thread::sleep(Duration::from_millis(20));
    }
    None
}

/// An answer: status code, header lines (lower-case names) and body.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Answer {
    /// The body as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// The first header `name` (lower case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Parses a whole response (the server closes every connection, so the response is
/// everything read until the end); a chunked body is put together.
pub fn parse_answer(mut raw: &[u8]) -> Answer {
    // Interim answers (`100 Continue`, which the server sends to ask whether a client
    // that ended its side is still there) come before the answer: skipped, as every
    // HTTP/1.1 client must.
    while raw.starts_with(b"HTTP/1.1 1") {
        match raw.windows(4).position(|w| w == b"\r\n\r\n") {
            Some(end) => raw = &raw[end + 4..],
            None => break,
        }
    }
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no end of headers in {:?}", String::from_utf8_lossy(raw)));
    let head = String::from_utf8_lossy(&raw[..end]).into_owned();
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap_or("");
    let status = status_line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("bad status line {status_line:?}"));
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let body = &raw[end + 4..];
    let chunked = headers
        .iter()
        .any(|(n, v)| n == "transfer-encoding" && v == "chunked");
    Answer {
        status,
        body: if chunked {
            dechunk(body)
        } else {
            body.to_vec()
        },
        headers,
    }
}

/// The body of a chunked answer, checked to the last, empty chunk: a truncated answer
/// fails the test.
pub fn dechunk(mut raw: &[u8]) -> Vec<u8> {
    let mut body = Vec::new();
    loop {
        let line_end = raw
            .windows(2)
            .position(|w| w == b"\r\n")
            .unwrap_or_else(|| panic!("a chunk without its size line"));
        let size = std::str::from_utf8(&raw[..line_end])
            .ok()
            .and_then(|s| usize::from_str_radix(s, 16).ok())
            .unwrap_or_else(|| panic!("a bad chunk size {:?}", &raw[..line_end]));
        raw = &raw[line_end + 2..];
        if size == 0 {
            assert_eq!(raw, b"\r\n", "the answer ends after its last chunk");
            return body;
        }
        assert!(raw.len() >= size + 2, "a truncated chunk");
        body.extend_from_slice(&raw[..size]);
        assert_eq!(&raw[size..size + 2], b"\r\n", "a chunk ends with CRLF");
        raw = &raw[size + 2..];
    }
}

/// Connects to `addr` with read and write timeouts.
pub fn connect(addr: SocketAddr) -> TcpStream {
    let stream = TcpStream::connect_timeout(&addr, PATIENCE).expect("the server accepts");
    stream.set_read_timeout(Some(PATIENCE)).expect("timeout");
    stream.set_write_timeout(Some(PATIENCE)).expect("timeout");
    stream
}

/// Everything `stream` delivers until its end. A reset after the answer (the server
/// closed with part of our request unread) ends the reading like an end would: what
/// arrived before it counts.
pub fn read_all(stream: &mut TcpStream) -> Vec<u8> {
    let mut answer = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        match stream.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => answer.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                panic!("no answer within {PATIENCE:?}")
            }
            Err(_) if !answer.is_empty() => break,
            Err(e) => panic!("reading the answer failed: {e}"),
        }
    }
    answer
}

/// Sends `raw` bytes, ends our side of the connection, and reads the whole answer.
pub fn exchange(addr: SocketAddr, raw: &[u8]) -> Answer {
    let mut stream = connect(addr);
    // A refused request may be answered before it is all sent; the answer counts.
    let _ = stream.write_all(raw);
    let _ = stream.shutdown(std::net::Shutdown::Write);
    parse_answer(&read_all(&mut stream))
}

/// A request with the given method, path and body.
pub fn request(addr: SocketAddr, method: &str, path: &str, body: &[u8]) -> Answer {
    let mut raw = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Length: {}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    raw.extend_from_slice(body);
    exchange(addr, &raw)
}

/// `POST path` with `body`.
pub fn post(addr: SocketAddr, path: &str, body: &str) -> Answer {
    request(addr, "POST", path, body.as_bytes())
}

/// `GET path`.
pub fn get(addr: SocketAddr, path: &str) -> Answer {
    request(addr, "GET", path, b"")
}
