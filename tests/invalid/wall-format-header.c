// options: -Wall
#include <stdio.h>
void f(unsigned u) { printf("%s\n", u); }
