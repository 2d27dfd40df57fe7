/* {{name}}: the memory the component's canonical ABI needs, over the C library's malloc (which C++'s
 * standard library and Zig's std.heap.c_allocator share): every block the host asks for through cm32p2_realloc during a call is
 * kept on a list, and all of them are freed after the call by heap_reset (its post-return function). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void heap_reset(void);

/* A block's header, before the bytes handed out (aligned as asked). */
typedef struct block {
  struct block *next;
} block;

static block *blocks = 0;

void heap_reset(void) {
  while (blocks) {
    block *next = blocks->next;
    free(blocks);
    blocks = next;
  }
}

__attribute__((export_name("cm32p2_realloc")))
void *cm32p2_realloc(void *old, uint32_t old_size, uint32_t align, uint32_t new_size) {
  if (old && new_size <= old_size) return old;
  if (align == 0) align = 1;
  size_t need = sizeof(block) + (size_t)align + (size_t)new_size;
  if (need < new_size) abort();
  block *b = (block *)malloc(need);
  if (!b) abort();
  b->next = blocks;
  blocks = b;
  uintptr_t start = (uintptr_t)(b + 1);
  uintptr_t p = (start + align - 1) & ~(uintptr_t)(align - 1);
  if (old) memcpy((void *)p, old, old_size);
  return (void *)p;
}
