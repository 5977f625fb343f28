int a[3](void);
