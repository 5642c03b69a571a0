//! The knowledge and ablation flags of the Go df-pn solver, shared by `solve`, `prove` and
//! `bench`: a leaf module (it uses no command module), so that every command can flatten
//! them into its arguments.

use gosolve::Config;

/// The knowledge and ablation flags shared by `solve`, `prove` and `bench` (Go, df-pn).
#[derive(clap::Args, Debug, Clone, Copy, Default)]
pub struct KnowledgeArgs {
    /// Reuse proofs only in the identical superko game (no proof transfer, Theorem 1).
    #[arg(long)]
    pub no_transfer: bool,
    /// No static leaves from the pure-eye analysis (Lemma 1); also turns off region games.
    #[arg(long)]
    pub no_static: bool,
    /// No static leaves from local region games.
    #[arg(long)]
    pub no_regions: bool,
    /// The reference mode: no transfer and no static knowledge (what the tests compare with).
    #[arg(long)]
    pub oracle_mode: bool,
    /// Winner-side pruning: skip the proven side's own-eye fills and moves inside its
    /// certified territory (one kept as a tempo move); a question it cannot win is asked
    /// again unpruned.
    #[arg(long)]
    pub prune: bool,
    /// Keep unproven proof and disproof numbers per superko game instead of sharing them by
    /// position (the ablation of the shared numbers; values never change).
    #[arg(long)]
    pub no_shared_numbers: bool,
    /// Start a node with no numbers at the question's komi from the prior, not from its
    /// shared numbers of the komi last searched there (the ablation of the cross-komi
    /// numbers; values never change).
    #[arg(long)]
    pub no_cross_komi: bool,
    /// Search threads over the one shared table (default: the machine's cores). Values are
    /// the same for any count; expansions are summed over the threads.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
    /// With several threads, no virtual loss: every thread follows the same most-proving
    /// path (the ablation of the virtual proof numbers).
    #[arg(long)]
    pub no_virtual_loss: bool,
}

/// The default thread count: the machine's cores (1 if unknown).
#[must_use]
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
}

impl KnowledgeArgs {
    /// Applies the flags to a configuration.
    pub fn apply(&self, cfg: &mut Config) {
        cfg.transfer = !self.no_transfer;
        cfg.static_leaves = !self.no_static;
        cfg.regions = !self.no_regions && !self.no_static;
        cfg.prune = self.prune;
        cfg.share_unproven = !self.no_shared_numbers;
        cfg.cross_komi = !self.no_cross_komi;
        cfg.threads = self.threads.map_or_else(default_threads, |t| t as usize);
        cfg.virtual_loss = !self.no_virtual_loss;
        if self.oracle_mode {
            let c = cfg.clone().oracle_mode();
            *cfg = c;
        }
    }

    /// The first flag given, as typed (for refusing the flags where they do not apply).
    #[must_use]
    pub const fn given(&self) -> Option<&'static str> {
        if self.no_transfer {
            Some("--no-transfer")
        } else if self.no_static {
            Some("--no-static")
        } else if self.no_regions {
            Some("--no-regions")
        } else if self.oracle_mode {
            Some("--oracle-mode")
        } else if self.prune {
            Some("--prune")
        } else if self.no_shared_numbers {
            Some("--no-shared-numbers")
        } else if self.no_cross_komi {
            Some("--no-cross-komi")
        } else if self.threads.is_some() {
            Some("--threads")
        } else if self.no_virtual_loss {
            Some("--no-virtual-loss")
        } else {
            None
        }
    }

    /// The flags as words for reports ("full" when everything is on).
    #[must_use]
    pub fn describe(&self) -> String {
        let mut v = Vec::new();
        if self.oracle_mode {
            v.push("oracle-mode");
        }
        if self.no_transfer {
            v.push("no-transfer");
        }
        if self.no_static {
            v.push("no-static");
        }
        if self.no_regions {
            v.push("no-regions");
        }
        if self.prune {
            v.push("prune");
        }
        if self.no_shared_numbers {
            v.push("no-shared-numbers");
        }
        if self.no_cross_komi {
            v.push("no-cross-komi");
        }
        if self.no_virtual_loss {
            v.push("no-virtual-loss");
        }
        if v.is_empty() {
            "full".into()
        } else {
            v.join(",")
        }
    }
}
