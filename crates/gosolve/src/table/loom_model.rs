use super::direct::Direct;
use super::entry::*;
use super::query::*;
use super::stats::*;
use super::*;
use games::Player;
use loom::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};

fn model(f: impl Fn() + Sync + Send + 'static) {
    let mut b = loom::model::Builder::new();
    b.preemption_bound = Some(3);
    b.check(f);
}

fn entry(key: u64, state: u8, a: u64, komi2: i16, best: u8) -> Entry {
    Entry {
        key,
        sig1: key ^ 0x1111,
        sig2: key ^ 0x2222,
        word_a: a,
        word_b: a.rotate_left(17),
        word_c: (3 << 32) | 0b1010,
        word_d: a ^ 0x5555,
        effort: 9,
        komi2,
        best,
        flags: state,
    }
}

fn key(k: u64) -> NodeKey {
    NodeKey {
        key: k,
        pos2: k.rotate_left(7) ^ 0x55,
        sig1: k ^ 3,
        sig2: k ^ 4,
        sym: 0,
    }
}

#[test]
fn loom_a_read_during_a_write_sees_the_old_entry_the_new_one_or_a_miss() {
    static TORN: AtomicUsize = AtomicUsize::new(0);
    model(|| {
        let b = Arc::new(Bucket::default());
        let (e0, e1) = (
            entry(7, WIN, 0xAAAA, 1, 3),
            entry(7, UNPROVEN, 0xBBBB, 5, 4),
        );
        b.set(0, &e0, false);
        let w = {
            let b = Arc::clone(&b);
            loom::thread::spawn(move || b.set(0, &e1, false))
        };
        let got = b.get(0);
        assert!(
            got.is_none() || got == Some(e0) || got == Some(e1),
            "a read during a write is a miss or a whole entry: {got:?}"
        );
        if got.is_none() {
            TORN.fetch_add(1, SeqCst);
        }
        w.join().unwrap();
        assert_eq!(b.get(0), Some(e1), "after the write the slot holds it");
    });
    assert!(
        TORN.load(SeqCst) > 0,
        "the model never produced a torn read, so it did not test the seal"
    );
}

#[test]
fn loom_two_writes_at_once_leave_one_whole_entry_or_a_torn_slot() {
    static TORN: AtomicUsize = AtomicUsize::new(0);
    model(|| {
        let b = Arc::new(Bucket::default());
        let (e1, e2) = (entry(7, WIN, 0xAAAA, 1, 3), entry(7, LOSS, 0xBBBB, 5, 4));
        let w = {
            let b = Arc::clone(&b);
            loom::thread::spawn(move || b.set(0, &e1, false))
        };
        b.set(0, &e2, false);
        w.join().unwrap();
        let last = b.get(0);
        assert!(
            last.is_none() || last == Some(e1) || last == Some(e2),
            "after both writes the slot holds one of them or reads torn: {last:?}"
        );
        if last.is_none() {
            TORN.fetch_add(1, SeqCst);
        }
    });
    assert!(
        TORN.load(SeqCst) > 0,
        "the model never interleaved the two writes, so it did not test the seal"
    );
}

#[test]
fn loom_a_probe_during_a_store_returns_what_was_stored_for_its_key_or_a_miss() {
    model(|| {
        let t = Arc::new(Table::new(0)); // one bucket: every entry collides
        let attrs = PackedAttrs::LEAF;
        let (ka, kb) = (key(40), key(41));
        let s = &mut TableStats::default();
        t.store(
            &kb,
            Player::Black,
            1,
            StoreKind::PathProof(false, attrs),
            9,
            5,
            s,
        );
        let w = {
            let t = Arc::clone(&t);
            loom::thread::spawn(move || {
                let s = &mut TableStats::default();
                t.store(
                    &ka,
                    Player::Black,
                    1,
                    StoreKind::PathProof(true, attrs),
                    7,
                    5,
                    s,
                );
            })
        };
        let check = |k: &NodeKey, wins: bool, best: u8, must: bool| {
            let s = &mut TableStats::default();
            match t.probe(k, Player::Black, 1, true, true, s, |_, _| true) {
                Probe::Miss => assert!(!must, "key {}'s proof was lost", k.key),
                Probe::Proven(f) => assert!(
                    f.mover_wins == wins && f.best == best,
                    "key {} read another entry's proof: {f:?}",
                    k.key
                ),
                other => panic!("key {} read numbers nobody stored: {other:?}", k.key),
            }
        };
        check(&ka, true, 7, false);
        check(&kb, false, 9, true);
        w.join().unwrap();
        check(&ka, true, 7, true);
        check(&kb, false, 9, true);
    });
}
