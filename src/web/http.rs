//! HTTP/1.1 messages: reading one request under hard limits (request line, headers,
//! body, and a deadline for the whole request), and writing one response.
//!
//! Every connection carries one request and is then closed (`Connection: close`): a
//! worker is never held by an idle keep-alive connection, so the worker bound is a
//! bound on work, not on open sockets. Anything a client can send ends in a [`Reject`]
//! with a status code and a short message, never in a panic.

use std::fmt;
use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::time::Instant;

/// The limits one request must keep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Longest request line (method, target, version), in bytes.
    pub line: usize,
    /// Most bytes of all header lines together.
    pub headers: usize,
    /// Most header lines.
    pub header_count: usize,
    /// Largest body.
    pub body: usize,
}

impl Limits {
    /// What the board server allows: a judge input of some ten thousand commands fits
    /// in the body, and nothing the page sends comes near any limit.
    pub const SERVE: Limits = Limits {
        line: 4096,
        headers: 16 * 1024,
        header_count: 64,
        body: 256 * 1024,
    };
}

/// A request method the server knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// `GET`.
    Get,
    /// `HEAD`: a `GET` without the body.
    Head,
    /// `POST`.
    Post,
    /// Any other token (`PUT`, `DELETE`, ...): answered 405 on known paths.
    Other,
}

/// One parsed request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// The method.
    pub method: Method,
    /// The path of the target, before any `?`.
    pub path: String,
    /// The query after `?`, if any (not decoded).
    pub query: Option<String>,
    /// Header names (lower case) and values (trimmed), in order.
    pub headers: Vec<(String, String)>,
    /// The body (`Content-Length` bytes).
    pub body: Vec<u8>,
}

impl Request {
    /// The value of the first header `name` (lower case), if any.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Why no request could be read.
#[derive(Debug)]
pub enum Reject {
    /// The client closed the connection before sending a byte: nothing to answer.
    Closed,
    /// The deadline passed before the whole request arrived (answered 408).
    Timeout,
    /// Reading failed (a reset connection): nobody to answer.
    Io(io::Error),
    /// A request the server refuses, with the status and a short message.
    Status(u16, String),
}

impl Reject {
    /// The response to send for this rejection, if anyone is listening.
    pub fn response(&self) -> Option<Response> {
        match self {
            Reject::Closed | Reject::Io(_) => None,
            Reject::Timeout => Some(Response::error(
                408,
                "the request did not arrive in time".to_string(),
            )),
            Reject::Status(code, message) => Some(Response::error(*code, message.clone())),
        }
    }
}

fn status(code: u16, message: impl Into<String>) -> Reject {
    Reject::Status(code, message.into())
}

/// A reader on a socket that enforces one deadline for everything read through it: a
/// client that trickles a byte at a time still runs out of time.
pub struct DeadlineReader<'a> {
    stream: &'a TcpStream,
    deadline: Instant,
}

impl<'a> DeadlineReader<'a> {
    /// Reads from `stream` until `deadline`.
    pub fn new(stream: &'a TcpStream, deadline: Instant) -> DeadlineReader<'a> {
        DeadlineReader { stream, deadline }
    }
}

impl Read for DeadlineReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = self.deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(io::ErrorKind::TimedOut.into());
        }
        self.stream.set_read_timeout(Some(left))?;
        let mut stream = self.stream;
        stream.read(buf)
    }
}

fn timed_out(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock
    )
}

/// Bytes read so far and how far they have been parsed.
struct Input<'r, R> {
    src: &'r mut R,
    buf: Vec<u8>,
    pos: usize,
}

impl<R: Read> Input<'_, R> {
    /// Reads more bytes; `Ok(false)` at the end of the stream.
    fn fill(&mut self) -> Result<bool, Reject> {
        let mut chunk = [0u8; 4096];
        loop {
            match self.src.read(&mut chunk) {
                Ok(0) => return Ok(false),
                Ok(n) => {
                    self.buf.extend_from_slice(&chunk[..n]);
                    return Ok(true);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) if timed_out(&e) => return Err(Reject::Timeout),
                Err(e) => return Err(Reject::Io(e)),
            }
        }
    }

    /// The next line (without its `\r\n` or `\n`), at most `limit` bytes long; `over`
    /// is the rejection for a longer one. `None` at the end of the stream.
    fn line(&mut self, limit: usize, over: fn() -> Reject) -> Result<Option<String>, Reject> {
        loop {
            let rest = &self.buf[self.pos..];
            if let Some(i) = rest.iter().position(|&b| b == b'\n') {
                if i > limit + 1 {
                    return Err(over());
                }
                let mut line = &rest[..i];
                if let Some(stripped) = line.strip_suffix(b"\r") {
                    line = stripped;
                }
                let text = String::from_utf8(line.to_vec())
                    .map_err(|_| status(400, "the request has bytes that are not UTF-8"))?;
                self.pos += i + 1;
                return Ok(Some(text));
            }
            if rest.len() > limit + 1 {
                return Err(over());
            }
            if !self.fill()? {
                return Ok(None);
            }
        }
    }
}

/// Reads one request from `src` under `limits`. The caller bounds the time (see
/// [`DeadlineReader`]); this bounds the bytes. `proceed` is called when the client
/// waits for a go-ahead before sending an acceptable body (`Expect: 100-continue`, as
/// curl sends for larger files), so the caller can send `100 Continue`.
pub fn read_request<R: Read>(
    src: &mut R,
    limits: &Limits,
    proceed: &mut dyn FnMut(),
) -> Result<Request, Reject> {
    let mut input = Input {
        src,
        buf: Vec::with_capacity(1024),
        pos: 0,
    };
    let line = match input.line(limits.line, || status(414, "the request line is too long"))? {
        Some(l) => l,
        None if input.buf.is_empty() => return Err(Reject::Closed),
        None => return Err(status(400, "the request ended early")),
    };
    let (method, path, query) = request_line(&line)?;
    let mut headers = Vec::new();
    let mut header_bytes = 0;
    loop {
        let left = limits.headers.saturating_sub(header_bytes);
        let line = input
            .line(left, || status(431, "the request headers are too large"))?
            .ok_or_else(|| status(400, "the request ended inside the headers"))?;
        if line.is_empty() {
            break;
        }
        header_bytes += line.len() + 2;
        if headers.len() == limits.header_count {
            return Err(status(431, "the request has too many headers"));
        }
        let (name, value) = line
            .split_once(':')
            .filter(|(n, _)| is_token(n))
            .ok_or_else(|| status(400, "a malformed header line"))?;
        headers.push((name.to_ascii_lowercase(), value.trim().to_string()));
    }
    let find = |name: &str| headers.iter().find(|(n, _)| n == name).map(|(_, v)| v);
    if find("transfer-encoding").is_some() {
        return Err(status(
            411,
            "chunked request bodies are not supported: send Content-Length",
        ));
    }
    let length = match find("content-length") {
        None => 0,
        Some(v) if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) => {
            v.parse::<usize>().unwrap_or(usize::MAX)
        }
        Some(_) => return Err(status(400, "a malformed Content-Length")),
    };
    if length > limits.body {
        return Err(status(
            413,
            format!("the body is larger than {} bytes", limits.body),
        ));
    }
    let waiting = find("expect").is_some_and(|v| v.eq_ignore_ascii_case("100-continue"));
    if waiting && input.buf.len() - input.pos < length {
        proceed();
    }
    while input.buf.len() - input.pos < length {
        if !input.fill()? {
            return Err(status(400, "the body is shorter than its Content-Length"));
        }
    }
    let body = input.buf[input.pos..input.pos + length].to_vec();
    Ok(Request {
        method,
        path,
        query,
        headers,
        body,
    })
}

/// Whether `text` is an HTTP token (a method or header name).
fn is_token(text: &str) -> bool {
    !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// `METHOD /path?query HTTP/1.x`.
fn request_line(line: &str) -> Result<(Method, String, Option<String>), Reject> {
    let mut parts = line.split(' ');
    let (method, target, version) = match (parts.next(), parts.next(), parts.next(), parts.next()) {
        (Some(m), Some(t), Some(v), None) if is_token(m) => (m, t, v),
        _ => return Err(status(400, "a malformed request line")),
    };
    match version {
        "HTTP/1.1" | "HTTP/1.0" => {}
        v if v.starts_with("HTTP/") => {
            return Err(status(505, format!("{v} is not supported; use HTTP/1.1")))
        }
        _ => return Err(status(400, "a malformed request line")),
    }
    if !target.starts_with('/') {
        return Err(status(400, "the request target must be a path"));
    }
    let method = match method {
        "GET" => Method::Get,
        "HEAD" => Method::Head,
        "POST" => Method::Post,
        _ => Method::Other,
    };
    let (path, query) = match target.split_once('?') {
        Some((p, q)) => (p.to_string(), Some(q.to_string())),
        None => (target.to_string(), None),
    };
    Ok((method, path, query))
}

/// One response. Every response closes its connection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    /// The status code.
    pub status: u16,
    /// The `Content-Type`.
    pub content_type: &'static str,
    /// Extra headers (`Allow`, `Retry-After`).
    pub headers: Vec<(&'static str, String)>,
    /// The body.
    pub body: Vec<u8>,
}

/// `Content-Type` of JSON answers.
pub const JSON: &str = "application/json";
/// `Content-Type` of plain text.
pub const TEXT: &str = "text/plain; charset=utf-8";

/// The page may load and fetch only from this server: it works offline, and nothing a
/// position or a judge input contains can make it reach elsewhere.
const POLICY: &str = "default-src 'self'; img-src 'self' data: blob:; object-src 'none'; \
                      base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

impl Response {
    /// A 200 response.
    pub fn ok(content_type: &'static str, body: impl Into<Vec<u8>>) -> Response {
        Response {
            status: 200,
            content_type,
            headers: Vec::new(),
            body: body.into(),
        }
    }

    /// An error with a one-line message as JSON: `{"error": "..."}`.
    pub fn error(status: u16, message: String) -> Response {
        let body = super::json::Json::obj([("error", super::json::Json::Str(message))]);
        Response {
            status,
            content_type: JSON,
            headers: Vec::new(),
            body: format!("{body}\n").into_bytes(),
        }
    }

    /// The same response with one more header.
    pub fn with_header(mut self, name: &'static str, value: impl Into<String>) -> Response {
        self.headers.push((name, value.into()));
        self
    }

    /// Writes the response; the body only when `with_body` (not for `HEAD`).
    pub fn write_to<W: Write>(&self, out: &mut W, with_body: bool) -> io::Result<()> {
        let mut head = format!(
            "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\n\
             Connection: close\r\nCache-Control: no-store\r\n\
             X-Content-Type-Options: nosniff\r\nContent-Security-Policy: {POLICY}\r\n",
            self.status,
            reason(self.status),
            self.content_type,
            self.body.len()
        );
        for (name, value) in &self.headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        head.push_str("\r\n");
        let mut bytes = head.into_bytes();
        if with_body {
            bytes.extend_from_slice(&self.body);
        }
        out.write_all(&bytes)?;
        out.flush()
    }
}

impl fmt::Display for Response {
    /// `200 OK` and the like.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.status, reason(self.status))
    }
}

/// The reason phrase of a status code the server sends.
pub fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        411 => "Length Required",
        413 => "Content Too Large",
        414 => "URI Too Long",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        505 => "HTTP Version Not Supported",
        _ => "Unknown",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: Limits = Limits {
        line: 32,
        headers: 64,
        header_count: 3,
        body: 16,
    };

    fn read(text: &[u8]) -> Result<Request, Reject> {
        let mut src = text;
        read_request(&mut src, &SMALL, &mut || {})
    }

    #[test]
    fn a_waiting_client_is_told_to_go_on() {
        let mut calls = 0;
        let mut src =
            &b"POST / HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n{}"[..];
        let r = read_request(&mut src, &SMALL, &mut || calls += 1).expect("a request");
        assert_eq!(
            (r.body.as_slice(), calls),
            (&b"{}"[..], 0),
            "the body came anyway"
        );
        let mut src = &b"POST / HTTP/1.1\r\nExpect: 100-Continue\r\nContent-Length: 2\r\n\r\n"[..];
        let _ = read_request(&mut src, &SMALL, &mut || calls += 1);
        assert_eq!(calls, 1);
        let mut src = &b"POST / HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 99\r\n\r\n"[..];
        let r = read_request(&mut src, &SMALL, &mut || calls += 1);
        assert!(matches!(r, Err(Reject::Status(413, _))));
        assert_eq!(calls, 1, "no go-ahead for a body that will be refused");
    }

    fn code(text: &[u8]) -> u16 {
        match read(text) {
            Err(Reject::Status(code, _)) => code,
            other => panic!("{:?}: {other:?}", String::from_utf8_lossy(text)),
        }
    }

    #[test]
    fn a_request_with_a_body() {
        let r =
            read(b"POST /api/play?x=1 HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\n\r\nabcdEXTRA")
                .expect("a request");
        assert_eq!(r.method, Method::Post);
        assert_eq!(r.path, "/api/play");
        assert_eq!(r.query.as_deref(), Some("x=1"));
        assert_eq!(r.header("host"), Some("a"));
        assert_eq!(r.body, b"abcd");
        let r = read(b"GET / HTTP/1.0\n\n").expect("bare line ends are fine");
        assert_eq!((r.method, r.path.as_str()), (Method::Get, "/"));
        assert_eq!(
            read(b"DELETE / HTTP/1.1\r\n\r\n").unwrap().method,
            Method::Other
        );
    }

    #[test]
    fn every_limit_has_its_status() {
        let table: &[(&[u8], u16)] = &[
            (b"GET /aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa HTTP/1.1\r\n\r\n", 414),
            (b"GET /aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 414),
            (b"GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\n\r\n", 431),
            (b"GET / HTTP/1.1\r\nA: 1111111111111111111111111111111111111111111111111111111111111111111111\r\n\r\n", 431),
            (b"POST / HTTP/1.1\r\nContent-Length: 17\r\n\r\n", 413),
            (b"POST / HTTP/1.1\r\nContent-Length: 99999999999999999999999\r\n\r\n", 413),
            (b"POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", 400),
            (b"POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\nabc", 400),
            (b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", 411),
            (b"GET / HTTP/2.0\r\n\r\n", 505),
            (b"GET / FTP/1.0\r\n\r\n", 400),
            (b"GET /\r\n\r\n", 400),
            (b"GET  / HTTP/1.1\r\n\r\n", 400),
            (b"GET x HTTP/1.1\r\n\r\n", 400),
            (b"G(T / HTTP/1.1\r\n\r\n", 400),
            (b"GET / HTTP/1.1\r\nno colon\r\n\r\n", 400),
            (b"GET / HTTP/1.1\r\nA b: c\r\n\r\n", 400),
            (b"GET / HTTP/1.1\r\nA: \xff\r\n\r\n", 400),
            (b"GET / HTTP/1.1\r\nA: b\r\n", 400),
            (b"GET / HTTP", 400),
        ];
        for &(text, expected) in table {
            assert_eq!(code(text), expected, "{:?}", String::from_utf8_lossy(text));
        }
        assert!(matches!(read(b""), Err(Reject::Closed)));
    }

    #[test]
    fn responses_close_and_skip_the_body_for_head() {
        let r = Response::ok(TEXT, "hi").with_header("Allow", "GET");
        let mut out = Vec::new();
        r.write_to(&mut out, true).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with("HTTP/1.1 200 OK\r\n"), "{text}");
        assert!(text.contains("\r\nContent-Length: 2\r\nConnection: close\r\n"));
        assert!(text.contains("\r\nAllow: GET\r\n"));
        assert!(text.ends_with("\r\n\r\nhi"));
        let mut out = Vec::new();
        r.write_to(&mut out, false).unwrap();
        assert!(String::from_utf8(out).unwrap().ends_with("\r\n\r\n"));
        let e = Response::error(404, "no \"such\" page".to_string());
        assert_eq!(e.body, b"{\"error\":\"no \\\"such\\\" page\"}\n");
        assert_eq!(e.to_string(), "404 Not Found");
    }
}
