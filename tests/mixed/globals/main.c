#include <stdio.h>
#include <string.h>
#include "globals.h"

static int cube(int x) { return x * x * x; }

int main(void) {
  printf("sum %d\n", sum_counters());
  bump_counters(3);
  printf("counters %d %d %d via ptrs %d %d\n", counters[0], counters[4], counters[7],
         *counter_ptrs[0], *counter_ptrs[1]);
  printf("origin %d %d %.2f\n", origin.x, origin.y, origin.w);
  origin.x = 0;
  origin.y = 0;
  printf("path %.3f\n", path_length2());
  printf("ops %d, %s %s %s\n", apply_ops(3), ops[0].name, ops[1].name, ops[2].name);
  printf("ops direct %d %d\n", ops[1].fn(9), config.ops->fn(4));
  printf("tls %d %d\n", tls_value, tls_point.x);
  int b = bump_tls(8);
  printf("tls bumped %d %d %.2f\n", b, tls_point.x, tls_point.w);
  printf("thread %d\n", tls_in_thread());
  printf("tls after %d\n", tls_value);
  printf("colors %d %s %s\n", count_colors(), color(1), color_names[2]);
  printf("message %s %zu\n", message, strlen(message));
  message[0] = 'H';
  printf("message %s\n", message);
  printf("big %llx ld %.3Lf\n", big, ld_global * 2);
  printf("config %s %x %lld %s\n", config.tag, config.flags, config.limit, config.ops->name);
  fill_bytes(11);
  printf("bytes %d %d %lld\n", bytes[0], bytes[299], bytes_sum());
  printf("hook %d\n", call_hook(5));
  hook = cube;
  printf("hook %d\n", call_hook(5));
  return 0;
}
