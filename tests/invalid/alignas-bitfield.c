struct s { _Alignas(8) int b : 3; };
