//! Tests of the CQOI 2013 chase solver: library API against an independent minimax, known
//! closed forms, and the command line.

use crate::common;

use duckchess::chase::{self, ChaseError, Outcome, Piece, Table};

/// All ordered placements of the two pieces on distinct squares (1-based).
fn placements(n: u32) -> Vec<((u32, u32), (u32, u32))> {
    let squares: Vec<(u32, u32)> = (1..=n).flat_map(|r| (1..=n).map(move |c| (r, c))).collect();
    let mut out = Vec::new();
    for &w in &squares {
        for &b in &squares {
            if w != b {
                out.push((w, b));
            }
        }
    }
    out
}

fn table(n: u32) -> Table {
    chase::solve_all(n).expect("valid board size")
}

/// A contestant-style reference: memoised depth-bounded search with iterative deepening.
///
/// `search(side, w, b, depth)` says whether the side to move can force a capture within `depth`
/// moves (1), will surely be captured within `depth` moves (-1), or neither (0). The first depth
/// at which the start position is decided is the exact game length under the rules "win fast,
/// lose slowly". It knows nothing about retrograde analysis or symmetry.
struct Minimax {
    n: i32,
    limit: usize,
    /// Indexed by side, white square, black square and depth; `UNKNOWN` until computed.
    memo: Vec<i8>,
}

const UNKNOWN: i8 = 2;

impl Minimax {
    fn new(n: u32) -> Minimax {
        let n = n as i32;
        // Far above any game length that occurs, so running out of depth means a draw.
        let limit = (2 * n * n + 8) as usize;
        let cells = (n * n) as usize;
        Minimax {
            n,
            limit,
            memo: vec![UNKNOWN; 2 * cells * cells * (limit + 1)],
        }
    }

    fn key(&self, black: bool, w: (i32, i32), b: (i32, i32), depth: usize) -> usize {
        let cells = (self.n * self.n) as usize;
        let wi = (w.0 * self.n + w.1) as usize;
        let bi = (b.0 * self.n + b.1) as usize;
        (((usize::from(black) * cells + wi) * cells + bi) * (self.limit + 1)) + depth
    }

    fn on(&self, p: (i32, i32)) -> bool {
        p.0 >= 0 && p.0 < self.n && p.1 >= 0 && p.1 < self.n
    }

    fn moves(&self, black: bool, from: (i32, i32)) -> Vec<(i32, i32)> {
        let mut out = Vec::new();
        let reach = if black { 2 } else { 1 };
        for (dr, dc) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
            for k in 1..=reach {
                let p = (from.0 + dr * k, from.1 + dc * k);
                if self.on(p) {
                    out.push(p);
                }
            }
        }
        out
    }

    fn search(&mut self, black: bool, w: (i32, i32), b: (i32, i32), depth: usize) -> i8 {
        if depth == 0 {
            return 0;
        }
        let key = self.key(black, w, b, depth);
        if self.memo[key] != UNKNOWN {
            return self.memo[key];
        }
        let (mine, theirs) = if black { (b, w) } else { (w, b) };
        let targets = self.moves(black, mine);
        let result = if targets.contains(&theirs) {
            1
        } else {
            let mut all_lose = true;
            let mut win = false;
            for t in targets {
                let r = if black {
                    self.search(false, w, t, depth - 1)
                } else {
                    self.search(true, t, b, depth - 1)
                };
                if r == -1 {
                    win = true;
                    break;
                }
                if r != 1 {
                    all_lose = false;
                }
            }
            if win {
                1
            } else if all_lose {
                -1
            } else {
                0
            }
        };
        self.memo[key] = result;
        result
    }

    fn outcome(&mut self, white: (u32, u32), black: (u32, u32)) -> Outcome {
        let w = (white.0 as i32 - 1, white.1 as i32 - 1);
        let b = (black.0 as i32 - 1, black.1 as i32 - 1);
        for depth in 1..=self.limit {
            match self.search(false, w, b, depth) {
                1 => return Outcome::White(depth as u32),
                -1 => return Outcome::Black(depth as u32),
                _ => {}
            }
        }
        Outcome::Draw
    }
}

#[test]
fn sample_is_black_in_two() {
    assert_eq!(chase::solve(2, (1, 1), (2, 2)), Ok(Outcome::Black(2)));
    assert_eq!(Outcome::Black(2).to_string(), "BLACK 2");
    assert_eq!(Outcome::White(1).to_string(), "WHITE 1");
    assert_eq!(Outcome::Draw.to_string(), "DRAW");
}

#[test]
fn every_position_up_to_seven_matches_minimax() {
    for n in 2..=7 {
        let t = table(n);
        let mut reference = Minimax::new(n);
        for (w, b) in placements(n) {
            let expected = reference.outcome(w, b);
            assert_eq!(
                t.outcome(w, b),
                Ok(expected),
                "n = {n}, white {w:?}, black {b:?}"
            );
        }
    }
}

#[test]
fn single_queries_match_the_full_table() {
    // `solve` stops early; the full table runs every layer. They must agree everywhere.
    for n in 2..=8 {
        let t = table(n);
        for (w, b) in placements(n) {
            assert_eq!(
                chase::solve(n, w, b),
                t.outcome(w, b),
                "n = {n} {w:?} {b:?}"
            );
        }
    }
    let t = table(23);
    for (w, b) in [
        ((1, 1), (23, 23)),
        ((12, 12), (1, 1)),
        ((5, 17), (18, 2)),
        ((3, 4), (3, 5)),
    ] {
        assert_eq!(
            chase::solve(23, w, b),
            t.outcome(w, b),
            "n = 23 {w:?} {b:?}"
        );
    }
}

#[test]
fn white_wins_only_from_an_adjacent_start() {
    for n in 2..=12 {
        let t = table(n);
        for (w, b) in placements(n) {
            let adjacent = w.0.abs_diff(b.0) + w.1.abs_diff(b.1) == 1;
            let outcome = t.outcome(w, b).expect("valid position");
            if adjacent {
                assert_eq!(outcome, Outcome::White(1), "n = {n} {w:?} {b:?}");
            } else {
                assert!(
                    matches!(outcome, Outcome::Black(_)),
                    "n = {n} {w:?} {b:?}: {outcome}"
                );
            }
        }
    }
}

#[test]
fn corner_against_same_row_closed_form() {
    for n in 3..=30u32 {
        let t = table(n);
        for c in 3..=n {
            let expected = Outcome::Black(2 * n + 4 * ((c - 2) / 4));
            assert_eq!(t.outcome((1, 1), (1, c)), Ok(expected), "n = {n}, c = {c}");
        }
    }
}

#[test]
fn no_draws_and_census_adds_up() {
    for n in 2..=16u32 {
        let (white, black) = table(n).census();
        let total = u64::from(n * n) * u64::from(n * n - 1);
        assert_eq!(white.white_wins + white.black_wins + white.draws, total);
        assert_eq!(black.white_wins + black.black_wins + black.draws, total);
        assert_eq!(white.draws, 0, "n = {n}");
        assert_eq!(black.draws, 0, "n = {n}");
        // White to move wins exactly from the adjacent placements.
        assert_eq!(
            white.white_wins,
            4 * u64::from(n) * u64::from(n - 1),
            "n = {n}"
        );
    }
}

#[test]
fn api_rejects_bad_positions() {
    assert_eq!(
        chase::solve(1, (1, 1), (1, 1)),
        Err(ChaseError::BoardTooSmall { n: 1 })
    );
    assert_eq!(
        chase::solve(101, (1, 1), (1, 2)),
        Err(ChaseError::BoardTooLarge { n: 101 })
    );
    assert_eq!(
        chase::solve(5, (0, 1), (1, 2)),
        Err(ChaseError::OffBoard {
            piece: Piece::White,
            row: 0,
            col: 1,
            n: 5
        })
    );
    assert_eq!(
        chase::solve(5, (1, 1), (1, 6)),
        Err(ChaseError::OffBoard {
            piece: Piece::Black,
            row: 1,
            col: 6,
            n: 5
        })
    );
    assert_eq!(
        chase::solve(5, (3, 3), (3, 3)),
        Err(ChaseError::SameSquare { row: 3, col: 3 })
    );
    assert!(chase::solve_all(0).is_err());
    assert!(chase::solve_all(200).is_err());
}

#[test]
fn parser_accepts_any_whitespace_and_rejects_junk() {
    let q = chase::parse_query("\n 2\t1 1\r\n2   2\n").expect("valid input");
    assert_eq!((q.n, q.white, q.black), (2, (1, 1), (2, 2)));
    assert_eq!(
        chase::parse_query("2 1 1 2"),
        Err(ChaseError::MissingNumbers { found: 4 })
    );
    assert!(matches!(
        chase::parse_query("2 1 x 2 2"),
        Err(ChaseError::NotAnInteger { position: 3, .. })
    ));
    assert!(matches!(
        chase::parse_query("99999999999999999999999 1 1 2 2"),
        Err(ChaseError::IntegerOutOfRange { position: 1, .. })
    ));
    assert!(matches!(
        chase::parse_query("2 1 1 2 2 7"),
        Err(ChaseError::ExtraInput { position: 6, .. })
    ));
    assert_eq!(
        chase::parse_query("5 -1 1 2 2"),
        Err(ChaseError::OffBoard {
            piece: Piece::White,
            row: -1,
            col: 1,
            n: 5
        })
    );
}

/// Runs `duckchess chase` with `args` and `input` on stdin; returns (status, stdout,
/// stderr).
fn run(args: &[&str], input: impl AsRef<[u8]>) -> (i32, String, String) {
    let mut all = vec!["chase"];
    all.extend_from_slice(args);
    let out = common::run(&all, input.as_ref());
    (
        out.status.code().unwrap_or(-1),
        common::stdout(&out),
        common::stderr(&out),
    )
}

#[test]
fn cli_sample() {
    assert_eq!(
        run(&[], "2 1 1 2 2\n"),
        (0, "BLACK 2\n".into(), String::new())
    );
    assert_eq!(
        run(&[], "4 2 2 2 3"),
        (0, "WHITE 1\n".into(), String::new())
    );
}

#[test]
fn cli_help() {
    for flag in ["--help", "-h"] {
        let (status, out, err) = run(&[flag], "");
        assert_eq!(status, 0);
        assert!(err.is_empty());
        assert!(out.contains("n r1 c1 r2 c2"), "{out}");
        assert!(out.contains("WHITE k"), "{out}");
        assert!(out.contains("two squares"), "{out}");
    }
}

#[test]
fn cli_usage_errors() {
    for args in [&["--frobnicate"][..], &["-x"], &["5"]] {
        let (status, out, err) = run(args, "2 1 1 2 2");
        assert_eq!(status, 2, "{args:?}");
        assert!(out.is_empty());
        assert!(err.starts_with("duckchess: chase: "), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    let (_, _, err) = run(&["--frobnicate"], "");
    assert_eq!(
        err,
        "duckchess: chase: unknown option --frobnicate (see 'duckchess chase --help')\n"
    );
}

#[test]
fn cli_bad_input() {
    let cases = [
        (
            "",
            "expected 5 integers 'n r1 c1 r2 c2', found end of input after 0",
        ),
        ("2 1 1 2", "found end of input after 4"),
        (
            "2 1 one 2 2",
            "expected an integer (c1, token 3), found \"one\"",
        ),
        (
            "2.5 1 1 2 2",
            "expected an integer (n, token 1), found \"2.5\"",
        ),
        ("1 1 1 1 2", "n = 1 is below the smallest board size, 2"),
        ("-4 1 1 1 2", "n = -4 is below"),
        ("101 1 1 2 2", "n = 101 is above the supported limit 100"),
        (
            "5 0 1 2 2",
            "the white piece at (0, 1) is off the 5 x 5 board",
        ),
        ("5 1 6 2 2", "white piece at (1, 6) is off"),
        ("5 1 1 6 2", "black piece at (6, 2) is off"),
        ("5 1 1 2 -3", "black piece at (2, -3) is off"),
        ("5 3 3 3 3", "the white and black pieces are both at (3, 3)"),
        (
            "5 1 1 2 2 9",
            "expected end of input after 'n r1 c1 r2 c2', found \"9\" (token 6)",
        ),
        (
            "99999999999999999999999 1 1 2 2",
            "n = 99999999999999999999999 (token 1) is too large for any board",
        ),
    ];
    for (input, needle) in cases {
        let (status, out, err) = run(&[], input);
        assert_eq!(status, 1, "{input:?}");
        assert!(out.is_empty(), "{input:?}: {out}");
        assert!(err.starts_with("duckchess: chase: "), "{input:?}: {err}");
        assert!(err.contains(needle), "{input:?}: {err}");
        assert!(err.ends_with('\n') && err.lines().count() == 1, "{err:?}");
    }
    let (status, _, err) = run(&[], b"\xff\xfe 1 1 2 2");
    assert_eq!(status, 1);
    assert_eq!(
        err,
        "duckchess: chase: expected an integer (n, token 1), found \"\u{fffd}\u{fffd}\"\n"
    );
    let (_, _, err) = run(&[], "101 1 1 2 2");
    assert_eq!(
        err,
        "duckchess: chase: n = 101 is above the supported limit 100\n"
    );
}

/// The census behind the DRAW question: every position of every supported board size.
#[test]
#[ignore = "slow: the full tier runs it"]
fn census_of_every_supported_board() {
    for n in 2..=chase::MAX_N {
        let t = table(n);
        let (white, black) = t.census();
        let adjacent = 4 * u64::from(n) * u64::from(n - 1);
        println!("n = {n}: white to move {white:?}, black to move {black:?}");
        assert_eq!(white.draws, 0, "n = {n}");
        assert_eq!(black.draws, 0, "n = {n}");
        assert_eq!(white.white_wins, adjacent, "n = {n}");
    }
}

/// Only the five numbers are read, through a fixed buffer: a 50 MB token is refused as
/// a short one is (its memory: the next test).
#[test]
fn cli_memory_is_flat_on_huge_input() {
    let mut input = vec![b'1'; 50 << 20];
    input.extend_from_slice(b" 1 1 2 2\n");
    let (status, out, err) = run(&[], &input);
    assert_eq!(status, 1);
    assert!(out.is_empty());
    assert_eq!(
        err,
        format!(
            "duckchess: chase: n = {}... (token 1) is too large for any board\n",
            "1".repeat(32)
        )
    );
}

/// The same 50 MB token, its peak memory measured by GNU time.
#[test]
#[cfg_attr(
    lacks_gnu_time,
    ignore = "needs GNU time (/usr/bin/time; apt-get install time)"
)]
fn cli_memory_stays_small_on_huge_input() {
    let mut input = vec![b'1'; 50 << 20];
    input.extend_from_slice(b" 1 1 2 2\n");
    let time = std::path::Path::new("/usr/bin/time");
    assert!(time.exists(), "cannot run here: /usr/bin/time is absent");
    let out = common::run_program(
        time,
        &["-f", "%M", env!("CARGO_BIN_EXE_duckchess"), "chase"],
        &input,
    );
    let peak_kb: u64 = common::stderr(&out)
        .lines()
        .last()
        .and_then(|l| l.trim().parse().ok())
        .expect("GNU time prints the peak RSS in KB");
    assert!(
        peak_kb < 16 * 1024,
        "peak RSS {peak_kb} KB on a 50 MB input"
    );
}
