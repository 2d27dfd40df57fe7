# A minimal Arena Goofspiel player: bids the lowest card in its hand. Make it yours: every call gets the
# whole game (the prize, what was carried over, your hand, the scores, every earlier round's bids), so
# keep no state.
import wit_world


class WitWorld(wit_world.WitWorld):
    def bid(self, state):
        # Your bid this round: one card from state.hand (ascending). Put your strategy here, e.g. a high
        # card for a valuable pot (state.prize plus sum(state.carried)), a low one for a poor pot.
        return state.hand[0]
