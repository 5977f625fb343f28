// options: -Wall
int printf(const char *, ...);
int sprintf(char *, const char *, ...);
int scanf(const char *, ...);
struct s { unsigned b : 3; };
void f(char c, short h, unsigned u, long l, double d, float fl, char *s, int *ip, struct s *bs) {
  printf("%c %d %u %x %hd %ld\n", c, h, u, c, h, l);
  printf("%f %e %g %5.2f %*d %-8s %p %%\n", d, fl, d, d, 3, 4, s, ip);
  printf("%lu %lld %Lf %s\n", u, l, d, ip);
  printf("%d %d\n", bs->b, 1.5);
  printf("");
  sprintf(s, "%s=%d", "k", s);
  scanf("%d %ld %f %lf %s %c %*d", ip, ip, &fl, &d, s, s);
  scanf("%u %hd", &u, &h, 3);
}
