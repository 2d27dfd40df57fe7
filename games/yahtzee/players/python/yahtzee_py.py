# yahtzee-py: the strategy every language's Yahtzee sample plays (yahtzee-c's, whose comments say why), in
# Python (componentize-py): keep made hands, 4-long straights or the most useful face; score the legal box
# with the best score over par, asking the host's rule checker. It answers exactly as yahtzee-rust does,
# seed for seed. The player keeps no state between calls.
import wit_world
from wit_world.imports import rules
from wit_world.imports.types import Category

CATEGORIES = list(Category)  # score-card order, as in the WIT
ONES, SIXES, THREE_KIND, FOUR_KIND, FULL_HOUSE = 0, 5, 6, 7, 8
SMALL_STRAIGHT, LARGE_STRAIGHT, YAHTZEE, CHANCE = 9, 10, 11, 12

# What a box is worth kept open for later, in tenths of a point (yahtzee-c's table).
PAR = [21, 53, 86, 122, 157, 192, 217, 131, 226, 295, 327, 169, 220]


class View:
    """The dice, how many show each face, the open boxes, and the longest run of faces present."""

    def __init__(self, state):
        self.dice = list(state.dice)
        self.counts = [0] * 7
        for d in self.dice:
            self.counts[d] += 1
        boxes = state.mine.boxes
        self.open = [b is None for b in boxes] if len(boxes) == 13 else [True] * 13
        self.max_count = max(self.counts[1:])
        self.run, self.run_start, length = 0, 1, 0
        for face in range(1, 7):
            length = length + 1 if self.counts[face] else 0
            if length > self.run:
                self.run, self.run_start = length, face - length + 1

    def keep_run(self, n):
        return [self.run_start + i for i in range(n)]


def valid(state):
    return len(state.dice) == 5 and all(1 <= d <= 6 for d in state.dice)


def keepers(state):
    if not valid(state):
        return []
    v = View(state)
    straights = v.open[SMALL_STRAIGHT] or v.open[LARGE_STRAIGHT]
    pairs = sum(1 for f in range(1, 7) if v.counts[f] == 2)
    trips = sum(1 for f in range(1, 7) if v.counts[f] == 3)
    # Made hands.
    if (v.max_count == 5 or (v.run == 5 and v.open[LARGE_STRAIGHT])
            or (v.run >= 4 and v.open[SMALL_STRAIGHT] and not v.open[LARGE_STRAIGHT])
            or (trips and pairs and v.open[FULL_HOUSE])):
        return v.dice
    # Draws: a 4-long straight, two pairs for a full house, a 3-long straight when nothing pairs up.
    if v.run >= 4 and v.open[LARGE_STRAIGHT]:
        return v.keep_run(4)
    if pairs == 2 and v.open[FULL_HOUSE]:
        return [f for f in range(1, 7) if v.counts[f] == 2 for _ in range(2)]
    if v.run >= 3 and v.max_count == 1 and straights:
        return v.keep_run(3)
    # Otherwise the face with the most dice, preferring one whose upper box is open, then high faces.
    of_a_kind = v.open[THREE_KIND] or v.open[FOUR_KIND] or v.open[YAHTZEE]
    best, best_value = 0, -1
    for f in range(1, 7):
        if v.counts[f]:
            value = v.counts[f] * 10 + f + (4 if v.open[f - 1] else 0) + (2 if of_a_kind else 0)
            if value > best_value:
                best, best_value = f, value
    return [best] * v.counts[best]


def choose_box(state):
    if not valid(state):
        return Category.CHANCE
    v = View(state)
    best, best_value = None, 0
    dice = bytes(v.dice)
    for c in range(ONES, CHANCE + 1):
        if not v.open[c]:
            continue  # a used box is never allowed
        points = rules.score(state.mine, dice, CATEGORIES[c])
        if points is None:
            continue
        value = points * 10 - PAR[c]
        # Three or more of a face in its upper box keeps the 35-point bonus within reach.
        if c <= SIXES and v.counts[c + 1] >= 3 and state.mine.upper_bonus == 0:
            value += 30
        if best is None or value > best_value:
            best, best_value = c, value
    if best is None:  # never reached: the rules always leave a box
        best = next((c for c in range(13) if v.open[c]), CHANCE)
    return CATEGORIES[best]


class WitWorld(wit_world.WitWorld):
    def tournament_start(self, info):
        pass

    def game_start(self, info):
        pass

    def keep(self, state):
        return bytes(keepers(state))

    def choose(self, state):
        return choose_box(state)

    def tournament_end(self, won):
        pass
