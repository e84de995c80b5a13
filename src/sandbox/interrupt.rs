//! What the interrupt handlers of [`super::group`] (a Unix signal handler) and
//! [`super::job`] (the Windows console's control handler) share. The note: the line an
//! interrupted run writes on standard error before it ends (how far it got, how to run
//! it again), set whole by the run as it goes; a handler may run at any moment, so the
//! line is kept where one atomic load reaches it, and rendered into a buffer on the
//! stack: no allocation, no lock. And the gate that keeps a program from starting once
//! a handler is ending the process.

use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

/// The note: `head`, the count, `tail`. Set whole, never freed, so that a handler reads
/// it with one atomic load.
struct Note {
    head: &'static [u8],
    tail: &'static [u8],
}

static NOTE: AtomicPtr<Note> = AtomicPtr::new(std::ptr::null_mut());
/// The count the note says.
static COUNT: AtomicU64 = AtomicU64::new(0);

/// The longest line a handler writes (a longer note is cut there).
pub const MAX: usize = 512;

/// Sets the note to `head`, the count, `tail` and a line end. Each call leaks its line
/// (a few per run): a handler may be reading the one before.
pub fn set(head: &str, tail: &str) {
    let note = Note {
        head: Box::leak(head.as_bytes().to_vec().into_boxed_slice()),
        tail: Box::leak(format!("{tail}\n").into_bytes().into_boxed_slice()),
    };
    NOTE.store(Box::into_raw(Box::new(note)), Ordering::SeqCst);
}

/// Adds `n` to the count the note says.
pub fn count(n: u64) {
    COUNT.fetch_add(n, Ordering::Relaxed);
}

/// Renders the note into `line`; its length, or `None` when no note is set. Safe in a
/// signal handler: atomics and the stack only.
pub fn render(line: &mut [u8; MAX]) -> Option<usize> {
    let note = NOTE.load(Ordering::SeqCst);
    if note.is_null() {
        return None;
    }
    // SAFETY: a note is leaked when set and never freed or changed.
    let note = unsafe { &*note };
    let mut digits = [0u8; 20];
    let count = decimal(COUNT.load(Ordering::Relaxed), &mut digits);
    let mut len = 0;
    for part in [note.head, count, note.tail] {
        let take = part.len().min(line.len() - len);
        line[len..len + take].copy_from_slice(&part[..take]);
        len += take;
    }
    Some(len)
}

/// `n` in decimal digits, written into `digits`: for a signal handler, which may not
/// allocate.
pub fn decimal(mut n: u64, digits: &mut [u8; 20]) -> &[u8] {
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    &digits[at..]
}

/// Announces a program about to start in `starting`, which a handler waits for before
/// it ends the programs; then, if `ending` says a handler is ending the process, waits
/// for the end rather than start it. Announced after this returns: the caller takes it
/// back once the program is where the handler finds it.
pub fn announce_start(starting: &AtomicUsize, ending: &AtomicBool) {
    starting.fetch_add(1, Ordering::SeqCst);
    // Looked at after announcing the start: either the handler waits for this program
    // and ends it, or this sees that the process is ending. Then the handler, on
    // another thread, ends the process within a few seconds; this thread waits for
    // that rather than start a program or report an error.
    if ending.load(Ordering::SeqCst) {
        starting.fetch_sub(1, Ordering::SeqCst);
        loop {
            std::thread::sleep(Duration::from_secs(1));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_note_is_head_count_tail_and_cut_at_its_limit() {
        let mut line = [0u8; MAX];
        set("tried: ", "; seed 7");
        count(41);
        count(1);
        let len = render(&mut line).expect("a note is set");
        assert_eq!(&line[..len], b"tried: 42; seed 7\n");
        set(&"x".repeat(2 * MAX), "");
        assert_eq!(render(&mut line), Some(MAX));
        assert!(line.iter().all(|&b| b == b'x'));
        let mut digits = [0u8; 20];
        assert_eq!(decimal(0, &mut digits), b"0");
        assert_eq!(decimal(u64::MAX, &mut digits), b"18446744073709551615");
    }
}
