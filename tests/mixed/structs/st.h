/* Records by value, both ways: every x86-64 class mix and size. */
struct c3 { char a, b, c; };                     /* 3 bytes, INTEGER */
struct si { short s; int i; };                   /* 8 bytes, INTEGER */
struct ff { float x, y; };                       /* SSE, one register */
struct f3 { float x, y, z; };                    /* SSE, SSE */
struct dd { double a, b; };                      /* SSE, SSE */
struct id { int i; double d; };                  /* INTEGER, SSE */
struct di { double d; long l; };                 /* SSE, INTEGER */
struct fi { float f; int i; char c; };           /* INTEGER (mixed eightbyte), INTEGER */
struct big { long v[5]; };                       /* MEMORY */
struct ld { long double x; };                    /* X87 */
struct bits { unsigned a : 3, b : 7; int c : 12; unsigned long long d : 40; };
union u { double d; long l; char c[12]; };       /* 16 bytes, INTEGER, INTEGER */
struct nested { struct c3 c; struct ff f; };     /* INTEGER, SSE */
struct __attribute__((packed)) pk { char c; int i; short s; };

/* s1.c */
struct c3 s1_c3(struct c3 x);
struct si s1_si(struct si x, struct ff y);
struct f3 s1_f3(struct f3 x, float k);
struct dd s1_dd(struct dd x, struct id y, struct di z);
struct fi s1_fi(struct fi x);
struct big s1_big(struct big x, int k);
struct ld s1_ld(struct ld x, struct ld y);
struct bits s1_bits(struct bits x);
union u s1_u(union u x);
struct nested s1_nested(struct nested x);
struct pk s1_pk(struct pk x);
long s1_many(struct si a, struct dd b, struct big c, struct id d, struct di e, struct f3 f,
             struct c3 g, struct ld h, struct fi i, struct dd j, int k, double l);
long s1_to_s2(void);

/* s2.c: the same operations the other way round */
struct big s2_big(struct big x, struct c3 y);
struct dd s2_dd(struct dd x);
struct id s2_id(struct id x, struct di y);
struct ld s2_ld(struct ld x);
struct bits s2_bits(struct bits x, struct pk y);
long s2_to_s1(void);
