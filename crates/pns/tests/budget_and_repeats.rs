//! Budgets stop a search with "unknown", never with a wrong answer; a game whose positions
//! repeat is solved soundly (the tables key it by the whole state).

mod common;

use common::{every_setting, label};
use games::hex::Hex;
use games::{Game, Outcome, Player};
use pns::minimax::minimax;
use pns::{Answer, Budget, NaturalOrder, Question, ResistanceOrder, Stop, Value, solve};
use std::fmt;

#[test]
fn tiny_budgets_give_unknown_or_the_right_answer() {
    let g = Hex::new(4, 4).unwrap();
    for s in every_setting() {
        for n in [1, 2, 10, 100] {
            let mut p = s.prover::<Hex>(Box::new(ResistanceOrder));
            let proof = p.prove(
                &g,
                &g.initial(),
                Question::win(Player::Black),
                &Budget::expansions(n),
            );
            assert!(
                proof.expansions <= n,
                "{}: {} expansions over a budget of {n}",
                label(&s),
                proof.expansions
            );
            assert_ne!(proof.answer, Answer::Disproven, "{}", label(&s));
            if proof.answer == Answer::Unknown {
                assert_eq!(proof.stopped, Some(Stop::Expansions));
                assert!(proof.best_move.is_some());
            }
        }
    }
}

#[test]
fn a_memory_budget_stops_the_tree_searches() {
    let g = Hex::new(5, 5).unwrap();
    for a in [pns::Algorithm::Pns, pns::Algorithm::Pn2] {
        let mut p = pns::Settings::new(a).prover::<Hex>(Box::new(ResistanceOrder));
        let budget = Budget {
            max_mib: 1,
            ..Budget::default()
        };
        let proof = p.prove(&g, &g.initial(), Question::win(Player::Black), &budget);
        assert_eq!(proof.answer, Answer::Unknown, "{a}");
        assert_eq!(proof.stopped, Some(Stop::Memory), "{a}");
    }
}

#[test]
fn a_time_budget_stops_the_search() {
    let g = Hex::new(6, 6).unwrap();
    let mut p = pns::Settings::new(pns::Algorithm::DfPn).prover::<Hex>(Box::new(ResistanceOrder));
    let budget = Budget {
        limits: pns::Limits {
            max_time: Some(std::time::Duration::from_millis(200)),
            ..pns::Limits::default()
        },
        max_mib: 16,
        ..Budget::default()
    };
    let proof = p.prove(&g, &g.initial(), Question::win(Player::Black), &budget);
    assert_eq!(proof.answer, Answer::Unknown);
    assert_eq!(proof.stopped, Some(Stop::Time));
    assert!(proof.time.as_secs_f64() < 5.0);
}

#[test]
fn a_raised_cancel_flag_stops_every_algorithm() {
    let g = Hex::new(6, 6).unwrap();
    let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    for a in [
        pns::Algorithm::DfPn,
        pns::Algorithm::Pns,
        pns::Algorithm::FocusedDfPn,
    ] {
        let mut p = pns::Settings::new(a).prover::<Hex>(Box::new(ResistanceOrder));
        let budget = Budget {
            limits: pns::Limits {
                cancel: Some(flag.clone()),
                ..pns::Limits::default()
            },
            max_mib: 16,
            ..Budget::default()
        };
        let proof = p.prove(&g, &g.initial(), Question::win(Player::Black), &budget);
        assert_eq!(proof.answer, Answer::Unknown, "{a:?}");
        assert_eq!(proof.stopped, Some(Stop::Interrupted), "{a:?}");
        assert!(proof.expansions <= 1024, "{a:?}: {}", proof.expansions);
    }
}

/// A token walks a cycle of `k` squares, each move advancing it 1 or 2; after `len` plies
/// Black wins if it stands on square 0. The *position* (square, side to move) repeats; the
/// state also holds the ply, which decides the value, so a table keyed by the position alone
/// would mix positions with different values.
struct Cycle {
    k: u8,
    len: u8,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct CycleState {
    token: u8,
    ply: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Step(u8);

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl Game for Cycle {
    type State = CycleState;
    type Move = Step;
    fn name(&self) -> &'static str {
        "cycle"
    }
    fn initial(&self) -> CycleState {
        CycleState { token: 0, ply: 0 }
    }
    fn to_move(&self, s: &CycleState) -> Player {
        if s.ply.is_multiple_of(2) {
            Player::Black
        } else {
            Player::White
        }
    }
    fn legal_moves(&self, s: &CycleState, out: &mut Vec<Step>) {
        out.clear();
        if s.ply < self.len {
            out.extend([Step(1), Step(2)]);
        }
    }
    fn play(&self, s: &mut CycleState, mv: Step) {
        s.token = (s.token + mv.0) % self.k;
        s.ply += 1;
    }
    fn outcome(&self, s: &CycleState) -> Option<Outcome> {
        (s.ply == self.len).then_some(Outcome::Win(if s.token == 0 {
            Player::Black
        } else {
            Player::White
        }))
    }
    fn hash(&self, s: &CycleState) -> u64 {
        u64::from(s.token) * 2 + u64::from(s.ply % 2) + 1
    }
    fn hash_from_scratch(&self, s: &CycleState) -> u64 {
        self.hash(s)
    }
    fn max_game_length(&self) -> u32 {
        u32::from(self.len)
    }
    fn num_move_codes(&self) -> usize {
        4
    }
    fn move_code(&self, s: &CycleState, mv: Step) -> usize {
        self.to_move(s).index() * 2 + usize::from(mv.0 - 1)
    }
    fn parse_move(&self, _: &CycleState, text: &str) -> Result<Step, String> {
        match text {
            "1" => Ok(Step(1)),
            "2" => Ok(Step(2)),
            _ => Err(format!("bad step '{text}'")),
        }
    }
    fn can_repeat(&self) -> bool {
        true
    }
    fn render(&self, s: &CycleState) -> String {
        format!("token {} ply {}", s.token, s.ply)
    }
}

#[test]
fn repeating_positions_are_solved_soundly_by_every_algorithm() {
    let mut seen_both = [false; 2];
    for k in 3..=5 {
        for len in 1..=9 {
            let g = Cycle { k, len };
            let want = minimax(&g, &g.initial());
            seen_both[usize::from(want == Value::Win)] = true;
            for s in every_setting() {
                let mut p = s.prover::<Cycle>(Box::new(NaturalOrder));
                let sol = solve(p.as_mut(), &g, &g.initial(), &Budget::default(), false);
                assert_eq!(
                    sol.value,
                    Some(want),
                    "cycle k {k} len {len} by {}",
                    label(&s)
                );
            }
        }
    }
    assert_eq!(seen_both, [true, true], "the suite has wins and losses");
}
