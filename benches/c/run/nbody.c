/* nbody: double-precision n-body simulation (5 bodies, symplectic Euler steps). */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

struct body { double x, y, z, vx, vy, vz, m; };

#define NB 5
static struct body bodies[NB];

static void init(void) {
    const double pi = 3.141592653589793, dpy = 365.24, sm = 4 * pi * pi;
    double v[NB][7] = {
        {0, 0, 0, 0, 0, 0, 1},
        {4.84143144246472090e+00, -1.16032004402742839e+00, -1.03622044471123109e-01,
         1.66007664274403694e-03, 7.69901118419740425e-03, -6.90460016972063023e-05, 9.54791938424326609e-04},
        {8.34336671824457987e+00, 4.12479856412430479e+00, -4.03523417114321381e-01,
         -2.76742510726862411e-03, 4.99852801234917238e-03, 2.30417297573763929e-05, 2.85885980666130812e-04},
        {1.28943695621391310e+01, -1.51111514016986312e+01, -2.23307578892655734e-01,
         2.96460137564761618e-03, 2.37847173959480950e-03, -2.96589568540237556e-05, 4.36624404335156298e-05},
        {1.53796971148509165e+01, -2.59193146099879641e+01, 1.79258772950371181e-01,
         2.68067772490389322e-03, 1.62824170038242295e-03, -9.51592254519715870e-05, 5.15138902046611451e-05}};
    for (int i = 0; i < NB; i++) {
        bodies[i].x = v[i][0]; bodies[i].y = v[i][1]; bodies[i].z = v[i][2];
        bodies[i].vx = v[i][3] * dpy; bodies[i].vy = v[i][4] * dpy; bodies[i].vz = v[i][5] * dpy;
        bodies[i].m = v[i][6] * sm;
    }
    double px = 0, py = 0, pz = 0;
    for (int i = 0; i < NB; i++) {
        px += bodies[i].vx * bodies[i].m; py += bodies[i].vy * bodies[i].m; pz += bodies[i].vz * bodies[i].m;
    }
    bodies[0].vx = -px / sm; bodies[0].vy = -py / sm; bodies[0].vz = -pz / sm;
}

static void advance(double dt) {
    for (int i = 0; i < NB; i++) {
        struct body *a = &bodies[i];
        for (int j = i + 1; j < NB; j++) {
            struct body *b = &bodies[j];
            double dx = a->x - b->x, dy = a->y - b->y, dz = a->z - b->z;
            double d2 = dx * dx + dy * dy + dz * dz;
            double mag = dt / (d2 * sqrt(d2));
            a->vx -= dx * b->m * mag; a->vy -= dy * b->m * mag; a->vz -= dz * b->m * mag;
            b->vx += dx * a->m * mag; b->vy += dy * a->m * mag; b->vz += dz * a->m * mag;
        }
    }
    for (int i = 0; i < NB; i++) {
        bodies[i].x += dt * bodies[i].vx; bodies[i].y += dt * bodies[i].vy; bodies[i].z += dt * bodies[i].vz;
    }
}

static double energy(void) {
    double e = 0;
    for (int i = 0; i < NB; i++) {
        struct body *a = &bodies[i];
        e += 0.5 * a->m * (a->vx * a->vx + a->vy * a->vy + a->vz * a->vz);
        for (int j = i + 1; j < NB; j++) {
            struct body *b = &bodies[j];
            double dx = a->x - b->x, dy = a->y - b->y, dz = a->z - b->z;
            e -= a->m * b->m / sqrt(dx * dx + dy * dy + dz * dz);
        }
    }
    return e;
}

int main(int argc, char **argv) {
    long n = 3000000L;
    if (argc > 1) n = n * atol(argv[1]) / 100;
    init();
    double e0 = energy();
    for (long i = 0; i < n; i++) advance(0.01);
    double e1 = energy();
    /* printed to 9 digits: robust to last-bit differences from contraction */
    printf("nbody %.9f %.9f\n", e0, e1);
    return 0;
}
