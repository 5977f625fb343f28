const z = 1;
