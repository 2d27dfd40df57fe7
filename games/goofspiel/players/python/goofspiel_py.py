# A Goofspiel sample player in Python (componentize-py): matches its cards to the prizes.
#
# `bid` ranks the pot (this round's prize plus the prizes carried over to it) among the prizes still to
# come, and bids the card of the same rank in its hand: low cards for low prizes, high cards for high
# ones, never a 13 on a 1. All bids are revealed, so it knows every other hand: when a cheaper card is
# sure to beat everything the others hold, it bids that one instead.
import wit_world


def hand_of(state, seat):
    """The cards `seat` has not bid yet, ascending."""
    spent = {r.bids[seat] for r in state.history if seat < len(r.bids) and r.bids[seat] is not None}
    return [c for c in range(1, 14) if c not in spent]


class WitWorld(wit_world.WitWorld):
    def bid(self, state):
        hand = sorted(state.hand)
        seen = {r.prize for r in state.history} | {state.prize}
        to_come = [p for p in range(1, 14) if p not in seen]
        pot = state.prize + sum(state.carried)
        if to_come:
            rank = sum(1 for p in to_come if p < pot)
            target = hand[rank * (len(hand) - 1) // len(to_come)]
        else:
            target = hand[-1]
        others = [hand_of(state, s) for s in range(state.seats)
                  if s != state.you and s < len(state.playing) and state.playing[s]]
        their_best = max((h[-1] for h in others if h), default=0)
        sure = next((c for c in hand if c > their_best), None)
        if sure is not None and sure <= target:
            return sure
        return target
