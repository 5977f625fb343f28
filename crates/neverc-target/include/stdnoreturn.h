/* stdnoreturn.h: C17 7.23, for every target. Part of neverc. */
#ifndef __neverc_STDNORETURN_H
#define __neverc_STDNORETURN_H 1
#ifndef __cplusplus
#define noreturn _Noreturn
#endif
#endif
