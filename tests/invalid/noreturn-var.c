_Noreturn int x;
