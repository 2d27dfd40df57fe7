# Nim's referee in Python (componentize-py): the same game as the Rust referee in ../referee, seed for
# seed and word for word (the tests play both and compare the records). Heaps drawn from the game's seed
# with SplitMix64, seats alternate, a take must remove one or more stones from a heap that has them,
# and whoever takes the last stone wins; a seat that faults forfeits.
#
# The `arena:game` protocol: `start`, `apply` and `banned` answer with what comes next (the requests
# outstanding and the events the call caused); a refusal raises `Err(reason)`. The game lives in a
# module global: componentize-py makes a new `WitWorld` for each call.
import wit_world
from componentize_py_types import Err
from wit_world.imports import arena_game_types as game
from wit_world.imports import arena_nim_types as nim
from wit_world.imports.protocol import Next

MASK = (1 << 64) - 1


def mix(z):
    """SplitMix64's finaliser, as Arena's referee kit has it."""
    z = (z + 0x9E3779B97F4A7C15) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def heaps_text(heaps):
    return " ".join(str(h) for h in heaps)


class Nim:
    def __init__(self, seed):
        r = mix(seed)
        count = 3 + r % 3
        self.heaps = []
        for _ in range(count):
            r = mix(r)
            self.heaps.append(1 + r % 7)
        self.turn = 0
        self.winner = None


GAME = None


def everyone(text):
    return game.Event(to=game.Audience_All(), text=text)


def next_after(events):
    if GAME is None or GAME.winner is not None:
        requests = []
    else:
        state = nim.State(heaps=list(GAME.heaps), you=GAME.turn)
        requests = [(GAME.turn, nim.Request_TakeTurn(state))]
    return Next(requests=requests, events=events)


class WitWorld(wit_world.WitWorld):
    def start(self, setup):
        global GAME
        if len(setup.names) != 2:
            raise Err(f"Nim seats 2 players, not {len(setup.names)}")
        GAME = Nim(setup.seed)
        return next_after([everyone(f"heaps {heaps_text(GAME.heaps)}")])

    def apply(self, seat, answer):
        g = GAME
        take = answer.value
        if g is None or seat != g.turn or g.winner is not None:
            raise Err(f"seat {seat} was not asked")
        if take.heap >= len(g.heaps):
            raise Err(f"there is no heap {take.heap} (there are {len(g.heaps)})")
        stones = g.heaps[take.heap]
        if take.count == 0 or take.count > stones:
            raise Err(f"cannot take {take.count} from heap {take.heap}, which has {stones}")
        g.heaps[take.heap] -= take.count
        text = f"seat {seat} takes {take.count} from heap {take.heap}: {heaps_text(g.heaps)}"
        if all(h == 0 for h in g.heaps):
            g.winner = g.turn
        g.turn = (g.turn + 1) % 2
        return next_after([everyone(text)])

    def banned(self, seat, fault):
        if GAME is None:
            return next_after([])
        GAME.winner = 1 - min(seat, 1)
        return next_after([everyone(f"seat {seat} forfeits: {fault.reason} in {fault.call}")])

    def outcome(self):
        if GAME is None or GAME.winner is None:
            return None
        w = GAME.winner
        return game.Outcome(scores=[1 if s == w else 0 for s in range(2)], winners=[w])

    def view(self, seat):
        if GAME is None:
            return ""
        who = "spectator" if seat is None else f"seat {seat}"
        return f"{who}: heaps {heaps_text(GAME.heaps)}, seat {GAME.turn} to move"
