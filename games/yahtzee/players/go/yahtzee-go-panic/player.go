// yahtzee-go-panic: panics in its first `keep`; banned for a crash, its last words shown.
package export_wit_world

import (
	"fmt"
	"os"

	"wit_component/arena_yahtzee_types"
)

func TournamentStart(info arena_yahtzee_types.TournamentInfo) {}

func GameStart(info arena_yahtzee_types.GameInfo) {}

func Keep(state arena_yahtzee_types.TurnState) []uint8 {
	fmt.Fprintf(os.Stderr, "yahtzee-go-panic: %d dice and none worth keeping\n", len(state.Dice))
	panic("yahtzee-go-panic: gave up")
}

func Choose(state arena_yahtzee_types.TurnState) arena_yahtzee_types.Category { return 0 }

func TournamentEnd(won bool) {}
