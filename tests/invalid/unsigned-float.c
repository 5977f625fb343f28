unsigned float f;
