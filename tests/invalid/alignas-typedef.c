typedef _Alignas(8) int T;
