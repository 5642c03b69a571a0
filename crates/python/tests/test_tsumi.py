"""The Python module against published values (data/go-psk-values.tsv: 3x3 +9 from the
centre, +3 from a side, -9 from a corner; 2x2 +1 under positional superko; 1x7 +2), the
checked principal variations, single proofs, the live analysis, the Monte Carlo players,
bad input as ValueError, and searches in parallel threads (the GIL is released)."""

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
