static y;
