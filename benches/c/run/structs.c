/* structs: struct-heavy code -- particles passed and returned by value, a linked
   list of records, and an array-of-structs update with nested members. */
#include <stdio.h>
#include <stdlib.h>

struct vec { int x, y, z; };
struct particle { struct vec pos, vel; int mass; short tag; char alive; };
struct node { struct node *next; struct particle p; long key; };

static struct vec vadd(struct vec a, struct vec b) { struct vec r = {a.x + b.x, a.y + b.y, a.z + b.z}; return r; }
static struct vec vscale(struct vec a, int k) { struct vec r = {a.x * k, a.y * k, a.z * k}; return r; }
static long vdot(struct vec a, struct vec b) { return (long)a.x * b.x + (long)a.y * b.y + (long)a.z * b.z; }

static struct particle step(struct particle p, struct vec g) {
    p.vel = vadd(p.vel, g);
    p.pos = vadd(p.pos, vscale(p.vel, 2));
    if (p.pos.y < -100000) { p.pos.y = -p.pos.y / 2; p.vel.y = -p.vel.y; p.tag++; }
    if (p.pos.x > 100000 || p.pos.x < -100000) { p.vel.x = -p.vel.x; p.pos.x /= 2; }
    if (p.pos.z > 100000 || p.pos.z < -100000) { p.vel.z = -p.vel.z; p.pos.z /= 2; }
    p.alive = p.tag < 1000;
    return p;
}

#define NP 4096

int main(int argc, char **argv) {
    int steps = 16000;
    if (argc > 1) steps = steps * atoi(argv[1]) / 100;
    if (steps < 1) steps = 1;
    struct particle *ps = malloc(sizeof(struct particle) * NP);
    struct node *head = NULL;
    for (int i = 0; i < NP; i++) {
        struct particle p = {{i % 97, i % 89, i % 83}, {i % 7 - 3, i % 5, i % 11 - 5}, 1 + i % 13, 0, 1};
        ps[i] = p;
        struct node *nd = malloc(sizeof *nd);
        nd->next = head; nd->p = p; nd->key = i * 2654435761L % 1000003; head = nd;
    }
    struct vec g = {0, -1, 0};
    unsigned long acc = 0;
    for (int s = 0; s < steps; s++) {
        for (int i = 0; i < NP; i++) ps[i] = step(ps[i], g);
        if (s % 4 == 0)
            for (struct node *nd = head; nd; nd = nd->next) {
                nd->p = step(nd->p, g);
                acc += (unsigned long)(vdot(nd->p.pos, nd->p.vel) + nd->key);
            }
    }
    long e = 0;
    int alive = 0;
    for (int i = 0; i < NP; i++) {
        e += ps[i].mass * vdot(ps[i].vel, ps[i].vel) + ps[i].pos.x - ps[i].pos.z + ps[i].tag;
        alive += ps[i].alive;
    }
    printf("structs %ld %d %lu\n", e, alive, acc);
    while (head) { struct node *nx = head->next; free(head); head = nx; }
    free(ps);
    return 0;
}
