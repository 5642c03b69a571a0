//! Checkpoints of the table (`gosolve::table::checkpoint`): a question stopped by its budget
//! and resumed from its checkpoint reaches the answer of an uninterrupted run with fewer
//! expansions; a save read back and saved again gives the same file; damaged, truncated and
//! foreign files are refused and leave the table empty; the plan saves while searching.

use games::Player;
use games::go::Komi;
use gosolve::bitboard::{Geometry, Line};
use gosolve::search::Checkpoint;
use gosolve::table::CheckpointError;
use gosolve::{Answer, Config, Solver};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// A fresh folder for one test's files (removed at the end of the test).
struct Folder(PathBuf);

impl Folder {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("tsumi-ckpt-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Folder(dir)
    }
    fn file(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn solver(rows: usize, cols: usize, tt_mib: usize, budget: u64) -> Solver {
    let geo = Geometry::new(rows, cols).unwrap();
    let cfg = Config {
        limits: gosolve::Limits {
            max_expansions: budget,
            ..gosolve::Limits::default()
        },
        ..Config::reference()
    };
    Solver::new(geo, tt_mib, cfg)
}

/// 3x4, Black at komi 3.5 (the value is +4: Black wins), one thread.
const KOMI2: i32 = 7;

#[test]
fn a_question_stopped_by_its_budget_resumes_from_its_checkpoint() {
    let dir = Folder::new("resume");
    let path = dir.file("q.ckpt");
    let line = Line::new();

    let mut fresh = solver(3, 4, 64, 0);
    let whole = fresh.prove(&line, Player::Black, Komi::from_half_points(KOMI2));
    assert_eq!(whole.answer, Answer::Proven);

    // The first run stops after a fifth of the work and saves its table.
    let mut first = solver(3, 4, 64, whole.expansions / 5);
    let id = first.checkpoint_identity(&line, "prove black 3.5");
    let plan = Checkpoint::new(path.clone(), id.clone(), Duration::from_secs(3600));
    let stopped = first.prove(&line, Player::Black, Komi::from_half_points(KOMI2));
    assert_eq!(stopped.answer, Answer::Unknown);
    let saved = first.save_checkpoint(&plan).unwrap();
    assert!(saved.proofs > 0, "{saved:?}");
    assert_eq!(saved.bytes, std::fs::metadata(&path).unwrap().len());

    // The second run reads it and finishes with fewer expansions than a fresh run.
    let mut second = solver(3, 4, 64, 0);
    let read = second.load_checkpoint(&path, &id).unwrap();
    assert_eq!((read.entries, read.proofs), (saved.entries, saved.proofs));
    assert_eq!(read.dropped, 0);
    assert_eq!(second.table_stats().used, read.entries);
    let resumed = second.prove(&line, Player::Black, Komi::from_half_points(KOMI2));
    assert_eq!(resumed.answer, Answer::Proven);
    assert_eq!(resumed.best_move.is_some(), whole.best_move.is_some());
    assert!(
        resumed.expansions < whole.expansions,
        "resumed {} against fresh {}",
        resumed.expansions,
        whole.expansions
    );

    // A table with every proof of the answer answers it at once.
    let end = dir.file("end.ckpt");
    let plan = Checkpoint::new(end.clone(), id.clone(), Duration::from_secs(3600));
    second.save_checkpoint(&plan).unwrap();
    let mut third = solver(3, 4, 64, 0);
    third.load_checkpoint(&end, &id).unwrap();
    let again = third.prove(&line, Player::Black, Komi::from_half_points(KOMI2));
    assert_eq!(again.answer, Answer::Proven);
    assert_eq!(again.expansions, 1, "the root's proof is in the checkpoint");
}

#[test]
fn a_checkpoint_read_back_and_saved_again_is_the_same_file() {
    let dir = Folder::new("same");
    let line = Line::new();
    let mut s = solver(3, 3, 16, 0);
    let id = s.checkpoint_identity(&line, "solve");
    s.prove(&line, Player::Black, Komi::from_half_points(9));
    s.prove(&line, Player::White, Komi::from_half_points(19));
    let a = dir.file("a.ckpt");
    let b = dir.file("b.ckpt");
    s.save_checkpoint(&Checkpoint::new(a.clone(), id.clone(), Duration::ZERO))
        .unwrap();
    let mut t = solver(3, 3, 16, 0);
    t.load_checkpoint(&a, &id).unwrap();
    t.save_checkpoint(&Checkpoint::new(b.clone(), id, Duration::ZERO))
        .unwrap();
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
}

#[test]
fn damaged_truncated_and_foreign_checkpoints_are_refused_and_change_nothing() {
    let dir = Folder::new("refuse");
    let line = Line::new();
    let mut s = solver(3, 3, 16, 0);
    let id = s.checkpoint_identity(&line, "prove black 4.5");
    assert_eq!(
        s.prove(&line, Player::Black, Komi::from_half_points(9))
            .answer,
        Answer::Proven
    );
    let good = dir.file("good.ckpt");
    s.save_checkpoint(&Checkpoint::new(good.clone(), id.clone(), Duration::ZERO))
        .unwrap();
    let bytes = std::fs::read(&good).unwrap();

    let try_load = |data: &[u8], identity: &str| {
        let p = dir.file("try.ckpt");
        std::fs::write(&p, data).unwrap();
        let mut t = solver(3, 3, 16, 0);
        let r = t.load_checkpoint(&p, identity);
        if r.is_err() {
            assert_eq!(t.table_stats().used, 0, "a refused file stores nothing");
        }
        r
    };
    // One flipped bit in a record.
    let mut flipped = bytes.clone();
    let at = bytes.len() - 100;
    flipped[at] ^= 0x10;
    assert!(matches!(
        try_load(&flipped, &id),
        Err(CheckpointError::Damaged { .. })
    ));
    // Cut short (a kill during a copy by hand), by a record or by a few bytes.
    for cut in [64, 3] {
        let r = try_load(&bytes[..bytes.len() - cut], &id);
        assert!(matches!(r, Err(CheckpointError::Damaged { .. })), "{r:?}");
    }
    // Another question on the same board, another board, another format.
    let other = s.checkpoint_identity(&line, "prove black 5.5");
    let e = try_load(&bytes, &other).unwrap_err();
    assert!(e.to_string().contains("prove black 4.5"), "{e}");
    let four = solver(2, 4, 16, 0).checkpoint_identity(&line, "prove black 4.5");
    assert!(matches!(
        try_load(&bytes, &four),
        Err(CheckpointError::Identity { .. })
    ));
    assert!(matches!(
        try_load(b"tsumi-certificate 1\n", &id),
        Err(CheckpointError::Format { .. })
    ));
    assert!(matches!(
        try_load(&[0u8; 100_000], &id),
        Err(CheckpointError::Format { .. })
    ));
    // The good one still reads.
    assert!(try_load(&bytes, &id).is_ok());
}

#[test]
fn a_save_that_fails_leaves_the_last_good_checkpoint() {
    let dir = Folder::new("fail");
    let line = Line::new();
    let mut s = solver(2, 3, 4, 0);
    let id = s.checkpoint_identity(&line, "solve");
    s.prove(&line, Player::Black, Komi::from_half_points(1));
    // A checkpoint path whose folder is missing: the write fails, nothing is left behind.
    let missing = dir.file("no/such/folder/x.ckpt");
    let r = s.save_checkpoint(&Checkpoint::new(missing, id.clone(), Duration::ZERO));
    assert!(matches!(r, Err(CheckpointError::Io { .. })), "{r:?}");
    // A folder at the path is not replaced.
    let folder = dir.file("a-folder");
    std::fs::create_dir(&folder).unwrap();
    let r = s.save_checkpoint(&Checkpoint::new(folder.clone(), id.clone(), Duration::ZERO));
    assert!(matches!(r, Err(CheckpointError::NotAFile(_))), "{r:?}");
    assert!(folder.is_dir());
    // A temporary file left by a killed save does not disturb the next one.
    let good = dir.file("good.ckpt");
    std::fs::write(dir.file(".good.ckpt.tmp-1"), b"half a checkpoint").unwrap();
    s.save_checkpoint(&Checkpoint::new(good.clone(), id.clone(), Duration::ZERO))
        .unwrap();
    assert!(solver(2, 3, 4, 0).load_checkpoint(&good, &id).is_ok());
    let names: Vec<_> = std::fs::read_dir(&dir.0)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert!(
        !names
            .iter()
            .any(|n| n.contains(&format!(".tmp-{}", std::process::id()))),
        "{names:?}"
    );
}

#[test]
fn the_plan_saves_while_the_search_runs() {
    let dir = Folder::new("plan");
    let path = dir.file("p.ckpt");
    let line = Line::new();
    // 4x4, Black at komi 1.5: about 70,000 expansions, past the first progress point.
    let mut s = solver(4, 4, 64, 0);
    let id = s.checkpoint_identity(&line, "prove black 1.5");
    // Due at once: the first thread saves at its first progress point (2^16 expansions).
    let plan = Arc::new(Checkpoint::new(path.clone(), id.clone(), Duration::ZERO));
    s.config_mut().checkpoint = Some(plan.clone());
    let p = s.prove(&line, Player::Black, Komi::from_half_points(3));
    assert_eq!(p.answer, Answer::Proven);
    assert!(p.expansions >= 1 << 16, "{} expansions", p.expansions);
    let (age, last) = plan.last();
    let Some(Ok(info)) = last else {
        panic!("no save while searching: {last:?}")
    };
    assert!(info.proofs > 0 && age < 60.0, "{info:?}");
    let mut t = solver(4, 4, 64, 0);
    assert_eq!(t.load_checkpoint(&path, &id).unwrap().proofs, info.proofs);
}
