use crate::board::Bitboard;

use super::Table;
use super::direct::Direct;
use super::entry::{PackedAttrs, StoredTargets};
use super::query::{Found, NodeKey, Probe, StoreKind};
use super::stats::TableStats;
use super::{pack_pair, unpack_pair};
use games::Player;
use std::sync::atomic::Ordering::Relaxed;

fn key(k: u64, s1: u64, s2: u64) -> NodeKey {
    NodeKey {
        key: k,
        pos2: k.rotate_left(7) ^ 0x55,
        sig1: s1,
        sig2: s2,
        sym: 0,
    }
}

fn probe(t: &mut Table, k: &NodeKey, mover: Player, komi2: i32) -> Probe {
    t.probe(
        k,
        mover,
        komi2,
        true,
        true,
        &mut TableStats::default(),
        |_, _| true,
    )
}

fn store(
    t: &Table,
    k: &NodeKey,
    mover: Player,
    komi2: i32,
    what: StoreKind,
    best: u8,
    effort: u64,
) {
    t.store(
        k,
        mover,
        komi2,
        what,
        best,
        effort,
        &mut TableStats::default(),
    );
}

const A: PackedAttrs = PackedAttrs::LEAF;

#[test]
fn a_forgetting_journal_empties_every_slot_stored_to_while_open() {
    let mut t = Table::new(1);
    let mut stats = TableStats::default();
    let before = key(10, 1, 1);
    let unproven = |pn, dn| StoreKind::Unproven(pn, dn);
    t.store(&before, Player::Black, 1, unproven(3, 4), 0, 5, &mut stats);
    t.open_journal();
    let (a, b) = (key(11, 2, 2), key(12, 3, 3));
    t.store(&a, Player::Black, 1, unproven(5, 6), 0, 5, &mut stats);
    t.store(&b, Player::White, 1, unproven(7, 8), 0, 5, &mut stats);
    t.store(
        &b,
        Player::White,
        1,
        StoreKind::PositionProof(true, A),
        2,
        9,
        &mut stats,
    );
    assert_eq!(
        (stats.used, stats.proven_used, stats.transferable_used),
        (3, 1, 1)
    );
    // a's numbers and b's position proof (which emptied b's path numbers when stored).
    assert_eq!(t.close_journal(true, &mut stats), 2);
    assert_eq!(
        (stats.used, stats.proven_used, stats.transferable_used),
        (1, 0, 0)
    );
    assert_eq!(probe(&mut t, &a, Player::Black, 1), Probe::Miss);
    assert_eq!(probe(&mut t, &b, Player::White, 1), Probe::Miss);
    // Stored before the journal opened: kept.
    assert!(matches!(
        probe(&mut t, &before, Player::Black, 1),
        Probe::Unproven { pn: 3, dn: 4, .. }
    ));
    // A journal closed without forgetting, or none open, empties nothing.
    t.open_journal();
    t.store(&a, Player::Black, 1, unproven(5, 6), 0, 5, &mut stats);
    assert_eq!(t.close_journal(false, &mut stats), 0);
    assert_eq!(t.close_journal(true, &mut stats), 0);
    assert!(matches!(
        probe(&mut t, &a, Player::Black, 1),
        Probe::Unproven { pn: 5, dn: 6, .. }
    ));
}

#[test]
fn path_proofs_need_all_three_words() {
    let mut t = Table::new(1);
    let a = key(1, 2, 3);
    store(
        &t,
        &a,
        Player::Black,
        1,
        StoreKind::PathProof(true, A),
        7,
        10,
    );
    let Probe::Proven(f) = probe(&mut t, &a, Player::Black, 1) else {
        panic!("no proof")
    };
    assert!(f.mover_wins && f.best == 7 && !f.needs_test);
    assert_eq!(probe(&mut t, &key(1, 2, 4), Player::Black, 1), Probe::Miss);
    assert_eq!(probe(&mut t, &key(1, 5, 3), Player::Black, 1), Probe::Miss);
    assert_eq!(probe(&mut t, &key(9, 2, 3), Player::Black, 1), Probe::Miss);
}

#[test]
fn position_proofs_go_through_the_transfer_test_in_other_games() {
    let mut t = Table::new(1);
    let a = key(1, 2, 3);
    store(
        &t,
        &a,
        Player::White,
        5,
        StoreKind::PositionProof(false, A),
        3,
        10,
    );
    // The identical game: no test.
    let r = t.probe(
        &a,
        Player::White,
        5,
        true,
        true,
        &mut TableStats::default(),
        |_, _| panic!("tested"),
    );
    assert!(matches!(
        r,
        Probe::Proven(Found {
            needs_test: false,
            mover_wins: false,
            ..
        })
    ));
    // Another game: the test decides, and is told whether the mover wins.
    let other = key(1, 8, 9);
    let mut told = None;
    let r = t.probe(
        &other,
        Player::White,
        5,
        true,
        true,
        &mut TableStats::default(),
        |_, w| {
            told = Some(w);
            false
        },
    );
    assert_eq!((r, told), (Probe::Miss, Some(false)));
    let r = t.probe(
        &other,
        Player::White,
        5,
        true,
        true,
        &mut TableStats::default(),
        |_, _| true,
    );
    assert!(matches!(
        r,
        Probe::Proven(Found {
            needs_test: true,
            ..
        })
    ));
    // Transfer off: position entries are not consulted.
    assert_eq!(
        t.probe(
            &other,
            Player::White,
            5,
            true,
            false,
            &mut TableStats::default(),
            |_, _| true
        ),
        Probe::Miss
    );
    // The second position hash must match too.
    let mut wrong = other;
    wrong.pos2 ^= 1;
    assert_eq!(probe(&mut t, &wrong, Player::White, 5), Probe::Miss);
}

/// Stores a proof of `k` with `what` (Black to move, komi 1.5) and reads its attributes
/// back through the probe of `read`.
fn round_trip(t: &mut Table, k: &NodeKey, what: StoreKind, read: &NodeKey) -> PackedAttrs {
    store(t, k, Player::Black, 3, what, 1, 1);
    let Probe::Proven(f) = probe(t, read, Player::Black, 3) else {
        panic!("no proof")
    };
    f.attrs
}

#[test]
fn attributes_round_trip() {
    let mut t = Table::new(1);
    let a = key(4, 5, 6);
    let attrs = PackedAttrs {
        bloom: 0xF0F0,
        common: pack_pair(Bitboard(0b101), Bitboard(0b1000)),
        territory: 0b11_0000,
        min_stones: 4,
        targets: StoredTargets::One(pack_pair(Bitboard(1), Bitboard(2))),
    };
    assert_eq!(
        round_trip(&mut t, &a, StoreKind::PathProof(false, attrs), &a),
        attrs
    );
    let many = PackedAttrs {
        targets: StoredTargets::Many,
        ..attrs
    };
    assert_eq!(
        round_trip(&mut t, &a, StoreKind::PathProof(false, many), &a),
        many
    );
    let plain = PackedAttrs {
        targets: StoredTargets::None,
        ..attrs
    };
    let (b, other_game) = (key(7, 5, 6), key(7, 0, 0));
    let got = round_trip(
        &mut t,
        &b,
        StoreKind::PositionProof(true, plain),
        &other_game,
    );
    assert_eq!(got, plain);
    assert_eq!(
        unpack_pair(pack_pair(Bitboard(7), Bitboard(9))),
        (Bitboard(7), Bitboard(9))
    );
}

#[test]
fn proofs_are_monotone_in_komi() {
    let mut t = Table::new(1);
    let a = key(10, 20, 30);
    // Black to move wins at komi 3.5 (7 half-points): also at lower komi.
    store(
        &t,
        &a,
        Player::Black,
        7,
        StoreKind::PathProof(true, A),
        1,
        1,
    );
    assert!(matches!(
        probe(&mut t, &a, Player::Black, 5),
        Probe::Proven(Found {
            mover_wins: true,
            ..
        })
    ));
    assert_eq!(probe(&mut t, &a, Player::Black, 9), Probe::Miss);
    // White to move loses at komi 3.5: Black wins, also at lower komi.
    let b = key(11, 21, 31);
    store(
        &t,
        &b,
        Player::White,
        7,
        StoreKind::PositionProof(false, A),
        1,
        1,
    );
    assert!(matches!(
        probe(&mut t, &b, Player::White, 3),
        Probe::Proven(Found {
            mover_wins: false,
            ..
        })
    ));
    assert_eq!(probe(&mut t, &b, Player::White, 9), Probe::Miss);
}

#[test]
fn unproven_numbers_are_never_zero_or_infinite_and_make_way_for_proofs() {
    let mut t = Table::new(1);
    let a = key(1, 1, 1);
    let mut stats = TableStats::default();
    t.store(
        &a,
        Player::Black,
        1,
        StoreKind::Unproven(5, 6),
        0,
        1,
        &mut stats,
    );
    assert_eq!(
        probe(&mut t, &a, Player::Black, 1),
        Probe::Unproven {
            pn: 5,
            dn: 6,
            best: 0,
            effort: 1
        }
    );
    assert_eq!(
        probe(&mut t, &a, Player::Black, 3),
        Probe::Miss,
        "numbers are per komi"
    );
    assert!(t.seen(&a));
    t.store(
        &a,
        Player::Black,
        1,
        StoreKind::PositionProof(true, A),
        0,
        2,
        &mut stats,
    );
    assert!(!t.seen(&a), "the unproven path entry is removed");
    assert_eq!(stats.settled().used, 1);
}

#[test]
fn unproven_numbers_never_replace_a_proof_of_the_same_node() {
    let t = Table::new(1);
    let a = key(3, 4, 5);
    store(
        &t,
        &a,
        Player::Black,
        1,
        StoreKind::PathProof(true, A),
        2,
        9,
    );
    // Another thread leaves the node with numbers after it was proven.
    store(&t, &a, Player::Black, 1, StoreKind::Unproven(5, 6), 0, 3);
    let mut stats = TableStats::default();
    let r = t.probe(&a, Player::Black, 1, true, true, &mut stats, |_, _| true);
    assert!(matches!(
        r,
        Probe::Proven(Found {
            mover_wins: true,
            ..
        })
    ));
}

/// Shared numbers at another komi: returned only with cross-komi numbers on, only when
/// the asked komi has none of its own, counted apart, and never as a proof; a proof of
/// the position still comes first.
#[test]
fn cross_komi_numbers_are_the_fallback_of_shared_ones() {
    for cross in [false, true] {
        let mut t = Table::new(1);
        t.set_share_unproven(true);
        t.set_cross_komi(cross);
        assert_eq!(t.cross_komi(), cross);
        let a = key(31, 32, 33);
        // Searched at komi 3 (half-points) along one history.
        store(&t, &a, Player::Black, 3, StoreKind::Unproven(5, 6), 4, 20);
        // Asked at komi 5 along another history of the same position.
        let other = key(31, 40, 41);
        let mut stats = TableStats::default();
        let r = t.probe(&other, Player::Black, 5, true, true, &mut stats, |_, _| {
            true
        });
        if cross {
            assert_eq!(
                r,
                Probe::Unproven {
                    pn: 5,
                    dn: 6,
                    best: 4,
                    effort: 20
                }
            );
            assert_eq!((stats.unproven_hits, stats.cross_komi_hits), (1, 1));
        } else {
            assert_eq!(r, Probe::Miss);
            assert_eq!((stats.unproven_hits, stats.cross_komi_hits), (0, 0));
        }
        // The komi's own numbers are preferred, and are not counted as another komi's.
        store(
            &t,
            &other,
            Player::Black,
            5,
            StoreKind::Unproven(50, 60),
            2,
            30,
        );
        let mut stats = TableStats::default();
        let r = t.probe(&a, Player::Black, 5, true, true, &mut stats, |_, _| true);
        assert!(matches!(r, Probe::Unproven { pn: 50, dn: 60, .. }));
        assert_eq!(stats.cross_komi_hits, 0);
        // A different position never lends its numbers.
        assert_eq!(
            probe(&mut t, &key(99, 32, 33), Player::Black, 3),
            Probe::Miss
        );
        // A transferable proof at komi 5 replaces the shared numbers there: it answers
        // komi 5, and lends no numbers to komi 7 (Black's win at 5 says nothing there).
        store(
            &t,
            &a,
            Player::Black,
            5,
            StoreKind::PositionProof(true, A),
            1,
            40,
        );
        assert_eq!(probe(&mut t, &other, Player::Black, 7), Probe::Miss);
        assert!(matches!(
            probe(&mut t, &other, Player::Black, 5),
            Probe::Proven(Found {
                mover_wins: true,
                ..
            })
        ));
    }
}

/// Two entries written word by word into one slot, interleaved in every way a reader
/// can see them: every mixture of their words is rejected by the seal, and each whole
/// entry is read back.
#[test]
fn every_mixture_of_two_writes_reads_as_a_miss() {
    let k = key(21, 22, 23);
    let attrs = PackedAttrs {
        bloom: 0xFEED,
        common: pack_pair(Bitboard(0b11), Bitboard(0b100)),
        territory: 0b1000,
        min_stones: 3,
        targets: StoredTargets::One(pack_pair(Bitboard(1), Bitboard(8))),
    };
    let entries = [
        (StoreKind::PathProof(true, attrs), 1, 7u8),
        (StoreKind::Unproven(40, 2), 3, 9u8),
    ];
    // The eight words of each entry as the slot holds them.
    let words_of = |what: StoreKind, komi2: i32, best: u8| {
        let t = Table::new(1);
        store(&t, &k, Player::White, komi2, what, best, 5);
        let b = &t.buckets[t.path_bucket(&k)];
        let i = (0..4).find(|&i| b.has_key(i, k.key)).unwrap();
        let mut w = [
            b.key[i].load(Relaxed),
            b.meta[i].load(Relaxed),
            0,
            0,
            0,
            0,
            0,
            0,
        ];
        for j in 0..6 {
            w[2 + j] = b.body[i][j].load(Relaxed);
        }
        w
    };
    let a = words_of(entries[0].0, entries[0].1, entries[0].2);
    let b = words_of(entries[1].0, entries[1].1, entries[1].2);
    let t = Table::new(1);
    let bucket = &t.buckets[0];
    let mut rejected = 0;
    for mask in 0u32..256 {
        for j in 0..8 {
            let w = if mask & 1 << j != 0 { b[j] } else { a[j] };
            match j {
                0 => bucket.key[0].store(w, Relaxed),
                1 => bucket.meta[0].store(w, Relaxed),
                _ => bucket.body[0][j - 2].store(w, Relaxed),
            }
        }
        let got = bucket.get(0);
        // Words the two entries share (the key, the signatures) can come from either.
        let same_as_a = (0..8).all(|j| mask & 1 << j == 0 || a[j] == b[j]);
        let same_as_b = (0..8).all(|j| mask & 1 << j != 0 || a[j] == b[j]);
        if same_as_a || same_as_b {
            assert!(got.is_some(), "a whole entry is read back (mask {mask:#b})");
        } else {
            assert_eq!(got, None, "a mixture reads as a miss (mask {mask:#b})");
            rejected += 1;
        }
    }
    assert!(rejected > 200, "{rejected} mixtures");
}

#[test]
fn tables_written_by_several_threads_are_whole_and_empty() {
    // 3 MiB = 12,288 buckets: five writers leave an uneven last share.
    for writers in [1, 2, 5, 64] {
        let t = Table::with_writers(3, writers);
        assert_eq!(t.capacity(), Table::new(3).capacity(), "{writers} writers");
        for b in &t.buckets {
            for i in 0..4 {
                assert_eq!(b.key[i].load(Relaxed), 0);
                assert_eq!(b.meta[i].load(Relaxed), 0);
                assert!(b.body[i].iter().all(|w| w.load(Relaxed) == 0));
            }
        }
    }
    assert_eq!(
        Table::with_writers(0, 8).capacity(),
        Table::new(0).capacity()
    );
}

#[test]
fn resident_size_matches() {
    let t = Table::new(3);
    assert!(t.bytes() <= 3 << 20 && t.bytes() > (3 << 20) - 256);
}
