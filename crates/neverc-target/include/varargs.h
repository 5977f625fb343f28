/* varargs.h: pre-standard variable arguments, which neverc does not provide. Part of neverc. */
#error "<varargs.h> is obsolete and not supported; use <stdarg.h>"
