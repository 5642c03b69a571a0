#!/usr/bin/env bash
# The results manifest (data/results-manifest.tsv): every Go value tsumi claims, one row per
# deciding proof (Black at value - 1/2, White at value + 1/2), with the exact command, the
# version that ran it, its expansions and time, and the certificate's node count, size and
# SHA-256. Certificates live outside the repository; this script makes them again.
#
#   scripts/manifest.sh check ROW...   make each proof of ROW again, check its certificate
#                                      with `tsumi check`, and compare expansions, nodes,
#                                      size and SHA-256 with the manifest (exit 1 on a
#                                      difference, a refused certificate or a failed run)
#   scripts/manifest.sh fill ROW...    make them again and print the rows as measured now
#                                      (to replace the manifest's rows after a change)
#   scripts/manifest.sh list           the rows: board, winner, komi, whether a hash is kept
#
# ROW: a board (4x4: both proofs), or board:winner (4x4:black). Environment: TSUMI, the
# binary (default target/release/tsumi); CERT_DIR, where the certificates are written
# (default: a temporary directory, removed at the end).
#
# A row's command is run as written (its first word, tsumi, replaced by $TSUMI) in CERT_DIR.
# Expansions, nodes and the hash are exact for one thread and a fixed --tt-mib, so a row
# reproduces on the version it names; a later change of the search gives other figures (the
# claim must still be certified: `check` then reports which figures moved).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
manifest="$root/data/results-manifest.tsv"
tsumi=${TSUMI:-$root/target/release/tsumi}

usage() {
    sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

[ $# -ge 1 ] || usage
mode=$1
shift
case $mode in
check | fill) [ $# -ge 1 ] || usage ;;
list) ;;
*) usage ;;
esac

# The manifest's data rows (no comments, no header).
rows() { grep -v '^#' "$manifest" | tail -n +2; }

if [ "$mode" = list ]; then
    rows | awk -F'\t' '{ printf "%s\t%s\t%s\t%s\n", $1, $3, $4, ($10 == "" ? "no certificate kept: " $13 : $10) }'
    exit 0
fi

[ -x "$tsumi" ] || {
    echo "manifest: no tsumi binary at $tsumi (build it or set TSUMI)" >&2
    exit 2
}
if [ -n "${CERT_DIR:-}" ]; then
    dir=$CERT_DIR
    mkdir -p "$dir"
else
    dir=$(mktemp -d)
    trap 'rm -rf "$dir"' EXIT
fi
version="$("$tsumi" --version | awk '{ print $2 }')+$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
if ! git -C "$root" diff --quiet HEAD 2>/dev/null; then
    version="$version-dirty"
fi

status=0
for want in "$@"; do
    board=${want%%:*}
    side=""
    [ "$want" != "$board" ] && side=${want#*:}
    matched=0
    while IFS=$'\037' read -r r_board r_value r_winner r_komi r_tt r_exp r_time r_nodes r_bytes r_sha r_version r_command r_note; do
        [ "$r_board" = "$board" ] || continue
        [ -z "$side" ] || [ "$side" = "$r_winner" ] || continue
        matched=1
        read -ra words <<<"$r_command"
        if [ "${words[0]}" != tsumi ]; then
            echo "$want: the row's command does not start with tsumi: $r_command" >&2
            status=1
            continue
        fi
        cert=""
        for ((i = 0; i < ${#words[@]}; i++)); do
            [ "${words[$i]}" = --certificate ] && cert=${words[$((i + 1))]}
        done
        if [ -z "$cert" ]; then
            echo "$want: the row's command writes no certificate: $r_command" >&2
            status=1
            continue
        fi
        rm -f "$dir/$cert"
        out=$( (cd "$dir" && "$tsumi" "${words[@]:1}") 2>"$dir/$cert.log") || {
            echo "$board $r_winner $r_komi: the command failed (log: $dir/$cert.log)" >&2
            status=1
            continue
        }
        exp=$(awk '$1 == "expansions:" { print $2 }' <<<"$out")
        secs=$(awk '$1 == "time_s:" { print $2 }' <<<"$out")
        checked=$("$tsumi" check "$dir/$cert") || {
            echo "$board $r_winner $r_komi: tsumi check refused the certificate:" >&2
            echo "$checked" >&2
            status=1
            continue
        }
        claim="valid: $r_winner wins at komi $r_komi from the empty $board board"
        if [ "$(head -1 <<<"$checked")" != "$claim" ]; then
            echo "$board $r_winner $r_komi: the certificate proves something else: $(head -1 <<<"$checked")" >&2
            status=1
            continue
        fi
        nodes=$(awk '$1 == "nodes:" { print $2 }' <<<"$checked")
        bytes=$(wc -c <"$dir/$cert" | tr -d ' ')
        sha=$(sha256sum "$dir/$cert" | awk '{ print $1 }')
        if [ "$mode" = fill ]; then
            printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$r_board" "$r_value" \
                "$r_winner" "$r_komi" "$r_tt" "$exp" "$secs" "$nodes" "$bytes" "$sha" "$version" \
                "$r_command" "$r_note"
            continue
        fi
        diffs=""
        [ "$exp" = "$r_exp" ] || diffs="$diffs expansions $exp (manifest $r_exp);"
        [ "$nodes" = "$r_nodes" ] || diffs="$diffs nodes $nodes (manifest $r_nodes);"
        [ "$bytes" = "$r_bytes" ] || diffs="$diffs bytes $bytes (manifest $r_bytes);"
        [ "$sha" = "$r_sha" ] || diffs="$diffs sha256 $sha (manifest ${r_sha:-none});"
        if [ -z "$diffs" ]; then
            echo "$board $r_winner $r_komi: reproduced and checked ($exp expansions, $nodes nodes, $bytes bytes, sha256 $sha, ${secs} s)"
        else
            echo "$board $r_winner $r_komi: checked, but differs from the manifest ($r_version):$diffs"
            status=1
        fi
    done < <(rows | tr '\t' '\037')
    if [ $matched = 0 ]; then
        echo "$want: no such row in $manifest" >&2
        status=1
    fi
done
exit $status
