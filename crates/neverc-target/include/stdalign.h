/* stdalign.h: C17 7.15, for every target. Part of neverc. */
#ifndef __neverc_STDALIGN_H
#define __neverc_STDALIGN_H 1
#if !defined(__cplusplus) && (!defined(__STDC_VERSION__) || __STDC_VERSION__ < 202311L)
#define alignas _Alignas
#define alignof _Alignof
#define __alignas_is_defined 1
#define __alignof_is_defined 1
#endif
#endif
