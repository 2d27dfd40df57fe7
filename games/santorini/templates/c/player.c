/* {{name}}: a minimal Arena Santorini player: places on the first cell the rules accept and plays the first legal turn the host's rule checker lists. Make it yours: every call gets the whole game, so keep no state. */
#include "abi.h"

void player_tournament_start(str you, list_str players) { (void)you, (void)players; }

void player_match_start(str opponent, uint32_t number, uint32_t total) {
  (void)opponent, (void)number, (void)total;
}

void player_game_start(const game_info *info) { (void)info; }

/* Where to place your next worker: the first legal cell, row by row. */
cell player_place(const state *st) {
  for (uint8_t i = 0; i < 25; i++) {
    cell c = {(uint8_t)(i / 5), (uint8_t)(i % 5)};
    if (rules_is_legal_place(st, c)) return c;
  }
  return (cell){0, 0};
}

/* Your move and build: the first turn the rule checker lists. */
turn player_take_turn(const state *st) {
  list_turn turns = rules_legal_turns(st);
  if (turns.len > 0) return turns.ptr[0];
  return (turn){0, {0, 0}, {0, {0, 0}}};
}

void player_game_over(int won) { (void)won; }

void player_tournament_end(int won) { (void)won; }
