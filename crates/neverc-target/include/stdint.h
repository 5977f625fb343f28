/* stdint.h: C17 7.20, for every target. Part of neverc.
 *
 * On a hosted target whose C library has a <stdint.h> (glibc, newlib, avr-libc, ...) that
 * one is used, as gcc does: the library's typedefs must be the ones its other headers see.
 * Otherwise (freestanding, or no C library) every type and limit comes from a predefined
 * macro (__INT_LEAST8_TYPE__, __INT64_MAX__, __UINT64_C, ...). */
#ifndef __neverc_STDINT_H
#define __neverc_STDINT_H 1

#if defined(__STDC_HOSTED__) && __STDC_HOSTED__ && defined(__has_include_next)
#if __has_include_next(<stdint.h>)
#define __neverc_stdint_next 1
#endif
#endif

#ifdef __neverc_stdint_next
#undef __neverc_stdint_next
#include_next <stdint.h>
#else

/* 7.20.1.1 exact-width types, where the target has them. */
#ifdef __INT8_TYPE__
typedef __INT8_TYPE__ int8_t;
#define INT8_MAX __INT8_MAX__
#define INT8_MIN (-INT8_MAX - 1)
#endif
#ifdef __UINT8_TYPE__
typedef __UINT8_TYPE__ uint8_t;
#define UINT8_MAX __UINT8_MAX__
#endif
#ifdef __INT16_TYPE__
typedef __INT16_TYPE__ int16_t;
#define INT16_MAX __INT16_MAX__
#define INT16_MIN (-INT16_MAX - 1)
#endif
#ifdef __UINT16_TYPE__
typedef __UINT16_TYPE__ uint16_t;
#define UINT16_MAX __UINT16_MAX__
#endif
#ifdef __INT32_TYPE__
typedef __INT32_TYPE__ int32_t;
#define INT32_MAX __INT32_MAX__
#define INT32_MIN (-INT32_MAX - 1)
#endif
#ifdef __UINT32_TYPE__
typedef __UINT32_TYPE__ uint32_t;
#define UINT32_MAX __UINT32_MAX__
#endif
#ifdef __INT64_TYPE__
typedef __INT64_TYPE__ int64_t;
#define INT64_MAX __INT64_MAX__
#define INT64_MIN (-INT64_MAX - 1)
#endif
#ifdef __UINT64_TYPE__
typedef __UINT64_TYPE__ uint64_t;
#define UINT64_MAX __UINT64_MAX__
#endif

/* 7.20.1.2 and 7.20.1.3 minimum-width and fastest types. */
typedef __INT_LEAST8_TYPE__ int_least8_t;
typedef __UINT_LEAST8_TYPE__ uint_least8_t;
#define INT_LEAST8_MAX __INT_LEAST8_MAX__
#define INT_LEAST8_MIN (-INT_LEAST8_MAX - 1)
#define UINT_LEAST8_MAX __UINT_LEAST8_MAX__
typedef __INT_LEAST16_TYPE__ int_least16_t;
typedef __UINT_LEAST16_TYPE__ uint_least16_t;
#define INT_LEAST16_MAX __INT_LEAST16_MAX__
#define INT_LEAST16_MIN (-INT_LEAST16_MAX - 1)
#define UINT_LEAST16_MAX __UINT_LEAST16_MAX__
typedef __INT_LEAST32_TYPE__ int_least32_t;
typedef __UINT_LEAST32_TYPE__ uint_least32_t;
#define INT_LEAST32_MAX __INT_LEAST32_MAX__
#define INT_LEAST32_MIN (-INT_LEAST32_MAX - 1)
#define UINT_LEAST32_MAX __UINT_LEAST32_MAX__
typedef __INT_LEAST64_TYPE__ int_least64_t;
typedef __UINT_LEAST64_TYPE__ uint_least64_t;
#define INT_LEAST64_MAX __INT_LEAST64_MAX__
#define INT_LEAST64_MIN (-INT_LEAST64_MAX - 1)
#define UINT_LEAST64_MAX __UINT_LEAST64_MAX__
typedef __INT_FAST8_TYPE__ int_fast8_t;
typedef __UINT_FAST8_TYPE__ uint_fast8_t;
#define INT_FAST8_MAX __INT_FAST8_MAX__
#define INT_FAST8_MIN (-INT_FAST8_MAX - 1)
#define UINT_FAST8_MAX __UINT_FAST8_MAX__
typedef __INT_FAST16_TYPE__ int_fast16_t;
typedef __UINT_FAST16_TYPE__ uint_fast16_t;
#define INT_FAST16_MAX __INT_FAST16_MAX__
#define INT_FAST16_MIN (-INT_FAST16_MAX - 1)
#define UINT_FAST16_MAX __UINT_FAST16_MAX__
typedef __INT_FAST32_TYPE__ int_fast32_t;
typedef __UINT_FAST32_TYPE__ uint_fast32_t;
#define INT_FAST32_MAX __INT_FAST32_MAX__
#define INT_FAST32_MIN (-INT_FAST32_MAX - 1)
#define UINT_FAST32_MAX __UINT_FAST32_MAX__
typedef __INT_FAST64_TYPE__ int_fast64_t;
typedef __UINT_FAST64_TYPE__ uint_fast64_t;
#define INT_FAST64_MAX __INT_FAST64_MAX__
#define INT_FAST64_MIN (-INT_FAST64_MAX - 1)
#define UINT_FAST64_MAX __UINT_FAST64_MAX__

/* 7.20.1.4 and 7.20.1.5 pointer-holding and greatest-width types. */
#ifdef __INTPTR_TYPE__
typedef __INTPTR_TYPE__ intptr_t;
#define INTPTR_MAX __INTPTR_MAX__
#define INTPTR_MIN (-INTPTR_MAX - 1)
#endif
#ifdef __UINTPTR_TYPE__
typedef __UINTPTR_TYPE__ uintptr_t;
#define UINTPTR_MAX __UINTPTR_MAX__
#endif
typedef __INTMAX_TYPE__ intmax_t;
typedef __UINTMAX_TYPE__ uintmax_t;
#define INTMAX_MAX __INTMAX_MAX__
#define INTMAX_MIN (-INTMAX_MAX - 1)
#define UINTMAX_MAX __UINTMAX_MAX__

/* 7.20.3 limits of other integer types. clang-derived tables lack the *_MIN macros. */
#define PTRDIFF_MAX __PTRDIFF_MAX__
#define PTRDIFF_MIN (-PTRDIFF_MAX - 1)
#define SIZE_MAX __SIZE_MAX__
#define SIG_ATOMIC_MAX __SIG_ATOMIC_MAX__
#ifdef __SIG_ATOMIC_MIN__
#define SIG_ATOMIC_MIN __SIG_ATOMIC_MIN__
#else
#define SIG_ATOMIC_MIN (-SIG_ATOMIC_MAX - 1)
#endif
#define WCHAR_MAX __WCHAR_MAX__
#if defined(__WCHAR_MIN__)
#define WCHAR_MIN __WCHAR_MIN__
#elif defined(__WCHAR_UNSIGNED__)
#define WCHAR_MIN 0
#else
#define WCHAR_MIN (-WCHAR_MAX - 1)
#endif
#define WINT_MAX __WINT_MAX__
#if defined(__WINT_MIN__)
#define WINT_MIN __WINT_MIN__
#elif defined(__WINT_UNSIGNED__)
#define WINT_MIN 0
#else
#define WINT_MIN (-WINT_MAX - 1)
#endif

/* 7.20.4 constant macros: gcc predefines __INT8_C(c) ..., clang __INT8_C_SUFFIX__ .... */
#ifdef __INT8_C
#define INT8_C(c) __INT8_C(c)
#define INT16_C(c) __INT16_C(c)
#define INT32_C(c) __INT32_C(c)
#define INT64_C(c) __INT64_C(c)
#define UINT8_C(c) __UINT8_C(c)
#define UINT16_C(c) __UINT16_C(c)
#define UINT32_C(c) __UINT32_C(c)
#define UINT64_C(c) __UINT64_C(c)
#define INTMAX_C(c) __INTMAX_C(c)
#define UINTMAX_C(c) __UINTMAX_C(c)
#else
#define __neverc_int_c2(c, suffix) c##suffix
#define __neverc_int_c(c, suffix) __neverc_int_c2(c, suffix)
#define INT8_C(c) __neverc_int_c(c, __INT8_C_SUFFIX__)
#define INT16_C(c) __neverc_int_c(c, __INT16_C_SUFFIX__)
#define INT32_C(c) __neverc_int_c(c, __INT32_C_SUFFIX__)
#define INT64_C(c) __neverc_int_c(c, __INT64_C_SUFFIX__)
#define UINT8_C(c) __neverc_int_c(c, __UINT8_C_SUFFIX__)
#define UINT16_C(c) __neverc_int_c(c, __UINT16_C_SUFFIX__)
#define UINT32_C(c) __neverc_int_c(c, __UINT32_C_SUFFIX__)
#define UINT64_C(c) __neverc_int_c(c, __UINT64_C_SUFFIX__)
#define INTMAX_C(c) __neverc_int_c(c, __INTMAX_C_SUFFIX__)
#define UINTMAX_C(c) __neverc_int_c(c, __UINTMAX_C_SUFFIX__)
#endif

#endif
#endif
