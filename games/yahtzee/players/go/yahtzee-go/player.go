// yahtzee-go: keeps the dice of its most frequent face (the higher face on a tie), and scores in the box
// the host's rule checker rates best, tens of points ahead of the upper boxes kept for the bonus; the
// strategy of yahtzee-zig, in Go.
package export_wit_world

import (
	"wit_component/arena_yahtzee_rules"
	"wit_component/arena_yahtzee_types"
)

func counts(state arena_yahtzee_types.TurnState) [7]int {
	var c [7]int
	for _, d := range state.Dice {
		if d >= 1 && d <= 6 {
			c[d]++
		}
	}
	return c
}

func TournamentStart(info arena_yahtzee_types.TournamentInfo) {}

func GameStart(info arena_yahtzee_types.GameInfo) {}

func Keep(state arena_yahtzee_types.TurnState) []uint8 {
	c := counts(state)
	best := 6
	for face := 6; face >= 1; face-- {
		if c[face] > c[best] {
			best = face
		}
	}
	keep := make([]uint8, 0, 5)
	for i := 0; i < c[best]; i++ {
		keep = append(keep, uint8(best))
	}
	return keep
}

func Choose(state arena_yahtzee_types.TurnState) arena_yahtzee_types.Category {
	best, bestValue := arena_yahtzee_types.Category_Chance, -1000
	for box := arena_yahtzee_types.Category_Ones; box <= arena_yahtzee_types.Category_Chance; box++ {
		score := arena_yahtzee_rules.Score(state.Mine, state.Dice, box)
		if score.IsNone() {
			continue
		}
		// An upper box is worth a little more than its score (the bonus); chance is the last resort.
		value := int(score.Some()) * 10
		if box <= arena_yahtzee_types.Category_Sixes {
			value += 25
		}
		if box == arena_yahtzee_types.Category_Chance {
			value -= 150
		}
		if value > bestValue {
			best, bestValue = box, value
		}
	}
	return best
}

func TournamentEnd(won bool) {}
