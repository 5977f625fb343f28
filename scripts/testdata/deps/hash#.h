int hash_h;
