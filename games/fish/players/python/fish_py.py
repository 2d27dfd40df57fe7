# A Fish sample player in Python (componentize-py): greedy, always legal, and computes legality itself.
#
# `setup` places on the free tile with the most fish. `take_turn` tries every straight-line move of its
# penguins (odd-r hex layout, see wit/fish/fish.wit) and takes the one landing on the most fish.
import wit_world
from wit_world.imports.types import Pos, Step

# The six directions as (row step, column step in an even row, column step in an odd row): E, W, NE, NW,
# SE, SW.
DIRECTIONS = [(0, 1, 1), (0, -1, -1), (-1, 0, 1), (-1, -1, 0), (1, 0, 1), (1, -1, 0)]


def fish_at(board, row, col):
    return board.tiles[row * board.cols + col]


def occupied(state):
    return {(p.row, p.col) for seat in state.seats for p in seat.penguins}


def targets(state, start, taken):
    """Every tile the penguin on `start` may move to: straight lines, stopping before holes, the edge
    and penguins."""
    board = state.board
    for dr, dc_even, dc_odd in DIRECTIONS:
        row, col = start.row, start.col
        while True:
            row, col = row + dr, col + (dc_odd if row % 2 else dc_even)
            if not (0 <= row < board.rows and 0 <= col < board.cols):
                break
            if fish_at(board, row, col) == 0 or (row, col) in taken:
                break
            yield Pos(row, col)


class WitWorld(wit_world.WitWorld):
    def start(self):
        pass

    def play_as(self, colour):
        pass

    def play_with(self, others):
        pass

    def setup(self, state):
        board, taken = state.board, occupied(state)
        free = [(r, c) for r in range(board.rows) for c in range(board.cols)
                if fish_at(board, r, c) > 0 and (r, c) not in taken]
        row, col = max(free, key=lambda rc: fish_at(board, *rc))  # the first of the richest tiles
        return Pos(row, col)

    def take_turn(self, state, actions):
        me = next(seat for seat in state.seats if seat.colour == state.turn)
        taken = occupied(state)
        best = None
        for penguin in me.penguins:
            for to in targets(state, penguin, taken):
                if best is None or fish_at(state.board, to.row, to.col) > fish_at(state.board, best.to.row, best.to.col):
                    best = Step(penguin, to)
        # The host only asks a player that can move; the fallback is never reached.
        return best if best is not None else Step(me.penguins[0], me.penguins[0])

    def end(self, won):
        pass
