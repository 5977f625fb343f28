#include "lib.h"

int lib_calls;

struct vec vec_cross(struct vec a, struct vec b) {
  lib_calls++;
  struct vec r = { a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x };
  return r;
}

double vec_dot(const struct vec *a, const struct vec *b) {
  lib_calls++;
  return a->x * b->x + a->y * b->y + a->z * b->z;
}

struct stats stats_of(const int *v, int n) {
  lib_calls++;
  struct stats s = { n, 0, v[0], v[0] };
  long sum = 0;
  for (int i = 0; i < n; i++) {
    sum += v[i];
    if (v[i] < s.min) s.min = v[i];
    if (v[i] > s.max) s.max = v[i];
  }
  s.mean = (double)sum / n;
  return s;
}

int filtered_sum(const int *v, int n) {
  lib_calls++;
  int s = 0;
  for (int i = 0; i < n; i++)
    if (main_filter(v[i])) s += v[i] * main_scale;
  return s;
}
