char double x;
