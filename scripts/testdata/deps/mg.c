/* dep-compare input for -MG: missing quote and angle headers are generated files. */
#include "gen.h"
#include <gensys.h>
#include "sub/gen2.h"
#include "a.h"
int main(void) { return 0; }
