//! The statement's coverage model: what the rules and the output can show, cell by cell,
//! whatever mistake a solution makes (the category-partition method: each dimension a
//! category of the statement, each cell one choice or one combination of choices).
//!
//! The dimensions, each named for what it covers:
//!
//! - **lines**: every output line a legal move can produce: the mover (side and kind),
//!   what it takes (each kind of the other side, or nothing), whether the position is
//!   then check (a capture of a captain ends the game, which is never check);
//! - **endings**: each kind of each side taking the other captain, and a command after
//!   that end which the loser's piece could make by its rule;
//! - **places**: each kind of each side moving from and moving onto every square it can
//!   stand on (edges, corners and the middle rows among them);
//! - **attacks**: each kind of each side giving the only check on the board along each
//!   of its vectors from every row and from every column where that fits on the board;
//! - **pieces**: each of the 32 starting pieces moving, taking, taken, giving the only
//!   check, and the target of its own side's move (refused);
//! - **invalid**: every class of invalid command (from an empty square, with the
//!   opponent's piece, onto the mover's own piece, through a blocking square, one square
//!   off a legal shape, after the end) crossed with the kind whose move shape it has and
//!   what stands on the target, each followed by a legal move of the same side (so a
//!   solution that passes the turn shows it), but after the end;
//! - **refusals**: every displacement each kind must refuse onto an empty square, each
//!   of its own shapes onto its own side's piece and onto the other side's, and through
//!   each blocking square held by either side;
//! - **aliases**: each kind's vector finding the other captain on the square a board
//!   stored flat reads past its edge, in three ways of storing it;
//! - **input edges**: no command, one command, the largest input, a command whose
//!   source is its target, each coordinate at its ends;
//! - **capacity**: crowded positions (the last piece of each order of scanning moving,
//!   or giving the only check), every piece taken, a long run of invalid commands;
//! - **wraps**: each kind's vector from each square where it leaves the board, in each
//!   way of storing the board flat, tried onto the square it wraps to (refused);
//! - **counts**: each count a solution may keep (commands, bytes, moves, runs,
//!   positions, pieces taken) past each size it might pick, and at its most.
//!
//! The move geometry here is the statement's table, written once more for the model, so
//! that the model does not inherit a slip of the judge's table (a test holds the two
//! equal). The judge only plays the commands.
//!
//! A cell no valid input can reach is listed with the reason ([`why_unreachable`]),
//! never dropped: a piece that cannot stand on a square (an elephant's jumps keep it on
//! a quarter of the board), an attack that would start or land off the board, a line a
//! game over forbids.
//!
//! - [`geometry`]: the statement's move table, written once more for the model, and the
//!   displacements a command can have.
//! - [`layout`]: the ways a board may be stored flat, and what each reads off its edge.
//! - [`refusals`]: the displacements each kind must refuse, its shapes onto each target
//!   and through each blocking square.
//! - [`aliases`]: the squares a board stored flat reads where a move leaves the board.
//! - [`capacity`]: crowded positions and the order pieces are scanned in, long runs.
//! - [`wraps`]: the moves a flat board wraps, from every square.
//! - [`counts`]: the counts an input takes, and the most each can reach.
//! - [`cells`]: the cells, their dimensions and words.
//! - [`universe`]: every cell of the cross product, and which no valid input reaches.
//! - [`counter`]: the cells a game reaches, command by command.
//! - [`report`]: how often a test set reaches each cell, and the report of it.

pub mod aliases;
pub mod capacity;
pub mod cells;
pub mod counter;
pub mod counts;
pub mod geometry;
pub mod layout;
pub mod refusals;
pub mod report;
pub mod universe;
pub mod wraps;

pub use cells::{Act, Cell, Class, Dimension, InputEdge, Load, Onto};
pub use counter::Counter;
pub use geometry::{rule_move, shape, stands, vector_name, vectors, Vector};
pub use report::{unreachable_text, Map};
pub use universe::{cells, universe, why_unreachable};
