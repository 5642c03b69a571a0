//! Tsumego answers: *kill*, *seki*, *live* or *ko*, from binary proofs on the game
//! [`games::go::Tsumego`] (capture and life-and-death goals in an area of play).
//!
//! # The result of a problem
//! From the attacker's side the outcomes rank kill > seki > live (for the capture goal there
//! is no seki: captured or escaped). The value of the game is found with at most two
//! questions ("can the attacker kill?", then "can the attacker reach seki or better?").
//!
//! **Ko** is decided by searching both ways: `V_a` is the value when the attacker has
//! unlimited ko threats (its stone moves are exempt from the superko ban, see
//! [`games::go::tsumego`]), `V_d` when the defender has them. Extra threats only add moves for
//! the side holding them, so `V_a ≥ V_d`. The result is `V_a` when `V_a = V_d`, else **ko**
//! (the side that wins the ko gets `V_a` or `V_d`). `V_a = live` settles it at once.
//!
//! # Key move and line
//! The key move is the best move of the side to move in the decisive proof: the proof of the
//! question at the border of the result, in the ko setting that is hardest for the mover
//! (its opponent holds the threats), or, for a ko, the one where the mover holds them. The
//! line is built by asking the same question again after each move.

pub mod reference;

use crate::budget::Budget;
use crate::question::{Answer, Question};
use crate::{Proof, Prover};
use games::go::{Move, Tsumego, TsumegoGoal};
use games::{Game, Player};
use std::time::Duration;

pub use reference::{ReferenceAnswer, ReferenceLimits, reference};

/// The result of a tsumego, as the books name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// The attacker kills (captures) the target.
    Kill,
    /// Neither can force more: the target stands with no territory (life-and-death only).
    Seki,
    /// The target lives (escapes, for the capture goal).
    Live,
    /// The result depends on ko threats.
    Ko,
}

impl Status {
    /// The name for `goal`: kill / seki / live / ko, or capture / escape / ko for captures.
    #[must_use]
    pub const fn name(self, goal: TsumegoGoal) -> &'static str {
        match (self, goal) {
            (Status::Kill, TsumegoGoal::Capture) => "capture",
            (Status::Live, TsumegoGoal::Capture) => "escape",
            (Status::Kill, _) => "kill",
            (Status::Seki, _) => "seki",
            (Status::Live, _) => "live",
            (Status::Ko, _) => "ko",
        }
    }

    /// Parses a name of [`Status::name`] (either goal's).
    #[must_use]
    pub fn parse(text: &str) -> Option<Self> {
        Some(match text {
            "kill" | "capture" => Status::Kill,
            "seki" => Status::Seki,
            "live" | "escape" => Status::Live,
            "ko" => Status::Ko,
            _ => return None,
        })
    }

    /// Rank for the attacker: kill 2, seki 1, live 0 (ko has none).
    const fn rank(self) -> u8 {
        match self {
            Status::Kill => 2,
            Status::Seki => 1,
            Status::Live | Status::Ko => 0,
        }
    }
}

/// One binary question asked in a ko setting, with its answer.
#[derive(Clone, Debug)]
pub struct Asked {
    /// The side with unlimited ko threats.
    pub threats: Player,
    /// The question.
    pub question: Question,
    /// The answer: proven (`Some(true)`), disproven, or `None` when a limit was hit.
    pub answer: Option<bool>,
    /// The best move of the side to move from that proof, if any.
    pub best_move: Option<Move>,
}

/// The result with how it was reached.
#[derive(Clone, Debug)]
pub struct Verdict {
    /// The result; `None` when a limit was hit first.
    pub status: Option<Status>,
    /// The value with the attacker holding the ko threats.
    pub with_attacker_threats: Option<Status>,
    /// The value with the defender holding them (not needed when the first is live).
    pub with_defender_threats: Option<Status>,
    /// The questions asked, in order.
    pub asked: Vec<Asked>,
}

/// Decides the result of `game` from its start, with `ask` answering one question in one ko
/// setting (`Some(proven)`, `None` when it gave up) and returning its best move.
pub fn decide(
    game: &Tsumego,
    mut ask: impl FnMut(&Tsumego, Question) -> (Option<bool>, Option<Move>),
) -> Verdict {
    let mut asked = Vec::new();
    let attacker = game.attacker();
    let mut value = |threats: Player, asked: &mut Vec<Asked>| -> Option<Status> {
        let g = game.clone().with_ko_threats(Some(threats));
        let mut one = |question: Question| {
            let (answer, best_move) = ask(&g, question);
            asked.push(Asked {
                threats,
                question,
                answer,
                best_move,
            });
            answer
        };
        if one(Question::win(attacker))? {
            return Some(Status::Kill);
        }
        if game.goal() == TsumegoGoal::Capture {
            return Some(Status::Live);
        }
        Some(if one(Question::avoid_loss(attacker))? {
            Status::Seki
        } else {
            Status::Live
        })
    };
    let va = value(attacker, &mut asked);
    let vd = match va {
        Some(Status::Live) | None => None,
        Some(_) => value(game.defender(), &mut asked),
    };
    let status = match (va, vd) {
        (Some(Status::Live), _) => Some(Status::Live),
        (Some(a), Some(d)) if a == d => Some(a),
        (Some(a), Some(d)) if a.rank() > d.rank() => Some(Status::Ko),
        _ => None,
    };
    Verdict {
        status,
        with_attacker_threats: va,
        with_defender_threats: vd,
        asked,
    }
}

impl Verdict {
    /// The decisive question for the side to move `mover` and the ko setting it is asked in
    /// (see the module documentation), once the status is known.
    #[must_use]
    pub fn decisive(&self, game: &Tsumego, mover: Player) -> Option<&Asked> {
        let status = self.status?;
        let attacker = game.attacker();
        let (threats, value) = match status {
            Status::Ko if mover == attacker => (attacker, self.with_attacker_threats?),
            Status::Ko => (game.defender(), self.with_defender_threats?),
            s if mover == attacker => (game.defender(), s),
            s => (attacker, s),
        };
        let threats = if self.with_defender_threats.is_none() {
            attacker
        } else {
            threats
        };
        let want = match (value, mover == attacker) {
            (Status::Kill, true) => Question::win(attacker),
            (Status::Seki, true) | (Status::Live, _) => Question::avoid_loss(attacker),
            (Status::Seki, false) | (Status::Kill, false) => Question::win(attacker),
            (Status::Ko, _) => return None,
        };
        let want = if game.goal() == TsumegoGoal::Capture {
            Question::win(attacker)
        } else {
            want
        };
        self.asked
            .iter()
            .find(|a| a.threats == threats && a.question == want)
    }
}

/// Longest line shown, in plies.
pub const MAX_LINE: usize = 60;

/// The move of the losing side at `s` whose refutation costs the most expansions: the
/// longest resistance, as a line should show it.
fn resisting_move(
    g: &Tsumego,
    s: &games::go::Position,
    q: Question,
    prover: &mut dyn Prover<Tsumego>,
    budget: &Budget,
    account: &mut impl FnMut(&Proof<Move>),
) -> Option<Move> {
    let mut moves = Vec::new();
    g.legal_moves(s, &mut moves);
    let mut best: Option<(Move, u64)> = None;
    for m in moves {
        let mut c = s.clone();
        g.play(&mut c, m);
        let work = if g.outcome(&c).is_some() {
            0
        } else {
            let p = prover.prove(g, &c, q, budget);
            account(&p);
            p.expansions
        };
        if best.is_none_or(|(_, w)| work > w) {
            best = Some((m, work));
        }
    }
    best.map(|(m, _)| m)
}

/// A solved problem.
#[derive(Clone, Debug)]
pub struct Solution {
    /// The result and the questions behind it.
    pub verdict: Verdict,
    /// The key move of the side to move.
    pub key_move: Option<Move>,
    /// The main line from the start, the key move first.
    pub line: Vec<Move>,
    /// Expansions of every proof (line included).
    pub expansions: u64,
    /// Wall-clock time of every proof.
    pub time: Duration,
}

/// Solves `game` from its start position with `prover` (each proof within `budget`).
pub fn solve(game: &Tsumego, prover: &mut dyn Prover<Tsumego>, budget: &Budget) -> Solution {
    let start = game.initial();
    let mut expansions = 0;
    let mut time = Duration::ZERO;
    let mut account = |p: &Proof<Move>| {
        expansions += p.expansions;
        time += p.time;
    };
    let verdict = decide(game, |g, q| {
        let p = prover.prove(g, &g.initial(), q, budget);
        account(&p);
        let a = match p.answer {
            Answer::Proven => Some(true),
            Answer::Disproven => Some(false),
            Answer::Unknown => None,
        };
        (a, p.best_move)
    });
    let mut line = Vec::new();
    let mut key_move = None;
    if let Some(d) = verdict.decisive(game, start.to_move()) {
        let g = game.clone().with_ko_threats(Some(d.threats));
        let mut s = start.clone();
        while line.len() < MAX_LINE && g.outcome(&s).is_none() {
            let p = prover.prove(&g, &s, d.question, budget);
            account(&p);
            let mover_wins = (p.answer == Answer::Proven) == (s.to_move() == d.question.player);
            let m = if p.answer == Answer::Unknown {
                None
            } else if mover_wins {
                p.best_move
            } else {
                resisting_move(&g, &s, d.question, prover, budget, &mut account)
            };
            let Some(m) = m else { break };
            g.play(&mut s, m);
            line.push(m);
        }
        key_move = line.first().copied();
    }
    Solution {
        verdict,
        key_move,
        line,
        expansions,
        time,
    }
}

/// The result by the reference search ([`reference()`]), each question within `limits`;
/// `None` status when a limit was hit.
#[must_use]
pub fn reference_status(game: &Tsumego, limits: ReferenceLimits) -> (Option<Status>, u64) {
    let mut nodes = 0;
    let v = decide(game, |g, q| {
        let a = reference(g, &g.initial(), q, limits);
        nodes += a.nodes;
        (a.proven, None)
    });
    (v.status, nodes)
}
