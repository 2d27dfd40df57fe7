# Nim's referee in Python (componentize-py): the same game as the Rust referee in ../referee, seed for
# seed and word for word (the tests play both and compare the records). Heaps drawn from the game's seed
# with SplitMix64, seats alternate, a take must remove one or more stones from a heap that has them,
# and whoever takes the last stone wins; a seat that faults forfeits.
#
# The `arena:game` protocol: `start`, `step` and `banned` answer with what comes next (the requests
# outstanding, how many of the step's answers were taken, and a refusal of the last one); `events`
# hands the host the events kept so far. Nim asks one seat a step, so `step` takes one answer. The game
# and its events live in module globals: componentize-py makes a new `WitWorld` for each call.
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
EVENTS = []


def everyone(text):
    EVENTS.append((game.Audience_All(), text))


def next_after(taken=0, refused=None):
    if GAME is None or GAME.winner is not None:
        requests = []
    else:
        state = nim.State(heaps=list(GAME.heaps), you=GAME.turn)
        requests = [(GAME.turn, nim.Request_TakeTurn(state))]
    return Next(requests=requests, taken=taken, refused=refused)


def refusal(g, seat, take):
    """Why `seat`'s take is refused, or None when it is legal."""
    if g is None or seat != g.turn or g.winner is not None:
        return f"seat {seat} was not asked"
    if take.heap >= len(g.heaps):
        return f"there is no heap {take.heap} (there are {len(g.heaps)})"
    stones = g.heaps[take.heap]
    if take.count == 0 or take.count > stones:
        return f"cannot take {take.count} from heap {take.heap}, which has {stones}"
    return None


class WitWorld(wit_world.WitWorld):
    def start(self, setup):
        global GAME
        if len(setup.names) != 2:
            raise Err(f"Nim seats 2 players, not {len(setup.names)}")
        GAME = Nim(setup.seed)
        everyone(f"heaps {heaps_text(GAME.heaps)}")
        return next_after()

    def step(self, answers):
        g = GAME
        seat, answer = answers[0]
        take = answer.value
        why = refusal(g, seat, take)
        if why is not None:
            return next_after(1, why)
        g.heaps[take.heap] -= take.count
        text = f"seat {seat} takes {take.count} from heap {take.heap}: {heaps_text(g.heaps)}"
        if all(h == 0 for h in g.heaps):
            g.winner = g.turn
        g.turn = (g.turn + 1) % 2
        everyone(text)
        return next_after(1)

    def banned(self, seat, fault):
        if GAME is None:
            return next_after()
        GAME.winner = 1 - min(seat, 1)
        everyone(f"seat {seat} forfeits: {fault.reason} in {fault.call}")
        return next_after()

    def events(self):
        """The events kept so far, as one `told`: their texts in one string, and each one's audience and
        length in UTF-8 bytes."""
        global EVENTS
        taken, EVENTS = EVENTS, []
        return game.Told(text="".join(t for _, t in taken), events=[(to, len(t.encode())) for to, t in taken])

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
