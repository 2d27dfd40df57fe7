// goofspiel-go-loop: loops for ever in its first bid; banned for fuel.
package export_wit_world

import (
	"fmt"
	"os"

	"wit_component/arena_goofspiel_types"
)

var spins uint64

func Bid(state arena_goofspiel_types.State) uint8 {
	fmt.Fprintln(os.Stderr, "goofspiel-go-loop: thinking (for ever)")
	for {
		spins++
	}
}
