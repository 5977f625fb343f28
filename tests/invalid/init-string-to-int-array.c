int a[] = "abc";
