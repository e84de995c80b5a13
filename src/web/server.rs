//! The connection side of the server: one acceptor, a fixed pool of worker threads
//! behind a bounded queue, and a small answering service for the overflow (503).
//!
//! Every resource a client can tie up is bounded: a connection holds a worker for at
//! most the read deadline plus the handler's time plus a write timeout; at most
//! `workers + queue` connections are admitted at once and the rest are told 503 (or,
//! when even that service is swamped, closed); a handler that panics (a bug) answers
//! 500 and the worker goes on.

use super::http::{self, DeadlineReader, Limits, Method, Request, Response};
use std::io::{Read, Write};
use std::net::{IpAddr, Shutdown, TcpListener, TcpStream};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// How the server treats its connections.
#[derive(Clone, Debug)]
pub struct Config {
    /// Worker threads: connections served at the same time.
    pub workers: usize,
    /// Admitted connections that may wait for a worker; beyond, 503.
    pub queue: usize,
    /// The whole request must arrive within this time after the connection is taken up
    /// (else 408).
    pub read_timeout: Duration,
    /// Sizes a request must keep.
    pub limits: Limits,
    /// Answer only requests whose `Host` names this machine (`localhost`, a loopback
    /// address), so that a web page elsewhere cannot reach a loopback-only server
    /// through a name of its own (DNS rebinding).
    pub local_names_only: bool,
}

/// What answers a request.
pub type Handler = dyn Fn(&Request) -> Response + Send + Sync;

/// How long writing a response may block on a client that does not read.
const WRITE_TIMEOUT: Duration = Duration::from_secs(10);
/// How long the overflow service waits for a rejected client's request before
/// answering 503 anyway.
const REJECT_READ: Duration = Duration::from_millis(200);
/// Rejected connections waiting for the overflow service; beyond, they are closed.
const REJECT_QUEUE: usize = 64;

/// Serves `listener` forever with `handler`. Returns only if the threads cannot be
/// started.
pub fn run(listener: TcpListener, config: Config, handler: Arc<Handler>) -> std::io::Result<()> {
    let config = Arc::new(config);
    let admitted = Arc::new(AtomicUsize::new(0));
    let (work, jobs) = mpsc::channel::<TcpStream>();
    let jobs = Arc::new(Mutex::new(jobs));
    for i in 0..config.workers.max(1) {
        let (jobs, admitted) = (Arc::clone(&jobs), Arc::clone(&admitted));
        let (config, handler) = (Arc::clone(&config), Arc::clone(&handler));
        thread::Builder::new()
            .name(format!("serve-worker-{i}"))
            .spawn(move || worker(&jobs, &admitted, &config, handler.as_ref()))?;
    }
    let (busy, overflow) = mpsc::sync_channel::<TcpStream>(REJECT_QUEUE);
    thread::Builder::new()
        .name("serve-busy".to_string())
        .spawn(move || overflow.into_iter().for_each(reject_busy))?;
    accept(&listener, &config, &admitted, &work, &busy);
    Ok(())
}

/// The acceptor: admits a connection when fewer than `workers + queue` are admitted,
/// else hands it to the overflow service. Only this thread admits, so the count cannot
/// overshoot.
fn accept(
    listener: &TcpListener,
    config: &Config,
    admitted: &AtomicUsize,
    work: &mpsc::Sender<TcpStream>,
    busy: &SyncSender<TcpStream>,
) {
    let capacity = config.workers.max(1) + config.queue;
    for conn in listener.incoming() {
        let stream = match conn {
            Ok(s) => s,
            Err(_) => {
                // Out of file descriptors and the like: wait for connections to close
                // rather than spin or stop.
                thread::sleep(Duration::from_millis(20));
                continue;
            }
        };
        if admitted.load(Ordering::SeqCst) >= capacity {
            // A full overflow queue closes the connection: the answer to a flood.
            let _ = busy.try_send(stream);
            continue;
        }
        admitted.fetch_add(1, Ordering::SeqCst);
        if work.send(stream).is_err() {
            admitted.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

/// A connection's place among the admitted ones, given back when dropped (also when
/// serving it panicked). Places are given back just before answers are written, so at
/// most `workers` more connections than admitted can be in the pool, still a bound.
struct Admission<'a>(&'a AtomicUsize);

impl Drop for Admission<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

fn worker(
    jobs: &Mutex<Receiver<TcpStream>>,
    admitted: &AtomicUsize,
    config: &Config,
    handler: &Handler,
) {
    loop {
        let next = jobs.lock().unwrap_or_else(|e| e.into_inner()).recv();
        let stream = match next {
            Ok(s) => s,
            Err(_) => return,
        };
        let admission = Admission(admitted);
        let _ = panic::catch_unwind(AssertUnwindSafe(|| {
            serve(&stream, config, handler, admission)
        }));
    }
}

/// Reads one request from `stream`, answers it and closes the connection. The
/// connection's admission is given back once the answer is ready, before it is sent: a
/// client that connects again as soon as it has its answer must find the place free.
fn serve(stream: &TcpStream, config: &Config, handler: &Handler, admission: Admission) {
    let _ = stream.set_nodelay(true);
    let deadline = Instant::now() + config.read_timeout;
    let mut proceed = || {
        let _ = stream.set_write_timeout(Some(WRITE_TIMEOUT));
        let mut out = stream;
        let _ = out.write_all(b"HTTP/1.1 100 Continue\r\n\r\n");
    };
    let read = http::read_request(
        &mut DeadlineReader::new(stream, deadline),
        &config.limits,
        &mut proceed,
    );
    let (response, with_body, consumed) = match read {
        Ok(request) => (
            respond(&request, config, handler),
            request.method != Method::Head,
            true,
        ),
        Err(reject) => match reject.response() {
            Some(r) => (r, true, false),
            None => return,
        },
    };
    drop(admission);
    let _ = stream.set_write_timeout(Some(WRITE_TIMEOUT));
    let mut out = stream;
    let _ = response.write_to(&mut out, with_body);
    close(stream, !consumed);
}

/// Ends the connection after the response. When part of the request was left unread
/// (a refused body), closing at once would reset the connection and could destroy the
/// answer before the client reads it, so the rest is read and dropped first, briefly
/// and up to a bound.
fn close(stream: &TcpStream, drain: bool) {
    let _ = stream.shutdown(Shutdown::Write);
    if !drain {
        return;
    }
    let deadline = Instant::now() + Duration::from_millis(250);
    let mut reader = DeadlineReader::new(stream, deadline);
    let mut sink = [0u8; 8192];
    let mut left = 1usize << 20;
    while left > 0 {
        match reader.read(&mut sink) {
            Ok(0) | Err(_) => break,
            Ok(n) => left = left.saturating_sub(n),
        }
    }
}

/// The handler's answer, after the checks every request gets; a panicking handler is
/// a 500, not a dead worker.
fn respond(request: &Request, config: &Config, handler: &Handler) -> Response {
    if config.local_names_only {
        if let Some(host) = request.header("host") {
            if !is_local_name(host) {
                return Response::error(
                    403,
                    format!("this server answers only to local names, not to Host {host:?}"),
                );
            }
        }
    }
    panic::catch_unwind(AssertUnwindSafe(|| handler(request)))
        .unwrap_or_else(|_| Response::error(500, "internal error".to_string()))
}

/// Whether a `Host` header names this machine: `localhost` or a loopback address,
/// with or without a port.
pub fn is_local_name(host: &str) -> bool {
    let name = match host.strip_prefix('[') {
        // [v6]:port or [v6]
        Some(rest) => match rest.split_once(']') {
            Some((inside, after)) if after.is_empty() || after.starts_with(':') => inside,
            _ => return false,
        },
        None => host.rsplit_once(':').map_or(host, |(n, _)| n),
    };
    name.eq_ignore_ascii_case("localhost")
        || name.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// The overflow service: reads what the client sent (briefly, so closing does not
/// reset the connection under the answer), answers 503 and closes.
fn reject_busy(stream: TcpStream) {
    let deadline = Instant::now() + REJECT_READ;
    let mut reader = DeadlineReader::new(&stream, deadline);
    let mut seen = Vec::new();
    let mut chunk = [0u8; 2048];
    while seen.len() < 16 * 1024 && !seen.windows(4).any(|w| w == b"\r\n\r\n") {
        match reader.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(n) => seen.extend_from_slice(&chunk[..n]),
        }
    }
    let response = Response::error(503, "the server is busy; try again".to_string())
        .with_header("Retry-After", "1");
    let _ = stream.set_write_timeout(Some(Duration::from_secs(1)));
    let mut out = &stream;
    let _ = response.write_to(&mut out, true);
    let _ = out.flush();
    let _ = stream.shutdown(Shutdown::Write);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_names() {
        for host in [
            "localhost",
            "LOCALHOST:5380",
            "127.0.0.1",
            "127.0.0.1:80",
            "127.1.2.3:1",
            "[::1]",
            "[::1]:5380",
        ] {
            assert!(is_local_name(host), "{host}");
        }
        for host in [
            "",
            "example.com",
            "localhost.example.com:5380",
            "10.0.0.1:5380",
            "[::2]:1",
            "[::1",
            "[::1]x",
            "0.0.0.0",
        ] {
            assert!(!is_local_name(host), "{host}");
        }
    }
}
