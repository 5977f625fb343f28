_Static_assert(0, "never");
