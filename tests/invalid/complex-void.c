_Complex void x;
