/* A static library (lib_math.c, lib_text.c archived with ar) built by one compiler, used
   by a main built by the other. */
struct vec { double x, y, z; };
struct stats { long n; double mean; int min, max; };

extern int lib_calls;                 /* defined in the library */
extern const char *const lib_words[]; /* a const table of pointers in the library */
extern int main_scale;                /* defined in main.c, used by the library */
int main_filter(int v);               /* defined in main.c, called by the library */

struct vec vec_cross(struct vec a, struct vec b);
double vec_dot(const struct vec *a, const struct vec *b);
struct stats stats_of(const int *v, int n);
int filtered_sum(const int *v, int n);
int word_count(void);
const char *longest_word(void);
void join_words(char *out, int n, const char *sep);
