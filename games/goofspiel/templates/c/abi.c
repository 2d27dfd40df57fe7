/* {{name}}: the canonical ABI glue, by hand: the export the component model expects for arena:goofspiel/player, and its allocator. */
#include "abi.h"

/* Core names follow the component model's wasm32 naming ("cm32p2"), as `wasm-tools component embed
 * --dummy-names standard32 wit -w arena:goofspiel/player -t` shows: the export `cm32p2||bid` with its
 * post-return function `cm32p2||bid_post`, `cm32p2_memory` (named by a wasm-ld flag in build.sh) and
 * `cm32p2_realloc`. The world imports nothing.
 * Flattening: a call's parameters become one core value each (a list is two: ptr, len) when there are
 * at most 16 of them: state is 14. A u8 result is one i32, returned directly; the post-return
 * function gets it as its parameter. */
#define EXPORT(name) __attribute__((export_name(name)))

/* Memory: the bump allocator, cm32p2_realloc, memcpy and memset are in alloc.c; the post-return
 * function below empties the heap with heap_reset(). */

/* bid(state) -> u8: state flattens to you, seats, round, prize, then (ptr, len) for carried, hand,
 * scores, playing and history. */
EXPORT("cm32p2||bid")
uint32_t bid(uint32_t you, uint32_t seats, uint32_t round, uint32_t prize, const uint8_t *carried,
             uint32_t carried_len, const uint8_t *hand, uint32_t hand_len, const uint32_t *scores,
             uint32_t scores_len, const uint8_t *playing, uint32_t playing_len, const round_result *history,
             uint32_t history_len) {
  state st = {you,
              seats,
              round,
              (uint8_t)prize,
              {carried, carried_len},
              {hand, hand_len},
              {scores, scores_len},
              {playing, playing_len},
              {history, history_len}};
  return player_bid(&st);
}

/* Post-return: the host calls it once it has read the call's result. */
EXPORT("cm32p2||bid_post") void bid_post(uint32_t ret) { (void)ret; heap_reset(); }
