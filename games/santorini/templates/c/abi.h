/* {{name}}: the arena:santorini/player world's types as the canonical ABI lays them out in wasm32 memory, shared by abi.c and player.c. */
#ifndef ARENA_SANTORINI_ABI_H
#define ARENA_SANTORINI_ABI_H

#include <stddef.h>
#include <stdint.h>

/* alloc.c: empties the bump allocator's heap (after every call, in its post-return function). */
void heap_reset(void);

/* Hand-written canonical ABI (component model, wasm32, sync) for wit/santorini.wit. Layout rules: a
 * record is aligned to its widest field and its fields are placed in order, each at its own
 * alignment; a list or string is (i32 ptr, i32 len), align 4; option<T> is a u8 discriminant followed
 * by T at T's alignment; bool is one byte (0 or 1). C's natural struct layout on wasm32 is the same,
 * checked by the _Static_asserts below. Lists passed to you live in memory the host allocated through
 * cm32p2_realloc for this call only: do not keep pointers into them between calls. */

typedef struct { const uint8_t *ptr; uint32_t len; } str;                /* string (UTF-8, not NUL-terminated) */
typedef struct { const str *ptr; uint32_t len; } list_str;               /* list<string> */
typedef struct { const uint8_t *ptr; uint32_t len; } list_u8;            /* list<u8> */

typedef struct { uint8_t row, col; } cell;                               /* record cell: size 2, align 1 */
typedef struct { uint8_t is_some; cell val; } opt_cell;                  /* option<cell>: size 3, align 1 */
typedef struct { const opt_cell *ptr; uint32_t len; } list_opt_cell;     /* list<option<cell>> */

typedef struct {                                                         /* record state */
  list_u8 heights;        /* 25 heights, row-major: 0 ground, 1..=3 levels, 4 a dome */
  list_opt_cell workers;  /* player 0's workers 1 and 2, then player 1's; none before placement */
  uint8_t turn;           /* the player to act */
  uint8_t you;            /* your player number */
} state;

typedef struct {                                                         /* record turn: size 6, align 1 */
  uint8_t worker;         /* 0 or 1 */
  cell to;
  opt_cell build;         /* none exactly when the move wins */
} turn;
typedef struct { const turn *ptr; uint32_t len; } list_turn;             /* list<turn> */

typedef struct {                                                         /* record game-info */
  str opponent;
  uint8_t you;
  uint32_t game, games_in_match, my_wins, their_wins;
} game_info;

_Static_assert(sizeof(cell) == 2 && _Alignof(cell) == 1, "cell layout");
_Static_assert(sizeof(opt_cell) == 3 && offsetof(opt_cell, val) == 1, "option<cell> layout");
_Static_assert(sizeof(state) == 20 && offsetof(state, workers) == 8 && offsetof(state, turn) == 16 &&
               offsetof(state, you) == 17, "state layout");
_Static_assert(sizeof(turn) == 6 && _Alignof(turn) == 1 && offsetof(turn, to) == 1 &&
               offsetof(turn, build) == 3, "turn layout");

/* The host's rule checker (interface rules), charged a little fuel per call. legal_turns' list lives until the current
 * call returns. */
int rules_is_legal_place(const state *st, cell at);
int rules_is_legal_turn(const state *st, const turn *t);
list_turn rules_legal_turns(const state *st);

/* The player (player.c): one function per export of the world, called by abi.c. */
void player_tournament_start(str you, list_str players);
void player_match_start(str opponent, uint32_t number, uint32_t total);
void player_game_start(const game_info *info);
cell player_place(const state *st);
turn player_take_turn(const state *st);
void player_game_over(int won);
void player_tournament_end(int won);

#endif
