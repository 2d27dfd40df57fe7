// yahtzee-go-loop: loops for ever in its first `keep`; banned for fuel.
package export_wit_world

import (
	"fmt"
	"os"

	"wit_component/arena_yahtzee_types"
)

var spins uint64

func TournamentStart(info arena_yahtzee_types.TournamentInfo) {}

func GameStart(info arena_yahtzee_types.GameInfo) {}

func Keep(state arena_yahtzee_types.TurnState) []uint8 {
	fmt.Fprintln(os.Stderr, "yahtzee-go-loop: thinking (for ever)")
	for {
		spins++
	}
}

func Choose(state arena_yahtzee_types.TurnState) arena_yahtzee_types.Category { return 0 }

func TournamentEnd(won bool) {}
