//! The one game registry (the shape of OpenSpiel's `LoadGame`): a game's name, in any letter
//! case, maps to one [`GameId`], and every subcommand goes through it. The commands then build
//! the typed game of their back end from the id and the size:
//!
//! | id          | `prove`                      | `solve` | `match`/`play`      | engine  |
//! |-------------|------------------------------|---------|---------------------|---------|
//! | `go`        | gosolve df-pn (PSK, ≤ 30 pt) | yes     | `FastGo` (--ko)     | `gtp`   |
//! | `hex`       | pns (+ Hex knowledge)        | –       | `Hex`               | `htp`   |
//! | `nogo`, `atarigo`, `tictactoe`, `connect4` | pns | – | the game          | –       |
//! | `wargame`   | –                            | –       | `WarGame`           | –       |
//!
//! "go" is one game everywhere: area scoring, suicide illegal, komi added to White. Solving
//! is under positional superko (gosolve's rules); playing takes the ko rule of `--ko`
//! (default simple) in `match`/`play` and positional superko in `gtp`, so that a proven move
//! and a played move are moves of the same game.

use anyhow::bail;
use std::fmt;

/// A game the commands know.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameId {
    /// Go (area scoring; the solver's rule is positional superko).
    Go,
    /// NoGo: a move that captures or suicides is illegal; who cannot move loses.
    NoGo,
    /// Atari Go (first capture wins).
    AtariGo,
    /// Hex.
    Hex,
    /// The war game of the MCPS paper.
    WarGame,
    /// Tic-tac-toe (m,n,k).
    TicTacToe,
    /// Connect Four.
    Connect4,
}

/// What a command does with a game, for the registry's refusals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Use {
    /// `tsumi prove`: one exact question.
    Prove,
    /// `tsumi match` and `tsumi play`: Monte Carlo players.
    Play,
}

impl GameId {
    /// Every game, in the order the commands list them.
    pub const ALL: [Self; 7] = [
        Self::Go,
        Self::NoGo,
        Self::AtariGo,
        Self::Hex,
        Self::WarGame,
        Self::TicTacToe,
        Self::Connect4,
    ];

    /// The game's name on the command line (lowercase).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Go => "go",
            Self::NoGo => "nogo",
            Self::AtariGo => "atarigo",
            Self::Hex => "hex",
            Self::WarGame => "wargame",
            Self::TicTacToe => "tictactoe",
            Self::Connect4 => "connect4",
        }
    }

    /// Whether `tsumi prove` answers for this game (all but the war game, which has no
    /// prover).
    #[must_use]
    pub const fn provable(self) -> bool {
        !matches!(self, Self::WarGame)
    }

    /// The names of every game, comma-separated ("go, nogo, ...").
    #[must_use]
    pub fn all_names() -> String {
        Self::ALL.map(Self::name).join(", ")
    }

    /// The game named `name` (any letter case, surrounding blanks ignored).
    ///
    /// # Errors
    /// An unknown name: `unknown game "chess" (expected one of go, nogo, ..., in any case)`.
    pub fn parse(name: &str) -> anyhow::Result<Self> {
        let lower = name.trim().to_ascii_lowercase();
        match Self::ALL.into_iter().find(|g| g.name() == lower) {
            Some(g) => Ok(g),
            None => bail!(
                "unknown game {name:?} (expected one of {}, in any case)",
                Self::all_names()
            ),
        }
    }

    /// The game named `name`, checked to be one that `what` handles.
    ///
    /// # Errors
    /// An unknown name, or a game the command does not handle (e.g. `prove wargame`).
    pub fn parse_for(name: &str, what: Use) -> anyhow::Result<Self> {
        let id = Self::parse(name)?;
        match what {
            Use::Prove if !id.provable() => {
                let provable: Vec<&str> = Self::ALL
                    .into_iter()
                    .filter(|g| g.provable())
                    .map(Self::name)
                    .collect();
                bail!(
                    "prove has no prover for {} (it proves {})",
                    id.name(),
                    provable.join(", ")
                )
            }
            _ => Ok(id),
        }
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_in_any_case() {
        for g in GameId::ALL {
            assert_eq!(GameId::parse(g.name()).unwrap(), g);
            assert_eq!(
                GameId::parse(&format!(" {} ", g.name().to_uppercase())).unwrap(),
                g
            );
        }
    }

    #[test]
    fn unknown_and_unprovable_games_are_refused_by_name() {
        let e = GameId::parse("Chess").unwrap_err().to_string();
        assert!(e.contains("unknown game \"Chess\""), "{e}");
        let e = GameId::parse_for("wargame", Use::Prove)
            .unwrap_err()
            .to_string();
        assert!(e.contains("wargame") && e.contains("prove"), "{e}");
        assert_eq!(
            GameId::parse_for("wargame", Use::Play).unwrap(),
            GameId::WarGame
        );
    }
}
