enum e v;
