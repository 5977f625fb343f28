#include <stdio.h>

struct particle { float x, y; double vx, vy; };

int main(void) {
    struct particle ps[4];
    int i, step;
    for (i = 0; i < 4; i++) { ps[i].x = i; ps[i].y = -i; ps[i].vx = 0.5 * i; ps[i].vy = 1.0 / (i + 1); }
    for (step = 0; step < 10; step++)
        for (i = 0; i < 4; i++) {
            ps[i].x += (float)ps[i].vx;
            ps[i].y += (float)ps[i].vy;
            ps[i].vy -= 0.1;
        }
    for (i = 0; i < 4; i++) printf("%.4f %.4f %.4f\n", ps[i].x, ps[i].y, ps[i].vy);
    return 0;
}
