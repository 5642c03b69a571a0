#!/bin/sh
# Regenerates the sample files of the learned prior (docs/log/2026-12-06-bench-boards.md):
#   data/prior/train/NAME.tsv    boards and positions outside `tsumi bench --boards all`
#   data/prior/heldout/NAME.tsv  the boards of `tsumi bench --boards standard`
# Each file holds the samples (every 8th stored proof: 1 or 0 for "the mover won", then the
# features) of the two deciding questions of one board or position, Black at v - 1/2 and
# White at v + 1/2, asked in turn from empty 1 GiB tables with `--prior learned` (the built-in
# weights of the binary), one thread. The search is deterministic: the same binary writes the
# same files. The values v are published (data/go-psk-values.tsv), from the Sanko paper's text
# (1x10 +1, 1x11 +2), or measured by `tsumi solve go 4x5 --moves M`.
# Usage, from the repository root: sh data/prior/samples.sh [TSUMI] [train|heldout|all]
set -eu
T=${1:-target/release/tsumi}
WHICH=${2:-all}
one() { # dir name board moves v(black komi) (white komi)
    [ "$WHICH" = all ] || [ "$WHICH" = "$1" ] || return 0
    mkdir -p "data/prior/$1"
    out="data/prior/$1/$2.tsv"
    rm -f "$out"
    for q in "black $5" "white $6"; do
        w=${q% *}
        k=${q#* }
        if [ "$4" = - ]; then mv=""; else mv="--moves $4"; fi
        # shellcheck disable=SC2086
        "$T" prove go "$3" $mv --komi="$k" --winner "$w" --prior learned --tt-mib 1024 \
            --samples "$out" >/dev/null 2>&1
    done
    printf '%s\t%s samples\n' "$out" "$(wc -l < "$out")"
}
# Training: whole boards outside the bench, and 4x5 after fixed opening moves.
one train 2x3 2x3 - -0.5 0.5
one train 2x5 2x5 - 9.5 10.5
one train 1x5 1x5 - -0.5 0.5
one train 1x6 1x6 - 0.5 1.5
one train 1x10 1x10 - 0.5 1.5
one train 1x11 1x11 - 1.5 2.5
one train 4x5-C2-C3 4x5 C2,C3 19.5 20.5
one train 4x5-B2-C3 4x5 B2,C3 2.5 3.5
one train 4x5-B2-C3-C2-D3 4x5 B2,C3,C2,D3 0.5 1.5
one train 4x5-C2-B3-C3-D2 4x5 C2,B3,C3,D2 19.5 20.5
one train 4x5-B2-C2-B3-C3 4x5 B2,C2,B3,C3 -2.5 -1.5
one train 4x5-B1-C2-C3-B3 4x5 B1,C2,C3,B3 -1.5 -0.5
one train 4x5-A2-C3-C2-B3 4x5 A2,C3,C2,B3 -1.5 -0.5
# Held out: the standard bench boards.
one heldout 2x2 2x2 - 0.5 1.5
one heldout 3x3 3x3 - 8.5 9.5
one heldout 1x7 1x7 - 1.5 2.5
one heldout 2x4 2x4 - 7.5 8.5
one heldout 3x4 3x4 - 3.5 4.5
one heldout 1x8 1x8 - 2.5 3.5
one heldout 1x9 1x9 - -0.5 0.5
one heldout 2x6 2x6 - 11.5 12.5
one heldout 3x5 3x5 - 14.5 15.5
one heldout 4x4 4x4 - 1.5 2.5
