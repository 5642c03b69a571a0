//! The table is sound under positional superko: entries of different superko games (same
//! board, side to move and pass state, different sets of earlier boards) never answer each
//! other's questions, and the history signatures are not linear.

use games::Player;
use games::go::Komi;
use games::go::{self, KoRule, Rules};
use gosolve::bitboard::reference;
use gosolve::bitboard::{Board, Geometry, Line};
use gosolve::oracle::Oracle;
use gosolve::{Answer, Config, Solver};

fn reference_line(size: &str, moves: &[&str]) -> go::Position {
    let size = go::Size::parse(size).unwrap();
    let mut pos = go::Position::new(
        size,
        Rules {
            ko: KoRule::PositionalSuperko,
            komi: go::Komi::default(),
        },
    );
    for m in moves {
        pos.play_text(m).unwrap();
    }
    pos
}

/// On 1x4 the board X.X. with White to move arises after C1 B1 A1 (Black captured at A1, and
/// White's recapture at B1 would repeat the board after B1) and after A1 pass C1 (where the
/// capture at B1 is legal). The two nodes have different values; one table serves both.
#[test]
fn two_histories_to_the_same_board_do_not_share_results() {
    let a = reference_line("1x4", &["C1", "B1", "A1"]);
    let b = reference_line("1x4", &["A1", "pass", "C1"]);
    assert_eq!(a.board(), b.board());
    assert_eq!(a.to_move(), b.to_move());
    assert_eq!(a.passes(), b.passes());
    let va = Oracle::new().value(&a).unwrap();
    let vb = Oracle::new().value(&b).unwrap();
    assert_ne!(va, vb, "the example needs two different values");
    let (geo, la) = reference::line(&a).unwrap();
    let (_, lb) = reference::line(&b).unwrap();
    let mut solver = Solver::new(geo, 1, Config::reference());
    let ka = solver.node_key(&la);
    let kb = solver.node_key(&lb);
    assert_eq!(ka.key, kb.key, "same position, same canonical key");
    assert!(
        ka.sig1 != kb.sig1 && ka.sig2 != kb.sig2,
        "different histories, different signatures"
    );
    // Every komi between the two values, both orders, one shared table: each node keeps its own answer.
    let (lo, hi) = (va.min(vb), va.max(vb));
    for k2 in (2 * lo + 1..2 * hi).step_by(2) {
        for (first, second, vf, vs) in [(&la, &lb, va, vb), (&lb, &la, vb, va)] {
            for w in [Player::Black, Player::White] {
                let want = |v: i32| {
                    if (Komi::from_half_points(k2).black_wins(v) == Some(true))
                        == (w == Player::Black)
                    {
                        Answer::Proven
                    } else {
                        Answer::Disproven
                    }
                };
                assert_eq!(
                    solver.prove(first, w, Komi::from_half_points(k2)).answer,
                    want(vf)
                );
                assert_eq!(
                    solver.prove(second, w, Komi::from_half_points(k2)).answer,
                    want(vs)
                );
            }
        }
    }
}

/// Sets of boards whose Zobrist keys XOR to the same value ({a, b} and {a∪b, ∅} on 1x3) get
/// different signatures: a plain XOR would give them the same table identity.
#[test]
fn history_signatures_are_not_linear() {
    let geo = Geometry::new(1, 3).unwrap();
    let board = |s: &str| Board::from_drawing(&geo, s).unwrap();
    let (a, b, ab, empty, cur) = (
        board("X.."),
        board(".X."),
        board("XX."),
        board("..."),
        board("..O"),
    );
    assert_eq!(
        a.hash(&geo) ^ b.hash(&geo),
        ab.hash(&geo) ^ empty.hash(&geo),
        "linear collision exists"
    );
    let l1 = Line::from_setup(cur, Player::Black, &[a, b]);
    let l2 = Line::from_setup(cur, Player::Black, &[ab, empty]);
    let solver = Solver::new(geo, 1, Config::reference());
    let (k1, k2) = (solver.node_key(&l1), solver.node_key(&l2));
    assert_eq!(k1.key, k2.key);
    assert_ne!(k1.sig1, k2.sig1);
    assert_ne!(k1.sig2, k2.sig2);
}

/// Symmetric histories share entries (canonical keys), mirrored best moves included.
#[test]
fn mirrored_games_share_canonical_keys() {
    let a = reference_line("3x3", &["A1", "B2", "C3"]);
    let b = reference_line("3x3", &["C1", "B2", "A3"]);
    let (geo, la) = reference::line(&a).unwrap();
    let (_, lb) = reference::line(&b).unwrap();
    let solver = Solver::new(geo, 1, Config::reference());
    let (ka, kb) = (solver.node_key(&la), solver.node_key(&lb));
    assert_eq!((ka.key, ka.sig1, ka.sig2), (kb.key, kb.sig1, kb.sig2));
}
