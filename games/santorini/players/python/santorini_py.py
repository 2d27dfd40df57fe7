# A Santorini sample player in Python (componentize-py): greedy, and always legal thanks to the host's rule
# checker (`arena:santorini/rules`, a little fuel a call).
#
# `place` takes the legal cell nearest the centre. `take_turn` takes a winning turn (up onto level 3) if
# there is one, else a turn that climbs, else the first legal turn.
import wit_world
from wit_world.imports import rules
from wit_world.imports.types import Cell

# The 25 cells, nearest the centre first (row-major among equals).
CELLS = sorted((Cell(r, c) for r in range(5) for c in range(5)),
               key=lambda cell: (cell.row - 2) ** 2 + (cell.col - 2) ** 2)


def height(state, cell):
    return state.heights[cell.row * 5 + cell.col]


class WitWorld(wit_world.WitWorld):
    def tournament_start(self, you, players):
        pass

    def match_start(self, opponent, number, total):
        pass

    def game_start(self, info):
        pass

    def place(self, state):
        taken = {(w.row, w.col) for w in state.workers if w is not None}
        return next(cell for cell in CELLS
                    if (cell.row, cell.col) not in taken and rules.is_legal_place(state, cell))

    def take_turn(self, state):
        turns = rules.legal_turns(state)  # never empty: a player with no legal turn is not asked

        def rise(turn):
            return height(state, turn.to) - height(state, state.workers[state.turn * 2 + turn.worker])

        for turn in turns:
            if height(state, turn.to) == 3 and rise(turn) == 1:
                return turn
        return next((turn for turn in turns if rise(turn) > 0), turns[0])

    def game_over(self, won):
        pass

    def tournament_end(self, won):
        pass
