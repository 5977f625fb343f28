#include <stdio.h>

#define V 10
static int adj[V][V];
static int visited[V];

static void edge(int a, int b) { adj[a][b] = adj[b][a] = 1; }
static void dfs(int u) { int v; visited[u] = 1; printf("%d ", u); for (v = 0; v < V; v++) if (adj[u][v] && !visited[v]) dfs(v); }

int main(void) {
    int queue[V], dist[V], head = 0, tail = 0, i;
    edge(0, 1); edge(0, 2); edge(1, 3); edge(2, 4); edge(3, 5); edge(4, 5); edge(5, 6); edge(7, 8);
    dfs(0);
    printf("\n");
    for (i = 0; i < V; i++) dist[i] = -1;
    dist[0] = 0;
    queue[tail++] = 0;
    while (head < tail) {
        int u = queue[head++], v;
        for (v = 0; v < V; v++)
            if (adj[u][v] && dist[v] < 0) { dist[v] = dist[u] + 1; queue[tail++] = v; }
    }
    for (i = 0; i < V; i++) printf("%d ", dist[i]);
    printf("\n");
    {
        /* Floyd-Warshall on weights */
        int d[5][5], k, j;
        for (i = 0; i < 5; i++) for (j = 0; j < 5; j++) d[i][j] = i == j ? 0 : 1000;
        d[0][1] = 4; d[0][2] = 1; d[2][1] = 2; d[1][3] = 1; d[2][3] = 5; d[3][4] = 3;
        for (k = 0; k < 5; k++) for (i = 0; i < 5; i++) for (j = 0; j < 5; j++) if (d[i][k] + d[k][j] < d[i][j]) d[i][j] = d[i][k] + d[k][j];
        for (j = 0; j < 5; j++) printf("%d ", d[0][j]);
        printf("\n");
    }
    return 0;
}
