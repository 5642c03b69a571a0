//! The audit's semantic forgeries as a seeded generator: valid certificates written by the
//! solver on small boards are attacked, and no forged certificate whose claim is false is
//! ever accepted.
//!
//! For each board the solver finds the value v and writes the two certificates that decide
//! it (Black at komi v − ½, White at v + ½). Their false neighbours (the winner flipped, the
//! komi moved past the value, the root moved by one more start move where the solver says
//! the claim is lost) are forged from them, and an adaptive adversary then edits the body
//! where the checker complains: at the failing node or one of its ancestors it applies one
//! of the forgery classes of the audit,
//!
//! - the winner's move swapped (the child's position recomputed for the new move),
//! - a loser's move dropped or duplicated, a child for an illegal move added,
//! - a reference retargeted, or a subtree replaced by a reference to an earlier node of the
//!   same position (Theorem 1's conditions broken),
//! - a static leaf with the checker's own pure-eye sets (its (C1)/(C2)/area tested) or wrong
//!   sets, an early `end`, a false stated position,
//!
//! keeping an edit while the certificate stays readable. Whatever the adversary reaches, an
//! accepted certificate must claim something true. One-shot forgeries of the valid
//! certificates run as well (no panic; a rejection names a node of the file), and the test
//! asserts that every class was applied and that the checker's main refusals were seen.

use check::format::komi_text;
use check::{CheckError, Color, Geometry};
use games::Player;
use games::go::{Position, Rules, Size};
use gosolve::{Played, Solver};
use std::collections::{BTreeMap, HashMap};

/// splitmix64 (seeded, no dependency).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Kind {
    Win,
    All,
    End,
    Eyes(String, String),
    /// An arena index.
    Ref(usize),
}

#[derive(Clone, Debug)]
struct Node {
    mv: String,
    board: String,
    side: String,
    kind: Kind,
    children: Vec<usize>,
}

/// A certificate as an editable tree: header lines and a node arena (node 0 the root).
#[derive(Clone, Debug)]
struct Tree {
    header: Vec<String>,
    nodes: Vec<Node>,
}

impl Tree {
    fn read(text: &str) -> Tree {
        let cert = check::parse(text).expect("a valid certificate");
        let lines: Vec<&str> = text.lines().collect();
        let header = lines[..cert.nodes[0].line - 1]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let nodes = cert
            .nodes
            .iter()
            .map(|n| {
                let w: Vec<&str> = lines[n.line - 1].split_ascii_whitespace().collect();
                let kind = match n.kind {
                    check::format::Kind::Win => Kind::Win,
                    check::format::Kind::All(_) => Kind::All,
                    check::format::Kind::End => Kind::End,
                    check::format::Kind::Eyes { .. } => Kind::Eyes(w[4].into(), w[5].into()),
                    check::format::Kind::Ref(t) => Kind::Ref(t as usize),
                };
                Node {
                    mv: w[0].into(),
                    board: w[1].into(),
                    side: w[2].into(),
                    kind,
                    children: n.children.iter().map(|&c| c as usize).collect(),
                }
            })
            .collect();
        Tree { header, nodes }
    }

    /// The text, in pre-order from the root; references to nodes not written (or written
    /// later) point at the root, which the checker refuses.
    fn write(&self) -> String {
        let mut order = Vec::new();
        let mut stack = vec![0usize];
        while let Some(u) = stack.pop() {
            order.push(u);
            if order.len() > 100_000 {
                break;
            }
            stack.extend(self.nodes[u].children.iter().rev());
        }
        let mut id: HashMap<usize, usize> = HashMap::new();
        let mut s = self.header.join("\n");
        s.push('\n');
        for (i, &u) in order.iter().enumerate() {
            let n = &self.nodes[u];
            let kind = match &n.kind {
                Kind::Win => "win".to_string(),
                Kind::All => format!("all {}", n.children.len()),
                Kind::End => "end".into(),
                Kind::Eyes(a, t) => format!("eyes {a} {t}"),
                Kind::Ref(t) => format!("ref {}", id.get(t).copied().unwrap_or(0)),
            };
            id.entry(u).or_insert(i);
            s.push_str(&format!("{} {} {} {kind}\n", n.mv, n.board, n.side));
        }
        s.push_str(&format!("end {}\n", order.len()));
        s
    }

    fn parents(&self) -> Vec<Option<usize>> {
        let mut p = vec![None; self.nodes.len()];
        let mut stack = vec![0usize];
        let mut seen = vec![false; self.nodes.len()];
        while let Some(u) = stack.pop() {
            if std::mem::replace(&mut seen[u], true) {
                continue;
            }
            for &c in &self.nodes[u].children {
                p[c] = Some(u);
                stack.push(c);
            }
        }
        p
    }

    /// The nodes reachable from the root, in pre-order.
    fn order(&self) -> Vec<usize> {
        let mut order = Vec::new();
        let mut stack = vec![0usize];
        while let Some(u) = stack.pop() {
            order.push(u);
            stack.extend(self.nodes[u].children.iter().rev());
        }
        order
    }

    fn set_header(&mut self, key: &str, value: &str) {
        for l in &mut self.header {
            if l.split_ascii_whitespace().next() == Some(key) {
                *l = format!("{key} {value}");
            }
        }
    }
}

/// The audit's forgery classes.
const CLASSES: [&str; 9] = [
    "winner's move swapped",
    "loser's move dropped",
    "loser's move duplicated",
    "illegal child",
    "reference retargeted",
    "subtree replaced by a reference",
    "static leaf forged",
    "early end",
    "false state",
];

struct Forger<'a> {
    geo: &'a Geometry,
    rng: Rng,
    applied: [usize; CLASSES.len()],
}

fn side_of(side: &str) -> Color {
    if side.starts_with('b') {
        Color::Black
    } else {
        Color::White
    }
}

impl Forger<'_> {
    /// Applies a random class at node `u` (or near it); `false` when it did not apply.
    fn forge(&mut self, t: &mut Tree, u: usize, winner: Color) -> bool {
        let class = self.rng.below(CLASSES.len());
        self.forge_class(t, u, winner, class)
    }

    /// Applies forgery class `class` at node `u` (or near it); `false` when it did not apply.
    fn forge_class(&mut self, t: &mut Tree, u: usize, winner: Color, class: usize) -> bool {
        let geo = self.geo;
        let parents = t.parents();
        let done = match class {
            0 => {
                // The winner's move: at u (a `win` node) or u's parent.
                let w = if t.nodes[u].kind == Kind::Win {
                    Some(u)
                } else {
                    parents[u].filter(|&p| t.nodes[p].kind == Kind::Win)
                };
                let Some(w) = w else { return false };
                let c = t.nodes[w].children[0];
                let pb = geo.parse_board(&t.nodes[w].board).unwrap();
                let mover = side_of(&t.nodes[w].side);
                let p = self.rng.below(geo.points() + 1);
                let (mv, board, side) = if p == geo.points() {
                    let passes = t.nodes[w].side.as_bytes()[1] - b'0' + 1;
                    (
                        "pass".to_string(),
                        t.nodes[w].board.clone(),
                        format!("{}{}", side_letter(mover.other()), passes.min(2)),
                    )
                } else {
                    let b = geo.play(&pb, mover, p).unwrap_or(pb);
                    (
                        geo.point_name(p),
                        geo.draw(&b),
                        format!("{}0", side_letter(mover.other())),
                    )
                };
                if mv == t.nodes[c].mv {
                    return false;
                }
                let n = &mut t.nodes[c];
                (n.mv, n.board, n.side) = (mv, board, side);
                true
            }
            1..=3 => {
                let a = if t.nodes[u].kind == Kind::All {
                    Some(u)
                } else {
                    parents[u].filter(|&p| t.nodes[p].kind == Kind::All)
                };
                let Some(a) = a else { return false };
                let k = t.nodes[a].children.len();
                match class {
                    1 if k > 1 => {
                        let i = self.rng.below(k);
                        t.nodes[a].children.remove(i);
                    }
                    2 => {
                        let i = self.rng.below(k);
                        let c = t.nodes[a].children[i];
                        t.nodes[a].children.insert(i + 1, c);
                    }
                    3 => {
                        // A child for an occupied point or a suicide, with a plausible leaf.
                        let pb = geo.parse_board(&t.nodes[a].board).unwrap();
                        let mover = side_of(&t.nodes[a].side);
                        let Some(p) = (0..geo.points()).find(|&p| geo.play(&pb, mover, p).is_err())
                        else {
                            return false;
                        };
                        let leaf = Node {
                            mv: geo.point_name(p),
                            board: t.nodes[a].board.clone(),
                            side: format!("{}0", side_letter(mover.other())),
                            kind: Kind::End,
                            children: Vec::new(),
                        };
                        t.nodes.push(leaf);
                        let id = t.nodes.len() - 1;
                        t.nodes[a].children.push(id);
                    }
                    _ => return false,
                }
                true
            }
            4 | 5 => {
                // Another node of the same stated position, written earlier.
                let order = t.order();
                let Some(at) = order.iter().position(|&x| x == u) else {
                    return false;
                };
                if class == 4 && !matches!(t.nodes[u].kind, Kind::Ref(_)) {
                    return false;
                }
                let same: Vec<usize> = order[..at]
                    .iter()
                    .copied()
                    .filter(|&x| {
                        t.nodes[x].board == t.nodes[u].board
                            && t.nodes[x].side == t.nodes[u].side
                            && !matches!(t.nodes[x].kind, Kind::Ref(_))
                    })
                    .collect();
                if same.is_empty() || u == 0 {
                    return false;
                }
                let target = same[self.rng.below(same.len())];
                if t.nodes[u].kind == Kind::Ref(target) {
                    return false;
                }
                t.nodes[u].kind = Kind::Ref(target);
                t.nodes[u].children.clear();
                true
            }
            6 => {
                let b = geo.parse_board(&t.nodes[u].board).unwrap();
                let a = check::eyes::analyse(geo, &b, winner);
                let (mut alive, mut terr) = (a.alive, a.territory);
                if self.rng.below(2) == 0 {
                    let p = self.rng.below(geo.points());
                    if self.rng.below(2) == 0 {
                        alive ^= 1 << p;
                    } else {
                        terr ^= 1 << p;
                    }
                }
                t.nodes[u].kind = Kind::Eyes(geo.draw_set(alive), geo.draw_set(terr));
                t.nodes[u].children.clear();
                true
            }
            7 => {
                t.nodes[u].kind = Kind::End;
                t.nodes[u].children.clear();
                if self.rng.below(2) == 0 {
                    let s = side_letter(side_of(&t.nodes[u].side));
                    t.nodes[u].side = format!("{s}2");
                }
                true
            }
            _ => {
                let n = &mut t.nodes[u];
                match self.rng.below(3) {
                    0 => {
                        let mut b: Vec<u8> = n.board.clone().into_bytes();
                        let spots: Vec<usize> = (0..b.len()).filter(|&i| b[i] != b'/').collect();
                        let i = spots[self.rng.below(spots.len())];
                        b[i] = [b'X', b'O', b'.'][self.rng.below(3)];
                        n.board = String::from_utf8(b).unwrap();
                    }
                    1 => {
                        let s = side_letter(side_of(&n.side).other());
                        n.side = format!("{s}{}", &n.side[1..]);
                    }
                    _ => {
                        let p = ["0", "1", "2"][self.rng.below(3)];
                        n.side = format!("{}{p}", &n.side[..1]);
                    }
                }
                true
            }
        };
        if done {
            self.applied[class] += 1;
        }
        done
    }
}

fn side_letter(c: Color) -> char {
    match c {
        Color::Black => 'b',
        Color::White => 'w',
    }
}

/// A claim: the root's start moves, the komi and the winner.
#[derive(Clone, Debug)]
struct Claim {
    moves: Vec<String>,
    komi2: i32,
    winner: Player,
}

/// The solver's answer to a claim: whether it is true.
fn truth(solver: &mut Solver, size: Size, c: &Claim) -> Option<bool> {
    let mut pos = Position::new(size, Rules::default());
    for m in &c.moves {
        pos.play_text(m).ok()?;
    }
    let p = solver.prove(&pos, c.winner, games::go::Komi::from_half_points(c.komi2));
    p.proven_winner().map(|w| w == c.winner)
}

fn write(solver: &mut Solver, size: Size, c: &Claim) -> String {
    let mut pos = Position::new(size, Rules::default());
    let played: Vec<_> = c.moves.iter().map(|m| pos.play_text(m).unwrap()).collect();
    let mut out = Vec::new();
    gosolve::certificate::write_certificate(
        solver,
        &Played {
            position: &pos,
            moves: &played,
        },
        c.winner,
        games::go::Komi::from_half_points(c.komi2),
        &mut out,
    )
    .unwrap();
    String::from_utf8(out).unwrap()
}

/// What a checked forgery came to.
#[derive(Default)]
struct Tally {
    forged: usize,
    unreadable: usize,
    rejected: usize,
    accepted_true: usize,
    reasons: BTreeMap<&'static str, usize>,
}

const REASONS: [&str; 10] = [
    "the node states",
    "has no child",
    "a second child",
    "illegal move",
    "Theorem 1",
    "pure-eye analysis",
    "'end' but",
    "a loss for",
    "'win' at a node",
    "'all' at a node",
];

impl Tally {
    fn note(&mut self, e: &CheckError, lines: usize) {
        match e {
            CheckError::Parse(_) => self.unreadable += 1,
            CheckError::Invalid(f) => {
                self.rejected += 1;
                assert!(f.line >= 1 && f.line <= lines, "{f}");
                for r in REASONS {
                    if f.reason.contains(r) {
                        *self.reasons.entry(r).or_default() += 1;
                    }
                }
            }
            CheckError::Limit(m) => panic!("a small certificate hit a bound: {m}"),
        }
    }
}

#[test]
fn no_forged_certificate_of_a_false_claim_is_accepted() {
    // (rows, cols, start moves): small boards the solver settles in milliseconds.
    let cases: [(usize, usize, &[&str]); 6] = [
        (2, 2, &[]),
        (1, 5, &[]),
        (2, 3, &[]),
        (3, 3, &[]),
        (2, 3, &["B1"]),
        (3, 3, &["B2", "A1"]),
    ];
    let mut rng_seed = 0x5eed_0037u64;
    let mut tally = Tally::default();
    let mut applied = [0usize; CLASSES.len()];
    let mut false_claims = 0;
    for (rows, cols, moves) in cases {
        let size = Size::new(rows as u32, cols as u32).unwrap();
        let cgeo = Geometry::new(rows, cols).unwrap();
        let mut solver = Solver::for_size(size, 16, gosolve::Config::reference()).unwrap();
        let mut pos = Position::new(size, Rules::default());
        for m in moves {
            pos.play_text(m).unwrap();
        }
        let solved = gosolve::solve_value(&mut solver, &pos, |_| {});
        let v = solved.value.expect("a small board is solved");
        let moves: Vec<String> = moves.iter().map(|s| s.to_string()).collect();
        let trues = [
            Claim {
                moves: moves.clone(),
                komi2: 2 * v - 1,
                winner: Player::Black,
            },
            Claim {
                moves: moves.clone(),
                komi2: 2 * v + 1,
                winner: Player::White,
            },
        ];
        for good in &trues {
            let text = write(&mut solver, size, good);
            let verdict = check::check_text(&text).expect("the solver's certificate is valid");
            assert_eq!(verdict.komi2, good.komi2);
            let tree = Tree::read(&text);
            assert_eq!(
                check::check_text(&tree.write()).map(|v| v.nodes),
                Ok(verdict.nodes),
                "the editable tree writes the certificate back"
            );
            // The false claims next to this true one.
            let mut falses: Vec<(Claim, Tree)> = Vec::new();
            let flipped = Claim {
                winner: good.winner.opponent(),
                ..good.clone()
            };
            let mut t = tree.clone();
            t.set_header("winner", flipped.winner.name());
            falses.push((flipped, t));
            let harder = Claim {
                komi2: if good.winner == Player::Black {
                    good.komi2 + 2
                } else {
                    good.komi2 - 2
                },
                ..good.clone()
            };
            let mut t = tree.clone();
            t.set_header("komi", &komi_text(harder.komi2));
            falses.push((harder, t));
            // One more start move: kept where the solver says the claim is then lost.
            for p in 0..=cgeo.points() {
                let name = if p == cgeo.points() {
                    "pass".to_string()
                } else {
                    cgeo.point_name(p)
                };
                let mut c = good.clone();
                c.moves.push(name);
                if truth(&mut solver, size, &c) == Some(false) {
                    let mut t = tree.clone();
                    t.set_header("start", &format!("moves {}", c.moves.join(" ")));
                    falses.push((c, t));
                    break;
                }
            }
            for (claim, start) in falses {
                assert_eq!(truth(&mut solver, size, &claim), Some(false), "{claim:?}");
                false_claims += 1;
                // The adaptive adversary: 40 edits where the checker complains.
                for attempt in 0..6 {
                    let mut forger = Forger {
                        geo: &cgeo,
                        rng: Rng(rng_seed ^ attempt),
                        applied: [0; CLASSES.len()],
                    };
                    rng_seed = rng_seed.wrapping_add(1);
                    let mut t = start.clone();
                    for _ in 0..40 {
                        let text = t.write();
                        let lines = text.lines().count();
                        tally.forged += 1;
                        // The same forgery in the compact format must be refused too, and
                        // the text one by the streaming checker.
                        if let Ok(v) = check::check_text(&compact(&text)) {
                            panic!(
                                "a compact forgery of a false claim was accepted: {claim:?}: {v}"
                            );
                        }
                        if let Ok(r) = check::check_stream_bytes(text.as_bytes(), stream_limits()) {
                            panic!(
                                "the streaming checker accepted a forgery of a false claim: {claim:?}: {}\n{text}",
                                r.verdict
                            );
                        }
                        let failing = match check::check_text(&text) {
                            Ok(v) => panic!(
                                "a forged certificate of a false claim was accepted: {claim:?}: {v}\n{text}"
                            ),
                            Err(CheckError::Invalid(f)) => {
                                tally.note(&CheckError::Invalid(f.clone()), lines);
                                f.node as usize
                            }
                            Err(e) => {
                                tally.note(&e, lines);
                                0
                            }
                        };
                        // The failing node's arena index: the pre-order position.
                        let order = t.order();
                        let mut u = order.get(failing).copied().unwrap_or(0);
                        let parents = t.parents();
                        for _ in 0..forger.rng.below(3) {
                            u = parents[u].unwrap_or(u);
                        }
                        let mut next = t.clone();
                        if forger.forge(&mut next, u, claim_color(&claim)) {
                            t = next;
                        }
                    }
                    for (a, b) in applied.iter_mut().zip(forger.applied) {
                        *a += b;
                    }
                }
            }
            // One-shot forgeries of the valid certificate (its claim is true).
            let mut forger = Forger {
                geo: &cgeo,
                rng: Rng(rng_seed),
                applied: [0; CLASSES.len()],
            };
            rng_seed = rng_seed.wrapping_add(1);
            let order = tree.order();
            // Nodes whose position was written before: where references can be forged.
            let mut first: HashMap<(&str, &str), usize> = HashMap::new();
            let again: Vec<usize> = order
                .iter()
                .copied()
                .filter(|&u| {
                    let n = &tree.nodes[u];
                    first
                        .insert((n.board.as_str(), n.side.as_str()), u)
                        .is_some()
                })
                .collect();
            for i in 0..200 {
                let mut t = tree.clone();
                let applied = if i % 3 == 0 && !again.is_empty() {
                    let u = again[forger.rng.below(again.len())];
                    let class = if matches!(t.nodes[u].kind, Kind::Ref(_)) {
                        4
                    } else {
                        5
                    };
                    forger.forge_class(&mut t, u, claim_color(good), class)
                } else {
                    let u = order[forger.rng.below(order.len())];
                    forger.forge(&mut t, u, claim_color(good))
                };
                if !applied {
                    continue;
                }
                let text = t.write();
                tally.forged += 1;
                let streamed = check::check_stream_bytes(text.as_bytes(), stream_limits());
                match check::check_text(&text) {
                    Ok(v) => {
                        tally.accepted_true += 1;
                        assert_eq!(streamed.map(|r| r.verdict), Ok(v), "{text}");
                    }
                    Err(e) => {
                        assert!(streamed.is_err(), "accepted by the stream only:\n{text}");
                        tally.note(&e, text.lines().count());
                    }
                }
            }
            for (a, b) in applied.iter_mut().zip(forger.applied) {
                *a += b;
            }
        }
    }
    eprintln!(
        "{} forgeries ({false_claims} false claims attacked): {} rejected, {} unreadable, {} accepted (true claims only)",
        tally.forged, tally.rejected, tally.unreadable, tally.accepted_true
    );
    for (c, n) in CLASSES.iter().zip(applied) {
        eprintln!("  {c}: applied {n} times");
        assert!(n > 0, "the class '{c}' was never applied");
    }
    for r in REASONS {
        let n = tally.reasons.get(r).copied().unwrap_or(0);
        eprintln!("  refused with '{r}': {n}");
        assert!(n > 0, "no forgery was refused with '{r}'");
    }
}

/// The streaming checker on one thread (the pipeline's thread would cost more than these
/// small certificates; tests/stream.rs checks that two threads agree).
fn stream_limits() -> check::Limits {
    check::Limits {
        threads: 1,
        ..check::Limits::default()
    }
}

fn claim_color(c: &Claim) -> Color {
    if c.winner == Player::Black {
        Color::Black
    } else {
        Color::White
    }
}

/// A text (version 1) certificate in the compact format (version 2): node lines keep their
/// move and kind only.
fn compact(text: &str) -> String {
    let mut out = String::new();
    let mut in_nodes = false;
    for l in text.lines() {
        let w: Vec<&str> = l.split_ascii_whitespace().collect();
        if l == "tsumi-certificate 1" {
            out.push_str("tsumi-certificate 2\n");
            continue;
        }
        if w.first() == Some(&"-") {
            in_nodes = true;
        }
        if !in_nodes || w.len() < 4 {
            out.push_str(l);
            out.push('\n');
            continue;
        }
        let kind = match w[3] {
            "win" => "w".to_string(),
            "all" => format!("a{}", w.get(4).unwrap_or(&"")),
            "end" => "e".to_string(),
            "eyes" => "y".to_string(),
            "ref" => format!("r{}", w.get(4).unwrap_or(&"")),
            k => k.to_string(),
        };
        out.push_str(&format!("{} {kind}\n", w[0]));
    }
    out
}
