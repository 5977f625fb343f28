_Static_assert(sizeof(int) == 2, "int is two bytes");
