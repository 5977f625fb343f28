#ifndef INC1_H
#define INC1_H
int inc1;
#endif
