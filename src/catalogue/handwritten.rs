//! The mistakes written by hand, clause by clause from the rules: what a solution of the
//! problem may get wrong beyond one slip in one row of a move table (those are grown
//! from the table, [`super::slips`]). Each has a short kebab-case name, one sentence in
//! plain words, the rule it breaks, a topic for the tables, and a witness: a small judge
//! input on which a solution with that mistake answers differently from the judge
//! (`tests/fixtures/witness/NAME.in`, built into the binary so that `audit` can print
//! it).
//!
//! The mistakes themselves are played by [`super::mutant`]; this module only names them.
//! A mistake that no valid input can expose (an equivalent one: a bounds slip on the
//! tenth column, which no command within the official limits reaches) is not listed.

/// The topics of the hand-written mistakes, in the order the tables list them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Topic {
    /// A blocking square forgotten or misplaced when a move is judged.
    MoveBlocking,
    /// A blocking square forgotten or misplaced when check is decided.
    CheckBlocking,
    /// A piece with a missing or an extra target (everywhere it is used).
    Shape,
    /// The edges of the board.
    Edges,
    /// Rules of xiangqi that this game does not have.
    Xiangqi,
    /// Who gives check, and when.
    Check,
    /// The end of the game.
    End,
    /// What makes a command invalid, and what an invalid one does.
    Invalid,
    /// How the answers are written.
    Output,
}

impl Topic {
    /// Every topic, in table order.
    pub const ALL: [Topic; 9] = [
        Topic::MoveBlocking,
        Topic::CheckBlocking,
        Topic::Shape,
        Topic::Edges,
        Topic::Xiangqi,
        Topic::Check,
        Topic::End,
        Topic::Invalid,
        Topic::Output,
    ];

    /// The topic's title in tables.
    pub fn title(self) -> &'static str {
        match self {
            Topic::MoveBlocking => "blocking squares when a move is judged",
            Topic::CheckBlocking => "blocking squares when check is decided",
            Topic::Shape => "move shapes",
            Topic::Edges => "the edges of the board",
            Topic::Xiangqi => "xiangqi rules that do not apply",
            Topic::Check => "check",
            Topic::End => "the end of the game",
            Topic::Invalid => "invalid commands",
            Topic::Output => "the answers as written",
        }
    }
}

/// Declares [`Written`] and its tables from one list, so a mistake's name, sentence,
/// rule, topic and witness can never fall out of step.
macro_rules! catalogue {
    ($( $variant:ident $name:literal $topic:ident
        sentence $sentence:literal
        rule $rule:literal; )*) => {
        /// One plausible mistake of a solution.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Written {
            $(
                #[doc = $sentence]
                $variant,
            )*
        }

        impl Written {
            /// Every hand-written mistake, by topic as the tables list them.
            pub const ALL: &'static [Written] = &[$(Written::$variant,)*];

            /// The short kebab-case name.
            pub fn name(self) -> &'static str {
                match self {
                    $(Written::$variant => $name,)*
                }
            }

            /// What the mistaken solution does, in one sentence.
            pub fn sentence(self) -> &'static str {
                match self {
                    $(Written::$variant => $sentence,)*
                }
            }

            /// The rule it breaks.
            pub fn rule(self) -> &'static str {
                match self {
                    $(Written::$variant => $rule,)*
                }
            }

            /// Its topic.
            pub fn topic(self) -> Topic {
                match self {
                    $(Written::$variant => Topic::$topic,)*
                }
            }

            /// The witness input (`tests/fixtures/witness/NAME.in`): a judge input on
            /// which this mistake answers differently from the judge.
            pub fn witness(self) -> &'static str {
                match self {
                    $(Written::$variant => include_str!(concat!(
                        env!("CARGO_MANIFEST_DIR"),
                        "/tests/fixtures/witness/",
                        $name,
                        ".in"
                    )),)*
                }
            }
        }
    };
}

catalogue! {
    MoveIgnoresElephantEye "move-ignores-elephant-eye" MoveBlocking
        sentence "lets an elephant jump over a piece on the midpoint of its jump"
        rule "an elephant moves only when the square between its start and its target is empty";
    MoveElephantEyeSwapped "move-elephant-eye-swapped" MoveBlocking
        sentence "looks for the elephant's eye with x and y swapped, on the wrong diagonal neighbour, when it judges a move"
        rule "an elephant is blocked on the midpoint of its jump";
    MoveIgnoresHorseLeg "move-ignores-horse-leg" MoveBlocking
        sentence "lets a horse jump over the piece next to it on its long side"
        rule "a horse moves only when the square one step along its long side is empty";
    MoveHorseLegOnShortSide "move-horse-leg-on-short-side" MoveBlocking
        sentence "looks for the horse's blocking square on its short side instead of its long one"
        rule "a horse is blocked one step along its long side, not its short one";
    MoveIgnoresDuckFirstLeg "move-ignores-duck-first-leg" MoveBlocking
        sentence "lets a duck move through a piece on the first square of its path"
        rule "a duck moves only when the square one straight step along its long side is empty";
    MoveIgnoresDuckSecondLeg "move-ignores-duck-second-leg" MoveBlocking
        sentence "lets a duck move through a piece on the second square of its path"
        rule "a duck moves only when the square after one straight and one diagonal step is empty";
    MoveDuckLegsNotSwapped "move-duck-legs-not-swapped" MoveBlocking
        sentence "uses the blocking squares of the duck's 3-by-2 jumps for its 2-by-3 jumps too, x and y not swapped"
        rule "a duck's 2-by-3 jumps are blocked along the column, mirroring its 3-by-2 jumps";
    MoveCarJumps "move-car-jumps" MoveBlocking
        sentence "lets a car move through pieces in its way"
        rule "a car moves only over empty squares";
    MoveCarStopsOneShort "move-car-stops-one-short" MoveBlocking
        sentence "forgets the last square before the car's target when it looks for pieces in the way"
        rule "every square strictly between a car and its target must be empty";
    CarPathIncludesTarget "car-path-includes-target" MoveBlocking
        sentence "counts the car's target as a square in its way, so a car never captures nor gives check"
        rule "a car may take the opposing piece at the end of its empty path";
    CheckIgnoresElephantEye "check-ignores-elephant-eye" CheckBlocking
        sentence "forgets the elephant's eye when it looks for check"
        rule "an elephant with a piece on its eye does not threaten the captain behind it";
    CheckElephantEyeSwapped "check-elephant-eye-swapped" CheckBlocking
        sentence "looks for a checking elephant's eye with x and y swapped, on the wrong diagonal neighbour"
        rule "an elephant is blocked on the midpoint of its jump, when it gives check too";
    CheckIgnoresHorseLeg "check-ignores-horse-leg" CheckBlocking
        sentence "forgets the horse's leg when it looks for check"
        rule "a horse with a piece on its leg does not threaten the captain behind it";
    CheckHorseLegBesideCaptain "check-horse-leg-beside-captain" CheckBlocking
        sentence "looks for the leg of a checking horse next to the captain instead of next to the horse"
        rule "a horse's leg is counted from the horse, not from the square it attacks";
    CheckIgnoresDuckFirstLeg "check-ignores-duck-first-leg" CheckBlocking
        sentence "forgets the duck's first blocking square when it looks for check"
        rule "a duck blocked on the first square of its path does not threaten the captain";
    CheckIgnoresDuckSecondLeg "check-ignores-duck-second-leg" CheckBlocking
        sentence "forgets the duck's second blocking square when it looks for check"
        rule "a duck blocked on the second square of its path does not threaten the captain";
    CheckDuckLegsFromCaptain "check-duck-legs-from-captain" CheckBlocking
        sentence "counts a checking duck's blocking squares from the captain instead of from the duck"
        rule "a duck's blocking squares are one straight step, then one diagonal, from the duck";
    CheckCarJumps "check-car-jumps" CheckBlocking
        sentence "lets a car give check through pieces in its way"
        rule "a car threatens a captain only along an empty row or column";
    CheckCarScanEndsAtFirstPiece "check-car-scan-ends-at-first-piece" CheckBlocking
        sentence "looks for a car's check ray by ray (up, down, right, left) and ends the whole search at the first piece that is not the opposing captain, so the rays after it are never looked at"
        rule "a car threatens a captain along each of its four rays, whatever stands on the others";
    CheckCarStopsOneShort "check-car-stops-one-short" CheckBlocking
        sentence "forgets the square right before the captain when it looks for a car's check"
        rule "every square strictly between a car and the captain must be empty for check";
    MoveCaptainStepsDiagonally "move-captain-steps-diagonally" Shape
        sentence "lets the captain move one step diagonally too"
        rule "a captain steps one square along a row or a column only";
    MoveGuardStepsStraight "move-guard-steps-straight" Shape
        sentence "lets the guard move one step along a row or a column too"
        rule "a guard steps one square diagonally only";
    MoveSoldierNoDiagonals "move-soldier-no-diagonals" Shape
        sentence "forgets the soldier's diagonal steps when it judges a move"
        rule "a soldier steps to any of its eight neighbours";
    MoveSoldierNeverBackwards "move-soldier-never-backwards" Shape
        sentence "never lets a soldier move back towards its own side"
        rule "a soldier steps in every direction, backwards too";
    MoveHorseMissesShortJumps "move-horse-misses-short-jumps" Shape
        sentence "knows only the horse's jumps of two rows and one column when it judges a move"
        rule "a horse jumps two along one axis and one along the other, either way round";
    MoveDuckMissesShortJumps "move-duck-misses-short-jumps" Shape
        sentence "knows only the duck's jumps of three rows and two columns when it judges a move"
        rule "a duck jumps three along one axis and two along the other, either way round";
    CheckCaptainStepsDiagonally "check-captain-steps-diagonally" Shape
        sentence "lets a captain give check one step diagonally too"
        rule "a captain steps one square along a row or a column only";
    CheckGuardStepsStraight "check-guard-steps-straight" Shape
        sentence "lets a guard give check one step along a row or a column too"
        rule "a guard steps one square diagonally only";
    CheckSoldierNoDiagonals "check-soldier-no-diagonals" Shape
        sentence "forgets the soldier's diagonal steps when it looks for check"
        rule "a soldier steps to any of its eight neighbours";
    CheckSoldierNeverBackwards "check-soldier-never-backwards" Shape
        sentence "never lets a soldier give check backwards, towards its own side"
        rule "a soldier steps in every direction, backwards too";
    CheckHorseMissesShortJumps "check-horse-misses-short-jumps" Shape
        sentence "knows only the horse's jumps of two rows and one column when it looks for check"
        rule "a horse jumps two along one axis and one along the other, either way round";
    CheckDuckMissesShortJumps "check-duck-misses-short-jumps" Shape
        sentence "knows only the duck's jumps of three rows and two columns when it looks for check"
        rule "a duck jumps three along one axis and two along the other, either way round";
    NineRows "nine-rows" Edges
        sentence "takes the board for 9 rows and 10 columns, so row 9 is off it"
        rule "the board has 10 rows (x from 0 to 9) and 9 columns (y from 0 to 8)";
    CheckWrapsAroundEdges "check-wraps-around-edges" Edges
        sentence "numbers the squares 9x+y when it looks for check and never checks the column, so attacks wrap from one edge of the board to the other"
        rule "no piece moves off the board, and nothing wraps around its edges";
    CaptainKeptInPalace "captain-kept-in-palace" Xiangqi
        sentence "keeps the captain inside a xiangqi palace (3 by 3 in the middle of its back rows)"
        rule "there is no palace: a captain goes anywhere on the board";
    GuardKeptInPalace "guard-kept-in-palace" Xiangqi
        sentence "keeps the guards inside a xiangqi palace"
        rule "there is no palace: a guard goes anywhere on the board";
    ElephantKeptOnItsSide "elephant-kept-on-its-side" Xiangqi
        sentence "stops an elephant at the river, as in xiangqi"
        rule "there is no river: an elephant crosses the middle of the board";
    CaptainsFacingGiveCheck "captains-facing-give-check" Xiangqi
        sentence "counts two captains facing each other on an empty column as check, as in xiangqi"
        rule "captains never fly: facing captains are not check unless one can step onto the other";
    CaptainsMayNotFace "captains-may-not-face" Xiangqi
        sentence "refuses a move that leaves the captains facing each other on an empty column"
        rule "captains may face each other";
    MoveIntoAttackRefused "move-into-attack-refused" Xiangqi
        sentence "refuses a move that leaves the mover's own captain attacked"
        rule "a side may leave its captain attacked or move it into attack";
    CheckOnlyBySideToMove "check-only-by-side-to-move" Check
        sentence "reports check only when the side to move can take the other captain"
        rule "check is when either side can take the other side's captain";
    CheckOnlyByMover "check-only-by-mover" Check
        sentence "reports check only when the side that just moved can take the other captain"
        rule "check is when either side can take the other side's captain";
    CheckOnlyByMovedPiece "check-only-by-moved-piece" Check
        sentence "looks only at the piece that moved when it decides check, missing discovered and standing checks"
        rule "check counts every piece of both sides, not just the one that moved";
    CheckBeforeTheMove "check-before-the-move" Check
        sentence "decides check on the position before the move instead of after it"
        rule "check is decided on the position after the move";
    CheckForgetsCaptain "check-forgets-captain" Check
        sentence "never counts a captain as a piece that gives check"
        rule "a captain next to the other captain gives check";
    CheckAfterTheEnd "check-after-the-end" End
        sentence "still reports check on the move that takes a captain when the winner's captain stands attacked"
        rule "once the game is over there is no check";
    GameGoesOn "game-goes-on" End
        sentence "does not end the game when a captain is taken"
        rule "taking the opposing captain ends the game";
    MovesAfterTheEnd "moves-after-the-end" End
        sentence "still accepts moves after a captain has been taken"
        rule "every command after the end of the game is invalid";
    GameOverBeforeTheMove "game-over-before-the-move" End
        sentence "decides whether the game is over before the move is made, so the winning move says no"
        rule "the game-over answer is about the position after the move";
    TurnPassesAfterInvalid "turn-passes-after-invalid" Invalid
        sentence "passes the turn to the other side after an invalid command"
        rule "an invalid command changes nothing: the same side is still to move";
    OwnPieceCaptured "own-piece-captured" Invalid
        sentence "lets a piece move onto and capture a piece of its own side"
        rule "a piece may not move onto a square held by its own side";
    OpponentPieceMoved "opponent-piece-moved" Invalid
        sentence "lets the side to move move the opponent's pieces"
        rule "the source square must hold a piece of the side to move";
    SourceNotCleared "source-not-cleared" Invalid
        sentence "leaves a copy of the moved piece on its old square, so an empty square can still be moved from"
        rule "a move leaves its source square empty";
    BlueMovesFirst "blue-moves-first" Invalid
        sentence "lets blue move first"
        rule "red moves first";
    CapturedSideIsMovers "captured-side-is-movers" Output
        sentence "names the captured piece with the mover's side"
        rule "the captured piece is named with its own side";
    CapturedKindIsMovers "captured-kind-is-movers" Output
        sentence "names the captured piece by what stands on the target after the move, the mover's kind"
        rule "the captured piece is named with its own kind";
    CapturedAlwaysNa "captured-always-na" Output
        sentence "writes NA for the captured piece even when a piece is taken"
        rule "the second answer names the captured piece";
    CapturedNotReset "captured-not-reset" Output
        sentence "never resets the captured piece, so a move that takes nothing after a capture names the earlier one instead of NA"
        rule "the second answer is NA when the move takes nothing";
    CheckAnswerSwapped "check-answer-swapped" Output
        sentence "writes yes for no check and no for check"
        rule "the third answer is yes exactly when the position is check";
    GameOverAnswerSwapped "game-over-answer-swapped" Output
        sentence "writes yes for a game that goes on and no for one that is over"
        rule "the fourth answer is yes exactly when the game is over";
    SideNamesSwapped "side-names-swapped" Output
        sentence "calls red pieces blue and blue pieces red"
        rule "red is the side that starts on rows 0 to 3";
}

impl Written {
    /// The mistake called `name`, if any.
    pub fn from_name(name: &str) -> Option<Written> {
        Written::ALL.iter().copied().find(|m| m.name() == name)
    }
}
