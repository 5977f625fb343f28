/* dep-compare: a second input, for several inputs at once. */
#include "sub/c.h"
#include <inc1.h>
int g(void) { return 0; }
