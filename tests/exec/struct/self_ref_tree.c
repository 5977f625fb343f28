#include <stdio.h>
#include <stdlib.h>

struct tree { int key; struct tree *left, *right; };

static struct tree *insert(struct tree *t, int key) {
    if (!t) {
        t = malloc(sizeof *t);
        t->key = key;
        t->left = t->right = NULL;
    } else if (key < t->key) {
        t->left = insert(t->left, key);
    } else {
        t->right = insert(t->right, key);
    }
    return t;
}

static void inorder(const struct tree *t) {
    if (!t) return;
    inorder(t->left);
    printf("%d ", t->key);
    inorder(t->right);
}

static int height(const struct tree *t) {
    int l, r;
    if (!t) return 0;
    l = height(t->left);
    r = height(t->right);
    return 1 + (l > r ? l : r);
}

static void release(struct tree *t) { if (t) { release(t->left); release(t->right); free(t); } }

int main(void) {
    struct tree *root = NULL;
    int keys[] = { 50, 30, 70, 20, 40, 60, 80, 35, 45, 65 };
    int i;
    for (i = 0; i < 10; i++) root = insert(root, keys[i]);
    inorder(root);
    printf("\n%d\n", height(root));
    release(root);
    return 0;
}
