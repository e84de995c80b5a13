//! The generators of judge inputs, in one room: every mode that `gen`, `stress` and the
//! suite draw from, the random positions the engine's tests start from, and the model of
//! an input as commands. The same seed always gives the same bytes.
//!
//! - [`mode`]: the one list of generators ([`mode::Mode`]) and its help.
//! - [`position`]: random squares and positions, and the targets a piece's rule allows.
//! - [`odds`]: `gen`'s own modes, a game written with fixed odds.
//! - [`games`]: `stress`'s own modes, games steered towards situations.
//! - [`extremes`]: the inputs that take each count a solution keeps to its largest value.
//! - [`case`]: an input as commands, each with the way it is written, and its bytes.
//! - [`recipe`]: the cases `stress` tries, case `i` of a seed always the same.
//! - [`input`]: a whole judge input in any mode, as `gen` writes it.
//!
//! May use: [`crate::judge`], [`crate::sys`].

pub mod case;
pub mod extremes;
pub mod games;
pub mod mode;
pub mod odds;
pub mod position;
pub mod recipe;

use crate::sys::rng::Rng;
use games::Writer;
use mode::Mode;
use std::io::{self, Write};

/// Writes a judge input of `q` commands in `mode` from `seed` to `out`, command by
/// command (memory does not grow with `q`).
pub fn input<W: Write>(seed: u64, q: u64, mode: Mode, out: &mut W) -> io::Result<()> {
    let mut rng = Rng::new(seed ^ 0x6475_636B_6368_6573); // "duckches": seeds 0 and 1 differ well
    writeln!(out, "{q}")?;
    if mode == Mode::Counts {
        let cmds = extremes::numbered(seed);
        for i in 0..q as usize {
            let c = cmds.get(i).copied().unwrap_or([0, 0, 0, 0]);
            writeln!(out, "{} {} {} {}", c[0], c[1], c[2], c[3])?;
        }
        return Ok(());
    }
    if mode.steers() {
        return Writer::new(&mut rng, false).play_each(mode, q, |c| {
            writeln!(out, "{} {} {} {}", c[0], c[1], c[2], c[3])
        });
    }
    odds::write(&mut rng, q, mode, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_steering_mode_streams_the_game_stress_writes() {
        // `gen --mode attacks` is the game of stress's writer, command for command.
        let mut bytes = Vec::new();
        input(3, 200, Mode::Attacks, &mut bytes).expect("a Vec");
        let mut rng = Rng::new(3 ^ 0x6475_636B_6368_6573);
        let case = Writer::new(&mut rng, false).play(Mode::Attacks, 200);
        let text = String::from_utf8_lossy(&bytes).into_owned();
        assert_eq!(text.as_bytes(), &case.to_bytes()[..]);
    }
}
