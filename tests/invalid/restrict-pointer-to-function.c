void (* restrict fp)(void);
