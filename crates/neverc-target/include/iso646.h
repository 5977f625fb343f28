/* iso646.h: C17 7.9, for every target. Part of neverc. */
#ifndef __neverc_ISO646_H
#define __neverc_ISO646_H 1
#ifndef __cplusplus
#define and &&
#define and_eq &=
#define bitand &
#define bitor |
#define compl ~
#define not !
#define not_eq !=
#define or ||
#define or_eq |=
#define xor ^
#define xor_eq ^=
#endif
#endif
