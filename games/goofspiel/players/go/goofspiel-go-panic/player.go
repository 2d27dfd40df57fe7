// goofspiel-go-panic: panics in its first bid; banned for a crash, its last words shown.
package export_wit_world

import (
	"fmt"
	"os"

	"wit_component/arena_goofspiel_types"
)

func Bid(state arena_goofspiel_types.State) uint8 {
	fmt.Fprintf(os.Stderr, "goofspiel-go-panic: %d cards and none worth bidding\n", len(state.Hand))
	panic("goofspiel-go-panic: gave up")
}
