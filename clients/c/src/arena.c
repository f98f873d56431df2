/* Results as block chains: a result is its arena's first allocation, so the one sesame_free()
 * of the result frees the chain, and everything the result points to with it. */
#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

struct sesame__arena {
    struct sesame__arena *next;
    struct sesame__arena *last;   /* the first block's: where allocations go */
    size_t used, capacity;
    alignas(max_align_t) unsigned char data[];
};

enum { BLOCK_SIZE = 2048 };

static sesame__arena *block_new(size_t at_least) {
    size_t capacity = at_least > BLOCK_SIZE ? at_least : BLOCK_SIZE;
    sesame__arena *block = calloc(1, sizeof(sesame__arena) + capacity);
    if (block != NULL) {
        block->capacity = capacity;
        block->last = block;
    }
    return block;
}

sesame__arena *sesame__arena_new(void) {
    return block_new(BLOCK_SIZE);
}

void *sesame__alloc(sesame__arena *arena, size_t size) {
    size_t align = alignof(max_align_t);
    size = (size + align - 1) / align * align;
    if (size == 0) size = align;
    sesame__arena *block = arena->last;
    if (block->capacity - block->used < size) {
        sesame__arena *more = block_new(size);
        if (more == NULL) return NULL;
        block->next = more;
        arena->last = block = more;
    }
    void *memory = block->data + block->used;
    block->used += size;
    return memory;
}

char *sesame__strdup(sesame__arena *arena, const char *text) {
    size_t length = strlen(text) + 1;
    char *copy = sesame__alloc(arena, length);
    if (copy != NULL) memcpy(copy, text, length);
    return copy;
}

void sesame__arena_free(sesame__arena *arena) {
    while (arena != NULL) {
        sesame__arena *next = arena->next;
        free(arena);
        arena = next;
    }
}

void sesame_free(void *result) {
    if (result != NULL) sesame__arena_free((sesame__arena *)((unsigned char *)result - offsetof(sesame__arena, data)));
}

size_t sesame__arena_data_offset(void) {
    return offsetof(sesame__arena, data);
}
