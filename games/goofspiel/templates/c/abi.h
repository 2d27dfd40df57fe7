/* {{name}}: the arena:goofspiel/player world's types as the canonical ABI lays them out in wasm32 memory, shared by abi.c and player.c. */
#ifndef ARENA_GOOFSPIEL_ABI_H
#define ARENA_GOOFSPIEL_ABI_H

#include <stddef.h>
#include <stdint.h>

/* alloc.c: empties the bump allocator's heap (after every call, in its post-return function). */
void heap_reset(void);

/* Hand-written canonical ABI (component model, wasm32, sync) for wit/goofspiel.wit. Layout rules: a
 * record is aligned to its widest field and its fields are placed in order, each at its own
 * alignment; a list is (i32 ptr, i32 len), align 4; option<T> is a u8 discriminant followed by T at
 * T's alignment; bool is one byte (0 or 1). C's natural struct layout on wasm32 is the same, checked
 * by the _Static_asserts below. Lists passed to you live in memory the host allocated through
 * cm32p2_realloc for this call only: do not keep pointers into them between calls. */

typedef struct { const uint8_t *ptr; uint32_t len; } list_u8;            /* list<u8> */
typedef struct { const uint32_t *ptr; uint32_t len; } list_u32;          /* list<u32> */
typedef struct { const uint8_t *ptr; uint32_t len; } list_bool;          /* list<bool>: 0 or 1 each */

typedef struct { uint8_t is_some; uint8_t val; } opt_u8;                 /* option<u8>: size 2, align 1 */
typedef struct { const opt_u8 *ptr; uint32_t len; } list_opt_u8;         /* list<option<u8>> */
typedef struct { uint8_t is_some; uint32_t val; } opt_u32;               /* option<u32>: size 8, align 4 */

typedef struct {                                                         /* record round-result */
  uint8_t prize;          /* the prize turned up that round */
  list_u8 carried;        /* the prizes carried over to it */
  list_opt_u8 bids;       /* each seat's bid, in seat order; none for a seat that was out */
  opt_u32 winner;         /* the seat that took the prizes, none if the highest bid was tied */
} round_result;
typedef struct { const round_result *ptr; uint32_t len; } list_round;    /* list<round-result> */

typedef struct {                                                         /* record state */
  uint32_t you;           /* your seat (from 0) */
  uint32_t seats;         /* how many seats the game has */
  uint32_t round;         /* this round, 1..=13 */
  uint8_t prize;          /* the prize up for bidding now, 1..=13 */
  list_u8 carried;        /* the prizes carried over to it */
  list_u8 hand;           /* your cards not bid yet, ascending */
  list_u32 scores;        /* prize points each seat has taken, in seat order */
  list_bool playing;      /* whether each seat is still in the game */
  list_round history;     /* every earlier round, oldest first */
} state;

_Static_assert(sizeof(opt_u8) == 2 && _Alignof(opt_u8) == 1, "option<u8> layout");
_Static_assert(sizeof(opt_u32) == 8 && offsetof(opt_u32, val) == 4, "option<u32> layout");
_Static_assert(sizeof(round_result) == 28 && offsetof(round_result, carried) == 4 &&
               offsetof(round_result, bids) == 12 && offsetof(round_result, winner) == 20,
               "round-result layout");

/* The player (player.c): the world's one export, called by abi.c. */
uint8_t player_bid(const state *st);

#endif
