//! HTTP/1.1 messages: reading one request under hard limits (request line, headers,
//! body), and writing one response, whole or streamed.
//!
//! A request is read by an [`Incoming`], fed with bytes as they arrive: it parses each
//! line once, as soon as it is complete, so a request costs the same however slowly it
//! trickles in, and it never holds more than the limits allow (a line of the head is
//! bounded as it arrives, by [`crate::sys::lines`]). The caller keeps the
//! clock (the server's event loop gives every connection a deadline); [`read_request`]
//! drives an [`Incoming`] from a blocking reader.
//!
//! Every connection carries one request and is then closed (`Connection: close`): a
//! worker is never held by an idle keep-alive connection, so the worker bound is a
//! bound on work, not on open sockets. Anything a client can send ends in a [`Reject`]
//! with a status code and a short message, never in a panic. The checks of RFC 9112
//! that keep a request's meaning unambiguous are made: exactly one `Host` in HTTP/1.1
//! (at most one in HTTP/1.0), at most one `Content-Length` (a repeated one is refused
//! even with the same value, as nginx does), no `Transfer-Encoding`.

use crate::sys::lines::Lines;
use std::fmt;
use std::io::{self, Read, Write};

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

/// The protocol version of a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Version {
    /// `HTTP/1.0`: no chunked answers, `Host` optional.
    Http10,
    /// `HTTP/1.1`.
    Http11,
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
    /// The protocol version.
    pub version: Version,
    /// Header names (lower case) and values (trimmed), in order.
    pub headers: Vec<(String, String)>,
    /// The body (`Content-Length` bytes).
    pub body: Vec<u8>,
    /// Raised by the server when the client has gone before its answer (it closed
    /// its connection): work for it may stop.
    pub gone: Gone,
}

/// The flag raised when a request's client has gone ([`Request::gone`]). It is not part
/// of what was asked: any two compare equal.
#[derive(Clone, Debug, Default)]
pub struct Gone(pub std::sync::Arc<std::sync::atomic::AtomicBool>);

impl PartialEq for Gone {
    fn eq(&self, _: &Gone) -> bool {
        true
    }
}

impl Eq for Gone {}

impl Request {
    /// The value of the first header `name` (lower case), if any.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// How many headers are named `name` (lower case).
    fn count(&self, name: &str) -> usize {
        self.headers.iter().filter(|(n, _)| n == name).count()
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

/// Where reading a request stands after new bytes.
#[derive(Debug)]
pub enum Progress {
    /// More bytes are needed.
    More,
    /// The head is complete and acceptable, the body has not all come, and the client
    /// waits for a go-ahead before sending it (`Expect: 100-continue`, as curl does for
    /// larger files): send `100 Continue`. Reported once; then more bytes are needed.
    Continue,
    /// The whole request.
    Done(Request),
}

/// A request being read: the head a line at a time, then the body.
#[derive(Debug, Default)]
pub struct Incoming {
    /// The line of the head being read, bounded as it arrives.
    lines: Lines,
    /// Whether any byte has arrived.
    any: bool,
    /// The body so far, once the head is read.
    buf: Vec<u8>,
    /// The request line and the headers so far, once the request line is read.
    head: Option<Request>,
    /// Bytes of the header lines so far.
    header_bytes: usize,
    /// The body's length, once the head is complete.
    length: Option<usize>,
}

impl Incoming {
    /// Nothing read yet.
    pub fn new() -> Incoming {
        Incoming::default()
    }

    /// The memory held for the request so far, in bytes.
    pub fn held(&self) -> usize {
        self.buf.capacity() + self.lines.held()
    }

    /// Adds `bytes` that arrived and parses what they complete.
    pub fn push(&mut self, bytes: &[u8], limits: &Limits) -> Result<Progress, Reject> {
        self.any |= !bytes.is_empty();
        let mut rest = bytes;
        loop {
            if let Some(length) = self.length {
                // Bytes past the body's end are not this request's: they are dropped.
                let n = rest.len().min(length - self.buf.len());
                self.buf.extend_from_slice(&rest[..n]);
                if self.buf.len() < length {
                    return Ok(Progress::More);
                }
                return Ok(Progress::Done(self.take()));
            }
            let Some(line) = self.line(&mut rest, limits)? else {
                return Ok(Progress::More);
            };
            if self.head.is_none() {
                self.head = Some(request_line(&line)?);
            } else if line.is_empty() {
                if self.end_of_head(rest, limits)? {
                    return Ok(Progress::Continue);
                }
                rest = &[];
            } else {
                self.header(line, limits)?;
            }
        }
    }

    /// Why the request cannot be read now that the client has closed its side.
    pub fn end(&self) -> Reject {
        if !self.any {
            Reject::Closed
        } else if self.head.is_none() {
            status(400, "the request ended early")
        } else if self.length.is_none() {
            status(400, "the request ended inside the headers")
        } else {
            status(400, "the body is shorter than its Content-Length")
        }
    }

    /// The next line of the head (without its `\r\n` or `\n`), taken from the front of
    /// `rest`: the request line at most `limits.line` bytes long (414 past that), the
    /// header lines at most `limits.headers` together (431). `None` until the line is
    /// complete.
    fn line(&mut self, rest: &mut &[u8], limits: &Limits) -> Result<Option<String>, Reject> {
        let (limit, over) = match self.head {
            None => (limits.line, (414, "the request line is too long")),
            Some(_) => (
                limits.headers.saturating_sub(self.header_bytes),
                (431, "the request headers are too large"),
            ),
        };
        // The bound leaves room for the `\r`.
        let (used, line) = self.lines.feed(rest, limit + 1);
        *rest = &rest[used..];
        let line = match line {
            Some(line) if !line.overlong => line,
            None if !self.lines.overlong() => return Ok(None),
            _ => return Err(status(over.0, over.1)),
        };
        let mut bytes = line.bytes;
        if bytes.last() == Some(&b'\r') {
            bytes.pop();
        }
        let text = String::from_utf8(bytes)
            .map_err(|_| status(400, "the request has bytes that are not UTF-8"))?;
        Ok(Some(text))
    }

    /// One header line.
    fn header(&mut self, line: String, limits: &Limits) -> Result<(), Reject> {
        self.header_bytes += line.len() + 2;
        let head = self.head.as_mut().expect("the request line came first");
        if head.headers.len() == limits.header_count {
            return Err(status(431, "the request has too many headers"));
        }
        let (name, value) = line
            .split_once(':')
            .filter(|(n, _)| is_token(n))
            .ok_or_else(|| status(400, "a malformed header line"))?;
        head.headers
            .push((name.to_ascii_lowercase(), value.trim().to_string()));
        Ok(())
    }

    /// The empty line after the headers: checks the head and learns the body's length.
    /// Returns whether the client waits for `100 Continue`.
    /// `rest` is what arrived after the head: the body's first bytes.
    fn end_of_head(&mut self, rest: &[u8], limits: &Limits) -> Result<bool, Reject> {
        let head = self.head.as_ref().expect("the request line came first");
        match (head.version, head.count("host")) {
            (Version::Http11, 0) => {
                return Err(status(400, "an HTTP/1.1 request needs a Host header"))
            }
            (_, 0 | 1) => {}
            _ => return Err(status(400, "the request has more than one Host header")),
        }
        if head.header("transfer-encoding").is_some() {
            return Err(status(
                411,
                "chunked request bodies are not supported: send Content-Length",
            ));
        }
        if head.count("content-length") > 1 {
            return Err(status(
                400,
                "the request has more than one Content-Length header",
            ));
        }
        let length = match head.header("content-length") {
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
        let waiting = head
            .header("expect")
            .is_some_and(|v| v.eq_ignore_ascii_case("100-continue"));
        self.length = Some(length);
        // Room for the whole body at once, so the buffer never holds twice its size.
        self.buf.reserve_exact(length);
        self.buf.extend_from_slice(&rest[..rest.len().min(length)]);
        Ok(waiting && self.buf.len() < length)
    }

    /// The request, with its body.
    fn take(&mut self) -> Request {
        let mut request = self.head.take().expect("the head is complete");
        request.body = std::mem::take(&mut self.buf);
        request
    }
}

/// Reads one request from the blocking reader `src` under `limits`. The caller bounds
/// the time (a read timeout on a socket); this bounds the bytes. `proceed` is called
/// when the client waits for a go-ahead before sending an acceptable body, so the
/// caller can send `100 Continue`.
pub fn read_request<R: Read>(
    src: &mut R,
    limits: &Limits,
    proceed: &mut dyn FnMut(),
) -> Result<Request, Reject> {
    let mut incoming = Incoming::new();
    let mut chunk = [0u8; 4096];
    loop {
        match src.read(&mut chunk) {
            Ok(0) => return Err(incoming.end()),
            Ok(n) => match incoming.push(&chunk[..n], limits)? {
                Progress::Done(request) => return Ok(request),
                Progress::Continue => proceed(),
                Progress::More => {}
            },
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock
                ) =>
            {
                return Err(Reject::Timeout)
            }
            Err(e) => return Err(Reject::Io(e)),
        }
    }
}

/// Whether `text` is an HTTP token (a method or header name).
fn is_token(text: &str) -> bool {
    !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// `METHOD /path?query HTTP/1.x`: a request without headers or body yet.
fn request_line(line: &str) -> Result<Request, Reject> {
    let mut parts = line.split(' ');
    let (method, target, version) = match (parts.next(), parts.next(), parts.next(), parts.next()) {
        (Some(m), Some(t), Some(v), None) if is_token(m) => (m, t, v),
        _ => return Err(status(400, "a malformed request line")),
    };
    let version = match version {
        "HTTP/1.1" => Version::Http11,
        "HTTP/1.0" => Version::Http10,
        v if v.starts_with("HTTP/") => {
            return Err(status(505, format!("{v} is not supported; use HTTP/1.1")))
        }
        _ => return Err(status(400, "a malformed request line")),
    };
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
    Ok(Request {
        method,
        path,
        query,
        version,
        headers: Vec::new(),
        body: Vec::new(),
        gone: Default::default(),
    })
}

/// What makes a streamed body: each call appends the next part of the body to the
/// buffer it is given (some tens of kilobytes, [`PART`] or so, so that a part is
/// neither a syscall a line nor the whole answer) and says whether more is to come
/// (`false` with the last part). The server calls it only when the client has taken
/// the part before: a client that does not read holds one part, not a worker.
pub type Producer = Box<dyn FnMut(&mut Vec<u8>) -> io::Result<bool> + Send>;

/// The size a [`Producer`] aims at for each part.
pub const PART: usize = 64 * 1024;

/// The body of a response.
pub enum Body {
    /// All of it, in memory.
    Full(Vec<u8>),
    /// Produced a part at a time while it is sent, so that a large answer is never
    /// held whole: sent chunked to HTTP/1.1 clients, and ended by closing the
    /// connection for HTTP/1.0.
    Stream(Producer),
}

impl fmt::Debug for Body {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Body::Full(bytes) => write!(f, "Full({} bytes)", bytes.len()),
            Body::Stream(_) => f.write_str("Stream"),
        }
    }
}

/// One response. Every response closes its connection.
#[derive(Debug)]
pub struct Response {
    /// The status code.
    pub status: u16,
    /// The `Content-Type`.
    pub content_type: &'static str,
    /// Extra headers (`Allow`, `Retry-After`).
    pub headers: Vec<(&'static str, String)>,
    /// The body.
    pub body: Body,
}

/// `Content-Type` of JSON answers.
pub const JSON: &str = "application/json";
/// `Content-Type` of plain text.
pub const TEXT: &str = "text/plain; charset=utf-8";

/// The page may load and fetch only from this server: it works offline, and nothing a
/// position or a judge input contains can make it reach elsewhere.
const POLICY: &str = "default-src 'self'; img-src 'self' data: blob:; object-src 'none'; \
                      base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// A response on its way out: the bytes ready to be sent, and what makes the rest.
pub struct Outgoing {
    /// Bytes to send now.
    pub ready: Vec<u8>,
    /// The rest of a streamed body, if any.
    pub rest: Option<Rest>,
}

/// The rest of a streamed body: its producer and how its parts are framed.
pub struct Rest {
    producer: Producer,
    /// Chunked (HTTP/1.1), or plain bytes ended by closing the connection (HTTP/1.0).
    chunked: bool,
    /// Reused for each part before it is framed.
    part: Vec<u8>,
}

impl fmt::Debug for Rest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Rest(chunked: {})", self.chunked)
    }
}

impl Rest {
    /// Appends the next part of the body to `out`, framed (a chunk; after the last
    /// part, the chunked body's end); whether more is to come.
    pub fn next(&mut self, out: &mut Vec<u8>) -> io::Result<bool> {
        self.part.clear();
        let more = (self.producer)(&mut self.part)?;
        if !self.chunked {
            out.extend_from_slice(&self.part);
        } else if !self.part.is_empty() {
            // An empty chunk would end the body: none is written until the end.
            out.extend_from_slice(format!("{:x}\r\n", self.part.len()).as_bytes());
            out.extend_from_slice(&self.part);
            out.extend_from_slice(b"\r\n");
        }
        if !more && self.chunked {
            out.extend_from_slice(b"0\r\n\r\n");
        }
        Ok(more)
    }
}

impl Response {
    /// A 200 response.
    pub fn ok(content_type: &'static str, body: impl Into<Vec<u8>>) -> Response {
        Response {
            status: 200,
            content_type,
            headers: Vec::new(),
            body: Body::Full(body.into()),
        }
    }

    /// A 200 response whose body `producer` makes a part at a time while it is sent.
    pub fn stream(content_type: &'static str, producer: Producer) -> Response {
        Response {
            status: 200,
            content_type,
            headers: Vec::new(),
            body: Body::Stream(producer),
        }
    }

    /// An error with a one-line message as JSON: `{"error": "..."}`.
    pub fn error(status: u16, message: String) -> Response {
        let body = crate::cli::json::Json::obj([("error", crate::cli::json::Json::Str(message))]);
        Response {
            status,
            content_type: JSON,
            headers: Vec::new(),
            body: Body::Full(format!("{body}\n").into_bytes()),
        }
    }

    /// The same response with one more header.
    pub fn with_header(mut self, name: &'static str, value: impl Into<String>) -> Response {
        self.headers.push((name, value.into()));
        self
    }

    /// The whole body, a stream produced into memory (for tests, and answers known to
    /// be small).
    pub fn into_bytes(self) -> Vec<u8> {
        match self.body {
            Body::Full(bytes) => bytes,
            Body::Stream(mut producer) => {
                // Each part into an empty buffer, as the server asks for it ([`Rest`]),
                // then gathered. Producing into memory fails only if the producer
                // does: what came is the answer then.
                let (mut bytes, mut part) = (Vec::new(), Vec::new());
                loop {
                    part.clear();
                    let more = producer(&mut part);
                    bytes.extend_from_slice(&part);
                    if !matches!(more, Ok(true)) {
                        return bytes;
                    }
                }
            }
        }
    }

    /// Starts the response for a request of `version`, the body only when `with_body`
    /// (not for `HEAD`): the head and a whole body are ready at once; a streamed body
    /// comes a part at a time from the [`Rest`].
    pub fn start(self, with_body: bool, version: Version) -> Outgoing {
        let mut head = format!(
            "HTTP/1.1 {} {}\r\nContent-Type: {}\r\n",
            self.status,
            reason(self.status),
            self.content_type,
        );
        let chunked = version == Version::Http11;
        match &self.body {
            Body::Full(bytes) => head.push_str(&format!("Content-Length: {}\r\n", bytes.len())),
            Body::Stream(_) if chunked => head.push_str("Transfer-Encoding: chunked\r\n"),
            // HTTP/1.0 knows no chunks: the end of the connection ends the body.
            Body::Stream(_) => {}
        }
        head.push_str(&format!(
            "Connection: close\r\nCache-Control: no-store\r\n\
             X-Content-Type-Options: nosniff\r\nContent-Security-Policy: {POLICY}\r\n"
        ));
        for (name, value) in &self.headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        head.push_str("\r\n");
        let mut ready = head.into_bytes();
        let rest = match self.body {
            Body::Full(body) if with_body => {
                ready.extend_from_slice(&body);
                None
            }
            Body::Stream(producer) if with_body => Some(Rest {
                producer,
                chunked,
                part: Vec::new(),
            }),
            _ => None,
        };
        Outgoing { ready, rest }
    }

    /// Writes the whole response to `out` (see [`Response::start`]).
    pub fn write_to<W: Write>(
        self,
        out: &mut W,
        with_body: bool,
        version: Version,
    ) -> io::Result<()> {
        let Outgoing { mut ready, rest } = self.start(with_body, version);
        out.write_all(&ready)?;
        if let Some(mut rest) = rest {
            loop {
                ready.clear();
                let more = rest.next(&mut ready)?;
                out.write_all(&ready)?;
                if !more {
                    break;
                }
            }
        }
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

    /// The same request fed one byte at a time.
    fn trickled(text: &[u8]) -> Result<Request, Reject> {
        let mut incoming = Incoming::new();
        for b in text {
            match incoming.push(&[*b], &SMALL)? {
                Progress::Done(r) => return Ok(r),
                Progress::More | Progress::Continue => {}
            }
        }
        Err(incoming.end())
    }

    #[test]
    fn a_waiting_client_is_told_to_go_on() {
        let mut calls = 0;
        let mut src =
            &b"POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n{}"[..];
        let r = read_request(&mut src, &SMALL, &mut || calls += 1).expect("a request");
        assert_eq!(
            (r.body.as_slice(), calls),
            (&b"{}"[..], 0),
            "the body came anyway"
        );
        let mut src =
            &b"POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-Continue\r\nContent-Length: 2\r\n\r\n"[..];
        let _ = read_request(&mut src, &SMALL, &mut || calls += 1);
        assert_eq!(calls, 1);
        let mut src =
            &b"POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 99\r\n\r\n"[..];
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
        assert_eq!(r.version, Version::Http11);
        assert_eq!(r.header("host"), Some("a"));
        assert_eq!(r.body, b"abcd");
        let r = read(b"GET / HTTP/1.0\n\n").expect("bare line ends are fine");
        assert_eq!((r.method, r.path.as_str()), (Method::Get, "/"));
        assert_eq!(r.version, Version::Http10);
        assert_eq!(
            read(b"DELETE / HTTP/1.1\r\nHost: a\r\n\r\n")
                .unwrap()
                .method,
            Method::Other
        );
    }

    const LIMITS: &[(&[u8], u16)] = &[
        (b"GET /aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa HTTP/1.1\r\n\r\n", 414),
        (b"GET /aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 414),
        (b"GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\n\r\n", 431),
        (b"GET / HTTP/1.1\r\nA: 1111111111111111111111111111111111111111111111111111111111111111111111\r\n\r\n", 431),
        (b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 17\r\n\r\n", 413),
        (b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999999999999999\r\n\r\n", 413),
        (b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n", 400),
        (b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nabc", 400),
        (b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n", 411),
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

    #[test]
    fn every_limit_has_its_status() {
        for &(text, expected) in LIMITS {
            assert_eq!(code(text), expected, "{:?}", String::from_utf8_lossy(text));
        }
        assert!(matches!(read(b""), Err(Reject::Closed)));
    }

    #[test]
    fn host_and_content_length_must_be_unambiguous() {
        let table: &[(&[u8], &str)] = &[
            (
                b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}x",
                "the request has more than one Content-Length header",
            ),
            (
                b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\n{}",
                "the request has more than one Content-Length header",
            ),
            (
                b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 2, 2\r\n\r\n{}",
                "a malformed Content-Length",
            ),
            (
                b"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
                "the request has more than one Host header",
            ),
            (
                b"GET / HTTP/1.0\r\nHost: a\r\nHost: a\r\n\r\n",
                "the request has more than one Host header",
            ),
            (
                b"GET / HTTP/1.1\r\n\r\n",
                "an HTTP/1.1 request needs a Host header",
            ),
        ];
        for &(text, message) in table {
            match read(text) {
                Err(Reject::Status(400, m)) => assert_eq!(m, message),
                other => panic!("{:?}: {other:?}", String::from_utf8_lossy(text)),
            }
        }
        // HTTP/1.0 may leave Host out; an empty Host is a Host.
        assert!(read(b"GET / HTTP/1.0\r\n\r\n").is_ok());
        assert_eq!(
            read(b"GET / HTTP/1.1\r\nHost:\r\n\r\n")
                .unwrap()
                .header("host"),
            Some("")
        );
    }

    #[test]
    fn a_trickled_request_reads_as_a_whole() {
        let whole = b"POST /api/play HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\n\r\nabcd";
        assert_eq!(trickled(whole).unwrap(), read(whole).unwrap());
        for &(text, expected) in LIMITS {
            match trickled(text) {
                Err(Reject::Status(code, _)) => {
                    assert_eq!(code, expected, "{:?}", String::from_utf8_lossy(text))
                }
                other => panic!("{:?}: {other:?}", String::from_utf8_lossy(text)),
            }
        }
        // A request line that never ends is refused as soon as it is too long, without
        // holding more than the limit.
        let mut incoming = Incoming::new();
        let mut refused = None;
        for _ in 0..1000 {
            if let Err(e) = incoming.push(b"a", &SMALL) {
                refused = Some(e);
                break;
            }
        }
        assert!(matches!(refused, Some(Reject::Status(414, _))));
        assert!(incoming.held() <= 64, "{}", incoming.held());
        assert!(matches!(Incoming::new().end(), Reject::Closed));
    }

    fn written(r: Response, with_body: bool, version: Version) -> String {
        let mut out = Vec::new();
        r.write_to(&mut out, with_body, version).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn responses_close_and_skip_the_body_for_head() {
        let r = || Response::ok(TEXT, "hi").with_header("Allow", "GET");
        let text = written(r(), true, Version::Http11);
        assert!(text.starts_with("HTTP/1.1 200 OK\r\n"), "{text}");
        assert!(text.contains("\r\nContent-Length: 2\r\nConnection: close\r\n"));
        assert!(text.contains("\r\nAllow: GET\r\n"));
        assert!(text.ends_with("\r\n\r\nhi"));
        assert!(written(r(), false, Version::Http11).ends_with("\r\n\r\n"));
        let e = Response::error(404, "no \"such\" page".to_string());
        assert_eq!(e.to_string(), "404 Not Found");
        assert_eq!(e.into_bytes(), b"{\"error\":\"no \\\"such\\\" page\"}\n");
    }

    #[test]
    fn a_streamed_body_is_chunked_for_http_1_1_only() {
        let big = "x".repeat(PART + 10);
        // Two parts: "ab" and the big one.
        let stream = || {
            let parts = vec![b"ab".to_vec(), big.clone().into_bytes()];
            let mut next = parts.into_iter();
            Response::stream(
                TEXT,
                Box::new(move |out: &mut Vec<u8>| {
                    out.extend(next.next().unwrap_or_default());
                    Ok(next.len() > 0)
                }),
            )
        };
        let text = written(stream(), true, Version::Http11);
        assert!(
            text.contains("\r\nTransfer-Encoding: chunked\r\n"),
            "{text}"
        );
        assert!(!text.contains("Content-Length"));
        let body = &text[text.find("\r\n\r\n").unwrap() + 4..];
        // Chunks, then the last, empty one.
        let mut rest = body;
        let mut joined = String::new();
        let mut chunks = 0;
        loop {
            let (size, after) = rest.split_once("\r\n").unwrap();
            let size = usize::from_str_radix(size, 16).unwrap();
            if size == 0 {
                assert_eq!(after, "\r\n");
                break;
            }
            chunks += 1;
            joined.push_str(&after[..size]);
            assert_eq!(&after[size..size + 2], "\r\n");
            rest = &after[size + 2..];
        }
        assert_eq!(joined, format!("ab{big}"));
        assert_eq!(chunks, 2, "a chunk a part");
        let text = written(stream(), true, Version::Http10);
        assert!(!text.contains("Transfer-Encoding") && !text.contains("Content-Length"));
        assert!(text.ends_with(&format!("\r\n\r\nab{big}")));
        assert_eq!(stream().into_bytes(), format!("ab{big}").into_bytes());
        // HEAD: the head alone, no part made.
        let head = stream().start(false, Version::Http11);
        assert!(head.rest.is_none() && head.ready.ends_with(b"\r\n\r\n"));
    }
}
