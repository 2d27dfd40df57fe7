/* {{name}}: a minimal Arena Fish player: places and moves where the host's rule checker says first. Make it yours: every call gets the whole game, so keep no state. */
#include "abi.h"

void player_start(void) {}

void player_play_as(uint8_t colour) { (void)colour; }

void player_play_with(list_u8 others) { (void)others; }

/* Where to place your next penguin: the first tile the rule checker lists. */
pos player_setup(const state *st) {
  list_pos placements = rules_legal_placements(st);
  if (placements.len > 0) return placements.ptr[0];
  return (pos){0, 0};
}

/* Your move: the first one the rule checker lists. `actions` holds what happened since your last turn. */
step player_take_turn(const state *st, list_action actions) {
  (void)actions;
  list_step moves = rules_legal_moves(st);
  if (moves.len > 0) return moves.ptr[0];
  return (step){{0, 0}, {0, 0}};
}

void player_end(int won) { (void)won; }
