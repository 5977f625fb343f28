#include "inc1.h"
#include "../guarded.h"
int x_h;
