//! `tsumi prove GAME SIZE --algo pns|wpns|pn2|dfpn|pds|fdfpn` for the games of `games` other
//! than Go: hex, tictactoe, connect4, nogo, atarigo.
//!
//! SIZE is **width × height** for these games (`connect4 5x4` is 5 columns, 4 rows; `hex 6`
//! is 6×6). The answer is the value for the player to move after `--moves`: "win", "draw",
//! "loss", or "unknown" when the budget ran out. Games with draws (tic-tac-toe, Connect Four)
//! take two binary proofs: "can the mover force a win?" and, if not, "can the mover avoid a
//! loss?". Focused df-pn orders Hex moves by circuit resistance and other games' moves in
//! their natural order. `--threats` (Hex only) starts new nodes from Hex knowledge: a winning
//! cell or a bridge chain wins, two winning cells or a bridge chain of the opponent lose
//! ([`pns::HexThreats`]); `wpns` keeps it next to its mobility initialisation.
//!
//! # The Hex knowledge
//! Hex is proved **with the knowledge of [`pns::hexknow`] by default** (every algorithm): the
//! prover searches [`KnowledgeHex`], where a position the knowledge decides (H-search
//! connections, fill-in of dead and captured cells) is terminal and only the must-play cells
//! left by capture dominance are searched; the resistance ordering and `--threats` see its
//! positions through [`OnHex`]. `--no-knowledge` proves plain Hex instead (the ablation);
//! it is refused for the other games. The knowledge handles boards of at most 128 cells
//! with both sides at least 2; another board is an error (status 2) that names
//! `--no-knowledge`, never a silent switch to plain Hex.
//!
//! `--moves` are parsed and played on plain Hex (any empty cell, also one the knowledge
//! would prune); the position reached is proved on the knowledge game (the two share
//! [`games::hex::HexState`]).
//!
//! When the knowledge decides the root itself the proof is empty (0 expansions) and names no
//! move; a win of the mover then takes its best move from [`pns::HexKnowledge::winning_move`], and
//! if that finds none (the knowledge of the children can be weaker than the root's), from
//! proving the children one by one with the same prover and the rest of the budget. The
//! report says where the best move came from: `best_move_source` "proof", "knowledge" or
//! "children" in JSON (`null` without a best move), and `best_move_expansions` the
//! expansions of the children's proofs (not part of `expansions`, the value's proofs).
//! JSON's `knowledge` is `true` exactly when the search ran on the Hex knowledge.

use crate::cmd::prove::ProveArgs;
use crate::go_config::MAX_SECONDS;
use crate::registry::GameId;
use anyhow::{Context, anyhow, bail};
use games::Game;
use games::Outcome;
use games::atarigo::AtariGo;
use games::connect4::Connect4;
use games::hex::{Hex, HexMove, HexState};
use games::nogo::NoGo;
use games::tictactoe::TicTacToe;
use pns::{
    Algorithm, Answer, Budget, HexThreats, KnowledgeHex, MoveOrder, NaturalOrder, OnHex, Prover,
    Question, ResistanceOrder, Settings, Solution, Value, solve,
};
use std::io::IsTerminal;
use std::time::Duration;

/// The Go options of `prove`, refused for the other games by name (the first given).
fn go_option_given(args: &ProveArgs) -> Option<&'static str> {
    [
        ("--komi", args.komi.is_some()),
        ("--winner", args.winner.is_some()),
        ("--sgf", args.sgf.is_some()),
        ("--samples", args.samples.is_some()),
        ("--prior", args.prior.is_some()),
    ]
    .into_iter()
    .find_map(|(flag, given)| given.then_some(flag))
    .or_else(|| args.knowledge.given())
    .or_else(|| args.checkpoints.given())
}

/// Runs `tsumi prove` for a game other than Go.
///
/// # Errors
/// Bad input or an option that does not apply (status 2); no answer within the budget
/// ([`crate::exit::Unknown`], status 3, after the report).
pub fn run(args: &ProveArgs, game: GameId) -> anyhow::Result<()> {
    if let Some(flag) = go_option_given(args) {
        bail!("{flag} applies to Go only, not to {game}");
    }
    let algorithm: Algorithm = args.algo.as_deref().unwrap_or("dfpn").parse()?;
    use Algorithm::{DfPn, FocusedDfPn, Pds, Pn2, Pns};
    // Each algorithm's own parameters, refused by name for the others.
    let applies = [
        (
            "--epsilon",
            args.epsilon.is_some(),
            matches!(algorithm, DfPn | FocusedDfPn),
            "dfpn and fdfpn",
        ),
        (
            "--base",
            args.base.is_some(),
            algorithm == FocusedDfPn,
            "fdfpn",
        ),
        (
            "--factor",
            args.factor.is_some(),
            algorithm == FocusedDfPn,
            "fdfpn",
        ),
        (
            "--pn2-fraction",
            args.pn2_fraction.is_some(),
            algorithm == Pn2,
            "pn2",
        ),
        (
            "--weak",
            args.weak,
            matches!(algorithm, Pns | Pn2 | DfPn | Pds),
            "pns, pn2, dfpn and pds",
        ),
    ];
    if let Some((flag, _, _, to)) = applies.iter().find(|(_, given, ok, _)| *given && !*ok) {
        bail!("{flag} does not apply to --algo {algorithm} (only to {to})");
    }
    let factor = args.factor.unwrap_or(0.2);
    if !(factor.is_finite() && factor >= 0.0) {
        bail!("--factor {factor} is not a finite number ≥ 0");
    }
    if args.base == Some(0) {
        bail!("--base 0: focused df-pn must search at least one child (--base 1 or more)");
    }
    let pn2_fraction = args.pn2_fraction.unwrap_or(1.0);
    if !(pn2_fraction.is_finite() && pn2_fraction > 0.0) {
        bail!("--pn2-fraction {pn2_fraction} is not a finite positive number");
    }
    let settings = Settings {
        algorithm,
        mobility: args.mobility,
        weak: args.weak,
        epsilon: args.epsilon.unwrap_or(0.25),
        base: args.base.unwrap_or(1),
        factor,
        pn2_fraction,
    };
    let budget = Budget {
        limits: pns::Limits {
            max_expansions: args.max_expansions,
            max_time: (args.seconds > 0.0)
                .then(|| Duration::from_secs_f64(args.seconds.min(MAX_SECONDS))),
            cancel: Some(crate::interrupt::cancel_flag()),
        },
        max_mib: args.tt_mib.unwrap_or(256),
        progress: Some(crate::progress::pns_progress_line()),
    };
    if args.threats && game != GameId::Hex {
        bail!("--threats is Hex knowledge: it applies to hex only");
    }
    if args.no_knowledge && game != GameId::Hex {
        bail!("{}", crate::cmd::prove::no_knowledge_refusal(game.name()));
    }
    crate::cmd::prove::hex_nets::check(&args.nets, game.name(), algorithm)?;
    let s = &settings;
    let natural = NaturalOrder;
    // `prove`'s size is rows x columns; the small games read "AxB" as columns x rows
    // before, so a plain rectangle is refused for them and the named form ("4rx5c") says
    // which side is which. `wxh` is the games' own spelling.
    let (rows, cols) = games::dims::parse_rows_cols(&args.size, true)?;
    let wxh = format!("{cols}x{rows}");
    match game {
        GameId::Hex => {
            let hex = Hex::from_size(&wxh)?;
            let state = play_moves(&hex, &args.moves)?;
            let order = crate::cmd::prove::hex_nets::order(&args.nets, &hex)?;
            if args.no_knowledge {
                let prover = if args.threats {
                    s.prover_with::<Hex>(order, Box::new(HexThreats))
                } else {
                    s.prover::<Hex>(order)
                };
                return run_game(&hex, state, args, s, prover, &budget, false);
            }
            let mut known = KnowledgeHex::new(&hex)
                .map_err(|e| anyhow!("{e} (prove hex {} without it: --no-knowledge)", args.size))?;
            known.knowledge.cancel = Some(crate::interrupt::cancel_flag());
            let mut prover = if args.threats {
                s.prover_with::<KnowledgeHex>(Box::new(OnHex(order)), Box::new(OnHex(HexThreats)))
            } else {
                s.prover::<KnowledgeHex>(Box::new(OnHex(order)))
            };
            let mut solution = solve(prover.as_mut(), &known, &state, &budget, false);
            let how = knowledge_best_move(&known, prover.as_mut(), &state, &budget, &mut solution);
            report(&known, &state, args, s, &solution, &how)
        }
        GameId::TicTacToe => {
            let game = TicTacToe::from_size(&wxh)?;
            let state = play_moves(&game, &args.moves)?;
            let prover = s.prover(Box::new(natural));
            run_game(&game, state, args, s, prover, &budget, true)
        }
        GameId::Connect4 => {
            let game = Connect4::from_size(&wxh)?;
            let state = play_moves(&game, &args.moves)?;
            let prover = s.prover(Box::new(natural));
            run_game(&game, state, args, s, prover, &budget, true)
        }
        GameId::NoGo => {
            let game = NoGo::from_size(&wxh)?;
            let state = play_moves(&game, &args.moves)?;
            let prover = s.prover(Box::new(natural));
            run_game(&game, state, args, s, prover, &budget, false)
        }
        GameId::AtariGo => {
            let game = AtariGo::from_size(&wxh)?;
            let state = play_moves(&game, &args.moves)?;
            let prover = s.prover(Box::new(natural));
            run_game(&game, state, args, s, prover, &budget, false)
        }
        GameId::Go | GameId::WarGame => {
            bail!("internal error: prove {game} does not go through the pns family")
        }
    }
}

/// Where the reported best move came from, and whether the search used the Hex knowledge.
#[derive(Clone, Copy, Debug)]
struct Decided {
    /// The search ran on [`KnowledgeHex`].
    knowledge: bool,
    /// "proof", "knowledge" or "children"; `None` without a best move.
    source: Option<&'static str>,
    /// Expansions of the children's proofs that found the best move (0 unless "children").
    expansions: u64,
}

impl Decided {
    /// The best move, if any, is the proof's.
    const fn plain(knowledge: bool) -> Self {
        Self {
            knowledge,
            source: None,
            expansions: 0,
        }
    }
}

/// Plays the non-empty `--moves` on `game` from its initial position.
///
/// # Errors
/// A move that does not parse or is illegal there (the game's one-line message).
fn play_moves<G: Game>(game: &G, moves: &[String]) -> anyhow::Result<G::State> {
    let mut state = game.initial();
    for text in moves.iter().filter(|m| !m.trim().is_empty()) {
        let mv = game.parse_move(&state, text).map_err(|e| anyhow!(e))?;
        game.play(&mut state, mv);
    }
    Ok(state)
}

/// Completes `solution` of `state` on the knowledge game with a best move for a won root the
/// knowledge decided without search (see the module docs), and says where it came from.
fn knowledge_best_move(
    known: &KnowledgeHex,
    prover: &mut dyn Prover<KnowledgeHex>,
    state: &HexState,
    budget: &Budget,
    solution: &mut Solution<HexMove>,
) -> Decided {
    let mut how = Decided::plain(true);
    if solution.best_move.is_some() {
        how.source = Some("proof");
        return how;
    }
    if solution.value != Some(Value::Win) {
        return how;
    }
    let board = known.knowledge.board(&known.hex, state);
    if let Some(c) = known.knowledge.winning_move(&board) {
        solution.best_move = Some(known.hex.move_at(c));
        how.source = Some("knowledge");
        return how;
    }
    let mut rest = budget.clone();
    if let Some(t) = rest.limits.max_time {
        rest.limits.max_time = Some(t.saturating_sub(solution.time()));
    }
    let (best, spent) = winning_child(known, prover, state, &rest);
    how.expansions = spent;
    if best.is_some() {
        solution.best_move = best;
        how.source = Some("children");
    }
    how
}

/// A winning move of the mover of `state` found by proving its children on the knowledge
/// game ("can the mover force a win?" after each move, in the resistance order), and the
/// expansions spent; `None` when `budget` ran out first (or the mover does not win). Every
/// empty cell is tried, also those the knowledge prunes at `state`.
fn winning_child(
    known: &KnowledgeHex,
    prover: &mut dyn Prover<KnowledgeHex>,
    state: &HexState,
    budget: &Budget,
) -> (Option<HexMove>, u64) {
    let me = known.hex.to_move(state);
    let mut moves = Vec::new();
    known.hex.legal_moves(state, &mut moves);
    ResistanceOrder.order(&known.hex, state, &mut moves);
    let mut rest = budget.clone();
    let mut spent = 0;
    for mv in moves {
        let mut child = state.clone();
        known.play(&mut child, mv);
        if known.outcome(&child) == Some(Outcome::Win(me)) {
            return (Some(mv), spent);
        }
        let proof = prover.prove(known, &child, Question::win(me), &rest);
        spent += proof.expansions;
        match proof.answer {
            Answer::Proven => return (Some(mv), spent),
            Answer::Disproven => {}
            Answer::Unknown => return (None, spent),
        }
        if rest.limits.max_expansions != 0 {
            if proof.expansions >= rest.limits.max_expansions {
                return (None, spent);
            }
            rest.limits.max_expansions -= proof.expansions;
        }
        if let Some(t) = rest.limits.max_time {
            rest.limits.max_time = Some(t.saturating_sub(proof.time));
        }
    }
    (None, spent)
}

/// Proves `state` of `game` without the Hex knowledge and reports it.
fn run_game<G: Game>(
    game: &G,
    state: G::State,
    args: &ProveArgs,
    settings: &Settings,
    mut prover: Box<dyn Prover<G> + '_>,
    budget: &Budget,
    draws: bool,
) -> anyhow::Result<()> {
    let solution = solve(prover.as_mut(), game, &state, budget, draws);
    let how = Decided {
        source: solution.best_move.is_some().then_some("proof"),
        ..Decided::plain(false)
    };
    report(game, &state, args, settings, &solution, &how)
}

/// Prints the solution (text or JSON), then `Ok` for an answer and status 3 for none.
fn report<G: Game>(
    game: &G,
    state: &G::State,
    args: &ProveArgs,
    settings: &Settings,
    solution: &Solution<G::Move>,
    how: &Decided,
) -> anyhow::Result<()> {
    if solution.time() >= Duration::from_secs(1) && std::io::stderr().is_terminal() {
        eprintln!();
    }
    let mover = game.to_move(state);
    if args.output.json {
        println!(
            "{}",
            serde_json::to_string(&report_json(game, args, settings, state, solution, how))
                .context("json")?
        );
        return no_answer(solution);
    }
    let result = solution.value.map_or("unknown", |v| v.name());
    let with = match (game.name(), how.knowledge) {
        (_, true) => ", with the Hex knowledge",
        ("hex", false) => ", without the Hex knowledge",
        _ => "",
    };
    println!(
        "{} {}: {result} for {mover} (the player to move), by {}{with}",
        game.name(),
        args.size,
        settings.algorithm
    );
    if let Some(m) = solution.best_move {
        match how.source {
            Some("knowledge") => println!(
                "best move: {m} (the knowledge decides the position; the move from its \
                 analysis of the children)"
            ),
            Some("children") => println!(
                "best move: {m} (the knowledge decides the position; the move from proving \
                 its children: {} expansions)",
                how.expansions
            ),
            _ => println!("best move: {m}"),
        }
    } else if solution.value == Some(Value::Win) {
        println!(
            "best move: unknown (the knowledge decides the position; the budget ran out \
             proving its children after {} expansions)",
            how.expansions
        );
    }
    let time = solution.time().as_secs_f64();
    println!(
        "expansions: {}, peak nodes: {}, time: {time:.3} s ({:.0} expansions/s)",
        solution.expansions(),
        solution.peak_nodes(),
        solution.expansions() as f64 / time.max(1e-9)
    );
    for (q, p) in &solution.proofs {
        let stop = p
            .stopped
            .map(|s| format!(", stopped by the {} limit", s.name()))
            .unwrap_or_default();
        println!(
            "  {q} {} ({} expansions{stop})",
            p.answer.name(),
            p.expansions
        );
    }
    no_answer(solution)
}

/// `Ok` for an answer; for none, the [`crate::exit::Unknown`] naming the limit that stopped
/// the search (status 3).
fn no_answer<M>(solution: &Solution<M>) -> anyhow::Result<()> {
    if solution.value.is_some() {
        return Ok(());
    }
    let stop = solution.proofs.iter().find_map(|(_, p)| p.stopped);
    if stop == Some(pns::budget::Stop::Interrupted) {
        return Err(crate::exit::unknown(
            "interrupted: Ctrl-C stopped the search before an answer",
        ));
    }
    let limit = stop.map_or("a", pns::budget::Stop::name);
    Err(crate::exit::unknown(format!(
        "budget exhausted: the {limit} limit stopped the search before an answer"
    )))
}

fn report_json<G: Game>(
    game: &G,
    args: &ProveArgs,
    settings: &Settings,
    state: &G::State,
    solution: &Solution<G::Move>,
    how: &Decided,
) -> serde_json::Value {
    let proofs: Vec<serde_json::Value> = solution
        .proofs
        .iter()
        .map(|(q, p)| {
            serde_json::json!({
                "question": match q.goal { pns::Goal::Win => "win", pns::Goal::WinOrDraw => "avoid_loss" },
                "player": q.player.name(),
                "answer": p.answer.name(),
                "best_move": p.best_move.map(|m| m.to_string()),
                "expansions": p.expansions,
                "peak_nodes": p.peak_nodes,
                "time_s": p.time.as_secs_f64(),
                "stopped": p.stopped.map(|s| s.name()),
            })
        })
        .collect();
    serde_json::json!({
        "game": game.name(),
        "size": args.size,
        "moves": args.moves,
        "to_move": game.to_move(state).name(),
        "algo": settings.algorithm.name(),
        "status": if solution.value.is_some() { "proven" } else { "unknown" },
        "result": solution.value.map_or("unknown", |v| v.name()),
        "best_move": solution.best_move.map(|m| m.to_string()),
        "best_move_source": how.source,
        "best_move_expansions": how.expansions,
        "knowledge": how.knowledge,
        "expansions": solution.expansions(),
        "peak_nodes": solution.peak_nodes(),
        "time_s": solution.time().as_secs_f64(),
        "proofs": proofs,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dfpn() -> Settings {
        Settings::new(Algorithm::DfPn)
    }

    /// The children's proofs find a move that wins by exhaustive search, also where a child
    /// needs a search (4x4 after a1: children tried before the winning one are searched).
    #[test]
    fn winning_child_finds_a_winning_move() {
        let mut searched = 0;
        for (size, moves) in [("3x3", ""), ("4x4", ""), ("4x4", "a1"), ("4x4", "a1,b2")] {
            let hex = Hex::from_size(size).unwrap();
            let known = KnowledgeHex::new(&hex).unwrap();
            let line: Vec<String> = moves.split(',').map(String::from).collect();
            let state = play_moves(&hex, &line).unwrap();
            let mut prover = dfpn().prover::<KnowledgeHex>(Box::new(OnHex(ResistanceOrder)));
            let (mv, spent) = winning_child(
                &known,
                prover.as_mut(),
                &state,
                &Budget::expansions(1_000_000),
            );
            let mv = mv.unwrap_or_else(|| panic!("hex {size} {moves}: no winning move"));
            searched += spent;
            let mut child = state.clone();
            hex.play(&mut child, mv);
            let k = &known.knowledge;
            let me = hex.to_move(&state);
            assert_eq!(
                k.solve_exhaustively(&k.board(&hex, &child)),
                me,
                "hex {size} {moves}: {mv} should win for {me}"
            );
        }
        assert!(searched > 0, "some child was proved by search");
    }

    /// A budget too small for the first child's proof gives no move, and says so.
    #[test]
    fn winning_child_stops_with_the_budget() {
        let hex = Hex::from_size("6x6").unwrap();
        let known = KnowledgeHex::new(&hex).unwrap();
        let state = hex.initial();
        let mut prover = dfpn().prover::<KnowledgeHex>(Box::new(OnHex(ResistanceOrder)));
        let (mv, spent) = winning_child(&known, prover.as_mut(), &state, &Budget::expansions(1));
        assert_eq!(mv, None);
        assert!(spent >= 1, "{spent}");
    }
}
