//! The mutant judge: a plain game simulator written straight from the rules, square by
//! square, whose every clause asks whether it should make its mistake: a hand-written
//! one, a variant of one, or a slip in one row of the move table. With no mistake it
//! answers exactly as the judge does (a differential test holds it to that), so whatever
//! a mutant answers differently is its mistake's doing.
//!
//! It shares nothing with the judge's move table (`judge::rules`): it is a second,
//! independent reading of the rules, simple, with hooks. A slip names the row it changes
//! by the row's target and blocking squares; the mutant finds that row among its own
//! and changes it there. Only the value types (sides, kinds, the four answers) come from
//! the judge.

use super::handwritten::Written;
use super::list::{Fault, Mistake};
use super::slips::{CarSlip, Slip, Use, What};
use super::solution_shapes::{self, InstanceSlip, Shaped, Target};
use super::variants::{next_kind, Refusal, Variant};
use crate::judge::game::Moved;
use crate::judge::piece::{Color, Piece, PieceKind, Square};

/// One judge command `xs ys xt yt`, any integers.
use crate::generate::case::Cmd;

/// What a solution answers to one command: the four answers of a legal move, or `None`
/// for `Invalid command`.
pub type Answer = Option<Moved>;

/// No starting piece on a square.
const NO_ID: u8 = u8::MAX;

/// A square as plain coordinates (always on the 10 x 9 board once made).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct At {
    x: i64,
    y: i64,
}

impl At {
    fn plus(self, dx: i64, dy: i64) -> At {
        At {
            x: self.x + dx,
            y: self.y + dy,
        }
    }

    fn index(self) -> usize {
        (self.x * 9 + self.y) as usize
    }

    fn of(index: usize) -> At {
        At {
            x: index as i64 / 9,
            y: index as i64 % 9,
        }
    }

    fn on_board(self) -> bool {
        (0..10).contains(&self.x) && (0..9).contains(&self.y)
    }
}

/// A leap as [`Written::CheckWrapsAroundEdges`] looks for it: the kind that makes it,
/// its `(dx, dy)`, and its blocking squares relative to the attacker.
type NumberedLeap<'a> = (PieceKind, (i64, i64), &'a [(i64, i64)]);

/// Whether a piece may go somewhere by its own rule, as the solution thinks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Path {
    /// Not that way at all.
    No,
    /// That way, but something stands in the way.
    Blocked,
    /// Yes.
    Yes,
}

impl Path {
    fn when_free(free: bool) -> Path {
        if free {
            Path::Yes
        } else {
            Path::Blocked
        }
    }
}

/// A game as a solution with one mistake (or none) plays it.
#[derive(Clone, Debug)]
pub struct Mutant {
    mistake: Option<Mistake>,
    written: Option<Written>,
    variant: Option<Variant>,
    slip: Option<Slip>,
    shaped: Option<Shaped>,
    squares: [Option<Piece>; 90],
    /// The id of the starting piece on each square ([`NO_ID`] for none), as a solution
    /// that keeps the 32 pieces in a table by id knows them.
    ids: [u8; 90],
    /// The ids of the last move's mover and captured piece.
    moved_ids: (u8, u8),
    /// The piece a refused move's target held, for a solution that records it.
    recorded: Option<Piece>,
    /// The squares of the last command refused after its path was judged.
    pending: Option<(At, At)>,
    /// The squares of each side's pieces, as bits `x * 9 + y`.
    occupied: [u128; 2],
    side: Color,
    over: bool,
    /// The piece the last capture took (for a solution that never resets it).
    last_captured: Option<Piece>,
    /// A taken piece its table still keeps as alive, on the square it was taken on.
    ghost: Option<(At, Piece)>,
}

impl Mutant {
    /// A game from the start position that makes `mistake` (none: the rules exactly).
    pub fn new(mistake: Option<Mistake>) -> Mutant {
        let mut m = Mutant::making(mistake.map(|m| m.fault()));
        m.mistake = mistake;
        m
    }

    /// A game from the start position that makes `fault` (listed or not).
    pub fn making(fault: Option<Fault>) -> Mutant {
        use PieceKind::*;
        const BACK: [PieceKind; 9] = [
            Car, Horse, Elephant, Guard, Captain, Guard, Elephant, Horse, Car,
        ];
        let mut m = Mutant {
            mistake: None,
            written: None,
            variant: None,
            slip: None,
            shaped: None,
            squares: [None; 90],
            ids: [NO_ID; 90],
            moved_ids: (NO_ID, NO_ID),
            recorded: None,
            pending: None,
            occupied: [0; 2],
            side: Color::Red,
            over: false,
            last_captured: None,
            ghost: None,
        };
        m.set_fault(fault);
        for color in Color::ALL {
            let row = |r: i64| if color == Color::Red { r } else { 9 - r };
            let mut put = |x: i64, y: i64, kind| {
                m.set(At { x, y }, Some(Piece::new(color, kind)));
            };
            for (y, &kind) in BACK.iter().enumerate() {
                put(row(0), y as i64, kind);
            }
            put(row(2), 0, Duck);
            put(row(2), 8, Duck);
            for y in [0, 2, 4, 6, 8] {
                put(row(3), y, Soldier);
            }
        }
        for s in solution_shapes::starts() {
            m.ids[At { x: s.x, y: s.y }.index()] = s.id;
        }
        if m.makes(Written::BlueMovesFirst) {
            m.side = Color::Blue;
        }
        m
    }

    /// This game as a solution making `mistake` would stand in it had it been right so
    /// far: the same position, side to move, end and last capture, and from now on the
    /// mistake. Made from a mutant without a mistake, which stands where the judge does.
    pub fn refaulted(&self, mistake: Mistake) -> Mutant {
        let mut m = self.with_fault(mistake.fault());
        m.mistake = Some(mistake);
        m
    }

    /// The same, for any fault, listed or not.
    pub fn with_fault(&self, fault: Fault) -> Mutant {
        let mut m = self.clone();
        m.mistake = None;
        m.set_fault(Some(fault));
        m
    }

    fn set_fault(&mut self, fault: Option<Fault>) {
        (self.written, self.variant, self.slip, self.shaped) = (None, None, None, None);
        match fault {
            Some(Fault::Written(w)) => self.written = Some(w),
            Some(Fault::Variant(v)) => self.variant = Some(v),
            Some(Fault::Slip(s)) => self.slip = Some(s),
            Some(Fault::Shaped(s)) => self.shaped = Some(s),
            None => {}
        }
    }

    /// The id of the starting piece on `s` as a table by id keeps it (for a mutant
    /// without a mistake, the piece that started there and stands there now), if any.
    pub fn id_on(&self, s: Square) -> Option<u8> {
        let id = self.ids[s.bit() as usize];
        (id != NO_ID).then_some(id)
    }

    /// The mistake it makes.
    pub fn mistake(&self) -> Option<Mistake> {
        self.mistake
    }

    fn makes(&self, w: Written) -> bool {
        self.written == Some(w)
    }

    fn varies(&self, v: Variant) -> bool {
        self.variant == Some(v)
    }

    fn shapes(&self, s: Shaped) -> bool {
        self.shaped == Some(s)
    }

    /// Whether the starting piece on `s` has this slip.
    fn instance(&self, s: At, slip: InstanceSlip) -> bool {
        s.on_board() && self.shapes(Shaped::Instance(self.ids[s.index()], slip))
    }

    /// Whether the branch for `piece` moving onto `target` skips the test for `class`.
    fn order_skips(&self, class: Refusal, piece: Piece, target: Option<Piece>) -> bool {
        let here = match target {
            None => Some(Target::Empty),
            Some(p) if p.color != piece.color => Some(Target::Enemy),
            Some(_) => None,
        };
        match self.shaped {
            Some(Shaped::Order(c, kind, t)) => c == class && kind == piece.kind && here == Some(t),
            Some(Shaped::AfterTheEnd(t)) => class == Refusal::Over && here == Some(t),
            _ => false,
        }
    }

    /// Moves the piece on `from` to `to`, its id with it.
    fn displace(&mut self, from: At, to: At) {
        let piece = self.at(from);
        self.set(to, piece);
        self.ids[to.index()] = self.ids[from.index()];
        if !self.makes(Written::SourceNotCleared) {
            self.set(from, None);
            self.ids[from.index()] = NO_ID;
        }
    }

    /// The piece on `s`; nothing stands off the board (where a misplaced blocking
    /// square may fall: the mistaken solution finds it empty).
    fn at(&self, s: At) -> Option<Piece> {
        if s.on_board() {
            self.squares[s.index()]
        } else {
            None
        }
    }

    fn empty(&self, s: At) -> bool {
        self.at(s).is_none()
    }

    /// Puts `piece` (or nothing) on `s`, which is on the board.
    fn set(&mut self, s: At, piece: Option<Piece>) {
        let bit = 1u128 << s.index();
        if let Some(old) = self.squares[s.index()] {
            self.occupied[old.color.index()] &= !bit;
        }
        if let Some(new) = piece {
            self.occupied[new.color.index()] |= bit;
        }
        self.squares[s.index()] = piece;
    }

    /// The squares of `color`'s pieces.
    fn pieces(&self, color: Color) -> impl Iterator<Item = (At, Piece)> + '_ {
        let mut bits = self.occupied[color.index()];
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            self.squares[i].map(|p| (At::of(i), p))
        })
    }

    /// The square `(x, y)` of a command, when the solution thinks it is on the board.
    fn square(&self, x: i64, y: i64) -> Option<At> {
        let (rows, cols) = if self.makes(Written::NineRows) {
            (9, 10)
        } else {
            (10, 9)
        };
        // Whatever the bounds it believes in, the array holds only the real board.
        let s = At { x, y };
        ((0..rows).contains(&x) && (0..cols).contains(&y) && s.on_board()).then_some(s)
    }

    /// Plays one command and returns what the solution answers.
    pub fn play(&mut self, [xs, ys, xt, yt]: Cmd) -> Answer {
        match self.try_move(xs, ys, xt, yt) {
            Ok((moved, from)) => Some(self.written(moved, from)),
            Err(refusal) => {
                if self.shapes(Shaped::MovedWhenRefused(refusal)) {
                    if let Some((from, to)) = self.pending {
                        self.displace(from, to);
                    }
                }
                if self.makes(Written::TurnPassesAfterInvalid)
                    || self.varies(Variant::TurnPassesAfter(refusal))
                {
                    self.side = self.side.opponent();
                }
                None
            }
        }
    }

    /// The answers as the solution writes them, after the move from `from`.
    fn written(&mut self, mut m: Moved, from: At) -> Moved {
        let flip = |p: Piece| Piece::new(p.color.opponent(), p.kind);
        if m.captured.is_some() {
            self.last_captured = m.captured;
        }
        let (mover, taken) = self.moved_ids;
        let recorded = self.recorded.take();
        match self.shaped {
            Some(Shaped::Instance(id, InstanceSlip::KindName)) => {
                let rename = |p: Piece| Piece::new(p.color, solution_shapes::misnamed(p.kind));
                if mover == id {
                    m.piece = rename(m.piece);
                }
                if taken == id {
                    m.captured = m.captured.map(rename);
                }
            }
            Some(Shaped::Instance(id, InstanceSlip::SideName)) => {
                if mover == id {
                    m.piece = flip(m.piece);
                }
                if taken == id {
                    m.captured = m.captured.map(flip);
                }
            }
            Some(Shaped::CapturedNaFor(c, k))
                if m.piece.color == c && m.captured.is_some_and(|p| p.kind == k) =>
            {
                m.captured = None;
            }
            Some(Shaped::CaptureRecordedWhenRefused) if m.captured.is_none() => {
                m.captured = recorded;
            }
            _ => {}
        }
        match self.written {
            Some(Written::CapturedAlwaysNa) => m.captured = None,
            Some(Written::CapturedNotReset) => m.captured = self.last_captured,
            Some(Written::CapturedSideIsMovers) => {
                m.captured = m.captured.map(|c| Piece::new(m.piece.color, c.kind));
            }
            Some(Written::CapturedKindIsMovers) => {
                m.captured = m.captured.map(|c| Piece::new(c.color, m.piece.kind));
            }
            Some(Written::CheckAnswerSwapped) => m.check = !m.check,
            Some(Written::GameOverAnswerSwapped) => m.game_over = !m.game_over,
            Some(Written::SideNamesSwapped) => {
                m.piece = flip(m.piece);
                m.captured = m.captured.map(flip);
            }
            _ => {}
        }
        let swap = |k: PieceKind, p: Piece| match next_kind(k) {
            Some(n) if p.kind == k => Piece::new(p.color, n),
            Some(n) if p.kind == n => Piece::new(p.color, k),
            _ => p,
        };
        match self.variant {
            Some(Variant::CapturedIsMover) => m.captured = m.captured.map(|_| m.piece),
            Some(Variant::CapturedFromSource) => {
                m.captured = m.captured.and_then(|_| self.at(from));
            }
            Some(Variant::CapturedSideToMove) => {
                let side = self.side;
                m.captured = m.captured.map(|c| Piece::new(side, c.kind));
            }
            Some(Variant::CapturedNamed(c)) => {
                m.captured = m.captured.map(|p| Piece::new(c, p.kind));
            }
            Some(Variant::CapturedNaWhen(c)) if m.piece.color == c => m.captured = None,
            Some(Variant::SideNamesAll(c)) => {
                m.piece = Piece::new(c, m.piece.kind);
                m.captured = m.captured.map(|p| Piece::new(c, p.kind));
            }
            Some(Variant::KindNamesSwapped(k)) => {
                m.piece = swap(k, m.piece);
                m.captured = m.captured.map(|p| swap(k, p));
            }
            _ => {}
        }
        m
    }

    /// Judges and makes the move; the answers and the source square, or why the
    /// solution finds it invalid.
    fn try_move(&mut self, xs: i64, ys: i64, xt: i64, yt: i64) -> Result<(Moved, At), Refusal> {
        self.pending = None;
        // What stands on the source and the target, for a branch that depends on them.
        let aimed = || {
            let piece = self.square(xs, ys).and_then(|s| self.at(s));
            let target = self.square(xt, yt).and_then(|t| self.at(t));
            (piece, target)
        };
        if self.over && !self.makes(Written::MovesAfterTheEnd) {
            let skips = match aimed() {
                (Some(p), target) => self.order_skips(Refusal::Over, p, target),
                _ => false,
            };
            if !skips {
                return Err(Refusal::Over);
            }
        }
        let from = self.square(xs, ys).ok_or(Refusal::OffBoard)?;
        let piece = self.at(from).ok_or(Refusal::NoPiece)?;
        if self.instance(from, InstanceSlip::Frozen) {
            return Err(Refusal::NoPiece);
        }
        if piece.color != self.side
            && !self.makes(Written::OpponentPieceMoved)
            && !self.varies(Variant::OpponentPieceMovedBy(self.side))
            && !self.order_skips(Refusal::OpponentPiece, piece, aimed().1)
        {
            return Err(Refusal::OpponentPiece);
        }
        let to = self.square(xt, yt).ok_or(Refusal::OffBoard)?;
        let path = self.path(piece, from, to, Use::Move);
        if let Some(target) = self.at(to) {
            let own = target.color == piece.color
                && !self.makes(Written::OwnPieceCaptured)
                && !self.varies(Variant::OwnPieceCapturedBy(piece.kind));
            let untaken = self.instance(to, InstanceSlip::Uncapturable);
            if own || untaken || self.varies(Variant::CapturesRefusedBy(piece.kind)) {
                if path == Path::Yes {
                    self.pending = Some((from, to));
                }
                return Err(Refusal::OwnPiece);
            }
        }
        let target = self.at(to);
        let enemy = target.filter(|t| t.color != piece.color);
        match path {
            Path::No if !self.order_skips(Refusal::Shape, piece, target) => {
                if self.shapes(Shaped::CaptureRecordedWhenRefused) && enemy.is_some() {
                    self.recorded = enemy;
                }
                return Err(Refusal::Shape);
            }
            Path::Blocked if !self.order_skips(Refusal::Blocked, piece, target) => {
                if self.shapes(Shaped::CaptureRecordedWhenRefused) && enemy.is_some() {
                    self.recorded = enemy;
                }
                self.pending = Some((from, to));
                return Err(Refusal::Blocked);
            }
            _ => {}
        }
        let before = self.clone();
        let captured = self.at(to);
        self.moved_ids = (self.ids[from.index()], self.ids[to.index()]);
        self.displace(from, to);
        let refused = (self.makes(Written::CaptainsMayNotFace) && self.captains_face())
            || (self.makes(Written::MoveIntoAttackRefused) && self.captain_attacked(piece.color));
        if refused {
            *self = before;
            return Err(Refusal::Forbidden);
        }
        if let Some(c) = captured {
            // A piece left alive in the table when taken stays where it was taken.
            if self.shapes(Shaped::Instance(
                self.moved_ids.1,
                InstanceSlip::KeptWhenTaken,
            )) {
                self.ghost = Some((to, c));
            }
        }
        let kept = |c: Piece| self.ghost == Some((to, c)) && c.kind == PieceKind::Captain;
        let ends = captured.is_some_and(|c| c.kind == PieceKind::Captain && !kept(c));
        let goes_on = self.makes(Written::GameGoesOn)
            || self.varies(Variant::GameGoesOnWhenWins(piece.color));
        if ends && !goes_on {
            self.over = true;
        }
        let check = if self.makes(Written::CheckBeforeTheMove) {
            before.check(piece, to)
        } else {
            self.check(piece, to)
        };
        let game_over = if self.makes(Written::GameOverBeforeTheMove) {
            before.over
        } else {
            self.over
        };
        if !self.shapes(Shaped::TurnKeptAfter(piece.color, piece.kind)) {
            self.side = self.side.opponent();
        }
        Ok((
            Moved {
                piece,
                captured,
                check,
                game_over,
            },
            from,
        ))
    }

    /// Where `color`'s captains stand (a solution that leaves copies behind may have
    /// several, or none once one is taken).
    fn captains(&self, color: Color) -> impl Iterator<Item = At> + '_ {
        self.pieces(color)
            .chain(self.ghost_of(color))
            .filter(|(_, p)| p.kind == PieceKind::Captain)
            .map(|(s, _)| s)
    }

    /// The taken piece of `color` the solution's table still keeps, if any.
    fn ghost_of(&self, color: Color) -> Option<(At, Piece)> {
        self.ghost.filter(|(_, p)| p.color == color)
    }

    fn has_captain(&self, color: Color) -> bool {
        self.captains(color).next().is_some()
    }

    /// Whether some captain of `color` is attacked by the other side.
    fn captain_attacked(&self, color: Color) -> bool {
        self.captains(color)
            .filter(|&c| !self.instance(c, InstanceSlip::NoCheck))
            .any(|c| self.attacked(c, color.opponent()))
    }

    /// Whether the position is check, after `mover` went to `to`.
    fn check(&self, mover: Piece, to: At) -> bool {
        let both = self.has_captain(Color::Red) && self.has_captain(Color::Blue);
        if !both {
            // Once a captain is gone there is no check; a solution that still looks
            // asks whether the remaining captain is attacked, and perhaps more.
            let still = |c: Color| self.has_captain(c) && self.captain_attacked(c);
            let winner_attacked = || Color::ALL.iter().any(|&c| still(c));
            let winner = mover.color;
            return match (self.written, self.variant) {
                (Some(Written::CheckAfterTheEnd), _) => winner_attacked(),
                (_, Some(Variant::CheckAtEndOnTakenSquare)) => {
                    winner_attacked() || self.attacked(to, winner)
                }
                (_, Some(Variant::CheckAtEndOnTaker)) => {
                    winner_attacked() || self.attacked(to, winner.opponent())
                }
                (_, Some(Variant::CheckAtEndAtCorner)) => {
                    winner_attacked() || self.attacked(At { x: 0, y: 0 }, winner)
                }
                _ => false,
            };
        }
        let us = mover.color;
        let them = us.opponent();
        match self.written {
            Some(Written::CheckOnlyBySideToMove) => self.captain_attacked(us),
            Some(Written::CheckOnlyByMover) => self.captain_attacked(them),
            Some(Written::CheckOnlyByMovedPiece) => self
                .captains(them)
                .any(|c| self.path(mover, to, c, Use::Check) == Path::Yes),
            Some(Written::CaptainsFacingGiveCheck) if self.captains_face() => true,
            _ => self.captain_attacked(us) || self.captain_attacked(them),
        }
    }

    /// Whether some piece of `by` could move onto `target` (a captain's square).
    fn attacked(&self, target: At, by: Color) -> bool {
        if self.makes(Written::CheckWrapsAroundEdges) {
            return self.attacked_by_numbers(target, by);
        }
        let left_out = |from: At, p: Piece| {
            (p.kind == PieceKind::Captain && self.makes(Written::CheckForgetsCaptain))
                || (p.kind != PieceKind::Captain && self.instance(from, InstanceSlip::NoCheck))
        };
        let by_own = self.pieces(by).chain(self.ghost_of(by)).any(|(from, p)| {
            !left_out(from, p) && self.path(p, from, target, Use::Check) == Path::Yes
        });
        // A side's loop over its attackers that runs into the other side's range.
        let by_other = || match self.shaped {
            Some(Shaped::OtherSidesAttacker(id)) => self.pieces(by.opponent()).any(|(from, p)| {
                self.ids[from.index()] == id && self.path(p, from, target, Use::Check) == Path::Yes
            }),
            _ => false,
        };
        by_own || by_other()
    }

    /// Whether the two captains stand in one column with nothing between them.
    fn captains_face(&self) -> bool {
        let (Some(red), Some(blue)) = (
            self.captains(Color::Red).next(),
            self.captains(Color::Blue).next(),
        ) else {
            return false;
        };
        red.y == blue.y
            && (red.x.min(blue.x) + 1..red.x.max(blue.x)).all(|x| self.empty(At { x, y: red.y }))
    }

    /// The slip this mutant makes on `piece`'s row `dir` in use `why`, if any.
    fn slip_on(&self, piece: Piece, dir: (i64, i64), why: Use) -> Option<What> {
        let s = self.slip?;
        let here = s.at == why
            && s.kind == piece.kind
            && s.for_color(piece.color)
            && (s.dir.0 as i64, s.dir.1 as i64) == dir;
        here.then_some(s.what)
    }

    /// Whether a leaping `piece` on `from` with these blocking squares (relative to it)
    /// may go to its target by its row `dir`, with this mutant's slip on the row, if any.
    fn leap(
        &self,
        piece: Piece,
        from: At,
        dir: (i64, i64),
        blocks: &mut Vec<(i64, i64)>,
        why: Use,
    ) -> Path {
        let wide = |o: (i8, i8)| (o.0 as i64, o.1 as i64);
        match self.slip_on(piece, dir, why) {
            Some(What::Dropped) => return Path::No,
            Some(What::Forgotten(b)) => blocks.retain(|&s| s != wide(b)),
            Some(What::Moved { block, to, .. }) => {
                for s in blocks.iter_mut() {
                    if *s == wide(block) {
                        *s = wide(to);
                    }
                }
            }
            _ => {}
        }
        Path::when_free(blocks.iter().all(|&(ox, oy)| self.empty(from.plus(ox, oy))))
    }

    /// Whether `piece` on `from` may go to `to` by its own rule (blocking squares
    /// included; who stands on `to` is the caller's business), as the solution thinks.
    fn path(&self, piece: Piece, from: At, to: At, why: Use) -> Path {
        let (dx, dy) = (to.x - from.x, to.y - from.y);
        let (ax, ay) = (dx.abs(), dy.abs());
        let (sx, sy) = (dx.signum(), dy.signum());
        let is = |m: Written| self.makes(m);
        let in_move = |m: Written| why == Use::Move && is(m);
        let in_check = |m: Written| why == Use::Check && is(m);
        // A shape mistake made when moves are judged, or when check is decided.
        let either = |when_moving: Written, when_checking: Written| {
            in_move(when_moving) || in_check(when_checking)
        };
        let palace = |c: Color| {
            let rows = if c == Color::Red { 0..=2 } else { 7..=9 };
            rows.contains(&to.x) && (3..=5).contains(&to.y)
        };
        let shape = |ok: bool| if ok { Path::Yes } else { Path::No };
        let mut blocks: Vec<(i64, i64)> = Vec::with_capacity(2);
        match piece.kind {
            PieceKind::Captain => {
                let diagonal = either(
                    Written::MoveCaptainStepsDiagonally,
                    Written::CheckCaptainStepsDiagonally,
                );
                let step = ax + ay == 1 || (diagonal && ax == 1 && ay == 1);
                if !(step && (!is(Written::CaptainKeptInPalace) || palace(piece.color))) {
                    return Path::No;
                }
                self.leap(piece, from, (dx, dy), &mut blocks, why)
            }
            PieceKind::Guard => {
                let straight = either(
                    Written::MoveGuardStepsStraight,
                    Written::CheckGuardStepsStraight,
                );
                let step = (ax == 1 && ay == 1) || (straight && ax + ay == 1);
                if !(step && (!is(Written::GuardKeptInPalace) || palace(piece.color))) {
                    return Path::No;
                }
                self.leap(piece, from, (dx, dy), &mut blocks, why)
            }
            PieceKind::Elephant => {
                let own_half = match piece.color {
                    Color::Red => to.x <= 4,
                    Color::Blue => to.x >= 5,
                };
                if !(ax == 2 && ay == 2 && (!is(Written::ElephantKeptOnItsSide) || own_half)) {
                    return Path::No;
                }
                let eye = if either(
                    Written::MoveElephantEyeSwapped,
                    Written::CheckElephantEyeSwapped,
                ) {
                    (sy, sx)
                } else {
                    (sx, sy)
                };
                if !(in_move(Written::MoveIgnoresElephantEye)
                    || in_check(Written::CheckIgnoresElephantEye))
                {
                    blocks.push(eye);
                }
                self.leap(piece, from, (dx, dy), &mut blocks, why)
            }
            PieceKind::Horse => {
                let long_rows = ax == 2 && ay == 1;
                let long_cols = ax == 1
                    && ay == 2
                    && !either(
                        Written::MoveHorseMissesShortJumps,
                        Written::CheckHorseMissesShortJumps,
                    );
                if !long_rows && !long_cols {
                    return Path::No;
                }
                let ignored = in_move(Written::MoveIgnoresHorseLeg)
                    || in_check(Written::CheckIgnoresHorseLeg);
                if !ignored {
                    blocks.push(if in_check(Written::CheckHorseLegBesideCaptain) {
                        (sx, sy)
                    } else if long_rows != in_move(Written::MoveHorseLegOnShortSide) {
                        (sx, 0)
                    } else {
                        (0, sy)
                    });
                }
                self.leap(piece, from, (dx, dy), &mut blocks, why)
            }
            PieceKind::Car => self.car(piece, from, to, why),
            PieceKind::Duck => {
                let long_rows = ax == 3 && ay == 2;
                let long_cols = ax == 2
                    && ay == 3
                    && !either(
                        Written::MoveDuckMissesShortJumps,
                        Written::CheckDuckMissesShortJumps,
                    );
                if !long_rows && !long_cols {
                    return Path::No;
                }
                let (first, second) = if in_check(Written::CheckDuckLegsFromCaptain) {
                    ((2 * sx, 2 * sy), (sx, sy))
                } else if long_rows || in_move(Written::MoveDuckLegsNotSwapped) {
                    ((sx, 0), (2 * sx, sy))
                } else {
                    ((0, sy), (sx, 2 * sy))
                };
                if !(in_move(Written::MoveIgnoresDuckFirstLeg)
                    || in_check(Written::CheckIgnoresDuckFirstLeg))
                {
                    blocks.push(first);
                }
                if !(in_move(Written::MoveIgnoresDuckSecondLeg)
                    || in_check(Written::CheckIgnoresDuckSecondLeg))
                {
                    blocks.push(second);
                }
                self.leap(piece, from, (dx, dy), &mut blocks, why)
            }
            PieceKind::Soldier => {
                let step = ax <= 1 && ay <= 1 && ax + ay > 0;
                let straight = !either(
                    Written::MoveSoldierNoDiagonals,
                    Written::CheckSoldierNoDiagonals,
                ) || ax + ay == 1;
                let forward = !either(
                    Written::MoveSoldierNeverBackwards,
                    Written::CheckSoldierNeverBackwards,
                ) || match piece.color {
                    Color::Red => dx >= 0,
                    Color::Blue => dx <= 0,
                };
                match shape(step && straight && forward) {
                    Path::Yes => self.leap(piece, from, (dx, dy), &mut blocks, why),
                    no => no,
                }
            }
        }
    }

    /// The car's path from `from` to `to`, as the solution walks it.
    fn car(&self, piece: Piece, from: At, to: At, why: Use) -> Path {
        let (dx, dy) = (to.x - from.x, to.y - from.y);
        if (dx != 0 && dy != 0) || (dx == 0 && dy == 0) {
            return Path::No;
        }
        let (sx, sy) = (dx.signum(), dy.signum());
        let is = |m: Written| self.makes(m);
        let in_move = |m: Written| why == Use::Move && is(m);
        let in_check = |m: Written| why == Use::Check && is(m);
        if in_move(Written::MoveCarJumps) || in_check(Written::CheckCarJumps) {
            return Path::Yes;
        }
        let n = dx.abs().max(dy.abs());
        let mut first = 1;
        let mut last = if is(Written::CarPathIncludesTarget) {
            n
        } else if in_move(Written::MoveCarStopsOneShort) || in_check(Written::CheckCarStopsOneShort)
        {
            n - 2
        } else {
            n - 1
        };
        match self.slip_on(piece, (sx, sy), why) {
            Some(What::Dropped) => return Path::No,
            Some(What::Car(CarSlip::Jumps)) => return Path::Yes,
            Some(What::Car(CarSlip::SkipsFirst)) => first = 2,
            Some(What::Car(CarSlip::SkipsLast)) => last = n - 2,
            Some(What::Car(CarSlip::TargetInPath)) => last = n,
            Some(What::Car(CarSlip::EdgeOff)) => {
                // Its loop stops before the edge it heads for.
                let edge = to.plus(sx, sy);
                if !edge.on_board() {
                    return Path::No;
                }
            }
            _ => {}
        }
        Path::when_free((first..=last).all(|k| self.empty(from.plus(k * sx, k * sy))))
    }

    /// [`Written::CheckWrapsAroundEdges`]: attacks looked for from the captain outwards
    /// with the squares numbered `9x + y` and only that number bounds-checked, so a step
    /// off one side of the board lands on the other side, a row up or down.
    fn attacked_by_numbers(&self, target: At, by: Color) -> bool {
        let at = |n: i64| -> Option<Piece> {
            if (0..90).contains(&n) {
                self.squares[n as usize]
            } else {
                None
            }
        };
        let open = |n: i64| (0..90).contains(&n) && self.squares[n as usize].is_none();
        let t = target.x * 9 + target.y;
        let num = |dx: i64, dy: i64| dx * 9 + dy;
        let is = |n: i64, kind: PieceKind| at(n) == Some(Piece::new(by, kind));
        for sx in [1, -1] {
            for sy in [1, -1] {
                // Each leap seen from the attacker's side: the attacker stands at
                // t - delta; its blocking squares are counted from it.
                let from = |dx: i64, dy: i64| t - num(dx, dy);
                let leaps: [NumberedLeap<'_>; 8] = [
                    (PieceKind::Captain, (sx, 0), &[]),
                    (PieceKind::Captain, (0, sy), &[]),
                    (PieceKind::Guard, (sx, sy), &[]),
                    (PieceKind::Elephant, (2 * sx, 2 * sy), &[(sx, sy)]),
                    (PieceKind::Horse, (2 * sx, sy), &[(sx, 0)]),
                    (PieceKind::Horse, (sx, 2 * sy), &[(0, sy)]),
                    (PieceKind::Duck, (3 * sx, 2 * sy), &[(sx, 0), (2 * sx, sy)]),
                    (PieceKind::Duck, (2 * sx, 3 * sy), &[(0, sy), (sx, 2 * sy)]),
                ];
                for (kind, (dx, dy), blocks) in leaps {
                    let f = from(dx, dy);
                    if is(f, kind) && blocks.iter().all(|&(bx, by)| open(f + num(bx, by))) {
                        return true;
                    }
                }
                for (dx, dy) in [(sx, 0), (0, sy), (sx, sy)] {
                    if is(from(dx, dy), PieceKind::Soldier) {
                        return true;
                    }
                }
            }
        }
        // Cars: walk out from the captain along the numbers, to the first piece.
        for step in [1, -1, 9, -9] {
            let mut n = t + step;
            while open(n) {
                n += step;
            }
            if is(n, PieceKind::Car) {
                return true;
            }
        }
        false
    }
}

/// What the mutant of `mistake` answers to each of `cmds`.
pub fn answers(mistake: Option<Mistake>, cmds: &[Cmd]) -> Vec<Answer> {
    let mut game = Mutant::new(mistake);
    cmds.iter().map(|&c| game.play(c)).collect()
}

/// What a mutant making `fault` (listed or not) answers to each of `cmds`.
pub fn fault_answers(fault: Fault, cmds: &[Cmd]) -> Vec<Answer> {
    let mut game = Mutant::making(Some(fault));
    cmds.iter().map(|&c| game.play(c)).collect()
}

/// The first command (index from 0) whose answer from the mutant of `mistake` differs
/// from `expected` (the judge's answers to `cmds`), if any.
pub fn first_difference(mistake: Mistake, cmds: &[Cmd], expected: &[Answer]) -> Option<usize> {
    let mut game = Mutant::new(Some(mistake));
    cmds.iter()
        .zip(expected)
        .position(|(&c, e)| game.play(c) != *e)
}

/// The judge's answers to `cmds`.
pub fn judge_answers(cmds: &[Cmd]) -> Vec<Answer> {
    let mut game = crate::judge::game::Game::new();
    cmds.iter()
        .map(|c| game.play(c[0], c[1], c[2], c[3]).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::recipe::{self, Recipe};
    use crate::sys::rng::Rng;

    #[test]
    fn without_a_mistake_it_answers_as_the_judge_on_generated_games() {
        let mut commands = 0;
        for index in 0..1500 {
            let recipe = Recipe {
                seed: 17,
                mode: None,
                max_q: 1000,
                messy: index % 5 == 0,
            };
            let (case, mode) = recipe::case(&recipe, index * 7);
            let cmds = case.cmds();
            commands += cmds.len();
            let expected = judge_answers(&cmds);
            let got = answers(None, &cmds);
            if let Some(i) = (0..cmds.len()).find(|&i| got[i] != expected[i]) {
                panic!(
                    "case {index} ({mode}), command {}: {:?} answered {:?}, the judge {:?}",
                    i + 1,
                    cmds[i],
                    got[i],
                    expected[i]
                );
            }
        }
        assert!(commands > 200_000, "{commands} commands");
    }

    #[test]
    fn random_legal_walks_agree_to_the_end() {
        // Games of legal moves only, captain captures included, then a few more commands.
        let mut rng = Rng::new(5);
        for _ in 0..400 {
            let mut game = crate::judge::game::Game::new();
            let mut cmds = Vec::new();
            for _ in 0..300 {
                let moves = crate::judge::rules::legal_moves(game.board());
                let c = match rng.pick(&moves) {
                    Some(m) => [
                        m.from.x() as i64,
                        m.from.y() as i64,
                        m.to.x() as i64,
                        m.to.y() as i64,
                    ],
                    None => [
                        rng.below(10) as i64,
                        rng.below(9) as i64,
                        rng.below(10) as i64,
                        rng.below(9) as i64,
                    ],
                };
                let _ = game.play(c[0], c[1], c[2], c[3]);
                cmds.push(c);
            }
            assert_eq!(answers(None, &cmds), judge_answers(&cmds));
        }
    }
}
