//! What a test set shows of the rules and the output, whatever mistake a solution makes:
//! the statement's model (every output line, ending, square, attack, starting piece and
//! class of invalid command, cell by cell) and the move table's map (every row of the
//! judge's move table, legal, blocked, checking, and the situations around the end). Each
//! plays a test set on the judge and counts what it reaches; neither knows any mistake,
//! so what they say of a test set holds for mistakes nobody has listed.
//!
//! - [`statement`]: the statement's model, with its own copy of the move geometry.
//! - [`table`]: the move table's map.
//! - [`pieces`]: the 32 starting pieces, by id and by square.
//!
//! May use: [`crate::judge`], [`crate::cli`], [`crate::show`], [`crate::generate`].

pub mod pieces;
pub mod statement;
pub mod table;
