/* dep-compare input: quote and angle includes, -I and -isystem dirs, names that make
   needs escaped, the same file under several spellings, guards and #pragma once. */
#include "a.h"
#include <stdio.h>
#include <stddef.h>
#include "sub/b.h"
#include "sp ace.h"
#include "sp ace.h"
#include "dollar$.h"
#include "hash#.h"
#include <inc1.h>
#include <x.h>
#include <sysdir.h>
#include "./a.h"
#include "sub/../a.h"
#include "guarded.h"
#include "guarded.h"
#define HDR "sub/a-rather-long-directory-name-to-make-gcc-wrap-the-dependency-line/long-header-name.h"
#include HDR
#if __has_include("nothere.h") || __has_include("sub/c.h")
#endif
int main(void) { return 0; }
