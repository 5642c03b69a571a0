//! From the main line's nodes to a [`Position`]: which properties change the position, and how.

use super::charset::Charset;
use super::parse::{Node, Property, Value};
use super::{SgfError, SgfLocation};
use crate::Player;
use crate::go::board::Board;
use crate::go::point::{Move, Point, Size};
use crate::go::position::Position;
use crate::go::rules::{KoRule, Komi, Rules};

/// The points of the root node's properties named in `ids` (markup such as `MA`, `TR`, `SQ`,
/// `SL`), each with its property name, in file order; compressed rectangles are expanded.
pub(super) fn root_points(
    src: &[u8],
    nodes: &[Node],
    charset: Charset,
    ids: &[&str],
) -> Result<Vec<(String, Point)>, SgfError> {
    let r = Reader { src, charset };
    let root = &nodes[0];
    let size = match root.properties.iter().find(|p| p.id == "SZ") {
        Some(sz) => r.size(sz)?,
        None => Size::new(19, 19).expect("19x19 is supported"),
    };
    let mut out = Vec::new();
    for prop in root
        .properties
        .iter()
        .filter(|p| ids.contains(&p.id.as_str()))
    {
        for v in &prop.values {
            for p in r.points(prop, v, size)? {
                out.push((prop.id.clone(), p));
            }
        }
    }
    Ok(out)
}

/// Plays the main line `nodes` (root first, never empty) of the text `src` under `ko`; with
/// `before_move` = Some(n), stops just before the n-th move (B or W) of the main line is played
/// (the setup and properties of that move's node are read, later nodes are not).
pub(super) fn main_line(
    src: &[u8],
    nodes: &[Node],
    charset: Charset,
    ko: KoRule,
    before_move: Option<u32>,
) -> Result<Position, SgfError> {
    let r = Reader { src, charset };
    let mut pos: Option<Position> = None;
    let mut size = Size::new(19, 19).expect("19x19 is supported");
    let mut komi: Option<(Komi, &Value)> = None;
    let mut moves = 0u32;
    for (i, node) in nodes.iter().enumerate() {
        let props = r.interpreted(node)?;
        if let Some(gm) = props.gm {
            let v = r.one_value(gm)?;
            if v.bytes.trim_ascii() != b"1" {
                return Err(r.unsupported(gm, v, "only Go (GM[1]) is supported"));
            }
        }
        if let Some(ko_prop) = props.ko {
            let v = &ko_prop.values[0];
            return Err(r.unsupported(ko_prop, v, "forcing an illegal move is not supported"));
        }
        if let Some(sz) = props.sz {
            if i > 0 {
                return Err(SgfError::NotRoot {
                    id: sz.id.clone(),
                    at: r.loc(sz.at),
                });
            }
            size = r.size(sz)?;
        }
        if let Some(km) = props.km {
            let v = r.one_value(km)?;
            let k = r.text(v).parse::<Komi>().map_err(|reason| SgfError::Komi {
                at: r.loc(v.at),
                reason,
            })?;
            match komi {
                Some((earlier, _)) if earlier != k => {
                    return Err(SgfError::KomiTwice {
                        at: r.loc(km.at),
                        first: earlier,
                        second: k,
                    });
                }
                _ => komi = Some((k, v)),
            }
        }
        let to_move_here = props.pl.map(|pl| r.colour(pl)).transpose()?;
        let setup = r.setup(&props, size, pos.as_ref().map(Position::board))?;
        match pos.as_mut() {
            None => {
                let rules = Rules {
                    ko,
                    komi: komi.map_or(Komi::default(), |(k, _)| k),
                };
                let board = setup.unwrap_or_else(|| Board::empty(size));
                let p = Position::from_board(board, to_move_here.unwrap_or(Player::Black), rules)
                    .map_err(|reason| SgfError::Setup {
                    at: r.loc(node.at),
                    reason,
                })?;
                pos = Some(p);
            }
            Some(p) => {
                if let Some((k, _)) = komi {
                    p.set_komi(k);
                }
                match (setup, to_move_here) {
                    (Some(board), pl) => {
                        let side = pl.unwrap_or(p.to_move());
                        p.setup(board, side).map_err(|reason| SgfError::Setup {
                            at: r.loc(node.at),
                            reason,
                        })?;
                    }
                    (None, Some(side)) => p.set_to_move(side),
                    (None, None) => {}
                }
            }
        }
        let p = pos.as_mut().expect("the root node made the position");
        if let Some(ha) = props.ha {
            r.check_handicap(ha, props.ab.is_some(), p.board())?;
        }
        let mv = match (props.b, props.w) {
            (Some(_), Some(_)) => return Err(SgfError::TwoMoves { at: r.loc(node.at) }),
            (Some(b), None) => Some((Player::Black, b)),
            (None, Some(w)) => Some((Player::White, w)),
            (None, None) => None,
        };
        if let Some((colour, prop)) = mv {
            moves += 1;
            if before_move.is_some_and(|n| moves >= n) {
                break;
            }
            let v = r.one_value(prop)?;
            let m = r.mv(prop, v, size)?;
            p.set_to_move(colour);
            p.play(m).map_err(|reason| SgfError::IllegalMove {
                number: moves,
                colour,
                point: m.to_string(),
                reason,
            })?;
        }
    }
    Ok(pos.expect("a game tree has a root node"))
}

/// The properties of one node that the reader interprets (each at most once per node).
#[derive(Default)]
struct Interpreted<'n> {
    b: Option<&'n Property>,
    w: Option<&'n Property>,
    ab: Option<&'n Property>,
    aw: Option<&'n Property>,
    ae: Option<&'n Property>,
    pl: Option<&'n Property>,
    km: Option<&'n Property>,
    ha: Option<&'n Property>,
    ko: Option<&'n Property>,
    sz: Option<&'n Property>,
    gm: Option<&'n Property>,
}

struct Reader<'a> {
    src: &'a [u8],
    charset: Charset,
}

impl Reader<'_> {
    fn loc(&self, at: usize) -> SgfLocation {
        SgfLocation::of(self.src, at)
    }

    fn text(&self, v: &Value) -> String {
        self.charset.decode(&v.bytes)
    }

    /// The value for an error message: at most 40 characters, line breaks shown as spaces.
    fn shown(&self, v: &Value) -> String {
        let text = self.text(v);
        let mut out: String = text
            .chars()
            .take(40)
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        if text.chars().nth(40).is_some() {
            out.push('…');
        }
        out
    }

    /// Sorts a node's properties into the interpreted ones; all others are ignored.
    fn interpreted<'n>(&self, node: &'n Node) -> Result<Interpreted<'n>, SgfError> {
        let mut out = Interpreted::default();
        for prop in &node.properties {
            let slot = match prop.id.as_str() {
                "B" => &mut out.b,
                "W" => &mut out.w,
                "AB" => &mut out.ab,
                "AW" => &mut out.aw,
                "AE" => &mut out.ae,
                "PL" => &mut out.pl,
                "KM" => &mut out.km,
                "HA" => &mut out.ha,
                "KO" => &mut out.ko,
                "SZ" => &mut out.sz,
                "GM" => &mut out.gm,
                _ => continue,
            };
            if slot.is_some() {
                return Err(SgfError::Repeated {
                    id: prop.id.clone(),
                    at: self.loc(prop.at),
                });
            }
            *slot = Some(prop);
        }
        Ok(out)
    }

    fn one_value<'p>(&self, prop: &'p Property) -> Result<&'p Value, SgfError> {
        match prop.values.as_slice() {
            [v] => Ok(v),
            vs => Err(SgfError::ValueCount {
                id: prop.id.clone(),
                count: vs.len(),
                at: self.loc(prop.at),
            }),
        }
    }

    fn invalid(&self, prop: &Property, v: &Value, expected: &'static str) -> SgfError {
        SgfError::InvalidValue {
            id: prop.id.clone(),
            value: self.shown(v),
            at: self.loc(v.at),
            expected,
        }
    }

    fn unsupported(&self, prop: &Property, v: &Value, reason: &'static str) -> SgfError {
        SgfError::Unsupported {
            id: prop.id.clone(),
            value: self.shown(v),
            at: self.loc(prop.at),
            reason,
        }
    }

    /// `SZ[n]` (n×n) or `SZ[c:r]` (c columns, r rows).
    fn size(&self, sz: &Property) -> Result<Size, SgfError> {
        let v = self.one_value(sz)?;
        let text = self.text(v);
        let number = |s: &str| {
            let s = s.trim();
            (!s.is_empty() && s.len() <= 4 && s.bytes().all(|b| b.is_ascii_digit()))
                .then(|| s.parse::<u32>().expect("up to four digits"))
                .ok_or_else(|| self.invalid(sz, v, "a board size 'n' or 'columns:rows'"))
        };
        let (cols, rows) = match text.split_once(':') {
            Some((c, r)) => (number(c)?, number(r)?),
            None => {
                let n = number(&text)?;
                (n, n)
            }
        };
        Size::new(rows, cols).map_err(|reason| SgfError::Size {
            at: self.loc(v.at),
            reason,
        })
    }

    fn colour(&self, pl: &Property) -> Result<Player, SgfError> {
        let v = self.one_value(pl)?;
        match v.bytes.trim_ascii() {
            b"B" | b"b" => Ok(Player::Black),
            b"W" | b"w" => Ok(Player::White),
            _ => Err(self.invalid(pl, v, "B or W")),
        }
    }

    /// A point value: column letter then row letter from the top (a–z = 0–25, A–Z = 26–51).
    fn point(
        &self,
        prop: &Property,
        v: &Value,
        bytes: &[u8],
        size: Size,
    ) -> Result<Point, SgfError> {
        let coord = |b: u8| match b {
            b'a'..=b'z' => Some(u32::from(b - b'a')),
            b'A'..=b'Z' => Some(u32::from(b - b'A') + 26),
            _ => None,
        };
        let [x, y] = bytes else {
            return Err(self.invalid(prop, v, "a point (two letters, e.g. 'cd')"));
        };
        let (Some(x), Some(y)) = (coord(*x), coord(*y)) else {
            return Err(self.invalid(prop, v, "a point (two letters, e.g. 'cd')"));
        };
        if x >= size.cols() || y >= size.rows() {
            return Err(SgfError::OffBoard {
                point: String::from_utf8_lossy(bytes).into_owned(),
                size,
                at: self.loc(v.at),
            });
        }
        Ok(Point::new(size.rows() - 1 - y, x))
    }

    /// A move value: a point, or a pass (`[]`, and `[tt]` since boards are at most 19×19).
    fn mv(&self, prop: &Property, v: &Value, size: Size) -> Result<Move, SgfError> {
        if v.bytes.is_empty() || (v.bytes == b"tt" && size.rows() <= 19 && size.cols() <= 19) {
            return Ok(Move::Pass);
        }
        self.point(prop, v, &v.bytes, size).map(Move::Place)
    }

    /// The board after the node's AB/AW/AE (on `before`, or the empty board in the root), or
    /// `None` if the node has none.
    fn setup(
        &self,
        props: &Interpreted<'_>,
        size: Size,
        before: Option<&Board>,
    ) -> Result<Option<Board>, SgfError> {
        if props.ab.is_none() && props.aw.is_none() && props.ae.is_none() {
            return Ok(None);
        }
        let mut board = before.cloned().unwrap_or_else(|| Board::empty(size));
        // Which list set each point: a point in two of AB, AW, AE is ambiguous.
        let mut set_by: Vec<Option<usize>> = vec![None; size.points()];
        let lists = [
            (props.ab, Some(Player::Black)),
            (props.aw, Some(Player::White)),
            (props.ae, None),
        ];
        for (k, (prop, stone)) in lists.into_iter().enumerate() {
            let Some(prop) = prop else { continue };
            for v in &prop.values {
                for p in self.points(prop, v, size)? {
                    let slot = &mut set_by[size.index(p)];
                    if slot.is_some_and(|j| j != k) {
                        return Err(SgfError::ConflictingSetup {
                            point: p.to_string(),
                            at: self.loc(v.at),
                        });
                    }
                    *slot = Some(k);
                    board.set(p, stone);
                }
            }
        }
        Ok(Some(board))
    }

    /// The points of one value of a point list: a point, or a rectangle `ul:lr` given by two
    /// opposite corners (any two opposite corners are accepted).
    fn points(&self, prop: &Property, v: &Value, size: Size) -> Result<Vec<Point>, SgfError> {
        match v.bytes.iter().position(|&b| b == b':') {
            None => Ok(vec![self.point(prop, v, &v.bytes, size)?]),
            Some(k) => {
                let a = self.point(prop, v, &v.bytes[..k], size)?;
                let b = self.point(prop, v, &v.bytes[k + 1..], size)?;
                let mut out = Vec::new();
                for row in a.row.min(b.row)..=a.row.max(b.row) {
                    for col in a.col.min(b.col)..=a.col.max(b.col) {
                        out.push(Point::new(u32::from(row), u32::from(col)));
                    }
                }
                Ok(out)
            }
        }
    }

    /// `HA[n]` is game information, ignored when the handicap stones are on the board: n ≤ 1,
    /// or the node also has `AB` and at least n black stones after its setup. Otherwise the
    /// file asks the reader to place the stones, which it does not do.
    fn check_handicap(&self, ha: &Property, has_ab: bool, board: &Board) -> Result<(), SgfError> {
        let v = self.one_value(ha)?;
        let text = self.text(v);
        let n: u32 = text
            .trim()
            .parse()
            .map_err(|_| self.invalid(ha, v, "a number of handicap stones"))?;
        if n >= 2 && (!has_ab || board.count(Player::Black) < n) {
            return Err(self.unsupported(
                ha,
                v,
                "the handicap stones must be given by AB in the same node",
            ));
        }
        Ok(())
    }
}
