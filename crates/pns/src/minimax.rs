//! Plain minimax with a memo on the exact state: the slow reference the proof-number
//! algorithms are tested against. Only for small positions.

use crate::solve::Value;
use games::{Game, Outcome};
use std::collections::HashMap;

/// The value of `state` for the player to move, by exhaustive minimax (memoised on the full
/// state, so transpositions are searched once).
pub fn minimax<G: Game>(game: &G, state: &G::State) -> Value {
    let mut memo = HashMap::new();
    value(game, state, &mut memo)
}

fn value<G: Game>(game: &G, state: &G::State, memo: &mut HashMap<G::State, Value>) -> Value {
    if let Some(o) = game.outcome(state) {
        return match o {
            Outcome::Draw => Value::Draw,
            Outcome::Win(p) if p == game.to_move(state) => Value::Win,
            Outcome::Win(_) => Value::Loss,
        };
    }
    if let Some(&v) = memo.get(state) {
        return v;
    }
    let mut moves = Vec::new();
    game.legal_moves(state, &mut moves);
    let mut best = Value::Loss;
    for m in moves {
        let mut child = state.clone();
        game.play(&mut child, m);
        let v = value(game, &child, memo).negate();
        if v.rank() > best.rank() {
            best = v;
            if best == Value::Win {
                break;
            }
        }
    }
    memo.insert(state.clone(), best);
    best
}
