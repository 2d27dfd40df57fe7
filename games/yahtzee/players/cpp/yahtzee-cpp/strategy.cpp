/* yahtzee-cpp: the C player's strategy in C++ (std::array for the counts): keep made hands, 4-long straights or the most useful face; score the legal box with the best score over par. */
extern "C" {
#include "abi.h"
}
#include <array>


/* What a box is worth on average when it is kept open for later (tenths of a point), roughly the
 * averages of good play; a box is chosen by its score now minus this. */
static const int PAR[CAT_COUNT] = {
  21, 53, 86, 122, 157, 192,   /* ones .. sixes */
  217, 131, 226, 295, 327,     /* 3 of a kind, 4 of a kind, full house, small and large straight */
  169, 220,                    /* yahtzee, chance */
};

struct view {
  uint8_t dice[5];
  std::array<int, 7> counts;  /* counts[f]: how many dice show f */
  std::array<int, CAT_COUNT> open;
  int max_count, max_face;
  int run, run_start;  /* the longest run of consecutive faces present */
};

static int read_view(const turn_state *st, view *v) {
  if (st->dice.len != 5) return 0;
  v->counts.fill(0);
  for (int i = 0; i < 5; i++) {
    uint8_t d = st->dice.ptr[i];
    if (d < 1 || d > 6) return 0;
    v->dice[i] = d;
    v->counts[d]++;
  }
  for (int c = 0; c < CAT_COUNT; c++)
    v->open[c] = st->mine.boxes.len == CAT_COUNT ? !st->mine.boxes.ptr[c].is_some : 1;
  v->max_count = 0, v->max_face = 6;
  for (int f = 6; f >= 1; f--)
    if (v->counts[f] > v->max_count) v->max_count = v->counts[f], v->max_face = f;
  v->run = 0, v->run_start = 1;
  for (int f = 1, len = 0; f <= 6; f++) {
    len = v->counts[f] ? len + 1 : 0;
    if (len > v->run) v->run = len, v->run_start = f - len + 1;
  }
  return 1;
}

static int keep_all(const view *v, uint8_t out[5]) {
  for (int i = 0; i < 5; i++) out[i] = v->dice[i];
  return 5;
}

static int keep_run(const view *v, int len, uint8_t out[5]) {
  for (int i = 0; i < len; i++) out[i] = (uint8_t)(v->run_start + i);
  return len;
}

static int keep_face(const view *v, int face, int n, uint8_t out[5]) {
  for (int i = 0; i < v->counts[face]; i++) out[n++] = (uint8_t)face;
  return n;
}

extern "C" int strategy_keep(const turn_state *st, uint8_t out[5]) {
  view v;
  if (!read_view(st, &v)) return 0;
  int straights = v.open[CAT_SMALL_STRAIGHT] || v.open[CAT_LARGE_STRAIGHT];
  int pairs = 0, trips = 0;
  for (int f = 1; f <= 6; f++) pairs += v.counts[f] == 2, trips += v.counts[f] == 3;

  /* Made hands. */
  if (v.max_count == 5) return keep_all(&v, out);
  if (v.run == 5 && v.open[CAT_LARGE_STRAIGHT]) return keep_all(&v, out);
  if (v.run >= 4 && v.open[CAT_SMALL_STRAIGHT] && !v.open[CAT_LARGE_STRAIGHT]) return keep_all(&v, out);
  if (trips && pairs && v.open[CAT_FULL_HOUSE]) return keep_all(&v, out);
  /* Draws: a 4-long straight, two pairs for a full house, a 3-long straight when nothing pairs up. */
  if (v.run >= 4 && v.open[CAT_LARGE_STRAIGHT]) return keep_run(&v, 4, out);
  if (pairs == 2 && v.open[CAT_FULL_HOUSE]) {
    int n = 0;
    for (int f = 1; f <= 6; f++)
      if (v.counts[f] == 2) n = keep_face(&v, f, n, out);
    return n;
  }
  if (v.run >= 3 && v.max_count == 1 && straights) return keep_run(&v, 3, out);

  /* Otherwise the face with the most dice, preferring one whose upper box is open, then high faces. */
  int of_a_kind = v.open[CAT_THREE_KIND] || v.open[CAT_FOUR_KIND] || v.open[CAT_YAHTZEE];
  int best = 0, best_value = -1;
  for (int f = 1; f <= 6; f++) {
    if (!v.counts[f]) continue;
    int value = v.counts[f] * 10 + f + (v.open[f - 1] ? 4 : 0) + (of_a_kind ? 2 : 0);
    if (value > best_value) best_value = value, best = f;
  }
  return keep_face(&v, best, 0, out);
}

extern "C" int strategy_choose(const turn_state *st) {
  view v;
  if (!read_view(st, &v)) return CAT_CHANCE;
  int best = -1, best_value = 0;
  for (int c = 0; c < CAT_COUNT; c++) {
    if (!v.open[c]) continue;  /* a used box is never allowed */
    int score = rules_score(&st->mine, v.dice, c);  /* -1: not allowed now */
    if (score < 0) continue;
    int value = score * 10 - PAR[c];
    /* Three or more of a face in its upper box keeps the 35-point bonus within reach. */
    if (c <= CAT_SIXES && v.counts[c + 1] >= 3 && st->mine.upper_bonus == 0) value += 30;
    if (best < 0 || value > best_value) best = c, best_value = value;
  }
  if (best >= 0) return best;
  for (int c = 0; c < CAT_COUNT; c++)  /* never reached: the rules always leave a box */
    if (v.open[c]) return c;
  return CAT_CHANCE;
}
