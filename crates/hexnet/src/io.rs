//! The weight file: plain text, exact (every float printed in Rust's shortest round-trip
//! form), with the training facts next to the weights.
//!
//! ```text
//! hexnet 1
//! kind policy            (or value)
//! n 6
//! channels 16
//! layers 4
//! hidden 32
//! meta KEY VALUE         (any number: seed, positions, held-out accuracy, ...)
//! tensor INDEX LENGTH
//! FLOAT FLOAT ...        (LENGTH floats over one or more lines)
//! ...
//! end
//! ```

use crate::net::{Kind, Net, Shape};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Why a weight file cannot be read or written.
#[derive(Debug, thiserror::Error)]
pub enum NetError {
    /// The file cannot be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The text is not a weight file of this format.
    #[error("{path}: line {line}: {message}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The network is for another board or of the other kind.
    #[error("{what}")]
    Mismatch {
        /// What does not fit (names both sides).
        what: String,
    },
}

/// A network with the facts recorded about its training.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// The network.
    pub net: Net,
    /// `meta` lines: key to value, in key order.
    pub meta: BTreeMap<String, String>,
}

impl Weights {
    /// The text of the file.
    #[must_use]
    pub fn to_text(&self) -> String {
        let s = self.net.shape;
        let mut t = format!(
            "hexnet 1\nkind {}\nn {}\nchannels {}\nlayers {}\nhidden {}\n",
            s.kind.name(),
            s.n,
            s.channels,
            s.layers,
            s.hidden
        );
        for (k, v) in &self.meta {
            let _ = writeln!(t, "meta {k} {v}");
        }
        for (i, p) in self.net.params.iter().enumerate() {
            let _ = writeln!(t, "tensor {i} {}", p.len());
            for row in p.chunks(12) {
                let line: Vec<String> = row.iter().map(|v| v.to_string()).collect();
                let _ = writeln!(t, "{}", line.join(" "));
            }
        }
        t.push_str("end\n");
        t
    }

    /// Writes the file (through a temporary file and a rename, so a reader never sees half).
    ///
    /// # Errors
    /// [`NetError::Io`] when it cannot be written.
    pub fn save(&self, path: &Path) -> Result<(), NetError> {
        let io = |source| NetError::Io {
            path: path.to_path_buf(),
            source,
        };
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, self.to_text()).map_err(io)?;
        std::fs::rename(&tmp, path).map_err(io)
    }

    /// Reads a weight file.
    ///
    /// # Errors
    /// [`NetError::Io`] when it cannot be read, [`NetError::Parse`] (with the line) when it is
    /// not a complete weight file whose tensors fit its shape.
    pub fn load(path: &Path) -> Result<Self, NetError> {
        let text = std::fs::read_to_string(path).map_err(|source| NetError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Self::parse(&text, path)
    }

    /// Parses the text of a weight file; `path` is only named in errors.
    ///
    /// # Errors
    /// As [`Weights::load`].
    pub fn parse(text: &str, path: &Path) -> Result<Self, NetError> {
        let err = |line: usize, message: String| NetError::Parse {
            path: path.to_path_buf(),
            line,
            message,
        };
        let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim()));
        let mut next = |what: &str| {
            lines
                .next()
                .ok_or_else(|| err(text.lines().count() + 1, format!("missing {what}")))
        };
        let (l, first) = next("header")?;
        if first != "hexnet 1" {
            return Err(err(l, format!("expected 'hexnet 1', found '{first}'")));
        }
        let mut field = |name: &str| -> Result<(usize, String), NetError> {
            let (l, line) = next(name)?;
            match line.split_once(' ') {
                Some((k, v)) if k == name => Ok((l, v.to_string())),
                _ => Err(err(l, format!("expected '{name} ...', found '{line}'"))),
            }
        };
        let (l, kind) = field("kind")?;
        let kind = match kind.as_str() {
            "policy" => Kind::Policy,
            "value" => Kind::Value,
            other => return Err(err(l, format!("unknown kind '{other}' (policy or value)"))),
        };
        let mut number = |name: &str| -> Result<usize, NetError> {
            let (l, v) = field(name)?;
            v.parse()
                .map_err(|_| err(l, format!("{name} '{v}' is not a count")))
        };
        let shape = Shape {
            kind,
            n: number("n")?,
            channels: number("channels")?,
            layers: number("layers")?,
            hidden: number("hidden")?,
        };
        if !(2..=11).contains(&shape.n) || shape.channels == 0 || shape.layers == 0 {
            return Err(err(6, format!("unusable shape {shape:?}")));
        }
        let sizes = shape.tensor_sizes();
        let mut meta = BTreeMap::new();
        let mut params: Vec<Vec<f32>> = Vec::new();
        let mut rest = text.lines().enumerate().skip(6);
        let mut current: Option<(usize, usize)> = None; // (tensor, length)
        let mut ended = false;
        for (i, line) in rest.by_ref() {
            let (l, line) = (i + 1, line.trim());
            if line.is_empty() {
                continue;
            }
            if let Some((t, len)) = current
                && params[t].len() < len
            {
                for tok in line.split_whitespace() {
                    let v: f32 = tok
                        .parse()
                        .map_err(|_| err(l, format!("'{tok}' is not a number")))?;
                    params[t].push(v);
                }
                if params[t].len() > len {
                    return Err(err(l, format!("tensor {t} has more than {len} numbers")));
                }
                continue;
            }
            if let Some(kv) = line.strip_prefix("meta ") {
                let (k, v) = kv.split_once(' ').unwrap_or((kv, ""));
                meta.insert(k.to_string(), v.to_string());
            } else if let Some(tv) = line.strip_prefix("tensor ") {
                let (t, len) = tv
                    .split_once(' ')
                    .and_then(|(a, b)| Some((a.parse::<usize>().ok()?, b.parse::<usize>().ok()?)))
                    .ok_or_else(|| err(l, format!("bad tensor line '{line}'")))?;
                if t != params.len() || t >= sizes.len() || len != sizes[t] {
                    return Err(err(
                        l,
                        format!(
                            "tensor {t} of {len} numbers does not fit the shape (expected tensor {} of {})",
                            params.len(),
                            sizes.get(params.len()).copied().unwrap_or(0)
                        ),
                    ));
                }
                params.push(Vec::with_capacity(len));
                current = Some((t, len));
            } else if line == "end" {
                ended = true;
                break;
            } else {
                return Err(err(l, format!("unexpected line '{line}'")));
            }
        }
        let complete =
            params.len() == sizes.len() && params.iter().zip(&sizes).all(|(p, &n)| p.len() == n);
        if !ended || !complete {
            return Err(err(
                text.lines().count(),
                format!(
                    "incomplete weights: {} of {} tensors{}",
                    params.len(),
                    sizes.len(),
                    if ended { "" } else { ", no 'end' line" }
                ),
            ));
        }
        Ok(Self {
            net: Net { shape, params },
            meta,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn weights() -> Weights {
        let shape = Shape {
            kind: Kind::Value,
            n: 3,
            channels: 2,
            layers: 2,
            hidden: 3,
        };
        let mut k = 0.0f32;
        let net = Net::new(shape, |_| {
            k += 0.1;
            k.sin() / 3.0
        });
        let mut meta = BTreeMap::new();
        meta.insert("seed".into(), "7".into());
        Weights { net, meta }
    }

    #[test]
    fn text_round_trips_exactly() {
        let w = weights();
        let back = Weights::parse(&w.to_text(), Path::new("w")).unwrap();
        assert_eq!(back, w);
    }

    #[test]
    fn truncated_and_misshapen_files_are_errors_with_the_line() {
        let text = weights().to_text();
        let cut: String = text.lines().take(12).map(|l| format!("{l}\n")).collect();
        let e = Weights::parse(&cut, Path::new("w.txt"))
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("w.txt: line ") && e.contains("incomplete weights"),
            "{e}"
        );
        let bad = text.replace("channels 2", "channels 3");
        let e = Weights::parse(&bad, Path::new("w.txt"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("does not fit the shape"), "{e}");
        let e = Weights::parse("hexnet 2\n", Path::new("w.txt"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 1: expected 'hexnet 1'"), "{e}");
    }
}
