int g;
int h = g;
