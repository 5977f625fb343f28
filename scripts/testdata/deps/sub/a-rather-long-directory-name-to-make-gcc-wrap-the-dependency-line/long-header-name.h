int long_h;
