/* stdarg.h: C17 7.16, for every target. Part of neverc.
 *
 * va_list is the compiler's __builtin_va_list; the macros are its builtins. With
 * __need___va_list defined (glibc's and newlib's <stdio.h> do that) only __gnuc_va_list,
 * the name those libraries use in their prototypes, is defined. */

#ifndef __GNUC_VA_LIST
#define __GNUC_VA_LIST 1
typedef __builtin_va_list __gnuc_va_list;
#endif

#ifdef __need___va_list
#undef __need___va_list
#else

#ifndef __neverc_STDARG_H
#define __neverc_STDARG_H 1
#ifndef _STDARG_H
#define _STDARG_H 1
#endif

#ifndef __neverc_va_list
#define __neverc_va_list 1
typedef __builtin_va_list va_list;
#endif

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 202311L
#define va_start(ap, ...) __builtin_va_start(ap, 0)
#else
#define va_start(ap, param) __builtin_va_start(ap, param)
#endif
#define va_arg(ap, type) __builtin_va_arg(ap, type)
#define va_end(ap) __builtin_va_end(ap)
#if (defined(__STDC_VERSION__) && __STDC_VERSION__ >= 199901L) || !defined(__STRICT_ANSI__) \
    || defined(__cplusplus)
#define va_copy(dest, src) __builtin_va_copy(dest, src)
#endif
#ifndef __STRICT_ANSI__
#define __va_copy(dest, src) __builtin_va_copy(dest, src)
#endif

#endif
#endif
