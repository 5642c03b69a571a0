//! `prove go ... --proof-sgf FILE` (and `solve go ... --proof-sgf DIR`, one file per
//! deciding proof): a proof as SGF, from its certificate's DAG.
//!
//! The proof is first written as a certificate (`gosolve::certificate`) and read back with
//! the checker's parser (`check::parse`), so the SGF shows exactly the DAG that `tsumi check`
//! verifies. Proofs of at most [`WHOLE_TREE_NODES`] nodes are written whole: at the winner's
//! nodes its chosen move, at the loser's nodes every legal move as a variation. Larger ones
//! are written as their main line only (a note on stderr says so). The main line follows the
//! winner's move and, at the loser's nodes, the move with the largest subtree (the longest
//! resistance); at a transposition it continues in the referenced node's subtree, stopping
//! where a move would repeat a board of the line.
//!
//! Every leaf has a comment (C[]) saying why it is one: the game's end with its area score,
//! a static leaf (Lemma 1) with its X*, T* and certified area, or a transposition (the proof
//! of an earlier node, reused by Theorem 1, named by its moves from the root). The file is
//! `FF[4]` with `SZ[cols:rows]` for rectangles; passes are empty moves (`B[]`).

use anyhow::Context;
use check::format::{Kind, Start, Step};
use check::{Board, Certificate, Color, Geometry};
use games::Player;
use games::go::Komi;
use gosolve::{Proof, Root, Solver};
use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::Path;

/// Proofs of at most this many certificate nodes are written as whole trees.
pub const WHOLE_TREE_NODES: usize = 10_000;

/// Writes the SGF of a proven question to `path`.
///
/// # Errors
/// No answer to show, a failing certificate extraction, or a write error.
pub fn write_go(
    solver: &mut Solver,
    root: &impl Root,
    p: &Proof,
    path: &Path,
) -> anyhow::Result<()> {
    let winner = crate::cmd::check::proven_winner(p, "--proof-sgf")?;
    write_one(solver, root, winner, p.komi.half_points(), path)
}

/// Writes the SGF of both deciding proofs of a solved value `v` into `dir` (`solve
/// --proof-sgf DIR`): `black-<v − ½>.sgf` and `white-<v + ½>.sgf`.
///
/// # Errors
/// A directory or write error, or a failing certificate extraction.
pub fn write_solve(
    solver: &mut Solver,
    root: &impl Root,
    value: i32,
    dir: &Path,
) -> anyhow::Result<()> {
    for (w, k2, path) in crate::cmd::check::deciding_files(value, dir, "sgf", "--proof-sgf")? {
        write_one(solver, root, w, k2, &path)?;
    }
    Ok(())
}

/// Writes the SGF of "`winner` wins from `root` at komi `komi2`/2".
fn write_one(
    solver: &mut Solver,
    root: &impl Root,
    winner: Player,
    komi2: i32,
    path: &Path,
) -> anyhow::Result<()> {
    let mut text = Vec::new();
    gosolve::certificate::write_certificate(
        solver,
        root,
        winner,
        Komi::from_half_points(komi2),
        &mut text,
    )
    .map_err(|e| anyhow::anyhow!("--proof-sgf: {e}"))?;
    let text = String::from_utf8(text).context("the certificate is text")?;
    let cert = check::parse(&text).map_err(|e| anyhow::anyhow!("--proof-sgf: {e}"))?;
    let whole = cert.nodes.len() <= WHOLE_TREE_NODES;
    if !whole {
        eprintln!(
            "--proof-sgf: the proof has {} nodes (more than {WHOLE_TREE_NODES}): writing its main line only",
            cert.nodes.len()
        );
    }
    let sgf = to_sgf(&cert, whole);
    crate::result_file::write_text(path, "proof SGF", &sgf)
}

/// The SGF of a certificate: the whole tree, or the main line only.
#[must_use]
pub fn to_sgf(cert: &Certificate, whole: bool) -> String {
    let geo = &cert.geo;
    let komi = check::format::komi_text(cert.komi2);
    let mut s = format!(
        "(;GM[1]FF[4]CA[UTF-8]AP[tsumi:{}]",
        env!("CARGO_PKG_VERSION")
    );
    if geo.rows() == geo.cols() {
        let _ = write!(s, "SZ[{}]", geo.rows());
    } else {
        let _ = write!(s, "SZ[{}:{}]", geo.cols(), geo.rows());
    }
    let _ = write!(
        s,
        "KM[{komi}]RU[area scoring, positional superko, suicide illegal]"
    );
    let what = if whole {
        "the whole proof tree: the winner's chosen move, and every legal move of the loser as a variation"
    } else {
        "the proof's main line (the whole tree has more than 10000 nodes)"
    };
    let _ = write!(
        s,
        "C[{} wins at komi {komi}: {what}. Leaves say why they are leaves.]",
        cert.winner.name()
    );
    let mut boards: HashSet<Board> = HashSet::new();
    boards.insert(Board::EMPTY);
    match &cert.start {
        Start::Moves(steps) => {
            let mut to_move = Color::Black;
            let mut board = Board::EMPTY;
            for &st in steps {
                s.push(';');
                push_move(&mut s, geo, to_move, st);
                if let Step::Stone(p) = st
                    && let Ok(b) = geo.play(&board, to_move, p)
                {
                    board = b;
                    boards.insert(b);
                }
                to_move = to_move.other();
            }
            if !steps.is_empty() {
                let _ = write!(
                    s,
                    "C[the proof's root: the position after these {} start moves]",
                    steps.len()
                );
            }
        }
        Start::Setup {
            board,
            to_move,
            earlier,
            ..
        } => {
            if !earlier.is_empty() {
                let _ = write!(
                    s,
                    "GC[the root is a setup with {} earlier boards in its superko history (in the certificate)]",
                    earlier.len()
                );
            }
            push_setup(&mut s, geo, board, *to_move);
            boards.insert(*board);
            boards.extend(earlier.iter().copied());
        }
    }
    let mut w = SgfWriter {
        cert,
        out: s,
        parents: parents(cert),
    };
    if whole {
        w.tree(0);
    } else {
        w.main_line(&mut boards);
    }
    w.out.push_str(")\n");
    w.out
}

struct SgfWriter<'a> {
    cert: &'a Certificate,
    out: String,
    /// Each node's parent in the tree (the root's is 0).
    parents: Vec<usize>,
}

impl SgfWriter<'_> {
    /// The SGF node of certificate node `id` (its move, played by the parent's mover).
    fn node(&mut self, id: usize) {
        let n = &self.cert.nodes[id];
        if n.step != Step::Root {
            self.out.push(';');
            push_move(&mut self.out, &self.cert.geo, n.to_move.other(), n.step);
        }
        if let Some(c) = self.leaf_comment(id) {
            let _ = write!(self.out, "C[{}]", games::go::sgf_escape(&c));
        }
    }

    fn step_name(&self, st: Step) -> String {
        match st {
            Step::Root => "-".into(),
            Step::Pass => "pass".into(),
            Step::Stone(p) => self.cert.geo.point_name(p),
        }
    }

    /// Why node `id` is a leaf, if it is one.
    fn leaf_comment(&self, id: usize) -> Option<String> {
        let cert = self.cert;
        let geo = &cert.geo;
        let n = &cert.nodes[id];
        let komi = check::format::komi_text(cert.komi2);
        let w = cert.winner.name();
        Some(match n.kind {
            Kind::End => format!(
                "leaf: two passes end the game; Black's area margin {}, a win for {w} at komi {komi}",
                geo.area_score(&n.board)
            ),
            Kind::Eyes { alive, territory } => format!(
                "leaf: static win for {w} (Lemma 1): X* {} and T* {}, certified area {} of {} points",
                geo.draw_set(alive),
                geo.draw_set(territory),
                (alive | territory).count_ones(),
                geo.points()
            ),
            Kind::Ref(t) => {
                let mut moves = Vec::new();
                let mut i = t as usize;
                while i != 0 {
                    moves.push(self.step_name(cert.nodes[i].step));
                    i = self.parents[i];
                }
                moves.reverse();
                format!(
                    "leaf: transposition: the proof of node {t} (after {}) is reused here (Theorem 1)",
                    if moves.is_empty() {
                        "the root".to_string()
                    } else {
                        moves.join(" ")
                    }
                )
            }
            Kind::Win | Kind::All(_) => return None,
        })
    }

    /// The subtree of `id` as SGF (an explicit stack: no recursion on deep proofs).
    fn tree(&mut self, id: usize) {
        enum Item {
            Open(usize, bool),
            Close,
        }
        let mut stack = vec![Item::Open(id, false)];
        while let Some(item) = stack.pop() {
            match item {
                Item::Close => self.out.push(')'),
                Item::Open(i, paren) => {
                    if paren {
                        self.out.push('(');
                    }
                    self.node(i);
                    if paren {
                        stack.push(Item::Close);
                    }
                    let ch = &self.cert.nodes[i].children;
                    let many = ch.len() > 1;
                    for &c in ch.iter().rev() {
                        stack.push(Item::Open(c as usize, many));
                    }
                }
            }
        }
    }

    /// The main line from the root (see the module docs).
    fn main_line(&mut self, boards: &mut HashSet<Board>) {
        let cert = self.cert;
        let sizes = subtree_sizes(cert);
        let mut i = 0usize;
        self.node(0);
        loop {
            let n = &cert.nodes[i];
            let at = match n.kind {
                Kind::Ref(t) => t as usize,
                _ => i,
            };
            let Some(&next) = cert.nodes[at]
                .children
                .iter()
                .max_by_key(|&&c| sizes[c as usize])
            else {
                break;
            };
            let nx = &cert.nodes[next as usize];
            if matches!(nx.step, Step::Stone(_)) && !boards.insert(nx.board) {
                break;
            }
            self.node(next as usize);
            i = next as usize;
        }
    }
}

/// Each node's parent in the tree (the root's is 0).
fn parents(cert: &Certificate) -> Vec<usize> {
    let mut p = vec![0; cert.nodes.len()];
    for (i, n) in cert.nodes.iter().enumerate() {
        for &c in &n.children {
            p[c as usize] = i;
        }
    }
    p
}

/// Nodes in each node's subtree (references count one).
fn subtree_sizes(cert: &Certificate) -> Vec<usize> {
    let mut size = vec![1usize; cert.nodes.len()];
    // Children follow their parent in pre-order: sum from the end.
    for i in (0..cert.nodes.len()).rev() {
        let s: usize = cert.nodes[i]
            .children
            .iter()
            .map(|&c| size[c as usize])
            .sum();
        size[i] += s;
    }
    size
}

fn color_letter(c: Color) -> char {
    match c {
        Color::Black => 'B',
        Color::White => 'W',
    }
}

/// SGF point letters: column from the left, row from the top.
fn sgf_point(geo: &Geometry, p: usize) -> String {
    let (r, c) = (p / geo.cols(), p % geo.cols());
    let row_from_top = geo.rows() - 1 - r;
    format!(
        "{}{}",
        (b'a' + c as u8) as char,
        (b'a' + row_from_top as u8) as char
    )
}

fn push_move(s: &mut String, geo: &Geometry, c: Color, st: Step) {
    match st {
        Step::Stone(p) => {
            let _ = write!(s, "{}[{}]", color_letter(c), sgf_point(geo, p));
        }
        Step::Pass | Step::Root => {
            let _ = write!(s, "{}[]", color_letter(c));
        }
    }
}

fn push_setup(s: &mut String, geo: &Geometry, board: &Board, to_move: Color) {
    for (tag, set) in [("AB", board.black), ("AW", board.white)] {
        if set != 0 {
            s.push_str(tag);
            for p in 0..geo.points() {
                if set >> p & 1 == 1 {
                    let _ = write!(s, "[{}]", sgf_point(geo, p));
                }
            }
        }
    }
    let _ = write!(s, "PL[{}]", color_letter(to_move));
}

#[cfg(test)]
mod tests {
    use super::to_sgf;

    #[test]
    fn main_line_is_one_line_ending_at_a_commented_leaf() {
        let text = include_str!("../../../data/cert/3x4-black-3.5.cert");
        let cert = check::parse(text).unwrap();
        let sgf = to_sgf(&cert, false);
        let trees = sgf_parse::go::parse(&sgf).unwrap();
        let mut n = &trees[0];
        let mut len = 1;
        while let Some(c) = n.children().next() {
            assert_eq!(n.children().count(), 1, "{sgf}");
            n = c;
            len += 1;
        }
        assert!(len > 5, "{sgf}");
        match n.get_property("C") {
            Some(sgf_parse::go::Prop::C(t)) => assert!(t.to_string().starts_with("leaf: "), "{t}"),
            _ => panic!("the main line ends without a leaf comment: {sgf}"),
        }
    }
}
