#include "c.h"
#include "../a.h"
int b_h;
