int dollar_h;
