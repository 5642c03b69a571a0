//! The GTP version 2 commands of the Go engine ([`GtpEngine`]), for Sabaki, GoGui, Lizzie,
//! q5Go, GNU Go and referees. Framing is [`crate::protocol`]'s.
//!
//! | command | reply |
//! |---------|-------|
//! | `boardsize N`, `boardsize C R`, `rectangular_boardsize C R` | a new empty board (C columns, R rows, KataGo's convention); `? unacceptable size` outside 1–19 |
//! | `clear_board`, `komi K` | empty board; komi (a multiple of 0.5) |
//! | `play COLOUR VERTEX` | `? illegal move` for occupied, suicide, positional superko, or after two passes |
//! | `genmove COLOUR` | the move played (`pass`; `resign` only with `--resign` and a proven loss) |
//! | `undo` | takes back the last move, a loaded SGF file's moves included; `? cannot undo` at the start |
//! | `showboard` | the board, X Black and O White, with GTP coordinates |
//! | `final_score` | area score with komi: `B+3.5`, `W+0.5`, or `0` for a draw |
//! | `final_status_list alive\|dead\|seki` | under area scoring and play-out every stone on the board counts as alive: `alive` lists every chain (one per line), `dead` and `seki` nothing |
//! | `loadsgf FILE [N]` | the main line, before move N if given |
//! | `printsgf [FILE]` | the game as SGF (to FILE if given) |
//! | `set_free_handicap V…` | Black's handicap stones on the empty board |
//! | `time_settings …`, `time_left …` | accepted and ignored (the budget is in expansions and playouts) |
//! | `gogui-analyze_commands` | GoGui's analyze menu: the `tsumi-*` commands below |
//! | `tsumi-solve` | value, best move and PV as text |
//! | `tsumi-solve-gfx` | the PV as a GoGui `gfx` overlay (`VAR`), with the value as `TEXT` |
//! | `tsumi-solve-pspairs` | the PV numbered, as GoGui `pspairs` |
//! | `tsumi-last-move` | how the last `genmove` was chosen (proven with value, or MCPS with playouts) |
//! | `lz-analyze`, `kata-analyze`, `analyze`, the `genmove_analyze` variants, `kata-get-rules`, `kata-set-rules`, `stop` | live analysis for Sabaki, Lizzie and KaTrain ([`crate::gtp_analyze`]) |
//! | `tsumi-tsumego VERTEX` | life and death of the block at VERTEX (GoGui's `%p`) by λ-df-pn in the rectangle of the block grown by 2 points, within the solve budget per proof: the target as `SQUARE`, the key move and line as `VAR`, the result (kill, seki, live, ko) as `TEXT` (see docs/tsumego.md) |

use crate::go_engine::{GoEngine, GoError, Solution, verdict};
use crate::gtp_analyze::Dialect;
use crate::protocol::{Handler, Reply, Stream};
use games::Player;
use games::go::{Komi, Move};

/// The GTP engine: a [`GoEngine`] and the GTP commands. Each `genmove` also writes one line on
/// stderr saying how the move was chosen (GoGui shows it in its shell), unless `quiet`.
pub struct GtpEngine {
    /// The engine.
    pub engine: GoEngine,
    /// No stderr lines (tests).
    pub quiet: bool,
    /// How `printsgf FILE` writes its file ([`GtpEngine::with_file_writer`]).
    write_file: FileWriter,
}

/// Writes a whole text file, or says in one line why it could not.
pub type FileWriter = fn(&std::path::Path, &str) -> Result<(), String>;

/// The default [`FileWriter`]: `std::fs::write`, which writes into whatever the path names.
fn plain_write(path: &std::path::Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text.as_bytes()).map_err(|e| format!("{}: {e}", path.display()))
}

/// The commands of [`GtpEngine`] besides the common ones.
pub const GTP_COMMANDS: &[&str] = &[
    "boardsize",
    "rectangular_boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "showboard",
    "final_score",
    "final_status_list",
    "loadsgf",
    "printsgf",
    "set_free_handicap",
    "time_settings",
    "time_left",
    "gogui-analyze_commands",
    "tsumi-solve",
    "tsumi-solve-gfx",
    "tsumi-solve-pspairs",
    "tsumi-last-move",
    "analyze",
    "kata-analyze",
    "lz-analyze",
    "genmove_analyze",
    "kata-genmove_analyze",
    "lz-genmove_analyze",
    "kata-get-rules",
    "kata-set-rules",
    "stop",
    "tsumi-tsumego",
];

/// The commands of [`GTP_COMMANDS`] whose replies stream ([`crate::protocol::Stream`]).
pub const STREAMING_COMMANDS: &[&str] = &[
    "analyze",
    "kata-analyze",
    "lz-analyze",
    "genmove_analyze",
    "kata-genmove_analyze",
    "lz-genmove_analyze",
];

/// GoGui's analyze menu (`type/label/command` lines).
pub const ANALYZE_COMMANDS: &str = "string/Solve this position/tsumi-solve\n\
gfx/Solve this position (show the PV)/tsumi-solve-gfx\n\
pspairs/Solve this position (number the PV)/tsumi-solve-pspairs\n\
string/How was the last move chosen/tsumi-last-move\n\
gfx/Life and death of this block/tsumi-tsumego %p";

impl GtpEngine {
    /// A GTP engine around `engine`.
    #[must_use]
    pub const fn new(engine: GoEngine) -> Self {
        GtpEngine {
            engine,
            quiet: false,
            write_file: plain_write,
        }
    }

    /// The same engine with `printsgf FILE` written by `write` (the `tsumi` binary passes its
    /// atomic writer, which never leaves a half-written file nor replaces a device or a
    /// directory; the default writes with `std::fs::write`).
    #[must_use]
    pub fn with_file_writer(mut self, write: FileWriter) -> Self {
        self.write_file = write;
        self
    }

    fn size_args(&mut self, args: &[String], both: bool) -> Reply {
        let nums: Vec<Option<u64>> = args.iter().map(|a| number(a)).collect();
        if both && nums.len() != 2 {
            return Reply::err("syntax error (expected rectangular_boardsize C R)");
        }
        let (rows, cols) = match nums.as_slice() {
            [Some(n)] if !both => (*n, *n),
            [Some(c), Some(r)] => (*r, *c),
            [_] | [_, _] if nums.iter().all(Option::is_none) => {
                return Reply::err("syntax error (expected a board size)");
            }
            [_] | [_, _] => return Reply::err("unacceptable size"),
            _ => return Reply::err("syntax error (expected boardsize N or boardsize C R)"),
        };
        match self.engine.set_size(rows, cols) {
            Ok(()) => Reply::empty(),
            Err(e) => Reply::err(e.to_string()),
        }
    }

    fn play(&mut self, args: &[String]) -> Reply {
        let [c, v] = args else {
            return Reply::err("syntax error (expected play COLOUR VERTEX)");
        };
        let Some(colour) = colour(c) else {
            return Reply::err("syntax error (invalid colour)");
        };
        let Ok(mv) = self.engine.position().size().parse_move(v) else {
            return Reply::err("illegal move");
        };
        match self.engine.play(colour, mv) {
            Ok(()) => Reply::empty(),
            Err(GoError::IllegalMove(why)) => {
                self.note(&format!("illegal move {c} {v}: {why}"));
                Reply::err("illegal move")
            }
            Err(e) => Reply::err(e.to_string()),
        }
    }

    fn genmove(&mut self, args: &[String]) -> Reply {
        let [c] = args else {
            return Reply::err("syntax error (expected genmove COLOUR)");
        };
        let Some(colour) = colour(c) else {
            return Reply::err("syntax error (invalid colour)");
        };
        let d = self.engine.genmove(colour);
        let komi = self.engine.position().rules().komi;
        self.note(&format!("genmove {}", d.describe(komi, colour)));
        Reply::ok(d.mv.map_or_else(|| "resign".to_string(), |m| m.to_string()))
    }

    fn note(&self, line: &str) {
        if !self.quiet {
            eprintln!("tsumi: {line}");
        }
    }

    fn showboard(&self) -> Reply {
        let p = self.engine.position();
        let mut text = String::from("\n");
        text.push_str(&p.board().to_string());
        let score = p.score();
        text.push_str(&format!(
            "{} to move, komi {}, {} played, area Black {} White {} ({}), positional superko",
            p.to_move(),
            p.rules().komi,
            games::count(u64::from(p.plies()), "move", "moves"),
            score.black,
            score.white,
            self.engine.final_score()
        ));
        if p.is_over() {
            text.push_str(", game over");
        }
        Reply::ok(text)
    }

    fn final_status_list(&self, args: &[String]) -> Reply {
        match args.first().map(|s| s.to_ascii_lowercase()).as_deref() {
            Some("alive") => Reply::ok(
                self.engine
                    .chains()
                    .iter()
                    .map(|c| {
                        c.iter()
                            .map(ToString::to_string)
                            .collect::<Vec<_>>()
                            .join(" ")
                    })
                    .collect::<Vec<_>>()
                    .join("\n"),
            ),
            Some("dead" | "seki") => Reply::empty(),
            _ => Reply::err("syntax error (expected alive, dead or seki)"),
        }
    }

    fn loadsgf(&mut self, args: &[String]) -> Reply {
        let (file, n) = match args {
            [f] => (f, None),
            [f, n] => match n.parse::<u32>() {
                Ok(n) => (f, Some(n)),
                Err(_) => return Reply::err("syntax error (move number)"),
            },
            _ => return Reply::err("syntax error (expected loadsgf FILE [MOVE_NUMBER])"),
        };
        let bytes = match std::fs::read(file) {
            Ok(b) => b,
            Err(e) => return Reply::err(format!("cannot load file ({file}: {e})")),
        };
        match self.engine.load_sgf(&bytes, n) {
            Ok(()) => Reply::empty(),
            Err(e) => Reply::err(one_line(&e.to_string())),
        }
    }

    fn printsgf(&self, args: &[String]) -> Reply {
        let sgf = self.engine.to_sgf();
        match args {
            [] => Reply::ok(sgf),
            [file] => match (self.write_file)(std::path::Path::new(file), &sgf) {
                Ok(()) => Reply::empty(),
                Err(e) => Reply::err(format!("cannot write file ({e})")),
            },
            _ => Reply::err("syntax error (expected printsgf [FILE])"),
        }
    }

    fn set_free_handicap(&mut self, args: &[String]) -> Reply {
        let size = self.engine.position().size();
        let mut moves = Vec::new();
        for a in args {
            match size.parse_move(a) {
                Ok(m) => moves.push(m),
                Err(e) => return Reply::err(format!("bad vertex list ({e})")),
            }
        }
        match self.engine.set_free_handicap(&moves) {
            Ok(()) => Reply::empty(),
            Err(e) => Reply::err(e.to_string()),
        }
    }

    /// Text of a solve: value, verdict at the komi, best move, PV, effort.
    fn solve_text(&mut self) -> (Solution, String) {
        let s = self.engine.solve();
        let komi = self.engine.position().rules().komi;
        let text = match &s {
            Solution::Proven {
                value,
                pv,
                expansions,
                seconds,
            } => format!(
                "value {value:+} (Black's area minus White's): {}; best move {}; PV {}; {expansions} expansions, {seconds:.2} s",
                verdict(*value, komi),
                pv.first()
                    .map_or_else(|| "none (the game is over)".into(), ToString::to_string),
                if pv.is_empty() {
                    "empty".into()
                } else {
                    moves_text(pv)
                },
            ),
            Solution::Unknown {
                bounds,
                expansions,
                seconds,
                why,
            } => format!(
                "unknown: {why}; value between {:+} and {:+}; {expansions} expansions, {seconds:.2} s",
                bounds.0, bounds.1
            ),
        };
        (s, text)
    }

    fn solve_gfx(&mut self) -> Reply {
        let (s, text) = self.solve_text();
        let mut out = String::new();
        if let Solution::Proven { pv, .. } = &s {
            let mut colour = self.engine.position().to_move();
            let mut var = Vec::new();
            for m in pv {
                if let Move::Place(p) = m {
                    var.push(format!(
                        "{} {p}",
                        if colour == Player::Black { "b" } else { "w" }
                    ));
                }
                colour = colour.opponent();
            }
            if !var.is_empty() {
                out.push_str(&format!("VAR {}\n", var.join(" ")));
            }
        }
        out.push_str(&format!("TEXT {text}"));
        Reply::ok(out)
    }

    fn solve_pspairs(&mut self) -> Reply {
        let (s, _) = self.solve_text();
        let Solution::Proven { pv, .. } = &s else {
            return Reply::empty();
        };
        let mut seen = std::collections::HashSet::new();
        let pairs: Vec<String> = pv
            .iter()
            .enumerate()
            .filter_map(|(i, m)| match m {
                // A point retaken later keeps its first number.
                Move::Place(p) if seen.insert(*p) => Some(format!("{p} {}", i + 1)),
                _ => None,
            })
            .collect();
        Reply::ok(pairs.join(" "))
    }

    /// `tsumi-tsumego VERTEX`: see the module documentation.
    fn tsumego(&self, args: &[String]) -> Reply {
        use games::go::{PointSet, Tsumego, TsumegoGoal};
        let pos = self.engine.position();
        let [v] = args else {
            return Reply::err("syntax error (expected tsumi-tsumego VERTEX)");
        };
        let p = match pos.size().parse_point(v) {
            Ok(p) => p,
            Err(e) => return Reply::err(e),
        };
        if pos.board().get(p).is_none() {
            return Reply::err(format!("no stone at {p}: click a stone of the group"));
        }
        let (block, _) = pos.board().chain(p);
        let area = PointSet::rectangle(pos.size(), &block, 2);
        let game = match Tsumego::new(pos.clone(), p, TsumegoGoal::LifeAndDeath, area) {
            Ok(g) => g,
            Err(e) => return Reply::err(e.to_string()),
        };
        let budget = pns::Budget::expansions(self.engine.solve_budget());
        let sol = pns::tsumego::solve(&game, &mut pns::LambdaDfPn::default(), &budget);
        let mut out = format!("SQUARE {p}\n");
        let mut colour = pos.to_move();
        let mut var = Vec::new();
        for m in &sol.line {
            if let Move::Place(q) = m {
                var.push(format!(
                    "{} {q}",
                    if colour == Player::Black { "b" } else { "w" }
                ));
            }
            colour = colour.opponent();
        }
        if !var.is_empty() {
            out.push_str(&format!("VAR {}\n", var.join(" ")));
        }
        let result = sol
            .verdict
            .status
            .map_or("unknown (budget exhausted)", |s| {
                s.name(TsumegoGoal::LifeAndDeath)
            });
        out.push_str(&format!(
            "TEXT {p}: {result}{}, {} expansions",
            sol.key_move
                .map_or(String::new(), |m| format!(", key move {m}")),
            sol.expansions
        ));
        Reply::ok(out)
    }

    fn last_move(&self) -> Reply {
        let komi = self.engine.position().rules().komi;
        Reply::ok(match self.engine.last_decision() {
            Some((c, d)) => d.describe(komi, *c),
            None => "no genmove since the last change of the board".into(),
        })
    }
}

/// Why a komi that is a number is refused: beyond ±1000 points, or not a multiple of one half.
fn komi_refusal(x: f64) -> String {
    if x.abs() > 1000.0 {
        format!("komi {x} out of range (tsumi takes komi from -1000 to 1000)")
    } else {
        format!("komi {x} not supported (tsumi takes multiples of 0.5, e.g. 7.5 or -2)")
    }
}

impl Handler for GtpEngine {
    fn name(&self) -> String {
        "tsumi".into()
    }

    fn version(&self) -> String {
        env!("CARGO_PKG_VERSION").into()
    }

    fn commands(&self) -> &'static [&'static str] {
        GTP_COMMANDS
    }

    fn handle(&mut self, name: &str, args: &[String]) -> Option<Reply> {
        Some(match name {
            "boardsize" => self.size_args(args, false),
            "rectangular_boardsize" => self.size_args(args, true),
            "clear_board" => {
                self.engine.clear();
                Reply::empty()
            }
            "komi" => match args {
                [k] => match k.parse::<Komi>() {
                    Ok(k) => {
                        self.engine.set_komi(k);
                        Reply::empty()
                    }
                    // GTP's komi is any float: a number tsumi cannot take (6.3, 1000.5) is
                    // refused for what it is, and only text that is no number is a syntax
                    // error.
                    Err(e) => match k.parse::<f64>() {
                        Ok(x) if x.is_finite() => Reply::err(komi_refusal(x)),
                        _ => Reply::err(format!("syntax error ({e})")),
                    },
                },
                _ => Reply::err("syntax error (expected komi K)"),
            },
            "play" => self.play(args),
            "genmove" => self.genmove(args),
            "undo" => match self.engine.undo() {
                Ok(()) => Reply::empty(),
                Err(e) => Reply::err(e.to_string()),
            },
            "showboard" => self.showboard(),
            "final_score" => Reply::ok(self.engine.final_score()),
            "final_status_list" => self.final_status_list(args),
            "loadsgf" => self.loadsgf(args),
            "printsgf" => self.printsgf(args),
            "set_free_handicap" => self.set_free_handicap(args),
            "time_settings" | "time_left" => Reply::empty(),
            "gogui-analyze_commands" => Reply::ok(ANALYZE_COMMANDS),
            "tsumi-solve" => Reply::ok(self.solve_text().1),
            "tsumi-solve-gfx" => self.solve_gfx(),
            "tsumi-solve-pspairs" => self.solve_pspairs(),
            "tsumi-last-move" => self.last_move(),
            "kata-get-rules" => Reply::ok(crate::kata_rules::TSUMI_RULES),
            "kata-set-rules" => Self::set_rules(args),
            "stop" => Reply::empty(),
            "tsumi-tsumego" => self.tsumego(args),
            _ => return None,
        })
    }

    fn streams(&self, name: &str) -> bool {
        STREAMING_COMMANDS.contains(&name)
    }

    fn stream(
        &mut self,
        name: &str,
        args: &[String],
        out: &mut Stream<'_>,
    ) -> std::io::Result<Reply> {
        let dialect = if name.starts_with("lz-") {
            Dialect::Lz
        } else {
            Dialect::Kata
        };
        self.analyze_command(dialect, name.contains("genmove"), args, out)
    }
}

/// A decimal number of any length: `Some(n)`, saturated at `u64::MAX` (so `boardsize
/// 99999999999999999999` is an unacceptable size, not a syntax error); `None` for non-digits.
fn number(text: &str) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(text.parse::<u64>().unwrap_or(u64::MAX))
}

/// A GTP colour: `b`, `black`, `w`, `white`, in any case.
pub(crate) fn colour(text: &str) -> Option<Player> {
    match text.to_ascii_lowercase().as_str() {
        "b" | "black" => Some(Player::Black),
        "w" | "white" => Some(Player::White),
        _ => None,
    }
}

fn moves_text(moves: &[Move]) -> String {
    moves
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

fn one_line(text: &str) -> String {
    text.lines().collect::<Vec<_>>().join(" ")
}
