int x;
const int x;
