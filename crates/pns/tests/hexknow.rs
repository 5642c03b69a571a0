//! Hex knowledge ([`pns::hexknow`]): each rule on drawn boards, each rule alone and all
//! together against minimax on seeded random positions, and df-pn / focused df-pn on the
//! pruned game ([`KnowledgeHex`]) against minimax.

use games::hex::{Hex, HexState};
use games::{Game, Player};
use pns::hexknow::{Cells, HexKnowledge, KnowledgeHex, OnHex, Rules};
use pns::minimax::minimax;
use pns::{Answer, Budget, DfPn, FocusedDfPn, Prover, Question, ResistanceOrder, Value};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

fn cell(g: &Hex, name: &str) -> usize {
    let s = g.initial();
    g.cell_index(g.parse_move(&s, name).unwrap())
}

fn cells(g: &Hex, names: &[&str]) -> Cells {
    names.iter().fold(0, |m, n| m | 1u128 << cell(g, n))
}

/// The winner of `s` by minimax.
fn winner(g: &Hex, s: &HexState) -> Player {
    let me = g.to_move(s);
    if minimax(g, s) == Value::Win {
        me
    } else {
        me.opponent()
    }
}

fn setup(w: usize, h: usize, text: &str) -> (Hex, HexState, HexKnowledge) {
    let g = Hex::new(w, h).unwrap();
    let s = g.setup(text).unwrap();
    let k = HexKnowledge::new(&g).unwrap();
    (g, s, k)
}

#[test]
fn too_large_or_too_narrow_boards_are_clear_errors() {
    let e = HexKnowledge::new(&Hex::new(12, 12).unwrap()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "hex knowledge handles boards of at most 128 cells; 12x12 has 144"
    );
    let e = HexKnowledge::new(&Hex::new(1, 5).unwrap()).unwrap_err();
    assert!(e.to_string().contains("at least two rows"), "{e}");
    assert!(HexKnowledge::new(&Hex::new(11, 11).unwrap()).is_ok());
}

#[test]
fn a_corner_cut_off_by_the_opponent_is_dead_and_an_open_cell_is_not() {
    // a1 touches only b1 and a2, both White: Black's only unit there is the top edge.
    let (g, s, k) = setup(3, 3, ". O . / O . . / . . X");
    let b = k.board(&g, &s);
    assert!(k.is_dead(&b, cell(&g, "a1")));
    assert!(!k.is_dead(&b, cell(&g, "b2")));
    assert!(!k.is_dead(&b, cell(&g, "c1")));
    // Filled, the position keeps its winner.
    let a = k.analyse(&g, &s);
    assert_ne!(a.dead & (1 << cell(&g, "a1")), 0);
    assert_eq!(k.solve_exhaustively(&a.filled), winner(&g, &s));
}

#[test]
fn the_two_cells_under_a_second_row_stone_are_captured() {
    // Black b2 with b1 and c1 empty: an intrusion at one is answered at the other.
    let (g, s, k) = setup(4, 4, ". . . . / . X . . / . . O . / . . . .");
    let b = k.board(&g, &s);
    let (b1, c1) = (cell(&g, "b1"), cell(&g, "c1"));
    assert!(k.is_captured_pair(&b, Player::Black, b1, c1));
    assert!(!k.is_captured_pair(&b, Player::White, b1, c1));
    // Two cells not joined to anything are not captured.
    assert!(!k.is_captured_pair(&b, Player::Black, cell(&g, "a4"), cell(&g, "b4")));
    let only = k.clone().with_rules(Rules {
        captured: true,
        ..Rules::NONE
    });
    let a = only.analyse(&g, &s);
    assert_eq!(
        a.captured & cells(&g, &["b1", "c1"]),
        cells(&g, &["b1", "c1"])
    );
    assert_eq!(
        a.filled.black & cells(&g, &["b1", "c1"]),
        cells(&g, &["b1", "c1"])
    );
    assert_eq!(k.solve_exhaustively(&a.filled), winner(&g, &s));
}

#[test]
fn the_ziggurat_is_a_virtual_connection_to_the_edge() {
    // A Black stone on the bottom row of a 5x3 board is three rows from the top edge: the
    // ziggurat (template IIIa), 8 empty cells, joins it to the top whoever moves.
    let (g, s, k) = setup(5, 3, ". . . . . / . . . . . / . . X . .");
    let b = k.board(&g, &s);
    let c = k.edge_connections(&b, Player::Black);
    assert!(!c.vcs.is_empty(), "no VC found");
    let zig = cells(&g, &["b1", "c1", "d1", "e1", "b2", "c2", "d2", "b3"]);
    assert!(
        c.vcs.contains(&zig),
        "the ziggurat's carrier is among the VCs"
    );
    assert_eq!(c.vcs.iter().map(|v| v.count_ones()).min(), Some(8));
    // White to move loses: the knowledge sees it and minimax agrees.
    assert_eq!(g.to_move(&s), Player::White);
    let a = k.analyse(&g, &s);
    assert_eq!(a.winner, Some(Player::Black));
    assert_eq!(winner(&g, &s), Player::Black);
    // Without the connections, nothing is known.
    let no = k.clone().with_rules(Rules::NONE);
    assert_eq!(no.analyse(&g, &s).winner, None);
    // One row higher the stone has only a bridge to the top: still a VC (2nd row template).
    let (g, s, k) = setup(3, 2, ". . . / . X .");
    let c = k.edge_connections(&k.board(&g, &s), Player::Black);
    assert_eq!(c.vcs.iter().map(|v| v.count_ones()).min(), Some(2));
    // An intruded ziggurat is no VC; Black to move still wins (by an SC), as minimax says.
    let (g, s, k) = setup(5, 3, ". O . . . / . . . . . / . . X . .");
    let c = k.edge_connections(&k.board(&g, &s), Player::Black);
    assert!(c.vcs.iter().all(|&v| v & zig != zig));
    assert!(!c.scs.is_empty() || !c.vcs.is_empty());
    assert_eq!(g.to_move(&s), Player::Black);
    assert_eq!(k.analyse(&g, &s).winner, Some(Player::Black));
    assert_eq!(winner(&g, &s), Player::Black);
}

#[test]
fn the_mover_must_intrude_into_the_opponents_semi_connection() {
    // White d1 sits on the right edge and Black c4 on the bottom one; White's SCs to the left
    // edge leave Black a single cell to play: a3. Every other move loses.
    let (g, s, k) = setup(4, 4, ". . . O / . . . . / . . . . / . . X .");
    assert_eq!(g.to_move(&s), Player::Black);
    let only = k.clone().with_rules(Rules {
        connections: true,
        ..Rules::NONE
    });
    // With the AND rule over the edges White's SCs leave a3 alone; without it (the default)
    // one SC fewer is found and c2 stays in the must-play set too.
    let mut over = only.clone();
    over.and_over_edges = true;
    assert_eq!(over.analyse(&g, &s).must_play, cells(&g, &["a3"]));
    let a = only.analyse(&g, &s);
    assert_eq!(a.winner, None);
    assert_eq!(a.must_play, cells(&g, &["a3", "c2"]));
    assert_eq!(winner(&g, &s), Player::White);
    let mut moves = Vec::new();
    g.legal_moves(&s, &mut moves);
    for m in moves {
        let mut c = s.clone();
        g.play(&mut c, m);
        if a.must_play & (1 << g.cell_index(m)) == 0 {
            assert_eq!(winner(&g, &c), Player::White, "{m} should lose");
        }
    }
}

#[test]
fn a_move_that_an_own_neighbour_kills_is_dominated() {
    // Black to move. d1 touches only c1 (Black), c2 and d2 (White, on the right edge): once
    // Black has c2, d1's only White unit is the right edge (with d2), so d1 is dead and Black's
    // move d1 is dominated by c2. Likewise b1 once Black has b2 (its White units a1 and a2 are
    // adjacent).
    let (g, s, k) = setup(4, 4, ". . X . / . . . O / . . . . / . . . .");
    let b = k.board(&g, &s);
    let all = k.empty(&b);
    let kept = k.undominated(&b, all);
    assert_eq!(kept & cells(&g, &["d1", "b1"]), 0);
    assert_eq!(kept & cells(&g, &["c2", "b2"]), cells(&g, &["c2", "b2"]));
    for x in 0..g.cells() {
        if all & (1 << x) != 0 && kept & (1 << x) == 0 {
            // Every dropped cell has a kept dominator.
            assert!(
                (0..g.cells())
                    .any(|y| kept & (1 << y) != 0 && k.is_dead(&b.with(y, Player::Black), x)),
                "cell {x}"
            );
        }
    }
    // A winning move survives.
    let mut moves = Vec::new();
    g.legal_moves(&s, &mut moves);
    let wins = moves.iter().any(|&m| {
        let mut c = s.clone();
        g.play(&mut c, m);
        kept & (1 << g.cell_index(m)) != 0 && winner(&g, &c) == Player::Black
    });
    assert_eq!(wins, winner(&g, &s) == Player::Black);
}

/// Random non-terminal positions of `g` with `stones` random stones.
fn positions(g: &Hex, seed: u64, count: usize, stones: std::ops::Range<usize>) -> Vec<HexState> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    while out.len() < count {
        let mut s = g.initial();
        for _ in 0..rng.random_range(stones.clone()) {
            g.legal_moves(&s, &mut moves);
            if moves.is_empty() {
                break;
            }
            g.play(&mut s, moves[rng.random_range(0..moves.len())]);
        }
        if g.outcome(&s).is_none() {
            out.push(s);
        }
    }
    out
}

/// A position with its winner and the winner after each move (cell, winner), by minimax.
struct Solved {
    state: HexState,
    winner: Player,
    children: Vec<(usize, Player)>,
}

fn solved(g: &Hex, positions: Vec<HexState>) -> Vec<Solved> {
    let mut moves = Vec::new();
    positions
        .into_iter()
        .map(|state| {
            g.legal_moves(&state, &mut moves);
            let children = moves
                .iter()
                .map(|&m| {
                    let mut c = state.clone();
                    g.play(&mut c, m);
                    (g.cell_index(m), winner(g, &c))
                })
                .collect::<Vec<_>>();
            let me = g.to_move(&state);
            let winner = if children.iter().any(|&(_, w)| w == me) {
                me
            } else {
                me.opponent()
            };
            Solved {
                state,
                winner,
                children,
            }
        })
        .collect()
}

/// Checks one rule set: a claimed winner is minimax's, the fill-in keeps the winner, and the
/// move set of a won position holds a winning move. Returns (verdicts, pruned move sets).
fn check(g: &Hex, k: &HexKnowledge, positions: &[Solved]) -> (usize, usize) {
    let (mut claims, mut pruned) = (0, 0);
    for p in positions {
        let s = &p.state;
        let a = k.analyse(g, s);
        let shown = g.render(s);
        assert_eq!(
            k.solve_exhaustively(&a.filled),
            p.winner,
            "fill-in changed the winner:\n{shown}"
        );
        if let Some(w) = a.winner {
            claims += 1;
            assert_eq!(w, p.winner, "wrong verdict:\n{shown}");
            continue;
        }
        assert_ne!(a.moves, 0, "no move left:\n{shown}");
        assert_eq!(a.moves & !k.empty(&a.filled), 0);
        if (a.moves.count_ones() as usize) < p.children.len() {
            pruned += 1;
        }
        let me = g.to_move(s);
        if p.winner == me {
            let kept_wins = p
                .children
                .iter()
                .any(|&(c, w)| a.moves & (1 << c) != 0 && w == me);
            assert!(kept_wins, "every winning move pruned:\n{shown}");
        }
    }
    (claims, pruned)
}

/// Each rule alone, H-search also with tiny caps (so that it leaves must-play sets rather
/// than verdicts on small boards), and everything.
fn rule_sets(g: &Hex) -> Vec<(&'static str, HexKnowledge)> {
    let k = HexKnowledge::new(g).unwrap();
    let only = |r: Rules| k.clone().with_rules(r);
    let mut weak = only(Rules {
        connections: true,
        ..Rules::NONE
    });
    (weak.vc_cap, weak.sc_cap, weak.work_cap) = (1, 2, 60);
    vec![
        (
            "dead",
            only(Rules {
                dead: true,
                ..Rules::NONE
            }),
        ),
        (
            "captured",
            only(Rules {
                captured: true,
                ..Rules::NONE
            }),
        ),
        (
            "connections",
            only(Rules {
                connections: true,
                ..Rules::NONE
            }),
        ),
        ("weak connections", weak),
        (
            "dominance",
            only(Rules {
                dominance: true,
                ..Rules::NONE
            }),
        ),
        ("all", k.clone()),
        ("all, AND over edges", {
            let mut e = k.clone();
            e.and_over_edges = true;
            e
        }),
    ]
}

#[test]
fn every_rule_alone_and_all_together_agree_with_minimax_on_small_boards() {
    for (w, h, count, stones, seed) in [
        (3, 3, 500, 0..7, 1),
        (4, 3, 250, 1..10, 2),
        (3, 4, 250, 1..10, 3),
        (4, 4, 250, 5..14, 4),
    ] {
        let g = Hex::new(w, h).unwrap();
        let ps = solved(&g, positions(&g, seed, count, stones));
        for (name, k) in rule_sets(&g) {
            let (claims, pruned) = check(&g, &k, &ps);
            eprintln!("{w}x{h} {name}: {claims} verdicts, {pruned} pruned move sets of {count}");
            assert!(claims + pruned > 0, "{w}x{h} {name} never fired");
        }
    }
}

#[test]
fn every_rule_agrees_with_minimax_on_crowded_5x5_boards() {
    let g = Hex::new(5, 5).unwrap();
    let ps = solved(&g, positions(&g, 7, 60, 13..19));
    for (name, k) in rule_sets(&g) {
        let (claims, pruned) = check(&g, &k, &ps);
        eprintln!("5x5 {name}: {claims} verdicts, {pruned} pruned of 60");
        assert!(claims + pruned > 0, "{name} never fired");
    }
}

#[test]
fn dfpn_and_focused_dfpn_on_the_pruned_game_agree_with_minimax() {
    for (w, h, count, stones, seed) in [
        (3, 3, 100, 0..6, 11),
        (4, 4, 60, 3..12, 12),
        (5, 5, 15, 13..18, 13),
    ] {
        let g = Hex::new(w, h).unwrap();
        let kg = KnowledgeHex::new(&g).unwrap();
        for s in positions(&g, seed, count, stones) {
            let truth = winner(&g, &s);
            let q = Question::win(Player::Black);
            let p = DfPn::default().prove(&kg, &s, q, &Budget::default());
            let f = FocusedDfPn::new(OnHex(ResistanceOrder)).prove(&kg, &s, q, &Budget::default());
            let expected = if truth == Player::Black {
                Answer::Proven
            } else {
                Answer::Disproven
            };
            assert_eq!(p.answer, expected, "dfpn:\n{}", g.render(&s));
            assert_eq!(f.answer, expected, "fdfpn:\n{}", g.render(&s));
            // A best move, when given, keeps the win of the mover.
            if let Some(m) = p.best_move
                && truth == g.to_move(&s)
            {
                let mut c = s.clone();
                g.play(&mut c, m);
                assert_eq!(
                    winner(&g, &c),
                    truth,
                    "dfpn best move {m}:\n{}",
                    g.render(&s)
                );
            }
        }
    }
}

#[test]
fn the_knowledge_prior_gives_exact_values_to_plain_dfpn() {
    let g = Hex::new(4, 4).unwrap();
    let k = HexKnowledge::new(&g).unwrap();
    let q = Question::win(Player::Black);
    let with = DfPn {
        prior: k,
        weak: false,
        epsilon: 0.25,
    }
    .prove(&g, &g.initial(), q, &Budget::default());
    let without = DfPn::default().prove(&g, &g.initial(), q, &Budget::default());
    assert_eq!(with.answer, Answer::Proven);
    assert_eq!(without.answer, Answer::Proven);
    assert!(
        with.expansions < without.expansions,
        "{} vs {}",
        with.expansions,
        without.expansions
    );
}

/// Solves each opening of `n`x`n` (move, Black wins?) with `prover` and reports it; a solved
/// one must match the data. Returns (solved, expansions, seconds).
fn openings<G: Game<State = HexState, Move = games::hex::HexMove>>(
    game: &G,
    label: &str,
    list: &[(String, bool)],
    prover: &mut dyn Prover<G>,
    budget: &Budget,
) -> (usize, u64, f64) {
    let (mut solved, mut expansions, mut secs) = (0, 0, 0.0);
    for (mv, black) in list {
        let mut s = game.initial();
        let m = game.parse_move(&s, mv).unwrap();
        game.play(&mut s, m);
        let p = prover.prove(game, &s, Question::win(Player::Black), budget);
        if p.answer != Answer::Unknown {
            assert_eq!(
                p.answer == Answer::Proven,
                *black,
                "{label} {mv}: wrong answer"
            );
            solved += 1;
        }
        expansions += p.expansions;
        secs += p.time.as_secs_f64();
        eprintln!(
            "{label} {mv} ({}): {:?} expansions {} peak {} time {:.2} s",
            if *black { "black" } else { "white" },
            p.answer,
            p.expansions,
            p.peak_nodes,
            p.time.as_secs_f64()
        );
    }
    eprintln!(
        "{label}: {solved} of {} solved, {expansions} expansions, {secs:.1} s",
        list.len()
    );
    (solved, expansions, secs)
}

/// Not a test: expansions and time with and without the knowledge on the 5x5 board and its
/// openings, and on the 6x6 openings with a time limit each (`TSUMI_HEX_SECONDS`, default 60;
/// `TSUMI_HEX_6X6` = comma-separated openings or `all`, default a1,c3,f1,b5).
/// `cargo test --release -p pns --test hexknow measure -- --ignored --nocapture`
#[test]
#[ignore = "measurement, minutes"]
fn measure() {
    let secs: f64 = std::env::var("TSUMI_HEX_SECONDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(60.0);
    let budget = Budget {
        limits: pns::Limits {
            max_time: Some(std::time::Duration::from_secs_f64(secs)),
            ..pns::Limits::default()
        },
        max_mib: 1024,
        ..Budget::default()
    };
    let q = Question::win(Player::Black);
    let g = Hex::new(5, 5).unwrap();
    let kg = KnowledgeHex::new(&g).unwrap();
    let s = g.initial();
    let p = FocusedDfPn::new(OnHex(ResistanceOrder)).prove(&kg, &s, q, &budget);
    eprintln!(
        "5x5 empty, fdfpn+knowledge: {:?} expansions {}",
        p.answer, p.expansions
    );
    let data = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/hex-opening-maps.tsv"
    ))
    .unwrap();
    let wins: Vec<&str> = data
        .lines()
        .find(|l| l.starts_with("5x5\t"))
        .unwrap()
        .split('\t')
        .nth(2)
        .unwrap()
        .split_whitespace()
        .collect();
    let mut moves = Vec::new();
    g.legal_moves(&s, &mut moves);
    let list5: Vec<(String, bool)> = moves
        .iter()
        .map(|m| (m.to_string(), wins.contains(&m.to_string().as_str())))
        .collect();
    if std::env::var("TSUMI_HEX_SKIP_5X5").is_err() {
        openings(
            &kg,
            "5x5 fdfpn+knowledge",
            &list5,
            &mut FocusedDfPn::new(OnHex(ResistanceOrder)),
            &budget,
        );
        openings(
            &kg,
            "5x5 dfpn+knowledge",
            &list5,
            &mut DfPn::default(),
            &budget,
        );
        openings(
            &g,
            "5x5 fdfpn+threats",
            &list5,
            &mut FocusedDfPn {
                order: ResistanceOrder,
                base: 1,
                factor: 0.2,
                epsilon: 0.25,
                prior: pns::HexThreats,
            },
            &budget,
        );
        openings(
            &g,
            "5x5 fdfpn",
            &list5,
            &mut FocusedDfPn::new(ResistanceOrder),
            &budget,
        );
    }
    let g6 = Hex::new(6, 6).unwrap();
    let kg6 = KnowledgeHex::new(&g6).unwrap();
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/hex-6x6-openings.tsv"
    ))
    .unwrap();
    let wanted = std::env::var("TSUMI_HEX_6X6").unwrap_or_else(|_| "a1,c3,f1,b5".to_string());
    let list6: Vec<(String, bool)> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let (mv, w) = l.split_once('\t')?;
            (wanted == "all" || wanted.split(',').any(|x| x == mv))
                .then(|| (mv.to_string(), w.trim() == "black"))
        })
        .collect();
    openings(
        &kg6,
        "6x6 fdfpn+knowledge",
        &list6,
        &mut FocusedDfPn::new(OnHex(ResistanceOrder)),
        &budget,
    );
}

#[test]
fn a_proven_win_comes_with_a_winning_move() {
    // The ziggurat board with Black to move (a White stone far away), and a 5x5 empty board:
    // both proven for Black by the knowledge at the root.
    let (g, s, k) = setup(5, 3, ". . . . O / . . . . . / . . X . .");
    assert_eq!(g.to_move(&s), Player::Black);
    let b = k.board(&g, &s);
    let m = k.winning_move(&b).expect("a winning move");
    let mut c = s.clone();
    g.play(&mut c, g.move_at(m));
    assert_eq!(winner(&g, &c), Player::Black, "{}", g.move_at(m));
    let g5 = Hex::new(5, 5).unwrap();
    let k5 = HexKnowledge::new(&g5).unwrap();
    let b5 = k5.board(&g5, &g5.initial());
    assert_eq!(k5.analyse_board(&b5).winner, Some(Player::Black));
    let m = k5.winning_move(&b5).expect("a winning move on 5x5");
    // Black's winning first moves on 5x5 (data/hex-opening-maps.tsv).
    let winning = "e1 b2 c2 d2 e2 b3 c3 d3 a4 b4 c4 d4 a5";
    let m = g5.move_at(m).to_string();
    assert!(winning.split(' ').any(|w| w == m), "{m}");
    // A position the mover loses has none.
    let (g, s, k) = setup(4, 4, ". . . O / . . . . / . . . . / . . X .");
    assert_eq!(winner(&g, &s), Player::White);
    assert_eq!(k.winning_move(&k.board(&g, &s)), None);
}

#[test]
fn the_pruned_game_keeps_the_game_contract() {
    // Without the connections the small boards are not decided at once, so games are long.
    for n in [3, 4, 5] {
        let g = Hex::new(n, n).unwrap();
        let k = HexKnowledge::new(&g).unwrap().with_rules(Rules {
            connections: false,
            ..Rules::ALL
        });
        let r = games::conformance::check_random_games(&KnowledgeHex::with(g, k), 21, 20);
        assert!(r.plies >= 20, "{n}x{n}: {} plies", r.plies);
    }
    let kg = KnowledgeHex::new(&Hex::new(6, 6).unwrap()).unwrap();
    let r = games::conformance::check_random_games(&kg, 22, 3);
    assert!(r.plies > 0);
}
