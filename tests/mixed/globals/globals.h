/* Shared declarations: the objects are defined in data.c, used in use.c and main.c. */
struct point { int x, y; double w; };
struct op { const char *name; int (*fn)(int); };
struct config { char tag[6]; unsigned char flags; long long limit; const struct op *ops; };

extern int counters[8];
extern struct point origin;
extern struct point path[3];
extern __thread int tls_value;
extern __thread struct point tls_point;
extern const char *const color_names[];
extern const struct op ops[];
extern const int *const counter_ptrs[2];
extern char message[];
extern long long big;
extern long double ld_global;
extern const struct config config;
extern unsigned char bytes[300];
extern int (*volatile hook)(int);

/* use.c */
int sum_counters(void);
void bump_counters(int by);
double path_length2(void);
int apply_ops(int x);
int bump_tls(int by);
int tls_in_thread(void);
const char *color(int i);
int count_colors(void);
void fill_bytes(unsigned char seed);
long long bytes_sum(void);
int call_hook(int x);
