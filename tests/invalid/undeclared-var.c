int f(void) {
  return missing + 1;
}
