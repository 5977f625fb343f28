/* stddef.h: C17 7.19, for every target. Part of neverc.
 *
 * Every type comes from a predefined macro (__SIZE_TYPE__, __PTRDIFF_TYPE__, ...).
 * C libraries include this header with __need_size_t, __need_ptrdiff_t, __need_wchar_t,
 * __need_wint_t or __need_NULL defined to get only that part; each such request is
 * honoured and then undefined. Without any, everything is defined. */

#if !defined(__need_size_t) && !defined(__need_ptrdiff_t) && !defined(__need_wchar_t) \
    && !defined(__need_wint_t) && !defined(__need_NULL)
#define __neverc_stddef_all 1
#ifndef _STDDEF_H
#define _STDDEF_H 1
#endif
#endif

#if defined(__neverc_stddef_all) || defined(__need_size_t)
#ifndef __neverc_size_t
#define __neverc_size_t 1
#define _SIZE_T 1
typedef __SIZE_TYPE__ size_t;
#endif
#endif

#if defined(__neverc_stddef_all) || defined(__need_ptrdiff_t)
#ifndef __neverc_ptrdiff_t
#define __neverc_ptrdiff_t 1
#define _PTRDIFF_T 1
typedef __PTRDIFF_TYPE__ ptrdiff_t;
#endif
#endif

#if (defined(__neverc_stddef_all) || defined(__need_wchar_t)) && !defined(__cplusplus)
#ifndef __neverc_wchar_t
#define __neverc_wchar_t 1
#define _WCHAR_T 1
typedef __WCHAR_TYPE__ wchar_t;
#endif
#endif

/* wint_t is <wchar.h>'s, but C libraries ask for it here. */
#if defined(__need_wint_t)
#ifndef __neverc_wint_t
#define __neverc_wint_t 1
#define _WINT_T 1
typedef __WINT_TYPE__ wint_t;
#endif
#endif

#if defined(__neverc_stddef_all) || defined(__need_NULL)
#undef NULL
#ifdef __cplusplus
#define NULL __null
#else
#define NULL ((void *)0)
#endif
#endif

#if defined(__neverc_stddef_all)
#undef offsetof
#define offsetof(type, member) __builtin_offsetof(type, member)

#if (defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L) \
    || (defined(__cplusplus) && __cplusplus >= 201103L)
#ifndef __neverc_max_align_t
#define __neverc_max_align_t 1
#if defined(_WIN32) && !defined(__MINGW32__)
/* The Microsoft C library's definition. */
typedef double max_align_t;
#elif defined(__APPLE__)
/* Apple's definition. */
typedef long double max_align_t;
#else
/* gcc's definition: the stricter of long long and long double, as each is aligned
   inside a structure. */
typedef struct {
  long long __neverc_max_align_ll __attribute__((__aligned__(__alignof__(long long))));
  long double __neverc_max_align_ld __attribute__((__aligned__(__alignof__(long double))));
} max_align_t;
#endif
#endif
#endif

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 202311L
#ifndef __neverc_nullptr_t
#define __neverc_nullptr_t 1
typedef typeof(nullptr) nullptr_t;
#endif
#define unreachable() __builtin_unreachable()
#define __STDC_VERSION_STDDEF_H__ 202311L
#endif
#endif

#undef __neverc_stddef_all
#undef __need_size_t
#undef __need_ptrdiff_t
#undef __need_wchar_t
#undef __need_wint_t
#undef __need_NULL
