int a[-3];
