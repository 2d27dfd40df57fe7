/* {{name}}: the world's types as the canonical ABI lays them out in wasm32 memory, shared by the glue and the strategy. */
#ifndef ARENA_YAHTZEE_ABI_H
#define ARENA_YAHTZEE_ABI_H

#include <stddef.h>
#include <stdint.h>

/* alloc.c: empties the bump allocator's heap (after every call, in its post-return function). */
void heap_reset(void);

/* Hand-written canonical ABI (component model, wasm32, sync) for wit/yahtzee `arena:yahtzee/player`.
 * Layout rules: a record is aligned to its widest field and its fields are placed in order at their
 * own alignment; a list or string is (i32 ptr, i32 len); option<T> is a u8 discriminant followed by
 * T at T's alignment. C's natural struct layout on wasm32 is the same, checked below. */

/* enum category: a plain index, in score-card order. */
enum {
  CAT_ONES, CAT_TWOS, CAT_THREES, CAT_FOURS, CAT_FIVES, CAT_SIXES,
  CAT_THREE_KIND, CAT_FOUR_KIND, CAT_FULL_HOUSE, CAT_SMALL_STRAIGHT, CAT_LARGE_STRAIGHT, CAT_YAHTZEE,
  CAT_CHANCE, CAT_COUNT
};

typedef struct { uint8_t is_some; uint16_t val; } opt_u16;               /* option<u16>: size 4, align 2 */
typedef struct { const uint8_t *ptr; uint32_t len; } list_u8;            /* list<u8>, string */
typedef struct { const opt_u16 *ptr; uint32_t len; } list_opt_u16;       /* list<option<u16>> */
typedef struct { const void *ptr; uint32_t len; } list_any;              /* list<game-score>, list<string> */

typedef struct {                                                         /* record scorecard */
  list_opt_u16 boxes;
  uint16_t upper_bonus, yahtzee_bonus, total;
} scorecard;

typedef struct {                                                         /* record match-state */
  uint32_t game, games_in_match, my_wins, their_wins, ties;
  list_any earlier;
} match_state;

typedef struct {                                                         /* record turn-state */
  uint8_t turn;
  list_u8 dice;
  uint8_t rolls_left;
  scorecard mine, theirs;
  list_u8 opponent;
  match_state match;
} turn_state;

_Static_assert(sizeof(opt_u16) == 4 && offsetof(opt_u16, val) == 2, "option<u16> layout");
_Static_assert(sizeof(scorecard) == 16 && offsetof(scorecard, total) == 12, "scorecard layout");
_Static_assert(sizeof(match_state) == 28 && offsetof(match_state, earlier) == 20, "match-state layout");
_Static_assert(offsetof(turn_state, dice) == 4 && offsetof(turn_state, rolls_left) == 12 &&
               offsetof(turn_state, mine) == 16 && offsetof(turn_state, theirs) == 32 &&
               offsetof(turn_state, opponent) == 48 && offsetof(turn_state, match) == 56 &&
               sizeof(turn_state) == 84, "turn-state layout");

/* The host's rule checker: what the five `dice` score in `box` on `card`, or -1 when the rules do not
 * allow that box now (used, forbidden by the joker rule). */
int rules_score(const scorecard *card, const uint8_t dice[5], int box);

/* The strategy (player.c; in the sample player, strategy.c). `keep` writes the kept values into `out` and returns how many. */
int strategy_keep(const turn_state *state, uint8_t out[5]);
int strategy_choose(const turn_state *state);

#endif
