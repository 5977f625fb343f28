_Static_assert(0);
