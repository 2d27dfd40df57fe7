# {{name}}'s referee in Python (componentize-py): a state machine the Arena host drives (see
# ../wit/deps/game/game.wit). `start` deals the game from its seed, and it, `step` and `banned` answer
# with what comes next: the requests outstanding (who must act, and what each is asked), how many of the
# step's answers were taken and the refusal of the last one. `step` checks each answer with the rules (a
# refusal bans that player as `illegal`), `banned` says what a ban means (here: the other seat wins),
# `events` hands over the events kept so far, `outcome` and `view` tell how it ended. It runs
# sandboxed, like the players: no clock, no files, randomness only from the seed. The game and its
# events live in module globals: componentize-py makes a new `WitWorld` each call.
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
# The events not handed to the host yet, oldest first.
EVENTS = []


def everyone(text):
    EVENTS.append((game.Audience_All(), text))


def next_after(taken=0, refused=None):
    """What comes next: the seat to move and what it sees (nobody once the game is over), how many
    answers the call took, and why it refused the last one (None: it did not)."""
    requests = []
    if GAME is not None and GAME.winner is None:
        requests = [(GAME.turn, Request_TakeTurn(types.State(heaps=list(GAME.heaps), you=GAME.turn)))]
    return Next(requests=requests, taken=taken, refused=refused)


def refusal(g, seat, take):
    """Why `seat`'s take breaks the rules, or None when it is legal."""
    if g is None or g.winner is not None:
        return "the game is over"
    if seat != g.turn:
        return f"it is seat {g.turn}'s turn, not seat {seat}'s"
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
            raise Err(f"{{name}} seats 2 players, not {len(setup.names)}")
        heaps = dict(setup.options).get("heaps", "3")
        if not heaps.isdigit():
            raise Err(f"heaps must be a number, not {heaps}")
        GAME = Heaps(setup.seed, int(heaps))
        everyone(f"heaps {GAME.text()}")
        return next_after()

    def step(self, answers):
        # One seat moves at a time here, so a step has one answer (a referee may always take just the
        # first; the host hands the others back).
        g, (seat, answer) = GAME, answers[0]
        take = answer.value
        why = refusal(g, seat, take)
        if why is not None:
            return next_after(1, why)
        g.heaps[take.heap] -= take.count
        if all(h == 0 for h in g.heaps):
            g.winner = seat
        g.turn = 1 - g.turn
        everyone(f"seat {seat} takes {take.count} from heap {take.heap}: {g.text()}")
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
        return "" if GAME is None else f"heaps {GAME.text()}, seat {GAME.turn} to move"
