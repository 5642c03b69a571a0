"""Measure a Monte Carlo agent's moves against the exact values: on a small board, the
agent (MCPS, a few hundred playouts) plays both sides; before each of its moves the
analysis proves the value after every legal move, and the script prints how many points
the agent's move gives away against the best move (0 for an optimal move).

    python agent_point_loss.py [ROWS COLS KOMI PLAYOUTS]
"""

import sys
import time

import tsumi

rows, cols, komi, playouts = 4, 4, 0.5, 300
if len(sys.argv) == 5:
    rows, cols, komi, playouts = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])

p = tsumi.Position(rows, cols, komi=komi)
lost = {"B": 0.0, "W": 0.0}
t0 = time.time()
ply = 0
while not p.is_over and ply < 4 * rows * cols:
    mover = p.to_move
    mv, _ = tsumi.mcts_move(p, algorithm="mcps", playouts=playouts, seed=ply + 1)
    # Every move proven (no work limit): values after each move, for the side to move.
    infos = {m.mv: m for m in tsumi.analyze(p, playouts=0, tt_mib=256)}
    best = max(m.score_lead for m in infos.values())
    mine = infos[mv]
    loss = best - mine.score_lead
    lost[mover] += loss
    print(f"{ply + 1:3} {mover} {mv:>4}: value after {mine.value:+3d}, "
          f"lead {mine.score_lead:+5.1f}, best {best:+5.1f}, loses {loss:4.1f}")
    p = p.play(mv)
    ply += 1
print(f"final area margin {p.area_margin():+d} (komi {komi}); points lost: "
      f"Black {lost['B']:g}, White {lost['W']:g}; {time.time() - t0:.1f} s")
