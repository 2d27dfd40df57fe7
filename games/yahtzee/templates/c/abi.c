/* {{name}}: the canonical ABI glue, by hand: the exports the component model expects, its allocator and the rules import. */
#include "abi.h"

/* Core names follow the component model's wasm32 naming ("cm32p2"), which `wasm-tools component
 * embed --dummy wit -w arena:yahtzee/player` shows: exports `cm32p2||NAME` (world-level
 * functions) with `cm32p2||NAME_post` post-return functions, `cm32p2_memory` (a wasm-ld flag names
 * the memory), `cm32p2_realloc`, and the import module `cm32p2|arena:yahtzee/rules@0.1`. */
#define EXPORT(name) __attribute__((export_name(name)))

/* Memory: the bump allocator, cm32p2_realloc, memcpy and memset are in alloc.c; every post-return
 * function below empties the heap with heap_reset(). */

/* --- The import: arena:yahtzee/rules.score(card, dice, box) -> option<u16> -------------------
 * Flattened: scorecard (boxes ptr, len, upper-bonus, yahtzee-bonus, total), dice (ptr, len), box;
 * the option<u16> result flattens to two values, more than one, so the caller passes a return area
 * (u8 discriminant, u16 at offset 2) as a last parameter. */

__attribute__((import_module("cm32p2|arena:yahtzee/rules@0.1"), import_name("score")))
extern void rules_score_import(const opt_u16 *boxes, uint32_t boxes_len, uint32_t upper_bonus,
                               uint32_t yahtzee_bonus, uint32_t total, const uint8_t *dice,
                               uint32_t dice_len, uint32_t box, opt_u16 *ret);

int rules_score(const scorecard *card, const uint8_t dice[5], int box) {
  opt_u16 ret = {0, 0};
  rules_score_import(card->boxes.ptr, card->boxes.len, card->upper_bonus, card->yahtzee_bonus,
                     card->total, dice, 5, (uint32_t)box, &ret);
  return ret.is_some ? ret.val : -1;
}

/* --- The exports -------------------------------------------------------------------------------- */

/* tournament-start(info: tournament-info): you (ptr, len), players (ptr, len), games-per-match. */
EXPORT("cm32p2||tournament-start")
void tournament_start(uint32_t you, uint32_t you_len, uint32_t players, uint32_t players_len,
                      uint32_t games_per_match) {
  (void)you, (void)you_len, (void)players, (void)players_len, (void)games_per_match;
}

/* game-start(info: game-info): opponent (ptr, len), you-start, match-state (5 u32, earlier ptr, len). */
EXPORT("cm32p2||game-start")
void game_start(uint32_t opp, uint32_t opp_len, uint32_t you_start, uint32_t game, uint32_t games,
                uint32_t my_wins, uint32_t their_wins, uint32_t ties, uint32_t earlier,
                uint32_t earlier_len) {
  (void)opp, (void)opp_len, (void)you_start, (void)game, (void)games, (void)my_wins;
  (void)their_wins, (void)ties, (void)earlier, (void)earlier_len;
}

/* keep(state: turn-state) -> list<u8>. The turn state flattens to 23 values (more than 16), so it
 * arrives as one pointer to the record in memory; the list result (2 values, more than 1) is returned
 * as a pointer to a (ptr, len) return area. */
static uint8_t keep_values[5];
static list_u8 keep_ret;

EXPORT("cm32p2||keep")
list_u8 *keep(const turn_state *state) {
  keep_ret.len = (uint32_t)strategy_keep(state, keep_values);
  keep_ret.ptr = keep_values;
  return &keep_ret;
}

/* choose(state: turn-state) -> category: an enum result is a plain i32. */
EXPORT("cm32p2||choose")
uint32_t choose(const turn_state *state) { return (uint32_t)strategy_choose(state); }

/* tournament-end(won: bool). */
EXPORT("cm32p2||tournament-end")
void tournament_end(uint32_t won) { (void)won; }

/* Post-return functions: the host calls them once it has read a call's result. */
EXPORT("cm32p2||tournament-start_post") void tournament_start_post(void) { heap_reset(); }
EXPORT("cm32p2||game-start_post") void game_start_post(void) { heap_reset(); }
EXPORT("cm32p2||keep_post") void keep_post(list_u8 *ret) { (void)ret; heap_reset(); }
EXPORT("cm32p2||choose_post") void choose_post(uint32_t ret) { (void)ret; heap_reset(); }
EXPORT("cm32p2||tournament-end_post") void tournament_end_post(void) { heap_reset(); }
