#include <string.h>
#include "lib.h"

const char *const lib_words[] = { "static", "archive", "linked", "across", "compilers", 0 };

int word_count(void) {
  int n = 0;
  while (lib_words[n]) n++;
  return n;
}

const char *longest_word(void) {
  const char *best = lib_words[0];
  for (int i = 1; lib_words[i]; i++)
    if (strlen(lib_words[i]) > strlen(best)) best = lib_words[i];
  return best;
}

void join_words(char *out, int n, const char *sep) {
  out[0] = 0;
  for (int i = 0; lib_words[i]; i++) {
    if (i) strncat(out, sep, n - strlen(out) - 1);
    strncat(out, lib_words[i], n - strlen(out) - 1);
  }
}
