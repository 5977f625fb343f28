#include <stdio.h>
#include <string.h>
#include <stdint.h>

static uint32_t fnv1a(const char *s) { uint32_t h = 2166136261u; while (*s) { h ^= (unsigned char)*s++; h *= 16777619u; } return h; }
static uint64_t fnv1a64(const char *s) { uint64_t h = 14695981039346656037ull; while (*s) { h ^= (unsigned char)*s++; h *= 1099511628211ull; } return h; }
static uint32_t djb2(const char *s) { uint32_t h = 5381; int c; while ((c = (unsigned char)*s++)) h = h * 33 + c; return h; }
static uint32_t murmur_mix(uint32_t k) { k ^= k >> 16; k *= 0x85ebca6bu; k ^= k >> 13; k *= 0xc2b2ae35u; k ^= k >> 16; return k; }
static uint32_t crc32(const unsigned char *p, size_t n) {
    uint32_t c = 0xffffffffu;
    size_t i;
    int k;
    for (i = 0; i < n; i++) { c ^= p[i]; for (k = 0; k < 8; k++) c = (c >> 1) ^ (0xedb88320u & -(c & 1)); }
    return ~c;
}

#define TABLE 64
struct entry { const char *key; int value; int used; };
static struct entry table[TABLE];

static void put(const char *k, int v) {
    uint32_t i = fnv1a(k) % TABLE;
    while (table[i].used && strcmp(table[i].key, k)) i = (i + 1) % TABLE;
    table[i].key = k; table[i].value = v; table[i].used = 1;
}
static int get(const char *k) {
    uint32_t i = fnv1a(k) % TABLE;
    while (table[i].used) { if (!strcmp(table[i].key, k)) return table[i].value; i = (i + 1) % TABLE; }
    return -1;
}

int main(void) {
    const char *words[] = { "", "a", "hello", "world", "The quick brown fox jumps over the lazy dog" };
    int i;
    for (i = 0; i < 5; i++)
        printf("%08x %016llx %08x %08x %08x\n", fnv1a(words[i]), (unsigned long long)fnv1a64(words[i]), djb2(words[i]),
               murmur_mix((uint32_t)i * 0x9e3779b9u), crc32((const unsigned char *)words[i], strlen(words[i])));
    put("alpha", 1); put("beta", 2); put("gamma", 3); put("delta", 4); put("beta", 20);
    printf("%d %d %d %d\n", get("alpha"), get("beta"), get("delta"), get("omega"));
    return 0;
}
