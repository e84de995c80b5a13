//! The one list of input generators, [`Mode`], and its help: every generator `gen`,
//! `stress` and the suite draw from is named here.

use std::fmt;
use std::str::FromStr;

/// The one list of input generators, shared by `gen`, `stress` and `gen --suite`: `gen`'s
/// own modes, which write a game command by command with fixed odds, and `stress`'s,
/// which steer a game towards situations ([`super::games`]). Their help is
/// [`modes_help!`], beside this list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Short decisive games: a captain falls within some 10-40 plies, then a few
    /// commands after the end.
    Decisive,
    /// The captains walk towards each other; what stands between them steps aside.
    Captains,
    /// Checks by every kind of piece, blocked and discovered.
    Attacks,
    /// Every kind of invalid command, among legal moves.
    Invalid,
    /// Moves and attacks through a taken blocking square.
    Blocked,
    /// The contest's own mix: about 7% fully random commands; otherwise a random occupied
    /// square of either colour, moved by its piece's rule 20% of the time, else not.
    Official,
    /// 80-95% legal moves, preferring captures and checks, avoiding the captain capture
    /// so games run long.
    Legal,
    /// A game that ends by a captain capture, followed by more commands.
    Endgame,
    /// Prefers moves that make check, own captain walking into attack included.
    Check,
    /// A game that never ends, about half legal moves: for throughput.
    Big,
    /// An input that takes counts a solution keeps to their most
    /// ([`super::extremes::numbered`], by seed).
    Counts,
}

impl Mode {
    /// The modes `stress` draws from when none is chosen: all but [`Mode::Counts`], the
    /// last, whose four inputs are its cases 2 to 5.
    pub const MIXED: &'static [Mode] = Mode::ALL.split_at(Mode::ALL.len() - 1).0;

    /// Every mode, in the order the help lists them.
    pub const ALL: [Mode; 11] = [
        Mode::Decisive,
        Mode::Captains,
        Mode::Attacks,
        Mode::Invalid,
        Mode::Blocked,
        Mode::Official,
        Mode::Legal,
        Mode::Endgame,
        Mode::Check,
        Mode::Big,
        Mode::Counts,
    ];

    /// The mode's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Decisive => "decisive",
            Mode::Captains => "captains",
            Mode::Attacks => "attacks",
            Mode::Invalid => "invalid",
            Mode::Blocked => "blocked",
            Mode::Official => "official",
            Mode::Legal => "legal",
            Mode::Endgame => "endgame",
            Mode::Check => "check",
            Mode::Big => "big",
            Mode::Counts => "counts",
        }
    }

    /// Whether the mode steers its game by what each move does (`stress`'s own modes,
    /// written by [`super::games::Writer`]) rather than by fixed odds.
    pub fn steers(self) -> bool {
        matches!(
            self,
            Mode::Decisive | Mode::Captains | Mode::Attacks | Mode::Invalid | Mode::Blocked
        )
    }
}

/// The modes as the help of `gen` and `stress` lists them, in the order of [`Mode::ALL`]
/// (a test keeps the two in step).
macro_rules! modes_help {
    () => {
        "  decisive  short decisive games: a captain falls within some 10-40 plies, then
            a few commands after the end
  captains  the captains walk towards each other; what stands between them
            steps aside
  attacks   every kind of piece giving check; checks blocked and discovered
  invalid   every kind of invalid command, among legal moves
  blocked   moves and attacks through a taken blocking square
  official  the contest's mix: 7% random commands, otherwise a random piece of
            either side moved by its rule 20% of the time
  legal     80-95% legal moves with captures and checks, long games
  endgame   a game that ends by a captain capture, then more commands
  check     prefers moves that make check (own captain into attack too)
  big       a game that never ends, about half legal moves (throughput)
  counts    an input that takes counts a solution keeps to their most, by seed:
            1000 invalid commands in a row; 1000 moves taking nothing, each to a
            new position, check from the 4th on; the longest answer known; every
            piece taken (commands past 1000 are `0 0 0 0`, always invalid)
"
    };
}
pub(crate) use modes_help;

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Mode {
    type Err = String;

    fn from_str(s: &str) -> Result<Mode, String> {
        Mode::ALL
            .iter()
            .copied()
            .find(|m| m.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Mode::ALL.iter().map(|m| m.name()).collect();
                format!("unknown mode {s:?}; expected {}", names.join(", "))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_modes_help_lists_every_mode_in_order() {
        let listed: Vec<&str> = modes_help!()
            .lines()
            .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
            .filter_map(|l| l.split_whitespace().next())
            .collect();
        let names: Vec<&str> = Mode::ALL.iter().map(|m| m.name()).collect();
        assert_eq!(listed, names);
        for m in Mode::ALL {
            assert_eq!(m.name().parse::<Mode>(), Ok(m));
        }
        assert!(!Mode::MIXED.contains(&Mode::Counts));
        assert_eq!(Mode::MIXED.len() + 1, Mode::ALL.len());
    }
}
