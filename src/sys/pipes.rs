//! The standard streams of a program under test, served from one thread with waits that
//! never last longer than asked: its input is written as the program takes it, its
//! output and standard error are read as they come. A process that the program left
//! running (in its group or not) and that still holds a pipe open can keep that pipe
//! from ever ending, but it can never make the runner wait past its deadline.
//!
//! The input is either a source read as the program takes it (a test's input), or a
//! queue the caller adds to while the program runs ([`Pipes::queued`]: a conversation,
//! such as UCI's), bounded so that a program that stops reading is found out.
//!
//! On Unix this is poll(2) on the pipes ([`crate::sys::os::wait`]), with no thread at
//! all; elsewhere a thread per
//! pipe feeds a channel (a thread whose pipe is held open forever stays blocked, which
//! is the best that std offers there).

use std::io::Read;
use std::process::ChildStdin;

/// Output is read this much at a time.
const CHUNK: usize = 1 << 16;

/// One of the program's two outputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    /// Standard output.
    Stdout,
    /// Standard error.
    Stderr,
}

/// What one wait brought.
#[derive(Debug, PartialEq, Eq)]
pub enum Event<'a> {
    /// Bytes from one output.
    Data(Stream, &'a [u8]),
    /// That output has ended: every process that held it open has closed it.
    End(Stream),
    /// Nothing within the time given.
    Idle,
}

/// Why bytes for the program's input were refused ([`Pipes::send`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    /// The input is closed: the program closed it, or ended, or it was never queued.
    Closed,
    /// More than the queue's bound waits: the program does not read its input.
    Full,
}

/// The program's input: its pipe and where the bytes come from.
pub struct Input {
    /// Our end of the program's standard input.
    pub pipe: ChildStdin,
    /// The input, read as the pipe takes it.
    pub source: Box<dyn Read + Send>,
}

#[cfg(unix)]
pub use unix::Pipes;

#[cfg(unix)]
mod unix {
    use super::{Event, Input, Refused, Stream, CHUNK};
    use crate::sys::os::{self, Interest, Ready};
    use std::io::{self, Read, Write};
    use std::os::unix::io::{AsRawFd, RawFd};
    use std::process::{ChildStderr, ChildStdin, ChildStdout};
    use std::time::{Duration, Instant};

    /// A write of at most this much to a pipe that poll(2) calls writable does not
    /// wait: Linux says writable when a whole page is free, the BSDs and macOS when
    /// PIPE_BUF (512) bytes are. Writing no more keeps the input pipe from blocking us
    /// while the program waits for us to read its output.
    #[cfg(target_os = "linux")]
    const INPUT_STEP: usize = 4096;
    #[cfg(not(target_os = "linux"))]
    const INPUT_STEP: usize = 512;

    /// The input being written: what has been read from the source (or queued) and not
    /// yet written.
    struct Feeding {
        pipe: ChildStdin,
        /// Where the bytes come from; `None` for a queue, which [`Pipes::send`] fills.
        source: Option<Box<dyn Read + Send>>,
        pending: Vec<u8>,
        at: usize,
    }

    impl Feeding {
        /// Makes sure there is something to write; `false` when the input is all
        /// written (or cannot be read any further). A queue is never all written: it
        /// ends when it is closed.
        fn refill(&mut self) -> bool {
            let Some(source) = &mut self.source else {
                if self.at == self.pending.len() {
                    self.pending.clear();
                    self.at = 0;
                }
                return true;
            };
            while self.at == self.pending.len() {
                self.pending.resize(CHUNK, 0);
                self.at = 0;
                match source.read(&mut self.pending) {
                    Ok(0) => {
                        self.pending.clear();
                        return false;
                    }
                    Ok(n) => self.pending.truncate(n),
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => self.pending.clear(),
                    Err(_) => {
                        self.pending.clear();
                        return false;
                    }
                }
            }
            true
        }
    }

    /// A program's pipes, served by poll(2).
    pub struct Pipes {
        input: Option<Feeding>,
        /// The most bytes a queued input holds.
        bound: usize,
        stdout: Option<ChildStdout>,
        stderr: Option<ChildStderr>,
        buf: Vec<u8>,
        /// Standard error goes first next time both have something: neither starves.
        stderr_first: bool,
        /// A descriptor besides the pipes whose news ends a wait (see
        /// [`Pipes::wake_on`]).
        wake: Option<RawFd>,
    }

    impl Pipes {
        /// Serves the pipes given (`None` for one not piped).
        pub fn new(
            input: Option<Input>,
            stdout: Option<ChildStdout>,
            stderr: Option<ChildStderr>,
        ) -> Pipes {
            let mut pipes = Pipes {
                input: input.map(|input| Feeding {
                    pipe: input.pipe,
                    source: Some(input.source),
                    pending: Vec::new(),
                    at: 0,
                }),
                bound: 0,
                stdout,
                stderr,
                buf: vec![0; CHUNK],
                stderr_first: false,
                wake: None,
            };
            pipes.top_up();
            pipes
        }

        /// Serves the pipes given, the input from a queue of at most `bound` bytes that
        /// [`Pipes::send`] adds to.
        pub fn queued(
            stdin: ChildStdin,
            stdout: Option<ChildStdout>,
            stderr: Option<ChildStderr>,
            bound: usize,
        ) -> Pipes {
            Pipes {
                input: Some(Feeding {
                    pipe: stdin,
                    source: None,
                    pending: Vec::new(),
                    at: 0,
                }),
                bound,
                stdout,
                stderr,
                buf: vec![0; CHUNK],
                stderr_first: false,
                wake: None,
            }
        }

        /// From now on a wait in [`Pipes::next`] also ends (with [`Event::Idle`]) as soon
        /// as `fd` (open while it is set) has something to read or is closed; `None`
        /// stops that.
        pub fn wake_on(&mut self, fd: Option<RawFd>) {
            self.wake = fd;
        }

        /// Queues `bytes` for the program's input; they are written as it reads, while
        /// [`Pipes::next`] waits.
        pub fn send(&mut self, bytes: &[u8]) -> Result<(), Refused> {
            let Some(f) = self.input.as_mut().filter(|f| f.source.is_none()) else {
                return Err(Refused::Closed);
            };
            if f.pending.len() - f.at + bytes.len() > self.bound {
                return Err(Refused::Full);
            }
            f.pending.drain(..f.at);
            f.at = 0;
            f.pending.extend_from_slice(bytes);
            Ok(())
        }

        /// How many queued bytes are not written yet.
        pub fn unsent(&self) -> usize {
            self.input.as_ref().map_or(0, |f| f.pending.len() - f.at)
        }

        /// Closes the program's input (what is queued and not written is dropped): the
        /// program reads its end.
        pub fn close_input(&mut self) {
            self.input = None;
        }

        /// Closes the input once it is all written, so the program sees its end.
        fn top_up(&mut self) {
            if let Some(feeding) = &mut self.input {
                if !feeding.refill() {
                    self.input = None;
                }
            }
        }

        /// Whether an output is still open.
        pub fn outputs_open(&self) -> bool {
            self.stdout.is_some() || self.stderr.is_some()
        }

        /// Our ends of the pipes still open: the processes holding the other ends are
        /// the program and whatever it started.
        pub fn fds(&self) -> Vec<RawFd> {
            let mut fds = Vec::new();
            if let Some(f) = &self.input {
                fds.push(f.pipe.as_raw_fd());
            }
            if let Some(p) = &self.stdout {
                fds.push(p.as_raw_fd());
            }
            if let Some(p) = &self.stderr {
                fds.push(p.as_raw_fd());
            }
            fds
        }

        /// Waits at most `wait` for something from an output, writing input meanwhile
        /// as the program takes it. With no pipe open, just waits.
        pub fn next(&mut self, wait: Duration) -> io::Result<Event<'_>> {
            let until = Instant::now() + wait;
            let read = Ready {
                read: true,
                ..Ready::default()
            };
            loop {
                let mut watches = Vec::with_capacity(3);
                // A queue with nothing in it has nothing to wait for.
                if let Some(f) = self.input.as_ref().filter(|f| f.at < f.pending.len()) {
                    let write = Ready {
                        write: true,
                        ..Ready::default()
                    };
                    watches.push(Interest::new(&f.pipe, write));
                }
                let first = watches.len();
                // Whichever output did not go first last time goes first now: neither
                // starves.
                let mut outputs = Vec::with_capacity(2);
                let order = if self.stderr_first {
                    [Stream::Stderr, Stream::Stdout]
                } else {
                    [Stream::Stdout, Stream::Stderr]
                };
                for stream in order {
                    let watch = match stream {
                        Stream::Stdout => self.stdout.as_ref().map(|p| Interest::new(p, read)),
                        Stream::Stderr => self.stderr.as_ref().map(|p| Interest::new(p, read)),
                    };
                    if let Some(w) = watch {
                        outputs.push(stream);
                        watches.push(w);
                    }
                }
                let left = until.saturating_duration_since(Instant::now());
                if watches.is_empty() && self.wake.is_none() {
                    std::thread::sleep(left);
                    return Ok(Event::Idle);
                }
                let woken = watches.len();
                if let Some(fd) = self.wake {
                    watches.push(Interest::new(&fd, read));
                }
                // A signal ends the wait early with nothing ready: the loop waits again.
                os::wait(&mut watches, Some(left))?;
                let wake = watches
                    .get(woken)
                    .is_some_and(|w| w.got.read || w.got.broken);
                watches.truncate(woken);
                let input = watches[..first].first().map(|w| w.got);
                if let Some(got) = input.filter(|g| g.write || g.broken) {
                    self.write_input(got.write);
                }
                let ready_output = outputs
                    .iter()
                    .zip(&watches[first..])
                    .find(|(_, w)| w.got.read || w.got.broken)
                    .map(|(&stream, _)| stream);
                if let Some(stream) = ready_output {
                    self.stderr_first = stream == Stream::Stdout;
                    return Ok(self.read(stream));
                }
                if wake || Instant::now() >= until {
                    return Ok(Event::Idle);
                }
            }
        }

        /// Writes one step of input; on an error (the program closed its input) or when
        /// the pipe reports only a hang-up, the input is closed.
        fn write_input(&mut self, writable: bool) {
            let Some(f) = &mut self.input else { return };
            if !writable {
                self.input = None;
                return;
            }
            let end = (f.at + INPUT_STEP).min(f.pending.len());
            match f.pipe.write(&f.pending[f.at..end]) {
                Ok(n) => f.at += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                // A program that stops reading early closes the pipe: not our problem.
                Err(_) => {
                    self.input = None;
                    return;
                }
            }
            self.top_up();
        }

        /// Reads what `stream` has; poll(2) said it would not wait.
        fn read(&mut self, stream: Stream) -> Event<'_> {
            let got = loop {
                let result = match stream {
                    Stream::Stdout => self.stdout.as_mut().map(|p| p.read(&mut self.buf)),
                    Stream::Stderr => self.stderr.as_mut().map(|p| p.read(&mut self.buf)),
                };
                match result {
                    Some(Err(e)) if e.kind() == io::ErrorKind::Interrupted => {}
                    other => break other,
                }
            };
            match got {
                Some(Ok(n)) if n > 0 => Event::Data(stream, &self.buf[..n]),
                _ => {
                    match stream {
                        Stream::Stdout => self.stdout = None,
                        Stream::Stderr => self.stderr = None,
                    }
                    Event::End(stream)
                }
            }
        }
    }
}

#[cfg(not(unix))]
pub use other::Pipes;

#[cfg(not(unix))]
mod other {
    use super::{Event, Input, Refused, Stream, CHUNK};
    use std::io::{self, Read, Write};
    use std::process::{ChildStderr, ChildStdin, ChildStdout};
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
    use std::sync::Arc;
    use std::thread;
    use std::time::Duration;

    enum Message {
        Data(Stream, Vec<u8>),
        End(Stream),
    }

    /// A queued input: the writer thread's queue and the bytes in it not yet written.
    struct Queue {
        to: mpsc::Sender<Vec<u8>>,
        unsent: Arc<AtomicUsize>,
        bound: usize,
    }

    /// A program's pipes, each served by a thread of its own.
    pub struct Pipes {
        queue: Option<Queue>,
        messages: Receiver<Message>,
        stdout: bool,
        stderr: bool,
        current: Vec<u8>,
    }

    fn reader(mut pipe: impl Read, stream: Stream, to: SyncSender<Message>) {
        let mut buf = vec![0; CHUNK];
        loop {
            match pipe.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => {
                    if to.send(Message::Data(stream, buf[..n].to_vec())).is_err() {
                        return;
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => break,
            }
        }
        let _ = to.send(Message::End(stream));
    }

    impl Pipes {
        /// Serves the pipes given (`None` for one not piped).
        pub fn new(
            input: Option<Input>,
            stdout: Option<ChildStdout>,
            stderr: Option<ChildStderr>,
        ) -> Pipes {
            if let Some(mut input) = input {
                thread::spawn(move || {
                    // A program that stops reading early closes the pipe: not our problem.
                    let _ = io::copy(&mut input.source, &mut input.pipe);
                });
            }
            Pipes::outputs(None, stdout, stderr)
        }

        /// Serves the pipes given, the input from a queue of at most `bound` bytes that
        /// [`Pipes::send`] adds to (a thread writes it).
        pub fn queued(
            mut stdin: ChildStdin,
            stdout: Option<ChildStdout>,
            stderr: Option<ChildStderr>,
            bound: usize,
        ) -> Pipes {
            let (to, queue) = mpsc::channel::<Vec<u8>>();
            let unsent = Arc::new(AtomicUsize::new(0));
            let left = Arc::clone(&unsent);
            thread::spawn(move || {
                for bytes in queue {
                    let written = stdin.write_all(&bytes).and_then(|()| stdin.flush());
                    left.fetch_sub(bytes.len(), Ordering::SeqCst);
                    // A program that stops reading early closes the pipe: the queue
                    // ends with this thread, and the next send finds it closed.
                    if written.is_err() {
                        return;
                    }
                }
            });
            let queue = Queue { to, unsent, bound };
            Pipes::outputs(Some(queue), stdout, stderr)
        }

        fn outputs(
            queue: Option<Queue>,
            stdout: Option<ChildStdout>,
            stderr: Option<ChildStderr>,
        ) -> Pipes {
            let (to, messages) = mpsc::sync_channel(4);
            let (has_out, has_err) = (stdout.is_some(), stderr.is_some());
            if let Some(p) = stdout {
                let to = to.clone();
                thread::spawn(move || reader(p, Stream::Stdout, to));
            }
            if let Some(p) = stderr {
                thread::spawn(move || reader(p, Stream::Stderr, to));
            }
            Pipes {
                queue,
                messages,
                stdout: has_out,
                stderr: has_err,
                current: Vec::new(),
            }
        }

        /// Whether an output is still open.
        pub fn outputs_open(&self) -> bool {
            self.stdout || self.stderr
        }

        /// Queues `bytes` for the program's input, for the writer thread.
        pub fn send(&mut self, bytes: &[u8]) -> Result<(), Refused> {
            let Some(q) = &self.queue else {
                return Err(Refused::Closed);
            };
            if q.unsent.load(Ordering::SeqCst) + bytes.len() > q.bound {
                return Err(Refused::Full);
            }
            q.unsent.fetch_add(bytes.len(), Ordering::SeqCst);
            if q.to.send(bytes.to_vec()).is_err() {
                self.queue = None;
                return Err(Refused::Closed);
            }
            Ok(())
        }

        /// How many queued bytes are not written yet.
        pub fn unsent(&self) -> usize {
            self.queue
                .as_ref()
                .map_or(0, |q| q.unsent.load(Ordering::SeqCst))
        }

        /// Closes the program's input once the writer thread has written what it holds.
        pub fn close_input(&mut self) {
            self.queue = None;
        }

        /// No descriptors to look for elsewhere.
        pub fn fds(&self) -> Vec<i32> {
            Vec::new()
        }

        /// Nothing else to wake on here.
        pub fn wake_on(&mut self, _fd: Option<i32>) {}

        /// Waits at most `wait` for something from an output.
        pub fn next(&mut self, wait: Duration) -> io::Result<Event<'_>> {
            if !self.outputs_open() {
                thread::sleep(wait);
                return Ok(Event::Idle);
            }
            Ok(match self.messages.recv_timeout(wait) {
                Ok(Message::Data(stream, bytes)) => {
                    self.current = bytes;
                    Event::Data(stream, &self.current)
                }
                Ok(Message::End(stream)) => {
                    match stream {
                        Stream::Stdout => self.stdout = false,
                        Stream::Stderr => self.stderr = false,
                    }
                    Event::End(stream)
                }
                Err(RecvTimeoutError::Timeout) => Event::Idle,
                Err(RecvTimeoutError::Disconnected) => {
                    self.stdout = false;
                    self.stderr = false;
                    Event::Idle
                }
            })
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};

    fn spawn(program: &str, args: &[&str]) -> std::process::Child {
        Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("starts")
    }

    #[test]
    fn input_and_output_flow_together_through_one_thread() {
        // Far more than both pipes hold: writing it all before reading would deadlock.
        let input: Vec<u8> = (0..600_000u32).map(|i| (i % 251) as u8).collect();
        let mut child = spawn("cat", &[]);
        let source = Box::new(std::io::Cursor::new(input.clone()));
        let pipe = child.stdin.take().expect("piped");
        let mut pipes = Pipes::new(
            Some(Input { pipe, source }),
            child.stdout.take(),
            child.stderr.take(),
        );
        let mut output = Vec::new();
        let give_up = Instant::now() + Duration::from_secs(60);
        while pipes.outputs_open() && Instant::now() < give_up {
            if let Event::Data(Stream::Stdout, bytes) =
                pipes.next(Duration::from_millis(100)).expect("polls")
            {
                output.extend_from_slice(bytes);
            }
        }
        assert!(output == input, "{} of {} bytes", output.len(), input.len());
        assert!(child.wait().expect("ends").success());
    }

    #[test]
    fn a_queued_input_is_written_as_the_program_reads_and_bounded_when_it_does_not() {
        // A conversation: each line sent comes back before the next is sent.
        let mut child = spawn("cat", &[]);
        let stdin = child.stdin.take().expect("piped");
        let mut pipes = Pipes::queued(stdin, child.stdout.take(), None, 1000);
        let give_up = Instant::now() + Duration::from_secs(60);
        for line in ["uci\n", "isready\n", "quit\n"] {
            pipes.send(line.as_bytes()).expect("queued");
            let mut back = Vec::new();
            while back != line.as_bytes() && Instant::now() < give_up {
                if let Event::Data(Stream::Stdout, bytes) =
                    pipes.next(Duration::from_millis(100)).expect("polls")
                {
                    back.extend_from_slice(bytes);
                }
            }
            assert_eq!(back, line.as_bytes());
            assert_eq!(pipes.unsent(), 0);
        }
        // Closed, the program reads the end of its input and ends.
        pipes.close_input();
        assert_eq!(pipes.send(b"more\n"), Err(Refused::Closed));
        while pipes.outputs_open() && Instant::now() < give_up {
            pipes.next(Duration::from_millis(100)).expect("polls");
        }
        assert!(child.wait().expect("ends").success());

        // A program that never reads: what its pipe does not take waits in the queue,
        // up to the bound.
        let mut child = spawn("sleep", &["10"]);
        let stdin = child.stdin.take().expect("piped");
        let mut pipes = Pipes::queued(stdin, child.stdout.take(), None, 1000);
        let block = [b'x'; 500];
        let mut refused = None;
        for _ in 0..10_000 {
            if let Err(e) = pipes.send(&block) {
                refused = Some(e);
                break;
            }
            pipes.next(Duration::from_millis(1)).expect("polls");
        }
        let _ = child.kill();
        let _ = child.wait();
        assert_eq!(refused, Some(Refused::Full));
        assert!(pipes.unsent() <= 1000, "{}", pipes.unsent());
    }

    #[test]
    fn a_quiet_open_pipe_never_holds_a_wait_longer_than_asked() {
        let mut child = spawn("sleep", &["10"]);
        let mut pipes = Pipes::new(None, child.stdout.take(), child.stderr.take());
        let start = Instant::now();
        let event = pipes.next(Duration::from_millis(50)).expect("polls");
        let took = start.elapsed();
        let _ = child.kill();
        let _ = child.wait();
        assert_eq!(event, Event::Idle);
        assert!(took >= Duration::from_millis(50), "{took:?}");
        assert!(took < Duration::from_secs(2), "{took:?}");
        // Once it is gone, both outputs end.
        let mut ended = Vec::new();
        while pipes.outputs_open() {
            if let Event::End(stream) = pipes.next(Duration::from_secs(5)).expect("polls") {
                ended.push(stream);
            }
        }
        ended.sort_by_key(|s| *s == Stream::Stderr);
        assert_eq!(ended, [Stream::Stdout, Stream::Stderr]);
    }
}
