/* Function pointers across the compilers: comparators for qsort and bsearch, callbacks
   taking and returning records by value, a function returning a function pointer. */
#include <stddef.h>
struct rec { int key; char name[12]; double weight; };
struct pair { long a; double b; };
struct big { int v[9]; };

/* cmp.c */
int by_key(const void *a, const void *b);
int by_name_desc(const void *a, const void *b);
int by_weight(const void *a, const void *b);
struct pair combine(struct pair p, double scale);
struct big bigger(struct big b, int add);
typedef int (*binop)(int, int);
binop pick(char c);
double fold(const double *v, size_t n, double (*f)(double, double), double init);

/* sorter.c */
void sort_recs(struct rec *r, size_t n, int (*cmp)(const void *, const void *));
struct pair map_pair(struct pair (*f)(struct pair, double), struct pair p, double s);
long sum_big(struct big (*f)(struct big, int), int add);
int apply_all(binop (*chooser)(char), const char *ops, int x);
double call_fold(double (*f)(double, double));
