//! The connection side of the server: one event loop reads every request, a fixed pool
//! of worker threads answers them.
//!
//! The loop (thread `serve-io`) accepts connections and reads all of them at once
//! without blocking, woken by `poll(2)` ([`crate::sys::os`]): a connection that sends
//! nothing, or trickles, costs a descriptor and the bytes it sent, never a thread. Only
//! a complete request goes to a worker, through a bounded queue. The loop answers what
//! it refuses itself (408 at the read deadline, 400, 411, 413, 414, 431, 505, and 503
//! when the queue is full), then lingers briefly, reading and dropping what the client
//! still sends, so that closing does not reset the connection under the answer.
//!
//! Every resource a client can tie up is bounded, as nginx bounds them:
//!
//! - time: each connection has one deadline for its whole request (the read timeout),
//!   then one for its refusal and lingering ([`LINGER`]); a worker holds a connection
//!   for the handler's time plus at most [`WRITE_TIME`] to write the answer, however
//!   slowly the client reads;
//! - descriptors: the soft limit is raised to the hard one at start; the loop keeps at
//!   most [`MAX_CONNECTIONS`] connections, fewer when the descriptor limit is lower,
//!   and beyond that (or when accepting fails for want of descriptors) it closes the
//!   oldest connection it holds, never stopping;
//! - memory: a request's bytes are bounded by the [`Limits`], all requests being read
//!   together by [`READ_BUDGET`] (beyond, the oldest partial request is dropped); the
//!   queue holds at most `queue` requests; large answers are streamed; and a worker
//!   hands freed memory back to the system after each request;
//! - work: `workers` requests are answered at once, `queue` more wait, the rest get
//!   503; a handler that panics (a bug) answers 500 and the worker goes on.

use super::http::{DeadlineWriter, Incoming, Limits, Method, Progress, Reject, Request, Response};
use crate::sys::os::{self, Ready, Watch};
use std::collections::VecDeque;
use std::io::{self, Read, Write};
use std::net::{IpAddr, Shutdown, TcpListener, TcpStream};
use std::panic::{self, AssertUnwindSafe};
use std::sync::mpsc::{self, Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// How the server treats its connections.
#[derive(Clone, Debug)]
pub struct Config {
    /// Worker threads: requests answered at the same time.
    pub workers: usize,
    /// Complete requests that may wait for a worker; beyond, 503.
    pub queue: usize,
    /// The whole request must arrive within this time after the connection is accepted
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

/// How long a worker may take to write an answer, all of it, to a client that reads
/// slowly or not at all.
pub const WRITE_TIME: Duration = Duration::from_secs(10);
/// How long the loop may take to write a refusal and read what the client still sends.
pub const LINGER: Duration = Duration::from_secs(2);
/// The most bytes read and dropped while lingering.
const LINGER_BYTES: usize = 1 << 20;
/// The most connections the loop holds, whatever the descriptor limit: poll(2) looks at
/// each of them on every wake-up (nginx and h2o hold 1024 per worker by default).
pub const MAX_CONNECTIONS: usize = 4096;
/// Descriptors kept for everything but the loop's connections: standard streams, the
/// listener, the connections in the workers' hands and slack.
const RESERVED_DESCRIPTORS: usize = 64;
/// The most memory all requests being read may hold together.
pub const READ_BUDGET: usize = 16 << 20;
/// Bytes read from one connection per wake-up, so that one fast client cannot starve
/// the others.
const READ_SLICE: usize = 64 * 1024;
/// How long accepting pauses when it fails and there is no connection to close.
const ACCEPT_PAUSE: Duration = Duration::from_millis(50);

/// A complete request and its connection, for a worker.
struct Job {
    stream: TcpStream,
    request: Request,
}

/// Serves `listener` forever with `handler`. Returns only if the threads cannot be
/// started or the listener fails.
pub fn run(listener: TcpListener, config: Config, handler: Arc<Handler>) -> io::Result<()> {
    os::tune_allocator();
    let descriptors = os::raise_descriptor_limit();
    let config = Arc::new(config);
    let (work, jobs) = mpsc::sync_channel::<Job>(config.queue);
    let jobs = Arc::new(Mutex::new(jobs));
    let workers = config.workers.max(1);
    for i in 0..workers {
        let jobs = Arc::clone(&jobs);
        let (config, handler) = (Arc::clone(&config), Arc::clone(&handler));
        thread::Builder::new()
            .name(format!("serve-worker-{i}"))
            .spawn(move || worker(&jobs, &config, handler.as_ref()))?;
    }
    let held = workers + config.queue + RESERVED_DESCRIPTORS;
    let capacity = descriptors.map_or(MAX_CONNECTIONS, |limit| {
        let limit = usize::try_from(limit).unwrap_or(usize::MAX);
        limit.saturating_sub(held).clamp(1, MAX_CONNECTIONS)
    });
    listener.set_nonblocking(true)?;
    EventLoop {
        listener,
        config: &config,
        work,
        conns: VecDeque::new(),
        capacity,
        accept_paused_until: None,
    }
    .run()
}

/// A connection the loop holds.
struct Conn {
    stream: TcpStream,
    /// When this stage of the connection ends, done or not.
    deadline: Instant,
    stage: Stage,
}

enum Stage {
    /// Reading the request.
    Reading(Incoming),
    /// Writing a refusal: the bytes, how many are sent, and whether to linger after.
    Refusing {
        answer: Vec<u8>,
        sent: usize,
        linger: bool,
    },
    /// The answer is sent and our side shut: reading and dropping what still comes, up
    /// to a number of bytes.
    Lingering(usize),
    /// The request is complete: for a worker, unless they have enough.
    Complete(Request),
    /// Nothing more to do: the connection is closed.
    Done,
}

struct EventLoop<'a> {
    listener: TcpListener,
    config: &'a Config,
    work: SyncSender<Job>,
    /// In the order they were accepted: the first is the oldest.
    conns: VecDeque<Conn>,
    /// The most connections held at once.
    capacity: usize,
    accept_paused_until: Option<Instant>,
}

impl EventLoop<'_> {
    fn run(mut self) -> io::Result<()> {
        let mut watches = Vec::new();
        loop {
            let now = Instant::now();
            for conn in &mut self.conns {
                if now >= conn.deadline {
                    conn.expire(now);
                }
            }
            self.conns.retain(|c| !matches!(c.stage, Stage::Done));
            let accepting = self.accept_paused_until.is_none_or(|t| now >= t);
            if accepting {
                self.accept_paused_until = None;
            }
            watches.clear();
            let read = Ready {
                read: true,
                ..Ready::default()
            };
            watches.push(Watch::new(
                &self.listener,
                if accepting { read } else { Ready::default() },
            ));
            for conn in &self.conns {
                let want = match conn.stage {
                    Stage::Refusing { .. } => Ready {
                        write: true,
                        ..Ready::default()
                    },
                    _ => read,
                };
                watches.push(Watch::new(&conn.stream, want));
            }
            let next = self
                .conns
                .iter()
                .map(|c| c.deadline)
                .chain(self.accept_paused_until)
                .min();
            let timeout = next.map(|t| t.saturating_duration_since(now));
            if os::wait(&mut watches, timeout).is_err() {
                // Out of memory for the kernel's table and the like: try again soon.
                thread::sleep(ACCEPT_PAUSE);
                continue;
            }
            let now = Instant::now();
            // Connections first, the listener after: the new ones are not in `watches`.
            for (conn, watch) in self.conns.iter_mut().zip(&watches[1..]) {
                let got = watch.got;
                if got.read || got.write || got.broken {
                    conn.ready(now, self.config);
                }
            }
            self.hand_over(now);
            if watches[0].got.read || watches[0].got.broken {
                self.accept(now);
            }
            self.keep_to_budget();
        }
    }

    /// Gives the complete requests to the workers (their connections leave the loop),
    /// and answers 503 where the queue is full; closes what is done.
    fn hand_over(&mut self, now: Instant) {
        let mut i = 0;
        while i < self.conns.len() {
            match self.conns[i].stage {
                Stage::Done => {
                    self.conns.remove(i);
                }
                Stage::Complete(_) => {
                    let Some(Conn {
                        stream,
                        stage: Stage::Complete(request),
                        ..
                    }) = self.conns.remove(i)
                    else {
                        // Not reached: the stage was just matched.
                        continue;
                    };
                    let job = Job { stream, request };
                    if let Err(TrySendError::Full(job)) = self.work.try_send(job) {
                        let mut conn = Conn {
                            stream: job.stream,
                            deadline: now,
                            stage: Stage::Done,
                        };
                        let busy =
                            Response::error(503, "the server is busy; try again".to_string())
                                .with_header("Retry-After", "1");
                        conn.answer(now, busy, false);
                        self.conns.insert(i, conn);
                        i += 1;
                    }
                }
                _ => i += 1,
            }
        }
    }

    /// Accepts what is waiting (a bounded number per wake-up), making room by closing
    /// the oldest connections when the loop is full or descriptors run out.
    fn accept(&mut self, now: Instant) {
        for _ in 0..256 {
            match self.listener.accept() {
                Ok((stream, _)) => {
                    while self.conns.len() >= self.capacity {
                        self.conns.pop_front();
                    }
                    if stream.set_nonblocking(true).is_err() {
                        continue;
                    }
                    let _ = stream.set_nodelay(true);
                    self.conns.push_back(Conn {
                        stream,
                        deadline: now + self.config.read_timeout,
                        stage: Stage::Reading(Incoming::new()),
                    });
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if out_of_descriptors(&e) => {
                    if self.conns.is_empty() {
                        // Every descriptor is with the workers: wait for them.
                        self.accept_paused_until = Some(now + ACCEPT_PAUSE);
                        return;
                    }
                    // Dropping the oldest connection closes its descriptor.
                    self.conns.pop_front();
                }
                // The client gave up before we took it.
                Err(e) if e.kind() == io::ErrorKind::ConnectionAborted => {}
                // Out of memory and the like: give it a moment rather than spin.
                Err(_) => {
                    self.accept_paused_until = Some(now + ACCEPT_PAUSE);
                    return;
                }
            }
        }
    }

    /// Drops the oldest partial requests while the requests being read hold more than
    /// [`READ_BUDGET`] together.
    fn keep_to_budget(&mut self) {
        let held = |c: &Conn| match &c.stage {
            Stage::Reading(incoming) => incoming.held(),
            Stage::Refusing { answer, .. } => answer.capacity(),
            _ => 0,
        };
        let mut total: usize = self.conns.iter().map(held).sum();
        let mut i = 0;
        while total > READ_BUDGET && i < self.conns.len() {
            let h = held(&self.conns[i]);
            if h > 0 {
                total -= h;
                self.conns.remove(i);
            } else {
                i += 1;
            }
        }
    }
}

/// Whether accepting failed for want of descriptors (EMFILE, ENFILE).
fn out_of_descriptors(e: &io::Error) -> bool {
    matches!(e.raw_os_error(), Some(23 | 24))
}

impl Conn {
    /// The deadline has come: a request not read in time is told 408; anything else
    /// is closed.
    fn expire(&mut self, now: Instant) {
        match self.stage {
            Stage::Reading(_) => self.refuse(now, &Reject::Timeout),
            _ => self.stage = Stage::Done,
        }
    }

    /// Goes on with whatever the connection was doing, now that it is ready.
    fn ready(&mut self, now: Instant, config: &Config) {
        match &mut self.stage {
            Stage::Reading(incoming) => {
                let progress = read_some(&self.stream, incoming, &config.limits);
                match progress {
                    Ok(Progress::More) => {}
                    Ok(Progress::Continue) => {
                        // Fits in any socket's empty send buffer; if it does not go
                        // out whole, the connection is broken.
                        let go = b"HTTP/1.1 100 Continue\r\n\r\n";
                        if !matches!((&self.stream).write(go), Ok(n) if n == go.len()) {
                            self.stage = Stage::Done;
                        }
                    }
                    Ok(Progress::Done(request)) => self.stage = Stage::Complete(request),
                    Err(reject) => self.refuse(now, &reject),
                }
            }
            Stage::Refusing {
                answer,
                sent,
                linger,
            } => match (&self.stream).write(&answer[*sent..]) {
                Ok(n) => {
                    *sent += n;
                    if *sent == answer.len() {
                        let _ = self.stream.shutdown(Shutdown::Write);
                        self.stage = if *linger {
                            Stage::Lingering(LINGER_BYTES)
                        } else {
                            Stage::Done
                        };
                    }
                }
                Err(e) if would_block(&e) => {}
                Err(_) => self.stage = Stage::Done,
            },
            Stage::Lingering(left) => {
                let mut sink = [0u8; 16 * 1024];
                loop {
                    match (&self.stream).read(&mut sink) {
                        Ok(n) if n > 0 && n < *left => *left -= n,
                        Err(e) if would_block(&e) => break,
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                        // The end, an error, or enough.
                        _ => {
                            self.stage = Stage::Done;
                            break;
                        }
                    }
                }
            }
            Stage::Complete(_) | Stage::Done => {}
        }
    }

    /// Answers a request that could not be read, if anyone listens.
    fn refuse(&mut self, now: Instant, reject: &Reject) {
        match reject.response() {
            // Part of the request may be unread: linger.
            Some(response) => self.answer(now, response, true),
            None => self.stage = Stage::Done,
        }
    }

    /// Starts writing a small answer from the loop.
    fn answer(&mut self, now: Instant, response: Response, linger: bool) {
        let mut answer = Vec::new();
        // Writing to memory cannot fail.
        let _ = response.write_to(&mut answer, true, super::http::Version::Http11);
        self.deadline = now + LINGER;
        self.stage = Stage::Refusing {
            answer,
            sent: 0,
            linger,
        };
    }
}

fn would_block(e: &io::Error) -> bool {
    e.kind() == io::ErrorKind::WouldBlock
}

/// Reads what has come on a non-blocking `stream`, a slice at most, into `incoming`.
fn read_some(
    stream: &TcpStream,
    incoming: &mut Incoming,
    limits: &Limits,
) -> Result<Progress, Reject> {
    let mut chunk = [0u8; 16 * 1024];
    let mut taken = 0;
    while taken < READ_SLICE {
        let n = match (&*stream).read(&mut chunk) {
            Ok(0) => return Err(incoming.end()),
            Ok(n) => n,
            Err(e) if would_block(&e) => break,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Reject::Io(e)),
        };
        taken += n;
        match incoming.push(&chunk[..n], limits)? {
            Progress::More => {}
            done => return Ok(done),
        }
    }
    Ok(Progress::More)
}

fn worker(jobs: &Mutex<Receiver<Job>>, config: &Config, handler: &Handler) {
    loop {
        let next = jobs.lock().unwrap_or_else(|e| e.into_inner()).recv();
        let Ok(job) = next else { return };
        let _ = panic::catch_unwind(AssertUnwindSafe(|| serve(job, config, handler)));
        os::trim_allocator();
    }
}

/// Answers one complete request and closes the connection.
fn serve(job: Job, config: &Config, handler: &Handler) {
    let Job { stream, request } = job;
    let response = respond(&request, config, handler);
    let (with_body, version) = (request.method != Method::Head, request.version);
    // The request's memory goes before the answer is written, however long that takes.
    drop(request);
    if stream.set_nonblocking(false).is_err() {
        return;
    }
    let mut out = DeadlineWriter::new(&stream, Instant::now() + WRITE_TIME);
    if response.write_to(&mut out, with_body, version).is_ok() {
        let _ = stream.shutdown(Shutdown::Write);
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
