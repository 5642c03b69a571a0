//! The arena: games between two Monte Carlo players, colours alternated, in parallel.
//!
//! Game `i` (from 0) has player A as the first player (Black) when `i` is even. Its two
//! players are seeded from the match seed and `i` only ([`game_seeds`]), so with playout
//! budgets a match gives the same games whatever the number of threads and the order in
//! which games finish.
//!
//! The win rate is A's score (a draw counts one half) with a 95% Wilson score interval.

use crate::params::Params;
use crate::rollout::Rollout;
use crate::search::{SearchStats, Searcher};
use games::{Game, Outcome, Player};
use rayon::prelude::*;

/// What one player did over one or more games.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PlayerTotals {
    /// Moves chosen by search (single-move positions included).
    pub moves: u64,
    /// The searches' statistics added up.
    pub stats: SearchStats,
}

impl PlayerTotals {
    fn add(&mut self, o: &PlayerTotals) {
        self.moves += o.moves;
        self.stats.add(&o.stats);
    }
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameResult {
    /// Index of the game in the match.
    pub index: u64,
    /// Whether player A played first (Black).
    pub a_is_black: bool,
    /// The moves in the game's notation.
    pub moves: Vec<String>,
    /// The result.
    pub outcome: Outcome,
    /// What A (`[0]`) and B (`[1]`) did.
    pub totals: [PlayerTotals; 2],
    /// The seeds of A and B.
    pub seeds: [u64; 2],
}

impl GameResult {
    /// A's score: 1 for a win, ½ for a draw, 0 for a loss.
    #[must_use]
    pub fn score_a(&self) -> f64 {
        match self.outcome {
            Outcome::Draw => 0.5,
            Outcome::Win(p) => {
                if (p == Player::Black) == self.a_is_black {
                    1.0
                } else {
                    0.0
                }
            }
        }
    }
}

fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The seeds of players A and B in game `index` of a match with seed `seed`.
#[must_use]
pub fn game_seeds(seed: u64, index: u64) -> [u64; 2] {
    let g = splitmix(seed ^ splitmix(index.wrapping_add(1)));
    [splitmix(g ^ 0xA), splitmix(g ^ 0xB)]
}

/// Plays one game between A and B from the initial position.
///
/// # Panics
/// If a searcher finds no move in a non-terminal position (a broken [`Game`]).
pub fn play_game<G, R, F>(
    game: &G,
    params: [Params; 2],
    a_is_black: bool,
    seeds: [u64; 2],
    make_rollout: &F,
    index: u64,
) -> GameResult
where
    G: Game,
    R: Rollout<G>,
    F: Fn() -> R,
{
    play_game_until(
        game,
        params,
        a_is_black,
        seeds,
        make_rollout,
        index,
        &|| false,
    )
    .expect("a game that is never stopped ends")
}

/// [`play_game`], abandoned when `stop()` returns true (asked before every move): `None`
/// then. Until it is stopped, the game is the one [`play_game`] plays.
///
/// # Panics
/// If a searcher finds no move in a non-terminal position (a broken [`Game`]).
pub fn play_game_until<G, R, F, S>(
    game: &G,
    params: [Params; 2],
    a_is_black: bool,
    seeds: [u64; 2],
    make_rollout: &F,
    index: u64,
    stop: &S,
) -> Option<GameResult>
where
    G: Game,
    R: Rollout<G>,
    F: Fn() -> R,
    S: Fn() -> bool + ?Sized,
{
    let mut players = [
        Searcher::new(game, params[0], make_rollout(), seeds[0]),
        Searcher::new(game, params[1], make_rollout(), seeds[1]),
    ];
    let mut totals = [PlayerTotals::default(); 2];
    let mut state = game.initial();
    let mut moves = Vec::new();
    let outcome = loop {
        if let Some(o) = game.outcome(&state) {
            break o;
        }
        if stop() {
            return None;
        }
        let black = game.to_move(&state) == Player::Black;
        let who = usize::from(black != a_is_black);
        let (mv, st) = players[who]
            .search(game, &state)
            .expect("a move in a live position");
        totals[who].moves += 1;
        totals[who].stats.add(&st);
        moves.push(mv.to_string());
        game.play(&mut state, mv);
    };
    Some(GameResult {
        index,
        a_is_black,
        moves,
        outcome,
        totals,
        seeds,
    })
}

/// The results of a match so far.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MatchSummary {
    /// Games finished.
    pub games: u64,
    /// Games won by A.
    pub a_wins: u64,
    /// Games won by B.
    pub b_wins: u64,
    /// Drawn games.
    pub draws: u64,
    /// Games won by the first player (Black), whoever played it.
    pub first_player_wins: u64,
    /// What A (`[0]`) and B (`[1]`) did.
    pub totals: [PlayerTotals; 2],
}

impl MatchSummary {
    /// Adds a finished game.
    pub fn add(&mut self, r: &GameResult) {
        self.games += 1;
        match r.outcome {
            Outcome::Draw => self.draws += 1,
            Outcome::Win(p) => {
                if p == Player::Black {
                    self.first_player_wins += 1;
                }
                if (p == Player::Black) == r.a_is_black {
                    self.a_wins += 1;
                } else {
                    self.b_wins += 1;
                }
            }
        }
        self.totals[0].add(&r.totals[0]);
        self.totals[1].add(&r.totals[1]);
    }

    /// A's score rate (draws count ½), in [0, 1].
    #[must_use]
    pub fn score(&self) -> f64 {
        if self.games == 0 {
            return 0.5;
        }
        (self.a_wins as f64 + 0.5 * self.draws as f64) / self.games as f64
    }

    /// The 95% Wilson score interval of A's score rate.
    #[must_use]
    pub fn interval95(&self) -> (f64, f64) {
        wilson95(self.score(), self.games)
    }
}

/// The 95% Wilson score interval of a rate `p` observed over `n` trials.
#[must_use]
pub fn wilson95(p: f64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let n = n as f64;
    let den = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / den;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / den;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Plays `games` games between A (`params[0]`) and B on `threads` threads (0: all
/// cores), calling `on_game` as each game ends (from any thread). Results come back in
/// game order.
///
/// # Errors
/// When the thread pool cannot be built.
pub fn run_match<G, R, F, P>(
    game: &G,
    params: [Params; 2],
    games: u64,
    seed: u64,
    threads: usize,
    make_rollout: F,
    on_game: P,
) -> Result<(MatchSummary, Vec<GameResult>), rayon::ThreadPoolBuildError>
where
    G: Game + Sync,
    R: Rollout<G>,
    F: Fn() -> R + Sync,
    P: Fn(&GameResult) + Sync,
{
    run_match_until(
        game,
        params,
        games,
        seed,
        threads,
        make_rollout,
        on_game,
        || false,
    )
}

/// [`run_match`] that stops early when `stop()` returns true (asked before every move of
/// every game, from any thread, e.g. a Ctrl-C flag): the games in progress are abandoned,
/// games not started are skipped, and the summary and results (in game order) hold the
/// finished games only, so `summary.games < games` tells an interrupted match. Every
/// finished game is the one [`run_match`] plays.
///
/// # Errors
/// When the thread pool cannot be built.
#[allow(clippy::too_many_arguments)] // run_match's arguments and the stop test
pub fn run_match_until<G, R, F, P, S>(
    game: &G,
    params: [Params; 2],
    games: u64,
    seed: u64,
    threads: usize,
    make_rollout: F,
    on_game: P,
    stop: S,
) -> Result<(MatchSummary, Vec<GameResult>), rayon::ThreadPoolBuildError>
where
    G: Game + Sync,
    R: Rollout<G>,
    F: Fn() -> R + Sync,
    P: Fn(&GameResult) + Sync,
    S: Fn() -> bool + Sync,
{
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let results: Vec<Option<GameResult>> = pool.install(|| {
        (0..games as usize)
            .into_par_iter()
            .with_max_len(1)
            .map(|i| {
                let i = i as u64;
                let r = play_game_until(
                    game,
                    params,
                    i.is_multiple_of(2),
                    game_seeds(seed, i),
                    &make_rollout,
                    i,
                    &stop,
                )?;
                on_game(&r);
                Some(r)
            })
            .collect()
    });
    let results: Vec<GameResult> = results.into_iter().flatten().collect();
    let mut summary = MatchSummary::default();
    for r in &results {
        summary.add(r);
    }
    Ok((summary, results))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval() {
        let (lo, hi) = wilson95(0.5, 800);
        // The paper: about ±3.5 points at 800 games.
        assert!((hi - lo) / 2.0 > 0.033 && (hi - lo) / 2.0 < 0.036);
        let (lo, hi) = wilson95(1.0, 10);
        assert!(hi > 0.999_999 && lo > 0.6 && lo < 0.75);
        assert_eq!(wilson95(0.3, 0), (0.0, 1.0));
    }

    #[test]
    fn seeds_differ_per_game_and_player() {
        let a = game_seeds(1, 0);
        let b = game_seeds(1, 1);
        assert_ne!(a[0], a[1]);
        assert_ne!(a, b);
        assert_eq!(a, game_seeds(1, 0));
        assert_ne!(game_seeds(2, 0), a);
    }

    #[test]
    fn a_stopped_match_keeps_its_finished_games_only() {
        use crate::{Algorithm, Budget, Uniform};
        use games::tictactoe::TicTacToe;
        use std::sync::atomic::{AtomicU64, Ordering};
        let g = TicTacToe::from_size("3").unwrap();
        let p = Params::new(Algorithm::Uct).with_budget(Budget::Playouts(30));
        let (full, all) = run_match(&g, [p, p], 6, 5, 1, || Uniform, |_| {}).unwrap();
        assert_eq!((full.games, all.len()), (6, 6));
        // Stopped at the 12th move asked for: single-threaded, games 0 and 1 end first
        // (a tic-tac-toe game has 5 to 9 moves).
        let asked = AtomicU64::new(0);
        let stop = || asked.fetch_add(1, Ordering::SeqCst) >= 11;
        let (part, some) = run_match_until(&g, [p, p], 6, 5, 1, || Uniform, |_| {}, stop).unwrap();
        assert!(part.games >= 1 && part.games < 6, "{}", part.games);
        assert_eq!(some.len() as u64, part.games);
        for r in &some {
            let same = &all[r.index as usize];
            assert_eq!((&r.moves, r.outcome), (&same.moves, same.outcome));
        }
        // Never stopped: the same match (all but the seconds spent).
        let (again, _) =
            run_match_until(&g, [p, p], 6, 5, 1, || Uniform, |_| {}, || false).unwrap();
        let key = |s: &MatchSummary| {
            let t = s
                .totals
                .map(|t| (t.moves, t.stats.playouts, t.stats.leaf_depth_sum));
            (s.games, s.a_wins, s.b_wins, s.draws, s.first_player_wins, t)
        };
        assert_eq!(key(&again), key(&full));
    }
}
