//! A [`Position`] as SGF text that reads back to the same position.
//!
//! A position keeps its boards, not its moves: the history is a list of (board, side to move)
//! entries, one per start, setup, move or pass. The writer replays that list on a copy of the
//! start position and, for each entry, writes the node that recreates it:
//!
//! - a move (`B[..]`/`W[..]`) when a stone of the side that moved, played legally, gives exactly
//!   the next board; a pass (`B[]`/`W[]`) when the board is unchanged and a pass fits the count
//!   of consecutive passes the position ends with;
//! - otherwise a setup node (`AB`/`AW`/`AE` for the points that changed, `PL` if the side to
//!   move changes), which records the board in the history just as [`Position::setup`] did.
//!
//! A last `PL` node carries a side to move set after the last entry ([`Position::set_to_move`]).
//! Under [`crate::go::KoRule::Simple`] a position keeps only its last two boards, so the record
//! starts from the earlier of them. The ko rule itself is not written: SGF has no property for
//! it, and the reader takes it from its caller.

use crate::Player;
use crate::go::board::Board;
use crate::go::point::{Move, Point, Size};
use crate::go::position::Position;
use std::fmt::Write as _;

/// Writes `pos` as one SGF game: `GM[1]FF[4]CA[UTF-8]AP[tsumi:VERSION]`, `SZ[n]` (or
/// `SZ[columns:rows]`), `KM`, the start board as `AB`/`AW` (and `PL[W]` if White starts), then
/// one node per later entry of the history (see the module documentation).
///
/// [`super::position_from_sgf`] under the position's ko rule reads it back to the same board,
/// side to move, komi, pass count and history.
///
/// # Examples
/// ```
/// use games::go::{KoRule, Position, Rules, Size, position_from_sgf, position_to_sgf};
/// let mut p = Position::new(Size::new(3, 3).unwrap(), Rules::default());
/// p.play_text("B2").unwrap();
/// let sgf = position_to_sgf(&p);
/// assert!(sgf.contains(";B[bb]"));
/// let q = position_from_sgf(&sgf, KoRule::PositionalSuperko).unwrap();
/// assert_eq!(q.history(), p.history());
/// ```
#[must_use]
pub fn position_to_sgf(pos: &Position) -> String {
    let size = pos.size();
    let entries: Vec<(&Board, Player)> = pos.history().positions().collect();
    let Some(&(start, start_side)) = entries.first() else {
        unreachable!("a position's history holds at least its current board")
    };
    let transitions = entries.len() - 1;
    let passes = usize::from(pos.passes());
    // Under simple ko two passes can outnumber the kept transitions: one pass is written
    // before the first kept entry, from a start with the other side to move.
    let extra_passes = passes.saturating_sub(transitions);
    let root_side = if extra_passes % 2 == 1 {
        start_side.opponent()
    } else {
        start_side
    };

    let mut out = String::new();
    let size_text = if size.rows() == size.cols() {
        size.rows().to_string()
    } else {
        format!("{}:{}", size.cols(), size.rows())
    };
    let _ = write!(
        out,
        "(;GM[1]FF[4]CA[UTF-8]AP[tsumi:{}]SZ[{size_text}]KM[{}]",
        env!("CARGO_PKG_VERSION"),
        pos.rules().komi
    );
    let mut sim = Position::from_board(start.clone(), root_side, pos.rules())
        .expect("every board of a history has liberties for all its chains");
    let empty = Board::empty(size);
    let stones = setup_properties(size, &empty, start);
    if !stones.is_empty() || root_side == Player::White {
        out.push('\n');
        out.push_str(&stones);
        if root_side == Player::White {
            out.push_str("PL[W]");
        }
    }
    let mut nodes = 0usize;
    let mut node = |out: &mut String, text: &str| {
        out.push(if nodes.is_multiple_of(12) { '\n' } else { ' ' });
        out.push(';');
        out.push_str(text);
        nodes += 1;
    };
    for _ in 0..extra_passes.min(1) {
        let mover = sim.to_move();
        sim.play(Move::Pass)
            .expect("a pass is legal before the game is over");
        node(&mut out, &move_text(size, mover, Move::Pass));
    }
    for (i, &(board, side)) in entries.iter().enumerate().skip(1) {
        // The last `passes` transitions were passes; the one before them was not.
        let must_pass = i + passes > transitions;
        let must_not_pass = i + passes == transitions;
        let mover = side.opponent();
        let candidate = if board == sim.board() {
            let pass_fits = must_pass || (!must_not_pass && sim.passes() == 0);
            pass_fits.then_some(Move::Pass)
        } else {
            placed_stone(size, sim.board(), board, mover).map(Move::Place)
        };
        if let Some(m) = candidate.filter(|&m| replays(&mut sim, mover, m, board)) {
            node(&mut out, &move_text(size, mover, m));
            continue;
        }
        let mut text = setup_properties(size, sim.board(), board);
        if text.is_empty() {
            // A setup that changes nothing still records the board: restate one point.
            let p = Point::new(0, 0);
            let id = match board.get(p) {
                Some(Player::Black) => "AB",
                Some(Player::White) => "AW",
                None => "AE",
            };
            let _ = write!(text, "{id}[{}]", sgf_point(size, p));
        }
        if side != sim.to_move() {
            let _ = write!(text, "PL[{}]", colour_letter(side));
        }
        sim.setup(board.clone(), side)
            .expect("every board of a history has liberties for all its chains");
        node(&mut out, &text);
    }
    if pos.to_move() != sim.to_move() {
        node(&mut out, &format!("PL[{}]", colour_letter(pos.to_move())));
    }
    out.push_str(")\n");
    out
}

/// Plays `m` for `mover` on `sim` if it is legal and gives `target`; otherwise leaves `sim`
/// as it was and returns false.
fn replays(sim: &mut Position, mover: Player, m: Move, target: &Board) -> bool {
    if let Move::Place(p) = m {
        let mut trial = sim.board().clone();
        if trial.place(p, mover).is_err() || trial != *target {
            return false;
        }
    }
    let before = sim.to_move();
    sim.set_to_move(mover);
    if sim.play(m).is_ok() {
        return true;
    }
    sim.set_to_move(before);
    false
}

/// The one point that is empty in `before` and holds a `mover` stone in `after`, if exactly one.
fn placed_stone(size: Size, before: &Board, after: &Board, mover: Player) -> Option<Point> {
    let mut new = size
        .all_points()
        .filter(|&p| before.get(p).is_none() && after.get(p) == Some(mover));
    let p = new.next()?;
    new.next().is_none().then_some(p)
}

/// `AB`, `AW` and `AE` lists that turn `before` into `after` (empty if they are equal).
fn setup_properties(size: Size, before: &Board, after: &Board) -> String {
    let mut out = String::new();
    for (id, stone) in [
        ("AB", Some(Player::Black)),
        ("AW", Some(Player::White)),
        ("AE", None),
    ] {
        let mut points: Vec<Point> = size
            .all_points()
            .filter(|&p| after.get(p) == stone && before.get(p) != stone)
            .collect();
        // Rows from the top, as SGF lists them.
        points.sort_by_key(|p| (std::cmp::Reverse(p.row), p.col));
        if !points.is_empty() {
            out.push_str(id);
            for p in points {
                let _ = write!(out, "[{}]", sgf_point(size, p));
            }
        }
    }
    out
}

fn move_text(size: Size, colour: Player, m: Move) -> String {
    let point = match m {
        Move::Pass => String::new(),
        Move::Place(p) => sgf_point(size, p),
    };
    format!("{}[{point}]", colour_letter(colour))
}

fn colour_letter(c: Player) -> char {
    match c {
        Player::Black => 'B',
        Player::White => 'W',
    }
}

/// A point in SGF letters: column from the left, then row from the top.
fn sgf_point(size: Size, p: Point) -> String {
    let x = char::from(b'a' + p.col);
    let y = char::from(b'a' + (size.rows() - 1 - u32::from(p.row)) as u8);
    format!("{x}{y}")
}

/// Escapes a Text or SimpleText property value for a `[...]`: `\` and `]` get a backslash
/// (SGF `FF[4]`, "Text"). Every other character is kept as it is.
///
/// # Examples
/// ```
/// assert_eq!(games::go::sgf_escape(r"a]b\c"), r"a\]b\\c");
/// ```
#[must_use]
pub fn sgf_escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}
