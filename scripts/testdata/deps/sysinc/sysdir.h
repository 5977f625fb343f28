#include <stddef.h>
int sysdir_h;
