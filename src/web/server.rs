//! The connection side of the server: one event loop reads every request and writes
//! every answer, a fixed pool of worker threads makes the answers.
//!
//! The loop (thread `serve-io`) accepts connections and reads and writes all of them at
//! once without blocking, woken by `poll(2)` ([`crate::sys::os`]): a connection that
//! sends nothing, trickles, or never reads its answer costs a descriptor and its own
//! bounded buffer, never a thread. Only a complete request goes to a worker, through a
//! bounded queue; the worker makes the answer (the whole of a small one, the first part
//! of a streamed one) and hands it back to the loop, which writes it as the client
//! takes it. A streamed answer's next part is made by a worker only once the client
//! has taken the one before, and after every request waiting to be answered: clients
//! that read slowly or not at all delay no one. The loop answers what it refuses itself (408 at the read
//! deadline, 400, 411, 413, 414, 431, 505, and 503 when the queue is full or the server
//! is stopping), then lingers briefly, reading and dropping what the client still
//! sends, so that closing does not reset the connection under the answer.
//!
//! Every resource a client can tie up is bounded, as nginx bounds them:
//!
//! - time: each connection has one deadline for its whole request (the read timeout),
//!   one for writing its whole answer however slowly it reads ([`WRITE_TIME`]), and one
//!   for a refusal and lingering ([`LINGER`]);
//! - descriptors: the soft limit is raised to the hard one at start; the loop keeps at
//!   most [`MAX_CONNECTIONS`] connections, fewer when the descriptor limit is lower,
//!   and beyond that (or when accepting fails for want of descriptors) it closes the
//!   oldest connection it holds, never stopping;
//! - memory: a request's bytes are bounded by the [`Limits`], all requests being read
//!   together by [`READ_BUDGET`], all answers being written together by
//!   [`WRITE_BUDGET`] (beyond either, the oldest is dropped); a streamed answer holds
//!   one part at a time; the queue holds at most `queue` requests; and a worker hands
//!   freed memory back to the system after each request;
//! - work: `workers` requests are answered at once, `queue` more wait, the rest get
//!   503; a handler that panics (a bug) answers 500 and the worker goes on.
//!
//! A client that closes its connection while its answer is being made gives its work
//! up: the request's [`Request::gone`] flag is raised (the computer's searches watch
//! it). The loop sees the client end its side; a slow answer's HTTP/1.1 client then
//! gets an interim `100 Continue` ([`PROBE_AFTER`]), which a closed connection answers
//! with a reset, while a client that only shut its sending side goes on waiting.
//!
//! [`Server::stop`] stops gracefully: no new connection is accepted, a request still
//! being read gets 503, the requests already read are answered and the answers written,
//! all within [`STOP_TIME`]; a request read and still unanswered then gets 503 too, so
//! none is dropped without an answer.

use super::http::{
    Incoming, Limits, Method, Outgoing, Progress, Reject, Request, Response, Rest, PART,
};
use crate::sys::os::{self, Interest, Ready};
use std::collections::VecDeque;
use std::io::{self, Read, Write};
use std::net::{IpAddr, Shutdown, TcpListener, TcpStream};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::{self, JoinHandle};
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

/// How long an answer may take to be written, all of it, to a client that reads slowly
/// or not at all.
pub const WRITE_TIME: Duration = Duration::from_secs(10);
/// How long the loop may take to write a refusal and read what the client still sends.
pub const LINGER: Duration = Duration::from_secs(2);
/// How long the server may take, once told to stop, to answer what is in flight.
pub const STOP_TIME: Duration = Duration::from_secs(10);
/// The most bytes read and dropped while lingering.
const LINGER_BYTES: usize = 1 << 20;
/// The most connections the loop holds, whatever the descriptor limit: poll(2) looks at
/// each of them on every wake-up (nginx and h2o hold 1024 per worker by default).
pub const MAX_CONNECTIONS: usize = 4096;
/// Descriptors kept for everything but the loop's connections: standard streams, the
/// listener, the loop's wake-up pair and slack.
const RESERVED_DESCRIPTORS: usize = 64;
/// The most memory all requests being read may hold together.
pub const READ_BUDGET: usize = 16 << 20;
/// The most memory all answers being written may hold together (a streamed answer
/// holds a part at a time, a whole answer all of it).
pub const WRITE_BUDGET: usize = 64 << 20;
/// Bytes read from one connection per wake-up, so that one fast client cannot starve
/// the others.
const READ_SLICE: usize = 64 * 1024;
/// How long accepting pauses when it fails and there is no connection to close.
const ACCEPT_PAUSE: Duration = Duration::from_millis(50);
/// How soon the loop looks again for the workers' answers where nothing can wake it.
const RETRY: Duration = Duration::from_millis(5);
/// How long a request whose client has ended its side is worked on before the loop
/// asks whether the client is still there (quick answers are never delayed by it).
pub const PROBE_AFTER: Duration = Duration::from_millis(200);
/// The interim answer that asks: clients of HTTP/1.1 must accept it before the
/// final one.
const PROBE: &[u8] = b"HTTP/1.1 100 Continue\r\n\r\n";

/// Work for a worker.
enum Task {
    /// Answer a complete request.
    Answer { token: u64, request: Request },
    /// Make the next part of a streamed answer.
    Part { token: u64, rest: Rest },
}

/// The workers' work: requests to answer (at most `queue` waiting; they go first, so
/// that a slow reader's next part never delays anyone's answer) and parts of streamed
/// answers to make (one at most per connection).
struct Tasks {
    queue: Mutex<Waiting>,
    ready: Condvar,
    /// The most requests that may wait.
    capacity: usize,
}

#[derive(Default)]
struct Waiting {
    answers: VecDeque<Task>,
    parts: VecDeque<Task>,
    /// The loop has ended: the workers go too.
    closed: bool,
}

impl Tasks {
    fn lock(&self) -> std::sync::MutexGuard<'_, Waiting> {
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Queues `task`; an answer is refused (given back) when `capacity` wait already.
    fn push(&self, task: Task) -> Result<(), Task> {
        let mut waiting = self.lock();
        match task {
            Task::Answer { .. } if waiting.answers.len() >= self.capacity => return Err(task),
            Task::Answer { .. } => waiting.answers.push_back(task),
            Task::Part { .. } => waiting.parts.push_back(task),
        }
        drop(waiting);
        self.ready.notify_one();
        Ok(())
    }

    /// The next task, answers first; `None` once closed.
    fn next(&self) -> Option<Task> {
        let mut waiting = self.lock();
        loop {
            if let Some(task) = waiting
                .answers
                .pop_front()
                .or_else(|| waiting.parts.pop_front())
            {
                return Some(task);
            }
            if waiting.closed {
                return None;
            }
            waiting = self.ready.wait(waiting).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Takes back the requests waiting for a worker (the loop answers them itself).
    fn take_back_answers(&self) {
        self.lock().answers.clear();
    }

    /// Lets the workers go once the work queued is done.
    fn close(&self) {
        self.lock().closed = true;
        self.ready.notify_all();
    }
}

/// What a worker hands back to the loop for the connection `token`.
struct Made {
    token: u64,
    /// Bytes to write.
    bytes: Vec<u8>,
    /// What makes the rest of a streamed answer, if more is to come.
    rest: Option<Rest>,
    /// Making the answer failed: after `bytes`, the connection is closed.
    failed: bool,
}

/// Wakes the loop from `poll(2)` when a worker has something for it (a byte on a
/// socket pair the loop watches). Where there is none, the loop looks every [`RETRY`].
#[derive(Clone)]
struct Waker(#[cfg_attr(not(unix), allow(dead_code))] Option<Arc<WakeEnd>>);

#[cfg(unix)]
type WakeEnd = std::os::unix::net::UnixStream;
#[cfg(not(unix))]
type WakeEnd = ();

impl Waker {
    /// A waker and the end the loop watches.
    fn pair() -> (Waker, Option<WakeEnd>) {
        #[cfg(unix)]
        {
            let pair = WakeEnd::pair().and_then(|(a, b)| {
                a.set_nonblocking(true)?;
                b.set_nonblocking(true)?;
                Ok((a, b))
            });
            if let Ok((send, watch)) = pair {
                return (Waker(Some(Arc::new(send))), Some(watch));
            }
        }
        (Waker(None), None)
    }

    fn wake(&self) {
        #[cfg(unix)]
        if let Some(end) = &self.0 {
            // A full socket means a wake-up is already waiting.
            let _ = (&**end).write(&[1]);
        }
    }
}

/// A server at work: answer requests until [`Server::stop`].
pub struct Server {
    stopping: Arc<AtomicBool>,
    waker: Waker,
    thread: JoinHandle<io::Result<()>>,
}

impl Server {
    /// Starts serving `listener` with `handler`: the workers and the loop.
    pub fn start(
        listener: TcpListener,
        config: Config,
        handler: Arc<Handler>,
    ) -> io::Result<Server> {
        os::tune_allocator();
        let descriptors = os::raise_descriptor_limit();
        let config = Arc::new(config);
        let tasks = Arc::new(Tasks {
            queue: Mutex::new(Waiting::default()),
            ready: Condvar::new(),
            capacity: config.queue,
        });
        let (made, answers) = mpsc::channel::<Made>();
        let (waker, wake_end) = Waker::pair();
        let workers = config.workers.max(1);
        for i in 0..workers {
            let tasks = Arc::clone(&tasks);
            let (config, handler) = (Arc::clone(&config), Arc::clone(&handler));
            let (made, waker) = (made.clone(), waker.clone());
            thread::Builder::new()
                .name(format!("serve-worker-{i}"))
                .spawn(move || worker(&tasks, &made, &waker, &config, handler.as_ref()))?;
        }
        let held = config.queue + RESERVED_DESCRIPTORS;
        let capacity = descriptors.map_or(MAX_CONNECTIONS, |limit| {
            let limit = usize::try_from(limit).unwrap_or(usize::MAX);
            limit.saturating_sub(held).clamp(1, MAX_CONNECTIONS)
        });
        listener.set_nonblocking(true)?;
        let stopping = Arc::new(AtomicBool::new(false));
        let stop = Arc::clone(&stopping);
        let thread = thread::Builder::new()
            .name("serve-io".to_string())
            .spawn(move || {
                EventLoop {
                    listener: Some(listener),
                    config: &config,
                    tasks,
                    answers,
                    wake_end,
                    conns: VecDeque::new(),
                    capacity,
                    accept_paused_until: None,
                    tokens: 0,
                    stopping: &stop,
                    stop_by: None,
                    last_call: false,
                }
                .run()
            })?;
        Ok(Server {
            stopping,
            waker,
            thread,
        })
    }

    /// Stops gracefully: accepts no more connections, refuses with 503 the requests
    /// still being read, answers those already read and writes the answers, within
    /// [`STOP_TIME`]; returns when that is done.
    pub fn stop(self) -> io::Result<()> {
        self.stopping.store(true, Ordering::SeqCst);
        self.waker.wake();
        self.wait()
    }

    /// Waits for the server, which ends only once stopped or when its loop fails.
    pub fn wait(self) -> io::Result<()> {
        self.thread
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("the server's loop failed")))
    }
}

/// Serves `listener` forever with `handler`. Returns only if the threads cannot be
/// started or the listener fails.
pub fn run(listener: TcpListener, config: Config, handler: Arc<Handler>) -> io::Result<()> {
    Server::start(listener, config, handler)?.wait()
}

/// A connection the loop holds.
struct Conn {
    /// Names the connection to the workers.
    token: u64,
    stream: TcpStream,
    /// Raised when the client has gone while its answer is being made: the handler
    /// stops its work ([`Request::gone`]).
    gone: Arc<AtomicBool>,
    /// While a worker makes the answer: what is known of the client's side.
    client: Client,
    /// The request is HTTP/1.1: the client accepts an interim answer.
    http11: bool,
    /// When a worker was given the request.
    working_since: Instant,
    /// When this stage of the connection ends, done or not (none while a worker makes
    /// its answer: that is bounded by the handler).
    deadline: Option<Instant>,
    stage: Stage,
}

/// What the loop knows of a client whose answer is being made.
#[derive(Clone, Copy, Debug, Default)]
enum Client {
    /// Still sending, as far as we know (or not working yet).
    #[default]
    Open,
    /// It has ended its side (half closed, or closed): if its answer takes longer than
    /// [`PROBE_AFTER`], an interim `100 Continue` is sent at that time (HTTP/1.1 only),
    /// which a client that has closed its connection answers with a reset.
    Ended { probe_at: Option<Instant> },
    /// The interim answer is sent: a reset or an error now means the client has gone.
    Probed,
}

enum Stage {
    /// Reading the request.
    Reading(Incoming),
    /// The request is complete: for a worker, unless they have enough.
    Complete(Request),
    /// A worker is making the answer.
    Working,
    /// Writing an answer: the bytes, how many are sent, what makes the rest of a
    /// streamed answer (`None` while a worker makes its next part, or at the end), and
    /// what comes after.
    Writing {
        out: Vec<u8>,
        sent: usize,
        rest: Option<Rest>,
        /// A worker is making the next part.
        making: bool,
        after: After,
    },
    /// The answer is sent and our side shut: reading and dropping what still comes, up
    /// to a number of bytes.
    Lingering(usize),
    /// Nothing more to do: the connection is closed.
    Done,
}

/// What follows the last byte of an answer.
#[derive(Clone, Copy, PartialEq, Eq)]
enum After {
    /// Shut our side, and close.
    Close,
    /// Shut our side, and read and drop what the client still sends for a while (a
    /// refusal, after which part of the request may be unread).
    Linger,
    /// Close at once: making the answer failed, and the client must not take it for
    /// whole.
    Abort,
}

struct EventLoop<'a> {
    /// `None` once stopping: no more connections.
    listener: Option<TcpListener>,
    config: &'a Config,
    tasks: Arc<Tasks>,
    answers: Receiver<Made>,
    /// The end a worker's wake-up arrives on.
    wake_end: Option<WakeEnd>,
    /// In the order they were accepted: the first is the oldest.
    conns: VecDeque<Conn>,
    /// The most connections held at once.
    capacity: usize,
    accept_paused_until: Option<Instant>,
    /// The last token given.
    tokens: u64,
    stopping: &'a AtomicBool,
    /// Once stopping, when the loop ends whatever is left.
    stop_by: Option<Instant>,
    /// Stopping, and the time is up: what is left gets 503, and the loop ends once
    /// that is written (or [`LINGER`] later).
    last_call: bool,
}

impl EventLoop<'_> {
    fn run(mut self) -> io::Result<()> {
        let mut watches = Vec::new();
        let mut watched = Vec::new();
        loop {
            let now = Instant::now();
            if self.stop_by.is_none() && self.stopping.load(Ordering::SeqCst) {
                self.begin_stop(now);
            }
            for conn in &mut self.conns {
                if conn.deadline.is_some_and(|d| now >= d) {
                    conn.expire(now);
                }
                conn.probe(now);
            }
            self.take_answers(now);
            self.hand_over(now);
            self.ask_for_parts();
            self.conns.retain(|c| !matches!(c.stage, Stage::Done));
            if let Some(by) = self.stop_by {
                if self.conns.is_empty() || now >= by && self.last_call {
                    return Ok(());
                }
                if now >= by {
                    self.last_call(now);
                    continue;
                }
            }
            let accepting =
                self.listener.is_some() && self.accept_paused_until.is_none_or(|t| now >= t);
            if accepting {
                self.accept_paused_until = None;
            }
            watches.clear();
            watched.clear();
            let read = Ready {
                read: true,
                ..Ready::default()
            };
            let write = Ready {
                write: true,
                ..Ready::default()
            };
            if let (true, Some(listener)) = (accepting, &self.listener) {
                watches.push(Interest::new(listener, read));
                watched.push(Watched::Listener);
            }
            #[cfg(unix)]
            if let Some(end) = &self.wake_end {
                watches.push(Interest::new(end, read));
                watched.push(Watched::Wake);
            }
            let mut working = false;
            for (i, conn) in self.conns.iter().enumerate() {
                let want = match (&conn.stage, conn.client) {
                    (Stage::Reading(_) | Stage::Lingering(_), _) => read,
                    (Stage::Writing { out, sent, .. }, _) if *sent < out.len() => write,
                    // A worker has it: watch whether the client ends its side, then
                    // (once it has) only for a reset.
                    (Stage::Working, client) => {
                        working = true;
                        match client {
                            Client::Open => read,
                            _ => Ready::default(),
                        }
                    }
                    // It waits for a worker: nothing to watch.
                    _ => {
                        working = true;
                        continue;
                    }
                };
                watches.push(Interest::new(&conn.stream, want));
                watched.push(Watched::Conn(i));
            }
            let mut next = self
                .conns
                .iter()
                .filter_map(|c| match (&c.stage, c.client) {
                    (Stage::Working, Client::Ended { probe_at }) => probe_at.or(c.deadline),
                    _ => c.deadline,
                })
                .chain(self.accept_paused_until)
                .chain(self.stop_by)
                .min();
            if working && self.wake_end.is_none() {
                next = Some(next.map_or(now + RETRY, |t| t.min(now + RETRY)));
            }
            let timeout = next.map(|t| t.saturating_duration_since(now));
            if os::wait(&mut watches, timeout).is_err() {
                // Out of memory for the kernel's table and the like: try again soon.
                thread::sleep(ACCEPT_PAUSE);
                continue;
            }
            let now = Instant::now();
            let mut accept = false;
            for (watch, what) in watches.iter().zip(&watched) {
                let got = watch.got;
                if !(got.read || got.write || got.broken) {
                    continue;
                }
                match *what {
                    Watched::Listener => accept = true,
                    Watched::Wake => self.drain_wake_end(),
                    Watched::Conn(i) => self.conns[i].ready(now, self.config, got.broken),
                }
            }
            self.take_answers(now);
            self.hand_over(now);
            if accept {
                self.accept(now);
            }
            self.keep_to_budget();
        }
    }

    /// Stopping: no more connections; a request still being read gets 503 (the
    /// client can try again elsewhere or later); the rest goes on, until
    /// [`STOP_TIME`] from now.
    fn begin_stop(&mut self, now: Instant) {
        self.listener = None;
        self.stop_by = Some(now + STOP_TIME);
        for conn in &mut self.conns {
            if let Stage::Reading(_) = conn.stage {
                let stopping = Response::error(503, "the server is stopping".to_string());
                conn.answer(now, stopping, After::Linger);
            }
        }
    }

    /// Stopping, and [`STOP_TIME`] is up: every request read and not yet answered
    /// gets 503 (none is dropped unanswered), the requests waiting for a worker are
    /// taken back, and the loop gives the answers [`LINGER`] to go out.
    fn last_call(&mut self, now: Instant) {
        self.last_call = true;
        self.stop_by = Some(now + LINGER);
        self.tasks.take_back_answers();
        for conn in &mut self.conns {
            if matches!(conn.stage, Stage::Complete(_) | Stage::Working) {
                conn.gone.store(true, Ordering::SeqCst);
                let stopping = Response::error(503, "the server is stopping".to_string());
                conn.answer(now, stopping, After::Close);
            }
        }
    }

    /// Reads and drops the wake-up bytes.
    fn drain_wake_end(&mut self) {
        #[cfg(unix)]
        if let Some(end) = &self.wake_end {
            let mut sink = [0u8; 256];
            while matches!((&*end).read(&mut sink), Ok(n) if n > 0) {}
        }
    }

    /// Takes what the workers made and gives it to its connections (if they are still
    /// there: one closed meanwhile drops it).
    fn take_answers(&mut self, now: Instant) {
        while let Ok(made) = self.answers.try_recv() {
            let Some(conn) = self.conns.iter_mut().find(|c| c.token == made.token) else {
                continue;
            };
            let after = if made.failed {
                After::Abort
            } else {
                After::Close
            };
            match &mut conn.stage {
                Stage::Working => {
                    conn.deadline = Some(now + WRITE_TIME);
                    conn.stage = Stage::Writing {
                        out: made.bytes,
                        sent: 0,
                        rest: made.rest,
                        making: false,
                        after,
                    };
                }
                Stage::Writing {
                    out,
                    sent,
                    rest,
                    making: making @ true,
                    after: then,
                } => {
                    *out = made.bytes;
                    *sent = 0;
                    *rest = made.rest;
                    *making = false;
                    *then = after;
                }
                _ => continue,
            }
            // Nothing left to write: finished at once (a failed answer with no bytes).
            conn.written();
        }
    }

    /// Gives the complete requests to the workers, and answers 503 where the queue is
    /// full.
    fn hand_over(&mut self, now: Instant) {
        for conn in &mut self.conns {
            if !matches!(conn.stage, Stage::Complete(_)) {
                continue;
            }
            let Stage::Complete(mut request) = std::mem::replace(&mut conn.stage, Stage::Working)
            else {
                continue;
            };
            request.gone = super::http::Gone(Arc::clone(&conn.gone));
            conn.client = Client::Open;
            conn.http11 = request.version == super::http::Version::Http11;
            conn.working_since = now;
            let task = Task::Answer {
                token: conn.token,
                request,
            };
            match self.tasks.push(task) {
                Ok(()) => conn.deadline = None,
                Err(_) => {
                    let busy = Response::error(503, "the server is busy; try again".to_string())
                        .with_header("Retry-After", "1");
                    conn.answer(now, busy, After::Close);
                }
            }
        }
    }

    /// Asks the workers for the next part of each streamed answer whose client has
    /// taken the part before.
    fn ask_for_parts(&mut self) {
        for conn in &mut self.conns {
            let Stage::Writing {
                out,
                sent,
                rest,
                making,
                ..
            } = &mut conn.stage
            else {
                continue;
            };
            if *making || *sent < out.len() {
                continue;
            }
            let Some(r) = rest.take() else { continue };
            // The part sent is freed before the next is made.
            *out = Vec::new();
            *sent = 0;
            // Parts are never refused: one at most per connection.
            let _ = self.tasks.push(Task::Part {
                token: conn.token,
                rest: r,
            });
            *making = true;
        }
    }

    /// Accepts what is waiting (a bounded number per wake-up), making room by closing
    /// the oldest connections when the loop is full or descriptors run out.
    fn accept(&mut self, now: Instant) {
        let Some(listener) = &self.listener else {
            return;
        };
        for _ in 0..256 {
            match listener.accept() {
                Ok((stream, _)) => {
                    while self.conns.len() >= self.capacity {
                        self.conns.pop_front();
                    }
                    if stream.set_nonblocking(true).is_err() {
                        continue;
                    }
                    let _ = stream.set_nodelay(true);
                    self.tokens += 1;
                    self.conns.push_back(Conn {
                        token: self.tokens,
                        stream,
                        gone: Arc::new(AtomicBool::new(false)),
                        client: Client::Open,
                        http11: false,
                        working_since: now,
                        deadline: Some(now + self.config.read_timeout),
                        stage: Stage::Reading(Incoming::new()),
                    });
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if out_of_descriptors(&e) => {
                    if self.conns.is_empty() {
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
    /// [`READ_BUDGET`] together, and the oldest answers being written while they hold
    /// more than [`WRITE_BUDGET`].
    fn keep_to_budget(&mut self) {
        let reading = |c: &Conn| match &c.stage {
            Stage::Reading(incoming) => incoming.held(),
            _ => 0,
        };
        let writing = |c: &Conn| match &c.stage {
            Stage::Writing { out, .. } => out.capacity(),
            _ => 0,
        };
        for (held, budget) in [
            (&reading as &dyn Fn(&Conn) -> usize, READ_BUDGET),
            (&writing, WRITE_BUDGET),
        ] {
            let mut total: usize = self.conns.iter().map(held).sum();
            let mut i = 0;
            while total > budget && i < self.conns.len() {
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
}

impl Drop for EventLoop<'_> {
    /// The loop has ended: the workers end once their work is done.
    fn drop(&mut self) {
        self.tasks.close();
    }
}

/// What a watch of the loop is for.
#[derive(Clone, Copy)]
enum Watched {
    Listener,
    #[cfg_attr(not(unix), allow(dead_code))]
    Wake,
    Conn(usize),
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

    /// When the client has ended its side and its answer is slow to come, asks
    /// whether it is still there ([`Client::Ended`]).
    fn probe(&mut self, now: Instant) {
        let Client::Ended { probe_at: Some(at) } = self.client else {
            return;
        };
        if now < at || !matches!(self.stage, Stage::Working) {
            return;
        }
        // Fits in any socket's empty send buffer; if it does not go out whole, the
        // connection is broken.
        self.client = Client::Probed;
        if !matches!((&self.stream).write(PROBE), Ok(n) if n == PROBE.len()) {
            self.hung_up();
        }
    }

    /// The client has gone before its answer: its work is stopped, the connection
    /// closed.
    fn hung_up(&mut self) {
        self.gone.store(true, Ordering::SeqCst);
        self.stage = Stage::Done;
    }

    /// Goes on with whatever the connection was doing, now that it is ready (`broken`:
    /// an error or a hang-up came).
    fn ready(&mut self, now: Instant, config: &Config, broken: bool) {
        match &mut self.stage {
            Stage::Working => {
                let mut sink = [0u8; 4096];
                match (&self.stream).read(&mut sink) {
                    Err(e) if would_block(&e) || e.kind() == io::ErrorKind::Interrupted => {}
                    // A reset or another error: the client has gone.
                    Err(_) => return self.hung_up(),
                    // The client ended its side: it may still wait for its answer.
                    Ok(0) if matches!(self.client, Client::Open) => {
                        let probe_at = self.http11.then_some(self.working_since + PROBE_AFTER);
                        self.client = Client::Ended { probe_at };
                    }
                    // Bytes beyond the request (none of ours carries any), or the end
                    // again: dropped.
                    Ok(_) => {}
                }
                // A hang-up once the client's side has ended: both sides are closed.
                if broken && !matches!(self.client, Client::Open) {
                    self.hung_up();
                }
            }
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
            Stage::Writing { out, sent, .. } => {
                while *sent < out.len() {
                    match (&self.stream).write(&out[*sent..]) {
                        Ok(0) => {
                            self.stage = Stage::Done;
                            return;
                        }
                        Ok(n) => *sent += n,
                        Err(e) if would_block(&e) => return,
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                        Err(_) => {
                            self.stage = Stage::Done;
                            return;
                        }
                    }
                }
                self.written();
            }
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

    /// After a write: when the whole answer is out (nothing left, no part to come),
    /// shuts our side and closes or lingers.
    fn written(&mut self) {
        let Stage::Writing {
            out,
            sent,
            rest,
            making,
            after,
        } = &self.stage
        else {
            return;
        };
        if *sent < out.len() || rest.is_some() || *making {
            return;
        }
        let after = *after;
        if after != After::Abort {
            let _ = self.stream.shutdown(Shutdown::Write);
        }
        self.stage = match after {
            After::Linger => Stage::Lingering(LINGER_BYTES),
            After::Close | After::Abort => Stage::Done,
        };
    }

    /// Answers a request that could not be read, if anyone listens.
    fn refuse(&mut self, now: Instant, reject: &Reject) {
        match reject.response() {
            // Part of the request may be unread: linger.
            Some(response) => self.answer(now, response, After::Linger),
            None => self.stage = Stage::Done,
        }
    }

    /// Starts writing a small answer made by the loop itself.
    fn answer(&mut self, now: Instant, response: Response, after: After) {
        let Outgoing { ready, .. } = response.start(true, super::http::Version::Http11);
        self.deadline = Some(now + LINGER);
        self.stage = Stage::Writing {
            out: ready,
            sent: 0,
            rest: None,
            making: false,
            after,
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

/// A worker: makes answers and parts of answers, and hands them to the loop.
fn worker(tasks: &Tasks, made: &Sender<Made>, waker: &Waker, config: &Config, handler: &Handler) {
    loop {
        let Some(task) = tasks.next() else { return };
        let token = match &task {
            Task::Answer { token, .. } | Task::Part { token, .. } => *token,
        };
        let answer = matches!(task, Task::Answer { .. });
        let result = panic::catch_unwind(AssertUnwindSafe(|| make(task, config, handler)));
        let done = result.unwrap_or(Made {
            token,
            bytes: Vec::new(),
            rest: None,
            failed: true,
        });
        let last = done.rest.is_none();
        if made.send(done).is_err() {
            return;
        }
        waker.wake();
        if answer || last {
            os::trim_allocator();
        }
    }
}

/// Does one task: the answer's head and its whole body or first part, or the next part.
fn make(task: Task, config: &Config, handler: &Handler) -> Made {
    let (token, mut bytes, rest) = match task {
        Task::Answer { token, request } => {
            let response = respond(&request, config, handler);
            let (with_body, version) = (request.method != Method::Head, request.version);
            // The request's memory goes before the answer is made.
            drop(request);
            let Outgoing { ready, rest } = response.start(with_body, version);
            (token, ready, rest)
        }
        Task::Part { token, rest } => (token, Vec::with_capacity(PART + 64), Some(rest)),
    };
    let Some(mut rest) = rest else {
        return Made {
            token,
            bytes,
            rest: None,
            failed: false,
        };
    };
    match rest.next(&mut bytes) {
        Ok(more) => Made {
            token,
            bytes,
            rest: more.then_some(rest),
            failed: false,
        },
        Err(_) => Made {
            token,
            bytes,
            rest: None,
            failed: true,
        },
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
