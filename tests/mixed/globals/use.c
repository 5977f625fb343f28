#include <pthread.h>
#include "globals.h"

int sum_counters(void) {
  int s = 0;
  for (int i = 0; i < 8; i++) s += counters[i];
  return s;
}

void bump_counters(int by) {
  for (int i = 0; i < 8; i++) counters[i] += by * i;
}

double path_length2(void) {
  double s = 0;
  for (int i = 0; i < 3; i++) {
    double dx = path[i].x - origin.x, dy = path[i].y - origin.y;
    s += (dx * dx + dy * dy) * path[i].w;
  }
  return s;
}

int apply_ops(int x) {
  for (const struct op *o = ops; o->name; o++) x = o->fn(x) + 1;
  return x;
}

int bump_tls(int by) {
  tls_value += by;
  tls_point.x += by;
  return tls_value;
}

static void *thread_main(void *arg) {
  /* A new thread sees the initial values. */
  int *out = arg;
  out[0] = tls_value;
  out[1] = bump_tls(5);
  out[2] = tls_point.x;
  return 0;
}

int tls_in_thread(void) {
  int out[3];
  pthread_t t;
  if (pthread_create(&t, 0, thread_main, out)) return -1;
  pthread_join(t, 0);
  return out[0] * 10000 + out[1] * 100 + out[2];
}

const char *color(int i) { return color_names[i]; }

int count_colors(void) {
  int n = 0;
  while (color_names[n]) n++;
  return n;
}

void fill_bytes(unsigned char seed) {
  for (int i = 0; i < 300; i++) bytes[i] = (unsigned char)(seed + i * 7);
}

long long bytes_sum(void) {
  long long s = 0;
  for (int i = 0; i < 300; i++) s += bytes[i] * (long long)(i + 1);
  return s;
}

int call_hook(int x) { return hook(x); }
