"""The Python module against published values (data/go-psk-values.tsv: 3x3 +9 from the
centre, +3 from a side, -9 from a corner; 2x2 +1 under positional superko; 1x7 +2), the
checked principal variations, single proofs, the live analysis, the Monte Carlo players,
bad input as ValueError, searches in parallel threads (the GIL is released), and proof
certificates written and checked by the independent checker."""

import pathlib
import threading

import pytest

import tsumi


def test_3x3_value_and_principal_variation():
    p = tsumi.Position(3, 3, komi=7.5)
    s = tsumi.solve(p, budget=200_000)
    assert s.value == 9 and s.lower == 9 and s.upper == 9
    assert s.pv[0] == "B2"
    assert s.pv_checked
    # The PV replays to a finished game scored exactly the value.
    q = p
    for m in s.pv:
        q = q.play(m)
    assert q.is_over and q.area_margin() == 9


def test_published_values_of_small_boards_and_threads():
    assert tsumi.solve(tsumi.Position(2, 2)).value == 1
    assert tsumi.solve(tsumi.Position(1, 7), threads=2).value == 2


def test_positions_from_moves_and_sgf_agree():
    p = tsumi.Position(3, 3, moves=["B2", "A1"], komi=0.5)
    q = tsumi.Position.from_sgf("(;GM[1]SZ[3]KM[0.5];B[bb];W[ac])")
    assert p.to_move == q.to_move == "B"
    assert str(p) == str(q)
    assert tsumi.solve(p).value == tsumi.solve(q).value
    assert "pass" in p.legal_moves() and "B2" not in p.legal_moves()
    assert "SZ[3]" in p.to_sgf()


def test_single_proofs_and_budgets():
    p = tsumi.Position(3, 3)
    answer, best, expansions = tsumi.prove(p, komi=8.5, player="B")
    assert (answer, best) == (True, "B2") and expansions > 0
    answer, _, _ = tsumi.prove(p, komi=9.5, player="B")
    assert answer is False
    # A budget too small for 4x4 leaves the answer open.
    answer, _, expansions = tsumi.prove(tsumi.Position(4, 4), komi=1.5, budget=100)
    assert answer is None and expansions >= 100


def test_analysis_proves_every_move_with_its_exact_margin():
    moves = tsumi.analyze(tsumi.Position(3, 3, komi=7.5), playouts=100)
    assert len(moves) == 10
    published = {"B2": 9, "B1": 3, "A2": 3, "C2": 3, "B3": 3}
    for m in moves:
        if m.mv == "pass":
            continue
        v = published.get(m.mv, -9)
        assert m.value == v, m
        assert m.score_lead == v - 7.5
        assert m.win_rate == (1.0 if v > 7.5 else 0.0)
        assert m.pv[0] == m.mv and m.visits > 0
    assert moves[0].mv == "B2"


def test_monte_carlo_players():
    p = tsumi.Position(3, 3, komi=7.5)
    for algorithm in ["uct", "rave", "grave", "mcps"]:
        mv, w = tsumi.mcts_move(p, algorithm=algorithm, playouts=300, seed=2)
        assert mv in p.legal_moves()
        assert w is None or 0.0 <= w <= 1.0
    # Seeded: the same seed gives the same move.
    assert tsumi.mcts_move(p, playouts=200, seed=5) == tsumi.mcts_move(p, playouts=200, seed=5)


def test_bad_input_raises_value_error():
    with pytest.raises(ValueError):
        tsumi.Position(0, 3)
    with pytest.raises(ValueError):
        tsumi.Position(3, 3, moves=["B2", "B2"])
    with pytest.raises(ValueError):
        tsumi.Position(3, 3, komi=0.25)
    with pytest.raises(ValueError):
        tsumi.Position.from_sgf("(;GM[1]SZ[3];B[zz]")
    with pytest.raises(ValueError):
        tsumi.prove(tsumi.Position(3, 3), komi=1.0)
    with pytest.raises(ValueError):
        tsumi.solve(tsumi.Position(6, 6))
    with pytest.raises(ValueError):
        tsumi.mcts_move(tsumi.Position(3, 3), algorithm="alphazero")


def test_searches_run_in_parallel_threads():
    # The GIL is released while searching: four threads solve at once.
    values = []

    def work():
        values.append(tsumi.solve(tsumi.Position(2, 3, komi=0.5)).value)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert values == [0, 0, 0, 0]


def test_hex_prover():
    # Hex: the first player wins every n x n board (strategy stealing); the centre of 3x3
    # wins, and after it every White reply still loses.
    winner, pv = tsumi.hex_solve(3, 3)
    assert winner == "B" and len(pv) > 0
    winner, pv = tsumi.hex_solve(3, 3, moves=["b2"])
    assert winner == "B"
    assert len(set(pv)) == len(pv) and "b2" not in pv
    with pytest.raises(ValueError):
        tsumi.hex_solve(3, 3, moves=["z9"])
    with pytest.raises(ValueError):
        tsumi.hex_solve(3, 3, moves=["b2", "b2"])


# Certificates: written by the solver's writer (as `tsumi prove go --certificate`), checked
# by the independent checker (crates/check, as `tsumi check`). 3x3 is +9 and 3x4 is +4
# (data/go-psk-values.tsv), so Black wins 3x3 at komi 8.5 and 3x4 at komi 3.5.


@pytest.mark.parametrize("fmt", ["text", "compact"])
def test_certificates_written_and_checked(tmp_path, fmt):
    for rows, cols, komi in [(3, 3, 8.5), (3, 4, 3.5)]:
        path = tmp_path / f"black-{rows}x{cols}.cert"
        answer, _, _ = tsumi.prove(
            tsumi.Position(rows, cols), komi=komi, player="B", certificate=str(path),
            certificate_format=fmt,
        )
        assert answer is True
        r = tsumi.check_certificate(path)
        assert r.valid and bool(r), r.message
        assert r.error is None
        assert r.board == f"{rows}x{cols}" and (r.rows, r.cols) == (rows, cols)
        assert r.winner == "B" and r.komi == komi
        assert r.claim == f"black wins at komi {komi} from the empty {rows}x{cols} board"
        assert r.message == "valid: " + r.claim
        assert r.nodes > 0 and r.bytes == path.stat().st_size
        # Nothing is left behind but the certificate (the temporary file was renamed).
        assert [p.name for p in tmp_path.iterdir()] == [path.name]
        path.unlink()


def test_certificate_of_a_loss_proves_the_opponent_and_names_the_moves(tmp_path):
    # Black loses 3x3 at komi 9.5: the certificate is White's win. A position built by
    # moves is named by them.
    path = tmp_path / "white.cert"
    answer, _, _ = tsumi.prove(tsumi.Position(3, 3), komi=9.5, player="B", certificate=path)
    assert answer is False
    r = tsumi.check_certificate(str(path))
    assert r.valid and r.winner == "W" and r.komi == 9.5
    p = tsumi.Position(3, 3, moves=["B2", "A1"], komi=0.5)
    answer, _, _ = tsumi.prove(p, komi=8.5, player="B", certificate=path)
    assert answer is True
    r = tsumi.check_certificate(path)
    assert r.valid, r.message
    assert r.position == "3x3 after B2 A1, black to move"


def test_checker_accepts_the_certificates_of_the_command_line():
    # data/cert holds certificates written by `tsumi prove go --certificate`.
    data = pathlib.Path(__file__).resolve().parents[3] / "data" / "cert"
    for name, board, komi in [("3x3-black-8.5.cert", "3x3", 8.5), ("3x4-black-3.5.cert", "3x4", 3.5)]:
        r = tsumi.check_certificate(data / name)
        assert r.valid, r.message
        assert (r.board, r.winner, r.komi) == (board, "B", komi)


def test_damaged_certificates_are_rejected(tmp_path):
    path = tmp_path / "black-3x4.cert"
    tsumi.prove(tsumi.Position(3, 4), komi=3.5, certificate=path)
    data = path.read_bytes()
    assert tsumi.check_certificate(path).valid
    damaged = []
    # A claim of another komi: the proof no longer holds at the root.
    damaged.append(data.replace(b"komi 3.5", b"komi 4.5", 1))
    # Truncated: the trailer and the last nodes are missing.
    damaged.append(data[: len(data) // 2])
    damaged.append(data[: len(data) - 3])
    # Every byte of a node line flipped in turn would take long; one in each of a few
    # node lines, changed to another board letter or digit, is enough to fail.
    lines = data.split(b"\n")
    node = next(i for i, line in enumerate(lines) if line.startswith(b"- "))
    for i in [node, node + 1, node + len(lines) // 3, len(lines) - 3]:
        line = bytearray(lines[i])
        j = len(line) - 1
        line[j] = ord("7") if line[j] != ord("7") else ord("8")
        damaged.append(b"\n".join(lines[:i] + [bytes(line)] + lines[i + 1:]))
    damaged.append(b"")
    damaged.append(b"\x00\xff garbage\n")
    for k, d in enumerate(damaged):
        assert d != data
        bad = tmp_path / f"bad-{k}.cert"
        bad.write_bytes(d)
        r = tsumi.check_certificate(bad)
        assert not r.valid and not r, (k, r.message)
        assert r.error == r.message and r.error.split(":")[0] in (
            "invalid", "unreadable certificate", "not checked",
        ), r.error
        assert r.claim is None and r.winner is None and r.nodes == 0
        assert r.bytes == len(d)


def test_certificate_errors(tmp_path):
    p = tsumi.Position(3, 3)
    # No file to check.
    with pytest.raises(FileNotFoundError):
        tsumi.check_certificate(tmp_path / "missing.cert")
    with pytest.raises(IsADirectoryError):
        tsumi.check_certificate(tmp_path)
    with pytest.raises(OSError, match="not a regular file"):
        tsumi.check_certificate("/dev/null")
    # Bad paths are refused before the search.
    with pytest.raises(FileNotFoundError, match="cannot write certificate"):
        tsumi.prove(p, komi=8.5, certificate=tmp_path / "no" / "such" / "dir.cert")
    with pytest.raises(IsADirectoryError, match="is a directory"):
        tsumi.prove(p, komi=8.5, certificate=tmp_path)
    with pytest.raises(OSError, match="not a regular file"):
        tsumi.prove(p, komi=8.5, certificate="/dev/null")
    with pytest.raises(ValueError, match="certificate_format"):
        tsumi.prove(p, komi=8.5, certificate=tmp_path / "x.cert", certificate_format="json")
    # An answer left open by the budget has no proof to write: nothing is written, and an
    # older file at the path is kept.
    old = tmp_path / "old.cert"
    old.write_text("old\n")
    with pytest.raises(ValueError, match="no proof to write"):
        tsumi.prove(tsumi.Position(4, 4), komi=1.5, budget=100, certificate=old)
    assert old.read_text() == "old\n"
    assert sorted(x.name for x in tmp_path.iterdir()) == ["old.cert"]
