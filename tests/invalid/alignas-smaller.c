_Alignas(1) int x;
