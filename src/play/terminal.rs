//! Terminal play: the contest's clickable "toy" brought to a text prompt, plus the
//! computer opponent. People type moves as the judge reads them (`xs ys xt yt`), or in
//! any other notation the project prints ([`written`]: UCI's `b1c3`, `trace`'s
//! `(0, 1) -> (2, 2)`, ...), and the board names its edges in the judge's numbers and
//! UCI's files and ranks both. Every move goes through [`Game::play`], so an illegal
//! one is refused with the judge's exact reason. Works the same on a terminal and with
//! piped input, which is how it is tested.
//!
//! Games are saved and loaded in the format of [`crate::play::saved`].

use crate::cli::{self};
use crate::engine::search::{self, Context, Engine, Limits};
use crate::judge;
use crate::judge::board::Board;
use crate::judge::game::{Game, Moved};
use crate::judge::piece::{Color, Piece, Square};
use crate::judge::rules::{self, Move};
use crate::judge::scan::Cmd;
use crate::play::arena::MAX_MOVES;
use crate::play::level::{self, Strength};
use crate::play::review::units;
use crate::play::saved::{load_text, parse_int, save_text};
use crate::play::written::{self, Written};
use crate::show::render::{self, Marks, Style};
use crate::sys::{file, lines};
use std::io::{self, BufRead, Write};

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Controller {
    /// Moves typed at the prompt.
    Human,
    /// The computer opponent.
    Ai,
}

impl Controller {
    fn name(self) -> &'static str {
        match self {
            Controller::Human => "human",
            Controller::Ai => "ai",
        }
    }
}

/// How a session is set up.
#[derive(Clone, Debug)]
pub struct Options {
    /// Who plays red and blue, indexed by [`Color::index`].
    pub players: [Controller; 2],
    /// How long or deep the computer thinks per move (at full strength; a weakened
    /// level searches its own number of nodes).
    pub limits: Limits,
    /// How strong the computer plays, and the seed of its choices.
    pub strength: Strength,
    /// The threads the full engine searches on (a weakened level uses one).
    pub threads: usize,
    /// The position the game starts from.
    pub start: Board,
    /// How the board is drawn.
    pub style: Style,
    /// Whether to repeat each command after the prompt, so that a transcript of piped
    /// input reads like a terminal session.
    pub echo: bool,
}

/// The longest command line read; the rest of a longer line is skipped.
const LINE_MAX: usize = 4096;

const COMMANDS: &str = "\
commands:
  xs ys xt yt   move the piece on (xs, ys) to (xt, yt), as the judge reads it;
                also as UCI writes it (b1c3), as trace does ((0, 1) -> (2, 2)),
                as the board's address packs it (0122), or after its piece, as
                analyze names it (red horse 0 1 2 2)
  X Y           select the piece on (X, Y), or on b1: [ ] marks it, ( ) its
                legal targets
  moves X Y     the same
  history       the moves so far, each with the judge's output line
  undo          take back the last move (and the computer's reply to it), or a
                resignation
  new           start again from the first position
  resign        the side to move gives up
  save FILE     save the game (position, then the judge input of the moves)
  load FILE     load a saved game, or a judge input (Q and the commands)
  board         show the board again
  help          this list
  quit          leave (so does the end of the input)
The board's edges: rows and columns as the judge numbers them on the left and at
the top, ranks and files as UCI names them on the right and at the bottom.
The computer's score is the mover's advantage in material units (a horse is 3.00).
";

/// Why the session stopped accepting moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Halt {
    Resigned(Color),
    MoveLimit,
    Stuck(Color),
}

/// A game at the prompt.
struct Session<W: Write> {
    options: Options,
    start: Board,
    moves: Vec<Move>,
    game: Game,
    halt: Option<Halt>,
    engine: Engine,
    out: W,
}

impl<W: Write> Session<W> {
    fn board(&self) -> &Board {
        self.game.board()
    }

    fn controller(&self, side: Color) -> Controller {
        self.options.players[side.index()]
    }

    fn active(&self) -> bool {
        self.halt.is_none() && !self.board().is_over()
    }

    /// Replaces the game by `start` with `moves` played (all known to be valid).
    fn reset(&mut self, start: Board, moves: Vec<Move>) {
        let mut game = Game::from_board(start.clone());
        for m in &moves {
            let _ = game.play(
                m.from.x().into(),
                m.from.y().into(),
                m.to.x().into(),
                m.to.y().into(),
            );
        }
        self.start = start;
        self.moves = moves;
        self.game = game;
        self.halt = None;
    }

    fn show(&mut self, highlight: &[Square]) -> io::Result<()> {
        self.show_marked(Marks {
            last: self.moves.last().copied(),
            highlight,
            selected: None,
        })
    }

    fn show_marked(&mut self, marks: Marks<'_>) -> io::Result<()> {
        let diagram = render::diagram(self.board(), self.options.style, marks);
        let status = match self.halt {
            Some(Halt::Resigned(c)) => {
                format!("game over: {c} resigned, {} wins", c.opponent())
            }
            Some(Halt::MoveLimit) => {
                format!("game over: draw, {MAX_MOVES} plies without a captain capture")
            }
            Some(Halt::Stuck(c)) => format!("game over: draw, {c} has no legal move"),
            None => render::status(self.board()),
        };
        writeln!(self.out, "{diagram}{status}")?;
        // The computer may think for a while next: show the position now.
        self.out.flush()
    }

    fn say(&mut self, text: &str) -> io::Result<()> {
        writeln!(self.out, "{text}")
    }

    /// Plays `c` for the side to move and reports what happened.
    fn play(&mut self, c: Cmd, by_ai: bool) -> io::Result<()> {
        let side = self.board().side_to_move();
        match self.game.validate(c[0], c[1], c[2], c[3]) {
            Err(e) => self.say(&format!(
                "invalid move {} {} {} {}: {e}",
                c[0], c[1], c[2], c[3]
            )),
            Ok((from, to, _)) => {
                let moved = match self.game.play(c[0], c[1], c[2], c[3]) {
                    Ok(m) => m,
                    Err(e) => return self.say(&format!("invalid move: {e}")),
                };
                let m = Move { from, to };
                self.moves.push(m);
                let who = if by_ai { " (ai)" } else { "" };
                let line = describe(self.moves.len(), side, who, m, &moved);
                self.say(&line)?;
                // One board per round: after a person's move the computer's reply
                // comes at once, and the board is drawn after it.
                let reply = self.active()
                    && !by_ai
                    && self.controller(self.board().side_to_move()) == Controller::Ai;
                if reply {
                    self.out.flush()
                } else {
                    self.show(&[])
                }
            }
        }
    }

    /// Lets the computer move while it is its turn.
    fn ai_turns(&mut self) -> io::Result<()> {
        while self.active() && self.controller(self.board().side_to_move()) == Controller::Ai {
            let side = self.board().side_to_move();
            let both_ai = self.options.players == [Controller::Ai; 2];
            if both_ai && self.moves.len() >= MAX_MOVES as usize {
                self.halt = Some(Halt::MoveLimit);
                return self.show(&[]);
            }
            let report = self.think();
            let m = match report.best {
                Some(m) => m,
                None => {
                    self.halt = Some(Halt::Stuck(side));
                    return self.show(&[]);
                }
            };
            let eval = match report.mate_in() {
                Some(n) if n > 0 => format!("{side} wins in {}", cli::plural(n as u64, "ply")),
                Some(n) => format!("{side} loses in {}", cli::plural(-n as u64, "ply")),
                None => format!("score {side} {}", units(report.score)),
            };
            self.say(&format!(
                "{side} (ai) thinks: depth {}, {} nodes, {eval}",
                report.depth, report.nodes
            ))?;
            self.play(
                [
                    m.from.x().into(),
                    m.from.y().into(),
                    m.to.x().into(),
                    m.to.y().into(),
                ],
                true,
            )?;
        }
        if self.active() {
            let side = self.board().side_to_move();
            if rules::legal_moves(self.board()).is_empty() {
                self.halt = Some(Halt::Stuck(side));
                self.show(&[])?;
            }
        }
        Ok(())
    }

    /// The computer's search for the side to move. A weakened level plays by nodes
    /// alone, so that a game with the same seed and the same moves is the same game.
    fn think(&mut self) -> search::Report {
        let strength = self.options.strength;
        let limits = if strength.level.is_full() {
            self.options.limits
        } else {
            Limits {
                time: None,
                soft: None,
                ..self.options.limits
            }
        };
        let context = Context {
            moves_played: self.moves.len() as u32,
            ..Context::default()
        };
        level::search(
            &mut self.engine,
            self.game.board(),
            strength,
            limits,
            context,
        )
    }

    fn prompt(&mut self) -> io::Result<()> {
        // Once the game is over (won, resigned, drawn), the prompt says so: no side
        // is to move.
        let text = if self.active() {
            format!("{}> ", self.board().side_to_move())
        } else {
            "game over> ".to_string()
        };
        self.out.write_all(text.as_bytes())?;
        self.out.flush()
    }

    /// Handles one command line; `Ok(false)` ends the session.
    fn command(&mut self, line: &str) -> io::Result<bool> {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            [] => {}
            ["quit"] | ["exit"] => return Ok(false),
            ["help"] => self.out.write_all(COMMANDS.as_bytes())?,
            ["board"] => self.show(&[])?,
            ["save" | "load"] => self.say("save and load need a FILE name")?,
            ["moves", x, y] => self.moves_at(x, y)?,
            [x, y] if parse_int(x).is_some() && parse_int(y).is_some() => self.moves_at(x, y)?,
            ["moves", name] | [name] if written::read_square(name).is_some() => {
                if let Some(square) = written::read_square(name) {
                    self.moves_of(square)?
                }
            }
            ["history"] => self.history()?,
            ["moves", ..] => {
                self.say("moves needs the square of a piece: moves X Y, or moves b1")?
            }
            ["undo"] => self.undo()?,
            ["new"] => {
                let start = self.start.clone();
                self.reset(start, Vec::new());
                self.engine.clear();
                self.say("new game")?;
                self.show(&[])?;
            }
            ["resign"] => {
                if self.active() {
                    let side = self.board().side_to_move();
                    self.halt = Some(Halt::Resigned(side));
                    self.say(&format!("{side} resigns"))?;
                    self.show(&[])?;
                } else {
                    self.say("the game is already over")?;
                }
            }
            ["save", ..] => {
                let path = rest_after(line, "save");
                let text = save_text(&self.start, &self.moves);
                match file::write_whole(std::path::Path::new(path), text.as_bytes()) {
                    Ok(()) => {
                        let n = cli::plural(self.moves.len() as u64, "move");
                        self.say(&format!("saved {n} to {path}"))?
                    }
                    Err(e) => self.say(&format!("cannot save {path}: {e}"))?,
                }
            }
            ["load", ..] => self.load(rest_after(line, "load"))?,
            _ if written::looks_like_a_move(line) => match written::read(line) {
                // A captured captain is refused by the judge's own rule inside
                // `play`; a resignation or a draw is this session's business.
                Ok(_) if self.halt.is_some() => {
                    self.say("the game is over: undo, new, load or quit")?
                }
                Ok(w) => self.play_written(w)?,
                Err(e) => self.say(&e.to_string())?,
            },
            [first, ..] => self.say(&format!(
                "unknown command {first:?} (type help for the list)"
            ))?,
        }
        Ok(true)
    }

    /// Plays a move a person typed, once the piece it names (if it names one) is the
    /// piece on its square.
    fn play_written(&mut self, w: Written) -> io::Result<()> {
        let c = w.command;
        if let (Some((color, kind)), Some(from)) = (w.piece, Square::new(c[0], c[1])) {
            let named = Piece::new(color, kind);
            let there = self.board().piece_at(from);
            if there != Some(named) {
                let what = match there {
                    Some(p) => format!("the {p} is there"),
                    None => "the square is empty".to_string(),
                };
                return self.say(&format!("there is no {named} on {from}: {what}"));
            }
        }
        self.play(c, false)
    }

    /// The legal targets of the piece on (X, Y), both as typed.
    fn moves_at(&mut self, x: &str, y: &str) -> io::Result<()> {
        let square = match (parse_int(x), parse_int(y)) {
            (Some(x), Some(y)) => Square::new(x, y),
            _ => return self.say("moves needs two integers: moves X Y"),
        };
        match square {
            Some(s) => self.moves_of(s),
            None => self.say(&format!("({x}, {y}) is off the board")),
        }
    }

    fn moves_of(&mut self, square: Square) -> io::Result<()> {
        let piece = match self.board().piece_at(square) {
            Some(p) => p,
            None => return self.say(&format!("no piece on {square}")),
        };
        // The targets of a piece of the side not to move are shown as if it were its
        // turn: that is what it threatens.
        let mut probe = self.board().clone();
        probe.set_side_to_move(piece.color);
        let mut targets = Vec::new();
        rules::for_each_move(&probe, |m| {
            if m.from == square {
                targets.push(m.to);
            }
        });
        targets.sort_by_key(|t| (t.x(), t.y()));
        self.show_marked(Marks {
            last: None,
            highlight: &targets,
            selected: Some(square),
        })?;
        let turn = if piece.color == self.board().side_to_move() {
            ""
        } else {
            " (not its turn)"
        };
        if targets.is_empty() {
            return self.say(&format!("{piece} on {square}{turn} has no legal move"));
        }
        let list: Vec<String> = targets
            .iter()
            .map(|&t| match self.board().piece_at(t) {
                Some(victim) => format!("{t} takes {victim}"),
                None => t.to_string(),
            })
            .collect();
        self.say(&format!(
            "{piece} on {square}{turn} can go to {}",
            list.join(", ")
        ))
    }

    /// The moves so far, numbered, each with the judge's output line for it.
    fn history(&mut self) -> io::Result<()> {
        if self.moves.is_empty() {
            return self.say("no moves yet");
        }
        let mut game = Game::from_board(self.start.clone());
        let mut text = String::new();
        for (i, m) in self.moves.iter().enumerate() {
            let verdict = game.play(
                m.from.x().into(),
                m.from.y().into(),
                m.to.x().into(),
                m.to.y().into(),
            );
            text.push_str(&format!(
                "{:>3}. {m}   {}\n",
                i + 1,
                judge::verdict_line(&verdict)
            ));
        }
        self.out.write_all(text.as_bytes())
    }

    fn undo(&mut self) -> io::Result<()> {
        if let Some(Halt::Resigned(side)) = self.halt {
            // The last thing done was the resignation: take back that alone.
            self.halt = None;
            self.say(&format!("{side} takes back the resignation"))?;
            return self.show(&[]);
        }
        if self.moves.is_empty() {
            return self.say("nothing to undo");
        }
        let mut moves = self.moves.clone();
        moves.pop();
        let mut taken = 1;
        // Against the computer, take back its reply too so that the human is to move.
        let side_after = |moves: &Vec<Move>, start: &Board| {
            if moves.len().is_multiple_of(2) {
                start.side_to_move()
            } else {
                start.side_to_move().opponent()
            }
        };
        if !moves.is_empty()
            && self.controller(side_after(&moves, &self.start)) == Controller::Ai
            && self.options.players.contains(&Controller::Human)
        {
            moves.pop();
            taken += 1;
        }
        let start = self.start.clone();
        self.reset(start, moves);
        self.say(&format!("took back {}", cli::plural(taken, "move")))?;
        self.show(&[])
    }

    fn load(&mut self, path: &str) -> io::Result<()> {
        let text = match cli::read_small_file(path, FILE_MAX) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) => return self.say(&format!("cannot load {path}: {e}")),
        };
        match load_text(&text) {
            Err(e) => self.say(&format!("cannot load {path}: {e}")),
            Ok(loaded) => {
                let what = match loaded.skipped {
                    None => cli::plural(loaded.moves.len() as u64, "move"),
                    Some(skipped) => format!(
                        "a judge input, {} and {} skipped",
                        cli::plural(loaded.moves.len() as u64, "move"),
                        cli::plural(skipped, "invalid command")
                    ),
                };
                self.reset(loaded.start, loaded.moves);
                self.engine.clear();
                self.say(&format!("loaded {path}: {what}"))?;
                self.show(&[])
            }
        }
    }
}

/// The rest of `line` after its first word `command`, trimmed: a file name may hold
/// spaces.
fn rest_after<'a>(line: &'a str, command: &str) -> &'a str {
    let line = line.trim();
    line.strip_prefix(command).unwrap_or(line).trim()
}

/// A saved game is small: anything over this is not one.
const FILE_MAX: u64 = 1 << 24;

/// `move 3: red horse 0 1 2 2, takes blue soldier, check` (`move 3 (ai): ...` for the
/// computer's moves) and, when the game ends, a
/// second line naming the winner.
fn describe(number: usize, side: Color, who: &str, m: Move, moved: &Moved) -> String {
    let mut text = format!("move {number}{who}: {} {m}", moved.piece);
    if let Some(c) = moved.captured {
        text.push_str(&format!(", takes {c}"));
    }
    if moved.check {
        text.push_str(", check");
    }
    if moved.game_over {
        text.push_str(&format!(
            "\n{side} wins: the {} captain is taken",
            side.opponent()
        ));
    }
    text
}

/// Reads one line, at most [`LINE_MAX`] bytes of it (the rest of a longer line is
/// skipped); `None` at the end of the input.
fn read_line<R: BufRead>(input: &mut R) -> io::Result<Option<String>> {
    let line = lines::read_line(input, LINE_MAX)?;
    Ok(line.map(|l| String::from_utf8_lossy(&l.bytes).into_owned()))
}

/// Runs a session: commands from `input`, everything shown on `output`. Returns when
/// the input ends or says `quit`.
pub fn run<R: BufRead, W: Write>(options: Options, mut input: R, output: W) -> io::Result<()> {
    let start = options.start.clone();
    let mut engine = Engine::new();
    // Without the memory for every thread asked for, the threads kept play: say so.
    if let Err(e) = engine.set_threads(options.threads) {
        crate::cli::say("play", &format!("note: {e}"));
    }
    let mut session = Session {
        game: Game::from_board(start.clone()),
        start,
        moves: Vec::new(),
        halt: None,
        engine,
        options,
        out: output,
    };
    let players = session.options.players;
    let strength = session.options.strength;
    let level = if players.contains(&Controller::Ai) && !strength.level.is_full() {
        format!(
            "; the computer at level {} ({}), seed {}",
            strength.level,
            strength.level.name(),
            strength.seed
        )
    } else if players.contains(&Controller::Ai) {
        // At full strength the limit is the player's choice: say which.
        let limits = session.options.limits;
        let limit = match (limits.time, limits.nodes) {
            (Some(t), _) => format!("{} ms a move", t.as_millis()),
            _ => format!("depth {}", limits.depth),
        };
        format!("; the computer at full strength, {limit}")
    } else {
        String::new()
    };
    session.say(&format!(
        "duck chess: red {}, blue {}{level} (type help for the commands)",
        players[0].name(),
        players[1].name()
    ))?;
    session.show(&[])?;
    loop {
        session.ai_turns()?;
        session.prompt()?;
        let line = match read_line(&mut input)? {
            Some(l) => l,
            None => {
                session.say("\nend of input: goodbye")?;
                break;
            }
        };
        if session.options.echo {
            session.say(line.trim_end())?;
        }
        if !session.command(&line)? {
            session.say("goodbye")?;
            break;
        }
    }
    session.out.flush()
}
