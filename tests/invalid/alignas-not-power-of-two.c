_Alignas(3) int x;
