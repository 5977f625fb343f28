#!/usr/bin/env python3
"""pp-compare.py -- compare a C preprocessor's `-E -P` output with gcc's, token for token.

usage:
  scripts/pp-compare.py [--cc CMD] [--ref CMD] [--jobs N] [--timeout S] [--target TRIPLE]
                        [--raw] [--save DIR] [-v] {torture|headers|FILE-OR-DIR...}

  --cc CMD       compiler under test, split like a shell would (quote paths with spaces):
                 default "target/debug/neverc"; relative paths are taken from the current
                 directory
  --ref CMD      reference compiler (default: gcc; with --target, TRIPLE-gcc when installed)
  --target T     give CC `--target=T` (the reference gets the matching cross gcc)
  --jobs N       parallel files (default: number of CPUs)
  --timeout S    seconds per compiler per file (default 10); a hang is a difference "timeout"
  --raw          no normalisation: each compiler runs with its own predefined macros and
                 include paths (`CC -E -P FILE` vs `REF -E -P FILE`)
  --save DIR     write both outputs of each differing file into DIR
  -v             more context per difference, stderr heads, the macro differences

modes:
  torture   every .c file of gcc's torture suite, execute/ and execute/ieee/, from
            ${CORPUS_DIR:-${XDG_CACHE_HOME:-~/.cache}/neverc-corpus/gcc-12} (fetch it with
            ../shared/tools/get-gcc-tests.sh); `dg-options` without a target selector that
            matter to preprocessing (-std=*, -finput-charset=*, -fgnu89-inline,
            -f[un]signed-char, -ansi, -trigraphs, -D*, -U*) are passed to both compilers
  headers   every *.h file under /usr/include (--headers-dir DIR: only those under DIR), each
            as the one-line file `#include <NAME>`, NAME relative to the deepest #include <...>
            directory of the reference that holds it (/usr/include/x86_64-linux-gnu/bits/
            types.h is <bits/types.h>). About 7400 files here (C++ and other headers gcc
            rejects in C are "excluded"); 2-10 minutes on 2 CPUs.
  FILES     the given files; directories stand for the *.c files under them
  In every mode a file the reference fails on (exit status not 0, or timeout) is "excluded".

Default ("same macros") mode measures preprocessing itself, not the compilers' identities:
  - the compiler under test's predefined macros, `CC -dM -E -x c /dev/null`, are given to
    both compilers with `-undef -imacros FILE`. `-undef` leaves a few macros defined
    (gcc: __STDC__, __STDC_VERSION__, __STDC_HOSTED__, __STDC_UTF_16__, __STDC_UTF_32__;
    clang also __GCC_HAVE_DWARF2_CFI_ASM): each compiler gets its own FILE which leaves
    those alone when they already have CC's value and otherwise #undef's (and re-#define's)
    them, so no macro is defined twice and both end up with exactly CC's set
  - both get `-nostdinc` and the same `-isystem` list: CC's own `#include <...>` search list
    (`CC -xc -E -v /dev/null`). -nostdinc also stops gcc's implicit stdc-predef.h.
    So gcc reads CC's own headers (stddef.h, ...): they must be plain enough for gcc (no
    __has_feature/__has_extension tests without `defined` guards), or the files that include
    them are excluded.
  Both run with SOURCE_DATE_EPOCH set (same __DATE__/__TIME__), LC_ALL=C, and without
  CPATH, C_INCLUDE_PATH, DEPENDENCIES_OUTPUT and the like in the environment.

Tokens are compared, not text: pp-numbers, identifiers (with $, UCNs, UTF-8), string and
character literals with their u8/u/U/L prefixes, punctuators (digraphs compared as spelled),
any other character alone; white space and newlines are ignored. An unterminated quote runs
to the end of its line (as gcc lexes it).

Output: a line per differing file, `DIFF name: token N (CC line L1, ref line L2; T1 vs T2
tokens): CC: ... >>tok<< ... | ref: ... >>tok<< ...` (lines of the -E -P output), or the reason (`timeout`, `crashed (SIGSEGV): <first stderr line>`, `CC failed (exit 1): ...`),
then as the last line `pp-compare MODE: N agree, M differ, K excluded`. With --raw, a line
`deliberate: predefined macros differ (compiler identity)` precedes it when the two
compilers' predefined macros differ.
Exit status: 0 when nothing differs, 1 when something does, 2 on usage or setup errors.
SIGINT/SIGTERM stop the run and kill the compilers it started.

--emit-setup DIR (for dep-compare.sh and bench-pp.sh): write the default mode's two -imacros
files (DIR/macros-cc.h, DIR/macros-ref.h) and CC's search list (DIR/isystem), then exit.
"""

import argparse
import concurrent.futures
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading

# ----------------------------------------------------------------------------- tokenizer

_UCN = r'\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8}'
_IDSTART = r'[A-Za-z_$\x80-\U0010ffff]|' + _UCN
_IDCONT = r'[A-Za-z0-9_$\x80-\U0010ffff]|' + _UCN
_PUNCT = [
    '%:%:', '...', '<<=', '>>=',
    '->', '++', '--', '<<', '>>', '<=', '>=', '==', '!=', '&&', '||', '*=', '/=', '%=',
    '+=', '-=', '&=', '^=', '|=', '##', '<:', ':>', '<%', '%>', '%:',
]
_TOKEN = (
    r'(?:u8|u|U|L)?"(?:[^"\\\n]|\\[^\n])*"'             # string literal
    r"|(?:u8|u|U|L)?'(?:[^'\\\n]|\\[^\n])*'"            # character constant
    r'''|(?:u8|u|U|L)?["'][^\n]*'''                       # unterminated: to the end of the line
    r'|\.?[0-9](?:[eEpP][+-]|[0-9A-Za-z_.$\x80-\U0010ffff]|' + _UCN + r')*'  # pp-number
    r'|(?:' + _IDSTART + r')(?:' + _IDCONT + r')*'             # identifier
    r'|' + '|'.join(re.escape(p) for p in _PUNCT) + r'|[][(){}.&*+\-~!/%<>^|?:;=,#]'
    r'|[^ \t\r\n\v\f]')                                     # any other character
_WS = '[ \t\r\n\v\f]*'
_TOKENS_RE = re.compile(_WS + '(' + _TOKEN + ')')             # for findall: spellings only
_TOKEN_LINE_RE = re.compile('(' + _WS + ')(' + _TOKEN + ')')  # with the white space before


def tokens(text):
    """The token spellings of text (fast: one C-level findall)."""
    return _TOKENS_RE.findall(text)


def tokenize(text):
    """Return (tokens, lines): token spellings and the 1-based output line of each."""
    toks, lines = [], []
    line = 1
    for m in _TOKEN_LINE_RE.finditer(text):
        line += m.group(1).count('\n')
        toks.append(m.group(2))
        lines.append(line)
    return toks, lines


# ----------------------------------------------------------------------------- running

CLEAN_ENV_DROP = ('CPATH', 'C_INCLUDE_PATH', 'CPLUS_INCLUDE_PATH', 'OBJC_INCLUDE_PATH',
                  'DEPENDENCIES_OUTPUT', 'SUNPRO_DEPENDENCIES', 'GCC_EXEC_PREFIX',
                  'COMPILER_PATH', 'GCC_COLORS', 'CCC_OVERRIDE_OPTIONS')


def clean_env():
    env = {k: v for k, v in os.environ.items() if k not in CLEAN_ENV_DROP}
    env['LC_ALL'] = 'C'
    env.setdefault('SOURCE_DATE_EPOCH', '1700000000')
    return env


ENV = clean_env()


class Result:
    __slots__ = ('rc', 'out', 'err', 'timeout', 'missing')

    def __init__(self, rc, out, err, timeout=False, missing=None):
        self.rc, self.out, self.err, self.timeout, self.missing = rc, out, err, timeout, missing


def _die_with_parent():
    """In the child: get SIGKILL when the process that started it dies (Linux), so that an
    interrupted run leaves no hung compiler behind."""
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except Exception:
        pass


CHILDREN = set()  # process groups of the compilers running now


def kill_children(*_):
    for pid in list(CHILDREN):
        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:
            pass


def run(cmd, timeout, cwd=None):
    """Run cmd (a list); kill its whole process group on timeout."""
    try:
        p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=ENV, cwd=cwd,
                             start_new_session=True, preexec_fn=_die_with_parent)
    except OSError as e:
        return Result(127, b'', str(e).encode(), missing=str(e))
    CHILDREN.add(p.pid)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except OSError:
            pass
        out, err = p.communicate()
        return Result(None, out, err, timeout=True)
    finally:
        CHILDREN.discard(p.pid)
    return Result(p.returncode, out, err)


def first_line(err):
    lines = [l.strip() for l in err.decode('utf-8', 'replace').splitlines() if l.strip()]
    if not lines:
        return '(no message)'
    for l in lines:  # the first error or panic message, if any
        if re.search(r'error|panicked|fatal|Assertion|Segmentation', l, re.I):
            return l[:200]
    for l in lines:  # else the first line that is not an "In file included from" chain
        if not l.startswith(('In file included from', 'from ')):
            return l[:200]
    return lines[0][:200]


def failure_reason(res, who):
    if res.timeout:
        return 'timeout'
    if res.missing:
        return '%s cannot run: %s' % (who, res.missing)
    if res.rc < 0:
        try:
            name = signal.Signals(-res.rc).name
        except ValueError:
            name = 'signal %d' % -res.rc
        return '%s crashed (%s): %s' % (who, name, first_line(res.err))
    if res.rc >= 128 + 1 and res.rc <= 128 + 64:  # shell-wrapped crash
        return '%s crashed (exit %d): %s' % (who, res.rc, first_line(res.err))
    return '%s failed (exit %d): %s' % (who, res.rc, first_line(res.err))


# ----------------------------------------------------------------------------- comparing

def show(toks, i, before, after):
    lo = max(0, i - before)
    s = ' '.join(toks[lo:i])
    if lo > 0:
        s = '... ' + s
    cur = toks[i] if i < len(toks) else '<end of output>'
    rest = ' '.join(toks[i + 1:i + 1 + after])
    return ('%s >>%s<< %s' % (s, cur, rest)).strip()


# Quote-started tokens, found left to right (in preprocessed output, without comments, a quote
# only ever starts a string or character literal, or an unterminated one that runs to the end
# of its line).
_LITERALS_RE = re.compile(rb'''"(?:[^"\\\n]|\\[^\n])*"|'(?:[^'\\\n]|\\[^\n])*'|["'][^\n]*''')


def same_tokens_fast(a, b):
    """True when a and b (bytes) certainly have the same tokens: they differ only in the amount
    and kind of white space between the same non-blank runs, and their literals are the same
    (white space matters only inside literals, and a newline ends an unterminated one)."""
    return a.split() == b.split() and _LITERALS_RE.findall(a) == _LITERALS_RE.findall(b)


def compare_outputs(a, b, verbose):
    """None when equal as token sequences, else a message."""
    if a == b or same_tokens_fast(a, b):
        return None
    a = a.decode('utf-8', 'surrogateescape')
    b = b.decode('utf-8', 'surrogateescape')
    if tokens(a) == tokens(b):
        return None
    ta, la = tokenize(a)
    tb, lb = tokenize(b)
    n = min(len(ta), len(tb))
    i = 0
    while i < n and ta[i] == tb[i]:
        i += 1
    before, after = (12, 12) if verbose else (4, 3)
    line_a = la[i] if i < len(la) else (la[-1] if la else 0)
    line_b = lb[i] if i < len(lb) else (lb[-1] if lb else 0)
    msg = 'token %d (CC line %d, ref line %d; %d vs %d tokens): CC: %s | ref: %s' % (
        i + 1, line_a, line_b, len(ta), len(tb),
        show(ta, i, before, after), show(tb, i, before, after))
    if verbose:
        sa = a.splitlines()
        sb = b.splitlines()
        if 0 < line_a <= len(sa):
            msg += '\n    CC  line %d: %s' % (line_a, sa[line_a - 1][:300])
        if 0 < line_b <= len(sb):
            msg += '\n    ref line %d: %s' % (line_b, sb[line_b - 1][:300])
    return msg


# The run's settings, for job(); set by main().
G = {}
STOP = threading.Event()


class Terminated(Exception):
    pass


def _main_term(*_):
    raise Terminated()


def job(item):
    """item: (label, path, extra_flags_tuple, is_temp_content or None).
    Returns (label, status, message) with status 'agree', 'differ' or 'excluded'."""
    label, path, flags, content = item
    if STOP.is_set():
        return (label, 'excluded', 'interrupted')
    tmpfile = None
    if content is not None:
        fd, tmpfile = tempfile.mkstemp(suffix='.c', prefix='hdr-', dir=G['workdir'])
        with os.fdopen(fd, 'w') as f:
            f.write(content)
        path = tmpfile
    try:
        cc_cmd, ref_cmd = G['commands'](flags, path)
        ref = run(ref_cmd, G['timeout'], cwd=G['workdir'])
        if ref.rc != 0 or ref.timeout:
            return (label, 'excluded', 'reference: ' + failure_reason(ref, 'ref'))
        cc = run(cc_cmd, G['timeout'], cwd=G['workdir'])
        if cc.rc != 0 or cc.timeout:
            msg = failure_reason(cc, 'CC')
            if G['verbose'] and not cc.timeout:
                head = cc.err.decode('utf-8', 'replace').splitlines()[:5]
                msg += ''.join('\n    | ' + l for l in head)
            return (label, 'differ', msg)
        diff = compare_outputs(cc.out, ref.out, G['verbose'])
        if diff is None:
            return (label, 'agree', '')
        if G['save']:
            base = re.sub(r'[^A-Za-z0-9_.+-]', '_', label)
            with open(os.path.join(G['save'], base + '.cc.i'), 'wb') as f:
                f.write(cc.out)
            with open(os.path.join(G['save'], base + '.ref.i'), 'wb') as f:
                f.write(ref.out)
        return (label, 'differ', diff)
    finally:
        if tmpfile:
            try:
                os.unlink(tmpfile)
            except OSError:
                pass


# ----------------------------------------------------------------------------- setup

def die(msg):
    print('pp-compare: ' + msg, file=sys.stderr)
    sys.exit(2)


def resolve_cmd(s, what):
    try:
        words = shlex.split(s)
    except ValueError as e:
        die('cannot split %s command %r: %s' % (what, s, e))
    if not words:
        die('empty %s command' % what)
    w0 = words[0]
    if '/' in w0:
        w0 = os.path.abspath(w0)
        if not (os.path.isfile(w0) and os.access(w0, os.X_OK)):
            die('%s %r not found or not executable (build it first?)' % (what, words[0]))
    elif shutil.which(w0) is None:
        die('%s %r not found in PATH' % (what, w0))
    return [w0] + words[1:]


def parse_dm(text):
    """`-dM` output -> {name: line}."""
    macros = {}
    for line in text.splitlines():
        m = re.match(r'#define ([A-Za-z_$][A-Za-z0-9_$]*)', line)
        if m:
            macros[m.group(1)] = line
    return macros


def query(cmd, what, timeout):
    r = run(cmd, timeout)
    if r.rc != 0:
        die('%s: `%s`: %s' % (what, ' '.join(shlex.quote(c) for c in cmd),
                              failure_reason(r, 'it')))
    return r


def search_list(cc, what, timeout):
    r = query(cc + ['-xc', '-E', '-v', '/dev/null'], what + ' include search list', timeout)
    dirs, inside = [], False
    for line in r.err.decode('utf-8', 'replace').splitlines():
        if line.startswith('#include <...> search starts here:'):
            inside = True
        elif line.startswith('End of search list.'):
            inside = False
        elif inside:
            d = line.strip()
            if d.endswith(' (framework directory)'):
                continue
            dirs.append(d)
    if not dirs:
        die('%s: no "#include <...> search starts here:" list in the stderr of `%s` '
            '(exit %s; stderr starts: %s)' % (what, ' '.join(shlex.quote(c) for c in cc + ['-xc', '-E', '-v', '/dev/null']),
                                            r.rc, first_line(r.err)))
    return dirs


class Setup:
    """Builds the two command lines for a file, caching per-flag-set macro files."""

    def __init__(self, args, cc, ref, workdir):
        self.args, self.cc, self.ref, self.workdir = args, cc, ref, workdir
        self.tgt = ['--target=' + args.target] if args.target else []
        self.cache = {}
        self.macro_report = None
        if not args.raw:
            self.isystem = search_list(self.cc + self.tgt, 'CC', args.timeout)

    def prepare(self, flags):
        """Compute (once per flag set) what the two command lines need."""
        if flags in self.cache:
            return self.cache[flags]
        fl = list(flags)
        cc_dm = parse_dm(query(self.cc + self.tgt + fl + ['-dM', '-E', '-x', 'c', '/dev/null'],
                               'CC predefined macros', self.args.timeout).out.decode('utf-8', 'replace'))
        if self.args.raw:
            ref_dm = parse_dm(query(self.ref + fl + ['-dM', '-E', '-x', 'c', '/dev/null'],
                                    'reference predefined macros', self.args.timeout)
                              .out.decode('utf-8', 'replace'))
            if self.macro_report is None:
                self.macro_report = (cc_dm, ref_dm)
            self.cache[flags] = None
            return None
        files = []
        for who, cmd in (('cc', self.cc + self.tgt), ('ref', self.ref)):
            left = parse_dm(query(cmd + fl + ['-undef', '-nostdinc', '-dM', '-E', '-x', 'c', '/dev/null'],
                                  who + ' -undef macros', self.args.timeout)
                            .out.decode('utf-8', 'replace'))
            lines = ['/* pp-compare: %s gets CC\'s predefined macros (flags: %s) */'
                     % (who, ' '.join(fl) or 'none')]
            for name, line in sorted(left.items()):
                if name not in cc_dm:
                    lines.append('#undef ' + name)
                elif cc_dm[name] != line:
                    lines.append('#undef ' + name)
                    lines.append(cc_dm[name])
            for name, line in cc_dm.items():
                if name not in left:
                    lines.append(line)
            path = os.path.join(self.workdir, 'macros-%s-%d.h' % (who, len(self.cache)))
            with open(path, 'w') as f:
                f.write('\n'.join(lines) + '\n')
            files.append(path)
        self.cache[flags] = tuple(files)
        return self.cache[flags]

    def commands(self, flags, path):
        fl = list(flags)
        files = self.cache[flags]
        if self.args.raw:
            return (self.cc + self.tgt + fl + ['-E', '-P', '-x', 'c', path],
                    self.ref + fl + ['-E', '-P', '-x', 'c', path])
        inc = []
        for d in self.isystem:
            inc += ['-isystem', d]
        common = ['-E', '-P', '-undef', '-nostdinc'] + inc
        return (self.cc + self.tgt + fl + common + ['-imacros', files[0], '-x', 'c', path],
                self.ref + fl + common + ['-imacros', files[1], '-x', 'c', path])


# dg-options words that matter to preprocessing (a subset of run-corpus.sh's DG_KEEP, plus
# the macro and dialect options).
DG_KEEP = re.compile(r'^(-std=.*|-finput-charset=.*|-fgnu89-inline|-fsigned-char|'
                     r'-funsigned-char|-ansi|-trigraphs|-D.+|-U.+)$')


def dg_flags(path):
    flags = []
    try:
        with open(path, encoding='utf-8', errors='replace') as f:
            text = f.read()
    except OSError:
        return ()
    for m in re.finditer(r'dg-(?:additional-)?options\s+("([^"]*)"|\{([^}]*)\})(.*)$', text, re.M):
        if 'target' in m.group(4):
            continue
        words = (m.group(2) if m.group(2) is not None else m.group(3)).replace('"', ' ').split()
        flags += [w for w in words if DG_KEEP.match(w)]
    x = os.path.splitext(path)[0] + '.x'
    if os.path.isfile(x):
        with open(x, encoding='utf-8', errors='replace') as f:
            for line in f:
                m = re.match(r'lappend additional_flags "([^"]*)"', line)
                if m:
                    flags += [w for w in m.group(1).split() if DG_KEEP.match(w)]
    return tuple(flags)


def corpus_dir():
    d = os.environ.get('CORPUS_DIR')
    if d:
        return d
    cache = os.environ.get('XDG_CACHE_HOME') or os.path.join(os.path.expanduser('~'), '.cache')
    return os.path.join(cache, 'neverc-corpus', 'gcc-12')


def torture_items():
    base = os.path.join(corpus_dir(), 'execute')
    if not os.path.isdir(os.path.join(base, 'ieee')):
        die('no torture corpus in %s: run ../shared/tools/get-gcc-tests.sh (or set CORPUS_DIR)'
            % base)
    items = []
    for sub, prefix in (('', ''), ('ieee', 'ieee/')):
        d = os.path.join(base, sub)
        for n in sorted(os.listdir(d)):
            p = os.path.join(d, n)
            if n.endswith('.c') and os.path.isfile(p):
                items.append((prefix + n, p, dg_flags(p), None))
    return items


def header_items(hdir, ref_dirs):
    hdir = os.path.abspath(hdir)
    if not os.path.isdir(hdir):
        die('no such directory: ' + hdir)
    # Each file is named relative to the deepest of the reference's search directories that
    # holds it (HDIR itself when none does).
    roots = sorted({os.path.normpath(d) for d in ref_dirs}, key=len, reverse=True) + [hdir]
    items, skipped = [], []
    for dirpath, dirnames, filenames in os.walk(hdir):
        dirnames.sort()
        for n in sorted(filenames):
            if not n.endswith('.h'):
                continue
            p = os.path.join(dirpath, n)
            if not os.path.isfile(p):
                continue
            root = next((r for r in roots if p.startswith(r + os.sep)), None)
            rel = os.path.relpath(p, root) if root else None
            if rel is None or '>' in rel or '\n' in rel:
                skipped.append(p)
                continue
            items.append((os.path.relpath(p, hdir), None, (), '#include <%s>\n' % rel))
    return items, skipped


def file_items(paths):
    items, seen = [], set()
    for p in paths:
        if os.path.isdir(p):
            for dirpath, dirnames, filenames in os.walk(p):
                dirnames.sort()
                for n in sorted(filenames):
                    if n.endswith('.c'):
                        q = os.path.join(dirpath, n)
                        if os.path.abspath(q) not in seen:
                            seen.add(os.path.abspath(q))
                            items.append((q, os.path.abspath(q), dg_flags(q), None))
        elif os.path.isfile(p):
            if os.path.abspath(p) not in seen:
                seen.add(os.path.abspath(p))
                items.append((p, os.path.abspath(p), dg_flags(p), None))
        else:
            die('no such file: ' + p)
    return items


def emit_setup(setup, outdir):
    """For dep-compare.sh: write OUTDIR/macros-cc.h, OUTDIR/macros-ref.h (the two -imacros
    files of the default mode) and OUTDIR/isystem (CC's search list, one directory a line)."""
    if setup.args.raw:
        die('--emit-setup is for the default mode')
    os.makedirs(outdir, exist_ok=True)
    files = setup.prepare(())
    for src, name in zip(files, ('macros-cc.h', 'macros-ref.h')):
        shutil.copyfile(src, os.path.join(outdir, name))
    with open(os.path.join(outdir, 'isystem'), 'w') as f:
        f.write(''.join(d + '\n' for d in setup.isystem))
    return 0


def default_ref(target):
    if not target:
        return 'gcc'
    special = {'thumbv7m-none-eabi': 'arm-none-eabi-gcc -mcpu=cortex-m3 -mthumb',
               'avr': 'avr-gcc -mmcu=atmega328p'}
    if target in special:
        return special[target]
    if shutil.which(target + '-gcc'):
        return target + '-gcc'
    return None


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, _main_term)
    ap = argparse.ArgumentParser(
        prog='pp-compare.py', formatter_class=argparse.RawDescriptionHelpFormatter,
        description='Compare `CC -E -P` with `gcc -E -P` token for token.',
        epilog=__doc__.split('\n', 1)[1])
    ap.add_argument('--cc', default='target/debug/neverc')
    ap.add_argument('--ref', default=None)
    ap.add_argument('--target', default=None)
    ap.add_argument('--jobs', '-j', type=int, default=os.cpu_count() or 2)
    ap.add_argument('--timeout', type=float, default=10.0)
    ap.add_argument('--raw', action='store_true')
    ap.add_argument('--headers-dir', default='/usr/include')
    ap.add_argument('--save', default=None)
    ap.add_argument('-v', '--verbose', action='store_true')
    ap.add_argument('--emit-setup', default=None, metavar='DIR', help=argparse.SUPPRESS)
    ap.add_argument('what', nargs='*', metavar='torture|headers|FILE')
    args = ap.parse_args()
    if not args.what and not args.emit_setup:
        ap.error('give torture, headers or files')

    ref_str = args.ref or default_ref(args.target)
    if ref_str is None:
        if args.raw:
            die('no %s-gcc installed for --target=%s: give --ref' % (args.target, args.target))
        ref_str = 'gcc'
        print('pp-compare: note: no %s-gcc, the host gcc preprocesses with CC\'s macros'
              % args.target, file=sys.stderr)
    cc = resolve_cmd(args.cc, 'compiler under test')
    ref = resolve_cmd(ref_str, 'reference compiler')
    if args.save:
        os.makedirs(args.save, exist_ok=True)
        args.save = os.path.abspath(args.save)

    workdir = tempfile.mkdtemp(prefix='pp-compare.')
    try:
        setup = Setup(args, cc, ref, workdir)
        if args.emit_setup:
            return emit_setup(setup, args.emit_setup)
        skipped = []
        if args.what == ['torture']:
            mode, items = 'torture', torture_items()
        elif args.what == ['headers']:
            mode = 'headers'
            items, skipped = header_items(args.headers_dir, search_list(ref, 'reference', args.timeout))
        else:
            mode, items = 'files', file_items(args.what)
        for flags in sorted({it[2] for it in items}):
            setup.prepare(flags)

        G.update(commands=setup.commands, timeout=args.timeout, verbose=args.verbose,
                 workdir=workdir, save=args.save)
        counts = {'agree': 0, 'differ': 0, 'excluded': len(skipped)}
        for p in skipped:
            if args.verbose:
                print('EXCLUDED %s: cannot be named in #include <...>' % p)
        # Threads, not processes: the time goes to the compilers; the tokenizer only runs on
        # outputs that differ in more than white space.
        pool = concurrent.futures.ThreadPoolExecutor(max(1, args.jobs))
        try:
            for label, status, msg in pool.map(job, items):
                counts[status] += 1
                if status == 'differ':
                    print('DIFF %s: %s' % (label, msg), flush=True)
                elif status == 'excluded' and args.verbose:
                    print('EXCLUDED %s: %s' % (label, msg), flush=True)
        except BaseException:
            STOP.set()
            kill_children()
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        pool.shutdown()

        if args.raw:
            cc_dm, ref_dm = setup.macro_report or ({}, {})
            only_cc = sorted(set(cc_dm) - set(ref_dm))
            only_ref = sorted(set(ref_dm) - set(cc_dm))
            other = sorted(n for n in set(cc_dm) & set(ref_dm) if cc_dm[n] != ref_dm[n])
            if only_cc or only_ref or other:
                print('deliberate: predefined macros differ (compiler identity)')
                print('  %d only in CC, %d only in the reference, %d with other definitions'
                      % (len(only_cc), len(only_ref), len(other)))
                if args.verbose:
                    for n in only_cc:
                        print('  only CC:  ' + cc_dm[n])
                    for n in only_ref:
                        print('  only ref: ' + ref_dm[n])
                    for n in other:
                        print('  CC:  %s\n  ref: %s' % (cc_dm[n], ref_dm[n]))
            else:
                print('note: predefined macros are the same')
        print('pp-compare %s: %d agree, %d differ, %d excluded'
              % (mode, counts['agree'], counts['differ'], counts['excluded']))
        return 1 if counts['differ'] else 0
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == '__main__':
    try:
        sys.exit(main())
    except (KeyboardInterrupt, Terminated):
        STOP.set()
        kill_children()
        print('pp-compare: interrupted', file=sys.stderr)
        sys.stderr.flush()
        os._exit(130)  # do not wait for the pool's threads
