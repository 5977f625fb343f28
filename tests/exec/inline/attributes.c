/* noinline and always_inline: both compute the same; a noinline function keeps its own
   frame (its frame address differs from its caller's), an always_inline one is inlined
   even when big. */
#include <stdio.h>

__attribute__((noinline)) static int small_noinline(int x) { return x + 1; }

__attribute__((noinline)) static int frame_differs(void *caller_frame) {
    return __builtin_frame_address(0) != caller_frame;
}

static inline __attribute__((always_inline)) int big(int x) {
    int s = 0;
    for (int i = 0; i < x; i++) {
        if (i % 3 == 0) s += i * 7;
        else if (i % 3 == 1) s ^= i << 2;
        else s -= i / 2;
        switch (i & 7) {
        case 0: s += 1; break;
        case 1: s += 3; break;
        case 2: s *= 3; break;
        case 5: s -= 11; break;
        default: s += i; break;
        }
    }
    return s;
}

__attribute__((always_inline)) inline static long clamp(long v, long lo, long hi) {
    return v < lo ? lo : v > hi ? hi : v;
}

int main(void) {
    int t = 0;
    for (int i = 0; i < 50; i++)
        t += small_noinline(i);
    printf("%d %d\n", t, frame_differs(__builtin_frame_address(0)));
    printf("%d %d %d\n", big(0), big(10), big(100));
    printf("%ld %ld %ld\n", clamp(-5, 0, 9), clamp(5, 0, 9), clamp(50, 0, 9));
    return 0;
}
