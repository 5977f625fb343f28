int a_h;
