// yahtzee-go: the strategy every language's Yahtzee sample plays (yahtzee-c's, whose comments say why),
// in Go: keep made hands, 4-long straights or the most useful face; score the legal box with the best
// score over par, asking the host's rule checker. It answers exactly as yahtzee-rust does, seed for seed.
package export_wit_world

import (
	"wit_component/arena_yahtzee_rules"
	"wit_component/arena_yahtzee_types"
)

// What a box is worth kept open for later, in tenths of a point (yahtzee-c's table).
var par = [13]int{21, 53, 86, 122, 157, 192, 217, 131, 226, 295, 327, 169, 220}

const (
	ones, sixes, threeKind, fourKind, fullHouse   = 0, 5, 6, 7, 8
	smallStraight, largeStraight, yahtzee, chance = 9, 10, 11, 12
)

type view struct {
	dice          [5]uint8
	counts        [7]int
	open          [13]bool
	maxCount      int
	run, runStart int
}

func readView(s arena_yahtzee_types.TurnState) (view, bool) {
	v := view{runStart: 1}
	if len(s.Dice) != 5 {
		return v, false
	}
	for i, d := range s.Dice {
		if d < 1 || d > 6 {
			return v, false
		}
		v.dice[i] = d
		v.counts[d]++
	}
	for c := range v.open {
		v.open[c] = len(s.Mine.Boxes) != 13 || s.Mine.Boxes[c].IsNone()
	}
	for f := 6; f >= 1; f-- {
		if v.counts[f] > v.maxCount {
			v.maxCount = v.counts[f]
		}
	}
	for f, n := 1, 0; f <= 6; f++ {
		if v.counts[f] > 0 {
			n++
		} else {
			n = 0
		}
		if n > v.run {
			v.run, v.runStart = n, f-n+1
		}
	}
	return v, true
}

func (v *view) keepRun(n int) []uint8 {
	out := make([]uint8, n)
	for i := range out {
		out[i] = uint8(v.runStart + i)
	}
	return out
}

func (v *view) keepFace(face int, out []uint8) []uint8 {
	for i := 0; i < v.counts[face]; i++ {
		out = append(out, uint8(face))
	}
	return out
}

func TournamentStart(info arena_yahtzee_types.TournamentInfo) {}

func GameStart(info arena_yahtzee_types.GameInfo) {}

func Keep(s arena_yahtzee_types.TurnState) []uint8 {
	v, ok := readView(s)
	if !ok {
		return nil
	}
	straights := v.open[smallStraight] || v.open[largeStraight]
	pairs, trips := 0, 0
	for f := 1; f <= 6; f++ {
		if v.counts[f] == 2 {
			pairs++
		}
		if v.counts[f] == 3 {
			trips++
		}
	}
	// Made hands.
	if v.maxCount == 5 || (v.run == 5 && v.open[largeStraight]) ||
		(v.run >= 4 && v.open[smallStraight] && !v.open[largeStraight]) ||
		(trips > 0 && pairs > 0 && v.open[fullHouse]) {
		return v.dice[:]
	}
	// Draws: a 4-long straight, two pairs for a full house, a 3-long straight when nothing pairs up.
	if v.run >= 4 && v.open[largeStraight] {
		return v.keepRun(4)
	}
	out := make([]uint8, 0, 5)
	if pairs == 2 && v.open[fullHouse] {
		for f := 1; f <= 6; f++ {
			if v.counts[f] == 2 {
				out = v.keepFace(f, out)
			}
		}
		return out
	}
	if v.run >= 3 && v.maxCount == 1 && straights {
		return v.keepRun(3)
	}
	// Otherwise the face with the most dice, preferring one whose upper box is open, then high faces.
	ofAKind := v.open[threeKind] || v.open[fourKind] || v.open[yahtzee]
	best, bestValue := 0, -1
	for f := 1; f <= 6; f++ {
		if v.counts[f] == 0 {
			continue
		}
		value := v.counts[f]*10 + f
		if v.open[f-1] {
			value += 4
		}
		if ofAKind {
			value += 2
		}
		if value > bestValue {
			best, bestValue = f, value
		}
	}
	return v.keepFace(best, out)
}

func Choose(s arena_yahtzee_types.TurnState) arena_yahtzee_types.Category {
	v, ok := readView(s)
	if !ok {
		return chance
	}
	best, bestValue := -1, 0
	for c := ones; c <= chance; c++ {
		if !v.open[c] {
			continue // a used box is never allowed
		}
		points := arena_yahtzee_rules.Score(s.Mine, v.dice[:], uint8(c))
		if points.IsNone() {
			continue
		}
		value := int(points.Some())*10 - par[c]
		// Three or more of a face in its upper box keeps the 35-point bonus within reach.
		if c <= sixes && v.counts[c+1] >= 3 && s.Mine.UpperBonus == 0 {
			value += 30
		}
		if best < 0 || value > bestValue {
			best, bestValue = c, value
		}
	}
	if best >= 0 {
		return uint8(best)
	}
	for c := ones; c <= chance; c++ { // never reached: the rules always leave a box
		if v.open[c] {
			return uint8(c)
		}
	}
	return chance
}

func TournamentEnd(won bool) {}
