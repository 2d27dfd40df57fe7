# {{name}}'s first sample player, in Python: the optimal strategy (leave heaps whose xor is zero when it
# can, else take one stone from the largest heap). Built from ../wit alone, as a player in any language is.
import wit_world
from wit_world.imports.types import Take


class WitWorld(wit_world.WitWorld):
    def take_turn(self, state):
        total = 0
        for h in state.heaps:
            total ^= h
        if total:
            for i, h in enumerate(state.heaps):
                if h ^ total < h:
                    return Take(heap=i, count=h - (h ^ total))
        i = max(range(len(state.heaps)), key=lambda k: state.heaps[k])
        return Take(heap=i, count=1)
