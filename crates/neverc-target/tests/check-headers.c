/* Compiled by check-headers.sh with neverc's headers (crates/neverc-target/include) and a
 * reference compiler: every header must be clean under -std=c17 -pedantic -Werror, and the
 * facts below must hold. NEVERC_REF_ONLY: only the max_align_t facts, against the
 * compiler's own <stddef.h>. NEVERC_WITH_LIBC: a C library's headers are searched too. */

#ifdef NEVERC_REF_ONLY
#include <stddef.h>
#else

/* The __need_* protocol C libraries use, before anything defines the full headers. */
#define __need_size_t
#include <stddef.h>
#ifdef __need_size_t
#error "stddef.h left __need_size_t defined"
#endif
#if defined(NULL) || defined(offsetof)
#error "__need_size_t defined more than size_t"
#endif
size_t need_size;
#define __need_wint_t
#define __need_NULL
#include <stddef.h>
__WINT_TYPE__ need_wint_same_type;
wint_t need_wint;
void *need_null = NULL;
#ifdef offsetof
#error "__need_wint_t/__need_NULL defined offsetof"
#endif
#define __need___va_list
#include <stdarg.h>
__gnuc_va_list need_va_list;
#if defined(va_start) || defined(__need___va_list)
#error "__need___va_list defined more than __gnuc_va_list"
#endif

#ifdef NEVERC_WITH_LIBC
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>
#if __has_include(<wchar.h>)
#include <wchar.h>
#endif
#endif

#include <float.h>
#include <iso646.h>
#include <limits.h>
#include <stdalign.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdnoreturn.h>
/* Twice: every header is idempotent. */
#include <float.h>
#include <limits.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define A(c) _Static_assert(c, #c)
#define SAME_TYPE(e, t) _Generic((e), t: 1, default: 0)
#define PROMOTED(t) __typeof__(+(t)0)

/* stddef.h */
A(SAME_TYPE((size_t)0, __SIZE_TYPE__));
A(SAME_TYPE((ptrdiff_t)0, __PTRDIFF_TYPE__));
A(SAME_TYPE((wchar_t)0, __WCHAR_TYPE__));
A(SAME_TYPE(NULL, void *));
struct s { char c; int i; };
A(offsetof(struct s, i) == _Alignof(int));
A(_Alignof(max_align_t) >= _Alignof(long long) && _Alignof(max_align_t) >= _Alignof(long double));

/* limits.h */
A(CHAR_BIT == 8);
A(SCHAR_MAX == 127 && SCHAR_MIN == -128 && UCHAR_MAX == 255);
A(SHRT_MAX == 32767 && SHRT_MIN == -32768 && USHRT_MAX == 65535);
A(INT_MAX == __INT_MAX__ && INT_MIN == -INT_MAX - 1 && UINT_MAX == (unsigned)-1);
A(LONG_MAX == __LONG_MAX__ && ULONG_MAX == (unsigned long)-1);
A(LLONG_MAX == 0x7fffffffffffffffLL && LLONG_MIN == -LLONG_MAX - 1 && ULLONG_MAX == (unsigned long long)-1);
A((char)CHAR_MIN == CHAR_MIN && (char)CHAR_MAX == CHAR_MAX && (char)(CHAR_MAX + 1) != CHAR_MAX + 1);
A(SAME_TYPE(UCHAR_MAX, PROMOTED(unsigned char)) && SAME_TYPE(USHRT_MAX, PROMOTED(unsigned short)));
A(SAME_TYPE(CHAR_MAX, PROMOTED(char)) && SAME_TYPE(CHAR_MIN, PROMOTED(char)));
A(SAME_TYPE(UINT_MAX, unsigned) && SAME_TYPE(LONG_MIN, long) && SAME_TYPE(ULLONG_MAX, unsigned long long));
A(MB_LEN_MAX >= 1);
#if defined(NEVERC_WITH_LIBC) && defined(__GLIBC__)
A(MB_LEN_MAX == 16); /* glibc's <limits.h> was reached */
#endif

/* stdint.h */
A(sizeof(int8_t) == 1 && sizeof(int16_t) == 2 && sizeof(int32_t) == 4 && sizeof(int64_t) == 8);
A(sizeof(uint8_t) == 1 && sizeof(uint16_t) == 2 && sizeof(uint32_t) == 4 && sizeof(uint64_t) == 8);
A(INT8_MAX == 127 && INT8_MIN == -128 && UINT8_MAX == 255);
A(INT16_MAX == 32767 && INT16_MIN == -32768 && UINT16_MAX == 65535);
A(INT32_MAX == 2147483647 && INT32_MIN == -INT32_MAX - 1 && UINT32_MAX == 4294967295u);
A(INT64_MAX == 9223372036854775807LL && INT64_MIN == -INT64_MAX - 1 && UINT64_MAX == 18446744073709551615ULL);
A((int32_t)-1 < 0 && (uint32_t)-1 > 0 && (int_least8_t)-1 < 0 && (uint_fast16_t)-1 > 0);
A(sizeof(int_least16_t) >= 2 && sizeof(int_fast32_t) >= 4 && sizeof(uint_least64_t) >= 8);
A(INT_LEAST8_MAX == 127 && UINT_LEAST16_MAX == 65535 && INT_FAST64_MAX == INT64_MAX);
A(sizeof(intptr_t) == sizeof(void *) && sizeof(uintptr_t) == sizeof(void *));
A(UINTPTR_MAX == (uintptr_t)-1 && INTPTR_MIN == -INTPTR_MAX - 1);
A(sizeof(intmax_t) == 8 && INTMAX_MAX == INT64_MAX && UINTMAX_MAX == UINT64_MAX);
A(SIZE_MAX == (size_t)-1 && PTRDIFF_MAX == (ptrdiff_t)(SIZE_MAX / 2) && PTRDIFF_MIN == -PTRDIFF_MAX - 1);
A(SIG_ATOMIC_MIN < 0 && SIG_ATOMIC_MAX > 0);
A((wchar_t)WCHAR_MAX == WCHAR_MAX && (wchar_t)WCHAR_MIN == WCHAR_MIN);
A((wchar_t)-1 == WCHAR_MAX ? WCHAR_MIN == 0 : WCHAR_MIN == -WCHAR_MAX - 1);
A((__WINT_TYPE__)WINT_MAX == WINT_MAX && (__WINT_TYPE__)WINT_MIN == WINT_MIN);
A(INT8_C(-1) == -1 && UINT16_C(65535) == 65535 && INT32_C(-5) == -5);
A(INT64_C(0x7fffffffffffffff) == INT64_MAX && UINT64_C(0xffffffffffffffff) == UINT64_MAX);
A(SAME_TYPE(INT64_C(0), int_least64_t) && SAME_TYPE(UINT64_C(0), uint_least64_t));
A(SAME_TYPE(INTMAX_C(0), intmax_t) && SAME_TYPE(UINTMAX_C(0), uintmax_t));
A(SAME_TYPE(UINT32_C(0), PROMOTED(uint_least32_t)) && SAME_TYPE(INT8_C(0), int));

/* float.h. Floating comparisons are not integer constant expressions in ISO C; gcc folds
   them in _Static_assert and clang in array sizes, so only -pedantic's complaint is silenced
   for these lines. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
#ifdef __clang__
#pragma GCC diagnostic ignored "-Wgnu-folding-constant"
#endif
#define AF_NAME2(line) float_fact_##line
#define AF_NAME(line) AF_NAME2(line)
#ifdef __clang__
#define AF(c) typedef char AF_NAME(__LINE__)[(c) ? 1 : -1]
#else
#define AF(c) _Static_assert(c, #c)
#endif
AF(FLT_RADIX == 2 && FLT_ROUNDS == 1 && FLT_MANT_DIG == 24);
AF(FLT_MAX == 0x1.fffffep127f && FLT_MIN == 0x1p-126f && FLT_EPSILON == 0x1p-23f && FLT_TRUE_MIN == 0x1p-149f);
AF(FLT_DIG == 6 && FLT_MIN_EXP == -125 && FLT_MAX_EXP == 128 && FLT_MAX_10_EXP == 38 && FLT_MIN_10_EXP == -37);
AF(FLT_DECIMAL_DIG == 9 && FLT_HAS_SUBNORM == 1);
#if defined(__AVR__)
AF(DBL_MANT_DIG == 24 && LDBL_MANT_DIG == 24 && DBL_MAX == FLT_MAX && LDBL_DECIMAL_DIG == 9);
#else
AF(DBL_MANT_DIG == 53 && DBL_MAX == 0x1.fffffffffffffp1023 && DBL_MIN == 0x1p-1022 && DBL_EPSILON == 0x1p-52);
AF(DBL_DIG == 15 && DBL_DECIMAL_DIG == 17 && DBL_TRUE_MIN == 0x1p-1074);
#endif
#if defined(__x86_64__) && !defined(_WIN32)
AF(LDBL_MANT_DIG == 64 && LDBL_DECIMAL_DIG == 21 && LDBL_EPSILON == 0x1p-63L);
#elif (defined(__aarch64__) && !defined(__APPLE__)) || defined(__riscv)
AF(LDBL_MANT_DIG == 113 && LDBL_DECIMAL_DIG == 36 && LDBL_EPSILON == 0x1p-112L);
#elif !defined(__AVR__)
AF(LDBL_MANT_DIG == 53 && LDBL_MAX == DBL_MAX && LDBL_DECIMAL_DIG == 17);
#endif
AF(FLT_EVAL_METHOD == __FLT_EVAL_METHOD__);
#pragma GCC diagnostic pop

/* stdbool.h, stdalign.h, stdnoreturn.h, iso646.h */
A(true == 1 && false == 0 && __bool_true_false_are_defined == 1 && SAME_TYPE((bool)2, _Bool));
A(alignof(int) == _Alignof(int) && __alignas_is_defined == 1 && __alignof_is_defined == 1);
alignas(8) char aligned8;
struct a8 { alignas(8) char c; };
A(_Alignof(struct a8) == 8);
noreturn void stop(void);
A((1 and 2) == 1 && (0 or 3) == 1 && (not 0) == 1 && (6 bitand 3) == 2 && (4 bitor 1) == 5);
A((6 xor 3) == 5 && compl 0 == -1 && (1 not_eq 2) == 1);
static int compound(int x) { x and_eq 6; x or_eq 1; x xor_eq 2; return x; }

/* stdarg.h */
static long sum(int n, ...) {
  va_list ap, aq;
  long s = 0;
  va_start(ap, n);
  va_copy(aq, ap);
  for (int i = 0; i < n; i++)
    s += va_arg(ap, int) + va_arg(aq, int);
  va_end(aq);
  va_end(ap);
  return s;
}
A(SAME_TYPE((va_list *)0, __builtin_va_list *) && SAME_TYPE((__gnuc_va_list *)0, va_list *));

/* stdatomic.h */
A(memory_order_relaxed == __ATOMIC_RELAXED && memory_order_seq_cst == __ATOMIC_SEQ_CST);
#ifdef __GCC_ATOMIC_INT_LOCK_FREE
A(ATOMIC_INT_LOCK_FREE == __GCC_ATOMIC_INT_LOCK_FREE && ATOMIC_POINTER_LOCK_FREE >= 1);
#endif
A(sizeof(atomic_int) == sizeof(int) && sizeof(atomic_uintptr_t) == sizeof(uintptr_t));
atomic_int counter = ATOMIC_VAR_INIT(0);
static atomic_flag flag = ATOMIC_FLAG_INIT;
/* clang's __atomic_*_n refuse _Atomic objects (gcc's, which neverc follows, accept them). */
#ifdef __clang__
static int atomics(void) { return flag.__neverc_flag + ATOMIC_VAR_INIT(0); }
#else
static int atomics(void) {
  int expected = 0;
  atomic_init(&counter, 1);
  atomic_store(&counter, 2);
  atomic_store_explicit(&counter, 3, memory_order_release);
  int v = atomic_load(&counter) + atomic_load_explicit(&counter, memory_order_acquire);
  v += atomic_exchange(&counter, 4);
  v += atomic_compare_exchange_strong(&counter, &expected, 5);
  v += atomic_compare_exchange_weak_explicit(&counter, &expected, 6, memory_order_acq_rel,
                                             memory_order_relaxed);
  v += atomic_fetch_add(&counter, 1) + atomic_fetch_sub(&counter, 1) + atomic_fetch_or(&counter, 1);
  v += atomic_fetch_xor(&counter, 1) + atomic_fetch_and_explicit(&counter, 1, memory_order_relaxed);
  v += atomic_flag_test_and_set(&flag);
  atomic_flag_clear(&flag);
  atomic_thread_fence(memory_order_seq_cst);
  atomic_signal_fence(memory_order_seq_cst);
  return v + atomic_is_lock_free(&counter) + kill_dependency(1);
}
#endif

int use(void);
int use(void) { return (int)sum(2, 1, 2) + compound(3) + atomics() + aligned8; }

#ifdef NEVERC_WITH_LIBC
A(sizeof(PRId32) > 1);
#endif

#endif /* NEVERC_REF_ONLY */

/* max_align_t: the same exact facts with neverc's and with the compiler's <stddef.h>. */
#define MAX_ALIGN(size, align) \
  _Static_assert(sizeof(max_align_t) == (size) && _Alignof(max_align_t) == (align), "max_align_t")
#if defined(__AVR__)
MAX_ALIGN(12, 1);
#elif defined(_WIN32) || defined(__APPLE__)
MAX_ALIGN(8, 8);
#elif defined(__x86_64__) || defined(__aarch64__) || defined(__riscv)
MAX_ALIGN(32, 16);
#elif defined(__arm__) || defined(__mips__)
MAX_ALIGN(16, 8);
#else
#error "no max_align_t facts for this target"
#endif
