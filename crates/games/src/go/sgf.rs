//! Positions from SGF (FF[4], GM[1]) through the `sgf-parse` crate.
//!
//! Read: `SZ[n]` and `SZ[c:r]` (c columns, r rows), `AB`/`AW`/`AE` setup (in any node; each
//! setup board enters the history, so positional superko forbids recreating it), `B`/`W`
//! moves along the main line, `KM` komi, `PL` side to move. SGF points are column letter
//! then row letter from the TOP; `B[]` (and `B[tt]` on boards up to 19×19) is a pass.

use super::board::Board;
use super::point::{Move, Point, Size, SizeError};
use super::position::{MoveError, Position};
use super::rules::{KoRule, Komi, KomiError, Rules};
use crate::Player;
use sgf_parse::go::{self, Prop};

/// Why an SGF file cannot be turned into a position.
#[derive(Debug, thiserror::Error)]
pub enum SgfError {
    /// The text is not SGF.
    #[error("malformed SGF: {0}")]
    Malformed(String),
    /// The file holds no game.
    #[error("malformed SGF: no game tree")]
    Empty,
    /// A property has an invalid value.
    #[error("invalid SGF property {0}[{1}]")]
    InvalidProperty(String, String),
    /// The size is not supported.
    #[error(transparent)]
    Size(#[from] SizeError),
    /// A komi that is not a multiple of 0.5.
    #[error(transparent)]
    Komi(#[from] KomiError),
    /// A point outside the board.
    #[error("SGF point {0} is off the {1} board")]
    OffBoard(String, Size),
    /// An illegal move in the main line.
    #[error("SGF move {number} ({colour} {point}): {reason}")]
    IllegalMove {
        /// 1-based move number in the main line.
        number: u32,
        /// Colour of the move.
        colour: Player,
        /// The move in GTP coordinates.
        point: String,
        /// Why it is illegal.
        reason: MoveError,
    },
    /// One node puts two setup properties on the same point.
    #[error("SGF setup puts {0} in more than one of AB, AW and AE")]
    ConflictingSetup(String),
    /// A setup that leaves a chain without liberties.
    #[error(transparent)]
    Setup(MoveError),
}

/// Reads the main line of the first game in `text` into a position under `ko`.
/// The komi comes from `KM` (0 if absent).
///
/// # Errors
/// [`SgfError`] naming the problem: malformed text, unsupported size, off-board point,
/// invalid property value, a setup with a chain without liberties, or an illegal move.
pub fn position_from_sgf(text: &str, ko: KoRule) -> Result<Position, SgfError> {
    let trees = go::parse(text).map_err(|e| SgfError::Malformed(e.to_string()))?;
    let root = trees.first().ok_or(SgfError::Empty)?;
    for prop in root.properties() {
        if let Prop::Invalid(id, vals) = prop {
            return Err(SgfError::InvalidProperty(id.clone(), vals.join("][")));
        }
    }
    let size = match root.get_property("SZ") {
        Some(Prop::SZ((c, r))) => Size::new(u32::from(*r), u32::from(*c))?,
        _ => Size::new(19, 19)?,
    };
    let komi = match root.get_property("KM") {
        Some(Prop::KM(k)) => Komi::from_f64(*k)?,
        _ => Komi::default(),
    };
    let rules = Rules { ko, komi };
    let mut pos = Position::new(size, rules);
    let mut number = 0u32;
    for node in root.main_variation() {
        let mut board: Option<Board> = None;
        let mut set_here: Vec<Point> = Vec::new();
        let mut to_move = pos.to_move();
        for prop in node.properties() {
            match prop {
                Prop::Invalid(id, vals) => {
                    return Err(SgfError::InvalidProperty(id.clone(), vals.join("][")));
                }
                Prop::AB(pts) | Prop::AW(pts) | Prop::AE(pts) => {
                    let stone = match prop {
                        Prop::AB(_) => Some(Player::Black),
                        Prop::AW(_) => Some(Player::White),
                        _ => None,
                    };
                    let b = board.get_or_insert_with(|| pos.board().clone());
                    let mut sorted: Vec<_> = pts.iter().collect();
                    sorted.sort_by_key(|p| (p.y, p.x));
                    for p in sorted {
                        let q = sgf_point(size, p.x, p.y)?;
                        if set_here.contains(&q) {
                            return Err(SgfError::ConflictingSetup(q.to_string()));
                        }
                        set_here.push(q);
                        b.set(q, stone);
                    }
                }
                Prop::PL(c) => to_move = colour(*c),
                _ => {}
            }
        }
        if let Some(b) = board {
            pos.setup(b, to_move).map_err(SgfError::Setup)?;
        } else {
            pos.set_to_move(to_move);
        }
        let mv = match node.get_move() {
            Some(Prop::B(m)) => Some((Player::Black, *m)),
            Some(Prop::W(m)) => Some((Player::White, *m)),
            _ => None,
        };
        if let Some((c, m)) = mv {
            number += 1;
            let m = match m {
                go::Move::Pass => Move::Pass,
                go::Move::Move(p)
                    if size.rows() <= 19 && size.cols() <= 19 && p.x == 19 && p.y == 19 =>
                {
                    Move::Pass
                }
                go::Move::Move(p) => Move::Place(sgf_point(size, p.x, p.y)?),
            };
            pos.set_to_move(c);
            pos.play(m).map_err(|reason| SgfError::IllegalMove {
                number,
                colour: c,
                point: m.to_string(),
                reason,
            })?;
        }
    }
    Ok(pos)
}

fn colour(c: sgf_parse::Color) -> Player {
    match c {
        sgf_parse::Color::Black => Player::Black,
        sgf_parse::Color::White => Player::White,
    }
}

/// SGF (x from the left, y from the top) to a point of the board.
fn sgf_point(size: Size, x: u8, y: u8) -> Result<Point, SgfError> {
    let (x, y) = (u32::from(x), u32::from(y));
    if x >= size.cols() || y >= size.rows() {
        let name = format!(
            "{}{}",
            char::from(b'a' + x.min(25) as u8),
            char::from(b'a' + y.min(25) as u8)
        );
        return Err(SgfError::OffBoard(name, size));
    }
    Ok(Point::new(size.rows() - 1 - y, x))
}
