/* dep-compare input whose own name needs escaping in the default target. */
#include "a.h"
#include "sp ace.h"
int f(void) { return 0; }
