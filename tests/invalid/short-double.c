short double d;
