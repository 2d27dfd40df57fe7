/* {{name}}: the arena:fish/player world's types as the canonical ABI lays them out in wasm32 memory, shared by abi.c and player.c. */
#ifndef ARENA_FISH_ABI_H
#define ARENA_FISH_ABI_H

#include <stddef.h>
#include <stdint.h>

/* alloc.c: empties the bump allocator's heap (after every call, in its post-return function). */
void heap_reset(void);

/* Hand-written canonical ABI (component model, wasm32, sync) for wit/fish.wit. Layout rules: a record
 * is aligned to its widest field and its fields are placed in order, each at its own alignment; a list
 * is (i32 ptr, i32 len), align 4; an enum of up to 256 cases is one byte (flattened to an i32); bool
 * is one byte; a variant is a discriminant (u8 here) followed by the case's payload at the widest
 * case's alignment. C's natural struct layout on wasm32 is the same, checked by the _Static_asserts
 * below. Lists passed to you live in memory the host allocated through cm32p2_realloc for this call
 * only: do not keep pointers into them between calls. */

/* enum colour, in turn order, and enum phase: plain indices, stored in one byte. */
enum { COLOUR_RED, COLOUR_WHITE, COLOUR_BROWN, COLOUR_BLACK };
enum { PHASE_PLACEMENT, PHASE_PLAYING, PHASE_OVER };

typedef struct { const uint8_t *ptr; uint32_t len; } list_u8;            /* list<u8>, list<colour> */

typedef struct { uint8_t row, col; } pos;                                /* record pos: size 2, align 1 */
typedef struct { const pos *ptr; uint32_t len; } list_pos;               /* list<pos> */
typedef struct { pos from, to; } step;                                   /* record step: size 4, align 1 */
typedef struct { const step *ptr; uint32_t len; } list_step;             /* list<step> */

typedef struct {                                                         /* record board */
  uint8_t rows, cols;
  list_u8 tiles;          /* rows * cols fish counts, row by row; 0 is a hole */
} board;

typedef struct {                                                         /* record seat */
  uint8_t colour;
  list_pos penguins;
  uint32_t fish;
  uint8_t out;            /* bool: banned and removed */
} seat;
typedef struct { const seat *ptr; uint32_t len; } list_seat;             /* list<seat> */

typedef struct {                                                         /* record state */
  board board;
  list_seat seats;        /* one per player, in turn order */
  uint8_t turn;           /* colour: whose turn it is */
  uint8_t phase;
} state;

typedef struct { uint8_t colour; pos at; } placed;                       /* record placed: size 3 */
typedef struct { uint8_t colour; step step; } moved;                     /* record moved: size 5 */
enum { ACTION_PLACE, ACTION_MOVE };
typedef struct {                                                         /* variant action: size 6, align 1 */
  uint8_t tag;            /* ACTION_PLACE or ACTION_MOVE */
  union { placed place; moved move; } val;
} action;
typedef struct { const action *ptr; uint32_t len; } list_action;         /* list<action> */

_Static_assert(sizeof(pos) == 2 && sizeof(step) == 4 && _Alignof(step) == 1, "pos, step layout");
_Static_assert(sizeof(board) == 12 && offsetof(board, tiles) == 4, "board layout");
_Static_assert(sizeof(seat) == 20 && offsetof(seat, penguins) == 4 && offsetof(seat, fish) == 12 &&
               offsetof(seat, out) == 16, "seat layout");
_Static_assert(sizeof(state) == 24 && offsetof(state, seats) == 12 && offsetof(state, turn) == 20 &&
               offsetof(state, phase) == 21, "state layout");
_Static_assert(sizeof(placed) == 3 && sizeof(moved) == 5 && offsetof(moved, step) == 1, "placed, moved layout");
_Static_assert(sizeof(action) == 6 && _Alignof(action) == 1 && offsetof(action, val) == 1, "action layout");

/* The host's rule checker (interface rules), charged a little fuel per call. The lists live until the current call
 * returns. */
list_pos rules_legal_placements(const state *st);
list_step rules_legal_moves(const state *st);

/* The player (player.c): one function per export of the world, called by abi.c. */
void player_start(void);
void player_play_as(uint8_t colour);
void player_play_with(list_u8 others);
pos player_setup(const state *st);
step player_take_turn(const state *st, list_action actions);
void player_end(int won);

#endif
