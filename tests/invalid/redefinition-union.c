union u { int a; };
union u { int a; };
