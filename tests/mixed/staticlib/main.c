#include <stdio.h>
#include "lib.h"

int main_scale = 3;
int main_filter(int v) { return v % 2 == 0; }

int main(void) {
  struct vec a = { 1, 2, 3 }, b = { -4, 5, 0.5 };
  struct vec c = vec_cross(a, b);
  printf("cross %.2f %.2f %.2f dot %.2f\n", c.x, c.y, c.z, vec_dot(&a, &b));
  int v[] = { 4, -7, 12, 9, 0, 22, -3 };
  struct stats s = stats_of(v, 7);
  printf("stats %ld %.4f %d %d\n", s.n, s.mean, s.min, s.max);
  printf("filtered %d\n", filtered_sum(v, 7));
  main_scale = 10;
  printf("filtered %d\n", filtered_sum(v, 7));
  printf("words %d longest %s second %s\n", word_count(), longest_word(), lib_words[1]);
  char buf[80];
  join_words(buf, sizeof buf, "+");
  printf("joined %s\n", buf);
  printf("calls %d\n", lib_calls);
  return 0;
}
