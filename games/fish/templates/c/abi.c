/* {{name}}: the canonical ABI glue, by hand: the exports the component model expects for arena:fish/player, its allocator and the rules imports. */
#include "abi.h"

/* Core names follow the component model's wasm32 naming ("cm32p2"), as `wasm-tools component embed
 * --dummy wit -w arena:fish/player | wasm-tools component new - | wasm-tools print` shows: exports
 * `cm32p2||NAME` with post-return functions `cm32p2||NAME_post`, `cm32p2_memory` (named by a wasm-ld
 * flag in build.sh), `cm32p2_realloc`, and the import module `cm32p2|arena:fish/rules@0.1`.
 * Flattening: a call's parameters become one core value each (a list is two: ptr, len; an enum one
 * i32) when there are at most 16 of them; a result that flattens to more than one value is returned
 * through memory: an export returns a pointer to it, an import takes a pointer to a return area as its
 * last parameter. */
#define EXPORT(name) __attribute__((export_name(name)))
#define IMPORT(name) __attribute__((import_module("cm32p2|arena:fish/rules@0.1"), import_name(name)))

/* Memory: the bump allocator, cm32p2_realloc, memcpy and memset are in alloc.c; every post-return
 * function below empties the heap with heap_reset(). */

/* --- The imports: arena:fish/rules ---------------------------------------------------------------
 * state flattens to 8 values: board (rows, cols, tiles ptr, len), seats (ptr, len), turn, phase. */

#define STATE_ARGS(s) (uint32_t)(s)->board.rows, (uint32_t)(s)->board.cols, (s)->board.tiles.ptr, \
                      (s)->board.tiles.len, (s)->seats.ptr, (s)->seats.len, (uint32_t)(s)->turn, \
                      (uint32_t)(s)->phase
#define STATE_PARAMS uint32_t rows, uint32_t cols, const uint8_t *tiles, uint32_t tiles_len, \
                     const seat *seats, uint32_t seats_len, uint32_t turn_, uint32_t phase
#define STATE_FROM_PARAMS {{(uint8_t)rows, (uint8_t)cols, {tiles, tiles_len}}, {seats, seats_len}, \
                           (uint8_t)turn_, (uint8_t)phase}

/* legal-placements(state) -> list<pos>, legal-moves(state) -> list<step>: the list (ptr, len) is 2
 * values, so it comes back through a return area; the host allocates its elements with
 * cm32p2_realloc. */
IMPORT("legal-placements")
extern void legal_placements_import(STATE_PARAMS, list_pos *ret);

IMPORT("legal-moves")
extern void legal_moves_import(STATE_PARAMS, list_step *ret);

list_pos rules_legal_placements(const state *st) {
  list_pos ret = {0, 0};
  legal_placements_import(STATE_ARGS(st), &ret);
  return ret;
}

list_step rules_legal_moves(const state *st) {
  list_step ret = {0, 0};
  legal_moves_import(STATE_ARGS(st), &ret);
  return ret;
}

/* --- The exports -------------------------------------------------------------------------------- */

EXPORT("cm32p2||start")
void start(void) { player_start(); }

/* play-as(colour): an enum is an i32. */
EXPORT("cm32p2||play-as")
void play_as(uint32_t colour) { player_play_as((uint8_t)colour); }

/* play-with(others: list<colour>): (ptr, len), one byte per colour. */
EXPORT("cm32p2||play-with")
void play_with(const uint8_t *others, uint32_t others_len) {
  player_play_with((list_u8){others, others_len});
}

/* setup(state) -> pos: the pos flattens to 2 values, so the export returns a pointer to it. */
static pos setup_ret;

EXPORT("cm32p2||setup")
pos *setup(STATE_PARAMS) {
  state st = STATE_FROM_PARAMS;
  setup_ret = player_setup(&st);
  return &setup_ret;
}

/* take-turn(state, actions: list<action>) -> step: 8 + 2 params; the step (4 values) is returned
 * through a pointer. */
static step take_turn_ret;

EXPORT("cm32p2||take-turn")
step *take_turn(STATE_PARAMS, const action *actions, uint32_t actions_len) {
  state st = STATE_FROM_PARAMS;
  take_turn_ret = player_take_turn(&st, (list_action){actions, actions_len});
  return &take_turn_ret;
}

/* end(won: bool): a bool is an i32, 0 or 1. */
EXPORT("cm32p2||end")
void end(uint32_t won) { player_end(won != 0); }

/* Post-return functions: the host calls them once it has read a call's result. */
EXPORT("cm32p2||start_post") void start_post(void) { heap_reset(); }
EXPORT("cm32p2||play-as_post") void play_as_post(void) { heap_reset(); }
EXPORT("cm32p2||play-with_post") void play_with_post(void) { heap_reset(); }
EXPORT("cm32p2||setup_post") void setup_post(pos *ret) { (void)ret; heap_reset(); }
EXPORT("cm32p2||take-turn_post") void take_turn_post(step *ret) { (void)ret; heap_reset(); }
EXPORT("cm32p2||end_post") void end_post(void) { heap_reset(); }
