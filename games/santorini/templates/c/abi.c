/* {{name}}: the canonical ABI glue, by hand: the exports the component model expects for arena:santorini/player, its allocator and the rules imports. */
#include "abi.h"

/* Core names follow the component model's wasm32 naming ("cm32p2"), as `wasm-tools component embed
 * --dummy wit -w arena:santorini/player | wasm-tools component new - | wasm-tools print` shows:
 * exports `cm32p2||NAME` with post-return functions `cm32p2||NAME_post`, `cm32p2_memory` (named by a
 * wasm-ld flag in build.sh), `cm32p2_realloc`, and the import module `cm32p2|arena:santorini/rules@0.1`.
 * Flattening: a call's parameters become one core value each (a string or list is two: ptr, len;
 * option<cell> is three: discriminant, row, col) when there are at most 16 of them; a result that
 * flattens to more than one value is returned through memory: an export returns a pointer to it, an
 * import takes a pointer to a return area as its last parameter. */
#define EXPORT(name) __attribute__((export_name(name)))
#define IMPORT(name) __attribute__((import_module("cm32p2|arena:santorini/rules@0.1"), import_name(name)))

/* Memory: the bump allocator, cm32p2_realloc, memcpy and memset are in alloc.c; every post-return
 * function below empties the heap with heap_reset(). */

/* --- The imports: arena:santorini/rules --------------------------------------------------------
 * state flattens to 6 values: heights (ptr, len), workers (ptr, len), turn, you. */

#define STATE_ARGS(s) (s)->heights.ptr, (s)->heights.len, (s)->workers.ptr, (s)->workers.len, \
                      (uint32_t)(s)->turn, (uint32_t)(s)->you
#define STATE_PARAMS const uint8_t *heights, uint32_t heights_len, const opt_cell *workers, \
                     uint32_t workers_len, uint32_t turn_, uint32_t you

/* is-legal-place(state, at: cell) -> bool: 6 + 2 params, the bool an i32. */
IMPORT("is-legal-place")
extern uint32_t is_legal_place_import(STATE_PARAMS, uint32_t row, uint32_t col);

/* is-legal-turn(state, turn) -> bool: 6 + 6 params (worker, to.row, to.col, build's discriminant,
 * row, col). */
IMPORT("is-legal-turn")
extern uint32_t is_legal_turn_import(STATE_PARAMS, uint32_t worker, uint32_t to_row, uint32_t to_col,
                                     uint32_t build_some, uint32_t build_row, uint32_t build_col);

/* legal-turns(state) -> list<turn>: the list (ptr, len) is 2 values, so it comes back through a
 * return area; the host allocates its elements with cm32p2_realloc. */
IMPORT("legal-turns")
extern void legal_turns_import(STATE_PARAMS, list_turn *ret);

int rules_is_legal_place(const state *st, cell at) {
  return is_legal_place_import(STATE_ARGS(st), at.row, at.col) != 0;
}

int rules_is_legal_turn(const state *st, const turn *t) {
  return is_legal_turn_import(STATE_ARGS(st), t->worker, t->to.row, t->to.col, t->build.is_some,
                              t->build.is_some ? t->build.val.row : 0,
                              t->build.is_some ? t->build.val.col : 0) != 0;
}

list_turn rules_legal_turns(const state *st) {
  list_turn ret = {0, 0};
  legal_turns_import(STATE_ARGS(st), &ret);
  return ret;
}

/* --- The exports -------------------------------------------------------------------------------- */

/* tournament-start(you: string, players: list<string>): 4 params. */
EXPORT("cm32p2||tournament-start")
void tournament_start(const uint8_t *you, uint32_t you_len, const str *players, uint32_t players_len) {
  player_tournament_start((str){you, you_len}, (list_str){players, players_len});
}

/* match-start(opponent: string, number: u32, total: u32): 4 params. */
EXPORT("cm32p2||match-start")
void match_start(const uint8_t *opp, uint32_t opp_len, uint32_t number, uint32_t total) {
  player_match_start((str){opp, opp_len}, number, total);
}

/* game-start(info: game-info): opponent (ptr, len), you, game, games-in-match, my-wins, their-wins. */
EXPORT("cm32p2||game-start")
void game_start(const uint8_t *opp, uint32_t opp_len, uint32_t you, uint32_t game, uint32_t games,
                uint32_t my_wins, uint32_t their_wins) {
  game_info info = {{opp, opp_len}, (uint8_t)you, game, games, my_wins, their_wins};
  player_game_start(&info);
}

/* place(state) -> cell: the cell flattens to 2 values, so the export returns a pointer to it. */
static cell place_ret;

EXPORT("cm32p2||place")
cell *place(STATE_PARAMS) {
  state st = {{heights, heights_len}, {workers, workers_len}, (uint8_t)turn_, (uint8_t)you};
  place_ret = player_place(&st);
  return &place_ret;
}

/* take-turn(state) -> turn: returned through a pointer to the 6-byte record. The option's payload
 * bytes are ignored by the host when the discriminant is 0. */
static turn take_turn_ret;

EXPORT("cm32p2||take-turn")
turn *take_turn(STATE_PARAMS) {
  state st = {{heights, heights_len}, {workers, workers_len}, (uint8_t)turn_, (uint8_t)you};
  take_turn_ret = player_take_turn(&st);
  return &take_turn_ret;
}

/* game-over(won: bool), tournament-end(won: bool): a bool is an i32, 0 or 1. */
EXPORT("cm32p2||game-over")
void game_over(uint32_t won) { player_game_over(won != 0); }

EXPORT("cm32p2||tournament-end")
void tournament_end(uint32_t won) { player_tournament_end(won != 0); }

/* Post-return functions: the host calls them once it has read a call's result. */
EXPORT("cm32p2||tournament-start_post") void tournament_start_post(void) { heap_reset(); }
EXPORT("cm32p2||match-start_post") void match_start_post(void) { heap_reset(); }
EXPORT("cm32p2||game-start_post") void game_start_post(void) { heap_reset(); }
EXPORT("cm32p2||place_post") void place_post(cell *ret) { (void)ret; heap_reset(); }
EXPORT("cm32p2||take-turn_post") void take_turn_post(turn *ret) { (void)ret; heap_reset(); }
EXPORT("cm32p2||game-over_post") void game_over_post(void) { heap_reset(); }
EXPORT("cm32p2||tournament-end_post") void tournament_end_post(void) { heap_reset(); }
