// goofspiel-go: bids the smallest card worth the pot (the prize and what was carried over to it, at
// most 13), else its highest card; the strategy of goofspiel-zig, in Go.
package export_wit_world

import "wit_component/arena_goofspiel_types"

func Bid(state arena_goofspiel_types.State) uint8 {
	if len(state.Hand) == 0 {
		return 1
	}
	pot := uint32(state.Prize)
	for _, c := range state.Carried {
		pot += uint32(c)
	}
	want := uint8(min(pot, 13))
	for _, card := range state.Hand {
		if card >= want { // the hand is ascending
			return card
		}
	}
	return state.Hand[len(state.Hand)-1]
}
