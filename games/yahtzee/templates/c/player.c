/* {{name}}: a minimal Arena Yahtzee player: re-rolls every die and scores in the first box the rules allow. Make it yours: every call gets the whole game, so keep no state. */
#include "abi.h"

/* Which dice to keep: write the kept values (taken from state->dice) into `out`, return how many. */
int strategy_keep(const turn_state *state, uint8_t out[5]) {
  (void)state, (void)out;
  return 0;
}

/* Which open box to score the final dice in: the first one the host's rule checker scores. */
int strategy_choose(const turn_state *state) {
  if (state->dice.len != 5) return CAT_CHANCE;
  for (int box = 0; box < CAT_COUNT; box++)
    if (rules_score(&state->mine, state->dice.ptr, box) >= 0) return box;
  return CAT_CHANCE;
}
