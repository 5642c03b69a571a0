//! The results manifest (data/results-manifest.tsv, scripts/manifest.sh): every value of
//! data/go-psk-values.tsv that tsumi solves has both deciding proofs listed, each row's
//! command is the row's own question, and one small row is made again and checked by the
//! script, hash included.

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The manifest's rows as column name → value.
fn rows() -> Vec<HashMap<String, String>> {
    let text = std::fs::read_to_string(root().join("data/results-manifest.tsv")).unwrap();
    let mut lines = text.lines().filter(|l| !l.starts_with('#'));
    let header: Vec<String> = lines
        .next()
        .unwrap()
        .split('\t')
        .map(str::to_string)
        .collect();
    lines
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), header.len(), "{l}");
            header
                .iter()
                .cloned()
                .zip(f.iter().map(|s| s.to_string()))
                .collect()
        })
        .collect()
}

#[test]
fn the_manifest_lists_both_proofs_of_every_claimed_value() {
    let rows = rows();
    let psk = std::fs::read_to_string(root().join("data/go-psk-values.tsv")).unwrap();
    for l in psk.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = l.split('\t').collect();
        if f[0] == "5x5" {
            continue; // not solved by tsumi (docs/results.md: 5x5 after C3 is open)
        }
        let v: i32 = f[1].parse().unwrap();
        for (winner, k2) in [("black", 2 * v - 1), ("white", 2 * v + 1)] {
            let komi = check::format::komi_text(k2);
            let row = rows
                .iter()
                .find(|r| r["board"] == f[0] && r["winner"] == winner)
                .unwrap_or_else(|| panic!("no manifest row for {} {winner}", f[0]));
            assert_eq!(row["value"], f[1], "{}", f[0]);
            assert_eq!(row["komi"], komi, "{}", f[0]);
        }
    }
    for r in &rows {
        let file = format!("{}-{}-{}.tcz", r["board"], r["winner"], r["komi"]);
        let want = format!(
            "tsumi prove go {} --komi {} --winner {} --threads 1 --tt-mib {} --certificate {file} --certificate-format compact",
            r["board"], r["komi"], r["winner"], r["tt_mib"]
        );
        assert_eq!(r["command"], want);
        let sha = &r["cert_sha256"];
        if sha.is_empty() {
            assert!(
                !r["note"].is_empty(),
                "a row without a hash says why: {r:?}"
            );
        } else {
            assert!(
                sha.len() == 64 && sha.bytes().all(|b| b.is_ascii_hexdigit()),
                "{r:?}"
            );
            for k in ["expansions", "cert_nodes", "cert_bytes"] {
                assert!(r[k].parse::<u64>().is_ok(), "{k}: {r:?}");
            }
            assert!(r["version"].starts_with("0."), "{r:?}");
        }
    }
}

#[test]
fn a_small_row_is_made_again_and_checked() {
    let out = Command::new("bash")
        .arg(root().join("scripts/manifest.sh"))
        .args(["check", "2x2"])
        .env("TSUMI", env!("CARGO_BIN_EXE_tsumi"))
        .env_remove("CERT_DIR")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}\n(after a change of the search, `scripts/manifest.sh fill 2x2` prints the rows to record)",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        stdout.matches("reproduced and checked").count(),
        2,
        "{stdout}"
    );
    // A row that does not exist is an error.
    let out = Command::new("bash")
        .arg(root().join("scripts/manifest.sh"))
        .args(["check", "9x9"])
        .env("TSUMI", env!("CARGO_BIN_EXE_tsumi"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no such row"));
}
