/* {{name}}: the memory a component's canonical ABI needs, without libc: a bump allocator emptied after
 * every call, the exported cm32p2_realloc, and the memcpy/memset clang may call. */
#include <stddef.h>
#include <stdint.h>

void heap_reset(void);

/* --- Memory: a bump allocator, emptied after every call ---------------------------------------
 * A call's arguments (and the lists the rules return) are allocated through cm32p2_realloc during the
 * call and are dead once its post-return function has run; so each post-return function resets the
 * heap. Globals and the stack are untouched. No free(), no libc. */

extern unsigned char __heap_base;
static uintptr_t heap_top = (uintptr_t)&__heap_base;

static void *bump(uint32_t align, uint32_t size) {
  uintptr_t p = (heap_top + align - 1) & ~(uintptr_t)(align - 1);
  uintptr_t end = p + size;
  uintptr_t have = __builtin_wasm_memory_size(0) * 65536u;
  if (end < p) __builtin_trap();
  if (end > have) {
    uintptr_t pages = (end - have + 65535u) / 65536u;
    if (__builtin_wasm_memory_grow(0, pages) == (size_t)-1) __builtin_trap();
  }
  heap_top = end;
  return (void *)p;
}

void heap_reset(void) { heap_top = (uintptr_t)&__heap_base; }

/* clang may emit calls to these for struct copies and zeroing; there is no libc to provide them. */
void *memcpy(void *dst, const void *src, size_t n) {
  unsigned char *d = dst;
  const unsigned char *s = src;
  while (n--) *d++ = *s++;
  return dst;
}

void *memset(void *dst, int c, size_t n) {
  unsigned char *d = dst;
  while (n--) *d++ = (unsigned char)c;
  return dst;
}

__attribute__((export_name("cm32p2_realloc")))
void *cm32p2_realloc(void *old, uint32_t old_size, uint32_t align, uint32_t new_size) {
  if (old && new_size <= old_size) return old;
  void *p = bump(align ? align : 1, new_size);
  if (old) memcpy(p, old, old_size);
  return p;
}
