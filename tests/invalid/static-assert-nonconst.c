int n;
_Static_assert(n, "n");
