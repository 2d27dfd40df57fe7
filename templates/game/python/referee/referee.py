# {{name}}'s referee in Python (componentize-py): a state machine the Arena host drives (see
# ../wit/deps/game/game.wit). `start` deals the game from its seed, and it, `apply` and `banned` answer
# with what comes next: the requests outstanding (who must act, and what each is asked) and the events
# the call caused. `apply` checks each answer with the rules (raising `Err(reason)` refuses it and bans
# that player as `illegal`), `banned` says what a ban means (here: the other seat wins), `outcome` and
# `view` tell how it ended. It runs sandboxed, like the players: no clock, no files, randomness only
# from the seed. The game lives in a module global: componentize-py makes a new `WitWorld` each call.
import wit_world
from componentize_py_types import Err
from wit_world.imports import arena_game_types as game
from wit_world.imports import arena_{{crate}}_types as types
from wit_world.imports.protocol import Next, Request_TakeTurn

MASK = (1 << 64) - 1


def mix(z):
    """SplitMix64: the game's seed is its only source of chance, so a seed always gives the same game."""
    z = (z + 0x9E3779B97F4A7C15) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


class Heaps:
    """`count` heaps of 1 to 7 stones each, drawn from `seed`; seat 0 moves first."""

    def __init__(self, seed, count):
        r = mix(seed)
        self.heaps = []
        for _ in range(count):
            r = mix(r)
            self.heaps.append(1 + r % 7)
        self.turn = 0
        self.winner = None

    def text(self):
        return " ".join(str(h) for h in self.heaps)


GAME = None


def everyone(text):
    return game.Event(to=game.Audience_All(), text=text)


def next_after(events):
    """What comes next: the seat to move and what it sees (nobody once the game is over)."""
    requests = []
    if GAME is not None and GAME.winner is None:
        requests = [(GAME.turn, Request_TakeTurn(types.State(heaps=list(GAME.heaps), you=GAME.turn)))]
    return Next(requests=requests, events=events)


class WitWorld(wit_world.WitWorld):
    def start(self, setup):
        global GAME
        if len(setup.names) != 2:
            raise Err(f"{{name}} seats 2 players, not {len(setup.names)}")
        heaps = dict(setup.options).get("heaps", "3")
        if not heaps.isdigit():
            raise Err(f"heaps must be a number, not {heaps}")
        GAME = Heaps(setup.seed, int(heaps))
        return next_after([everyone(f"heaps {GAME.text()}")])

    def apply(self, seat, answer):
        g, take = GAME, answer.value
        if g is None or g.winner is not None:
            raise Err("the game is over")
        if seat != g.turn:
            raise Err(f"it is seat {g.turn}'s turn, not seat {seat}'s")
        if take.heap >= len(g.heaps):
            raise Err(f"there is no heap {take.heap} (there are {len(g.heaps)})")
        stones = g.heaps[take.heap]
        if take.count == 0 or take.count > stones:
            raise Err(f"cannot take {take.count} from heap {take.heap}, which has {stones}")
        g.heaps[take.heap] -= take.count
        if all(h == 0 for h in g.heaps):
            g.winner = seat
        g.turn = 1 - g.turn
        return next_after([everyone(f"seat {seat} takes {take.count} from heap {take.heap}: {g.text()}")])

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
        return "" if GAME is None else f"heaps {GAME.text()}, seat {GAME.turn} to move"
