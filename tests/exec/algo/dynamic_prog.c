#include <stdio.h>
#include <string.h>

static int lcs(const char *a, const char *b) {
    int dp[64][64], i, j, n = (int)strlen(a), m = (int)strlen(b);
    for (i = 0; i <= n; i++)
        for (j = 0; j <= m; j++)
            dp[i][j] = !i || !j ? 0 : a[i - 1] == b[j - 1] ? dp[i - 1][j - 1] + 1 : dp[i - 1][j] > dp[i][j - 1] ? dp[i - 1][j] : dp[i][j - 1];
    return dp[n][m];
}
static int edit(const char *a, const char *b) {
    int dp[64][64], i, j, n = (int)strlen(a), m = (int)strlen(b);
    for (i = 0; i <= n; i++) dp[i][0] = i;
    for (j = 0; j <= m; j++) dp[0][j] = j;
    for (i = 1; i <= n; i++)
        for (j = 1; j <= m; j++) {
            int best = dp[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (dp[i - 1][j] + 1 < best) best = dp[i - 1][j] + 1;
            if (dp[i][j - 1] + 1 < best) best = dp[i][j - 1] + 1;
            dp[i][j] = best;
        }
    return dp[n][m];
}
static long knapsack(const int *w, const int *v, int n, int cap) {
    long best[101] = { 0 };
    int i, c;
    for (i = 0; i < n; i++)
        for (c = cap; c >= w[i]; c--)
            if (best[c - w[i]] + v[i] > best[c]) best[c] = best[c - w[i]] + v[i];
    return best[cap];
}
static long coin_ways(int amount) {
    int coins[] = { 1, 2, 5, 10, 20, 50, 100, 200 };
    long ways[201] = { 1 };
    int i, a;
    for (i = 0; i < 8; i++)
        for (a = coins[i]; a <= amount; a++) ways[a] += ways[a - coins[i]];
    return ways[amount];
}

int main(void) {
    int w[] = { 12, 7, 11, 8, 9 }, v[] = { 24, 13, 23, 15, 16 };
    printf("%d %d\n", lcs("AGGTAB", "GXTXAYB"), lcs("compiler", "computer"));
    printf("%d %d\n", edit("kitten", "sitting"), edit("", "abc"));
    printf("%ld\n", knapsack(w, v, 5, 26));
    printf("%ld\n", coin_ways(200));
    return 0;
}
