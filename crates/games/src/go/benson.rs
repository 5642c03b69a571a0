//! Benson's unconditional life (D. B. Benson, "Life in the game of Go", Information Sciences
//! 10, 1976): the blocks of one colour that the opponent cannot capture even if their owner
//! passes every move.
//!
//! For colour `c`: let X be the blocks of `c` and R the *regions*, the maximal connected sets
//! of points not holding a `c` stone (empty points and opponent stones). A region is *vital*
//! to a block when every empty point of the region is a liberty of that block. Repeat until
//! nothing changes:
//! 1. remove from X every block with fewer than two vital regions left in R;
//! 2. remove from R every region that touches a block no longer in X.
//!
//! The blocks left in X are unconditionally alive.

use super::board::Board;
use super::point::Point;
use crate::Player;

/// Whether the block of `colour` through `p` is unconditionally alive by Benson's test.
///
/// # Panics
/// If `p` does not hold a stone of `colour`.
#[must_use]
pub fn unconditionally_alive(board: &Board, colour: Player, p: Point) -> bool {
    assert_eq!(board.get(p), Some(colour), "no {colour} stone at {p}");
    let alive = alive_blocks(board, colour);
    alive[board.size().index(p)]
}

/// A quick necessary condition for [`unconditionally_alive`] of the block through `p`: at
/// least two regions next to it whose empty points are all its liberties (each region is
/// flooded only until an empty point that is not a liberty shows it is not vital).
///
/// # Panics
/// If `p` is empty.
#[must_use]
pub fn may_be_alive(board: &Board, p: Point) -> bool {
    let size = board.size();
    let colour = board.get(p).expect("a stone");
    let (chain, _) = board.chain(p);
    let n = size.points();
    let mut in_block = vec![false; n];
    for &q in &chain {
        in_block[size.index(q)] = true;
    }
    let is_liberty = |q: Point| size.neighbours(q).any(|nb| in_block[size.index(nb)]);
    let mut seen = vec![false; n];
    let mut vital = 0;
    let mut stack = Vec::new();
    for &q in &chain {
        for start in size.neighbours(q) {
            let si = size.index(start);
            if seen[si] || board.get(start) == Some(colour) {
                continue;
            }
            seen[si] = true;
            stack.clear();
            stack.push(start);
            let mut ok = true;
            while let Some(x) = stack.pop() {
                if board.get(x).is_none() && !is_liberty(x) {
                    ok = false;
                    break;
                }
                for nb in size.neighbours(x) {
                    let k = size.index(nb);
                    if !seen[k] && board.get(nb) != Some(colour) {
                        seen[k] = true;
                        stack.push(nb);
                    }
                }
            }
            if ok {
                vital += 1;
                if vital >= 2 {
                    return true;
                }
            }
        }
    }
    false
}

/// Per point (index order): whether it holds a `colour` stone of an unconditionally alive
/// block.
#[must_use]
pub fn alive_blocks(board: &Board, colour: Player) -> Vec<bool> {
    let size = board.size();
    let n = size.points();
    const NONE: usize = usize::MAX;
    // Label blocks and regions.
    let mut block = vec![NONE; n];
    let mut region = vec![NONE; n];
    let (mut blocks, mut regions) = (0usize, 0usize);
    let mut stack = Vec::new();
    for i in 0..n {
        let mine = board.get(size.point_at(i)) == Some(colour);
        let (labels, count) = if mine {
            (&mut block, &mut blocks)
        } else {
            (&mut region, &mut regions)
        };
        if labels[i] != NONE {
            continue;
        }
        labels[i] = *count;
        stack.push(i);
        while let Some(j) = stack.pop() {
            for nb in size.neighbours(size.point_at(j)) {
                let k = size.index(nb);
                if (board.get(nb) == Some(colour)) == mine && labels[k] == NONE {
                    labels[k] = *count;
                    stack.push(k);
                }
            }
        }
        *count += 1;
    }
    // For each region: the blocks it touches, and the blocks to which it is vital.
    let mut touches: Vec<Vec<usize>> = vec![Vec::new(); regions];
    let mut vital_to: Vec<Vec<usize>> = vec![Vec::new(); regions];
    for i in 0..n {
        if region[i] == NONE {
            continue;
        }
        for nb in size.neighbours(size.point_at(i)) {
            let b = block[size.index(nb)];
            if b != NONE && !touches[region[i]].contains(&b) {
                touches[region[i]].push(b);
            }
        }
    }
    for (r, t) in touches.iter().enumerate() {
        for &b in t {
            let vital = (0..n).all(|i| {
                region[i] != r
                    || board.get(size.point_at(i)).is_some()
                    || size
                        .neighbours(size.point_at(i))
                        .any(|nb| block[size.index(nb)] == b)
            });
            if vital {
                vital_to[r].push(b);
            }
        }
    }
    let mut block_in = vec![true; blocks];
    let mut region_in = vec![true; regions];
    loop {
        let mut changed = false;
        let mut vital_count = vec![0u32; blocks];
        for r in (0..regions).filter(|&r| region_in[r]) {
            for &b in &vital_to[r] {
                vital_count[b] += 1;
            }
        }
        for b in 0..blocks {
            if block_in[b] && vital_count[b] < 2 {
                block_in[b] = false;
                changed = true;
            }
        }
        for r in 0..regions {
            if region_in[r] && touches[r].iter().any(|&b| !block_in[b]) {
                region_in[r] = false;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    (0..n)
        .map(|i| block[i] != NONE && block_in[block[i]])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn alive(drawing: &str, colour: Player, p: &str) -> bool {
        let board = Board::from_ascii(drawing).unwrap();
        let p = board.size().parse_point(p).unwrap();
        unconditionally_alive(&board, colour, p)
    }

    #[test]
    fn two_separate_eyes_live() {
        assert!(alive("X.X.X/XXXXX/...../...../.....", Player::Black, "A4"));
        // The same wall with its eyes filled by Black is one block with no vital region.
        assert!(!alive("XXXXX/XXXXX/...../...../.....", Player::Black, "A4"));
    }

    #[test]
    fn one_eye_is_not_enough() {
        assert!(!alive("X...X/XXXXX/...../...../.....", Player::Black, "A4"));
    }

    #[test]
    fn eyes_with_opponent_stones_and_large_eyes() {
        // A region holding a White stone is vital when its empty points are all liberties.
        assert!(alive("XO.X.X/XXXXXX/....../......", Player::Black, "A3"));
        // A large eye whose centre is not a liberty is not vital.
        assert!(!alive("XXXXX/X...X/X...X/X...X/XXXXX", Player::Black, "A1"));
    }
}
