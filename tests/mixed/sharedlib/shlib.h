/* A shared library (-shared -fPIC) built by one compiler, used by a main built by the
   other: exported data (copied into the executable), a const table of pointers
   (relocated at load time), function pointers compared across the boundary, callbacks,
   records by value, a variadic function, thread-local state private to the library. */
#include <stddef.h>
struct item { const char *name; int qty; double price; };
struct total { long count; double value; };

extern int shl_counter;
extern struct item shl_items[4];
extern const char *const shl_names[];
extern int (*const shl_default_cmp)(const void *, const void *);

int shl_by_qty(const void *a, const void *b);
void shl_sort(struct item *v, size_t n, int (*cmp)(const void *, const void *));
struct total shl_total(const struct item *v, size_t n, double (*adjust)(struct item));
struct item shl_cheapest(struct item a, struct item b);
long shl_sum(int n, ...);
int shl_tls_bump(void);
int shl_is_default(int (*f)(const void *, const void *));
