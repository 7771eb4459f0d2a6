#!/usr/bin/env python3
"""Annotates a C2-compiled method with perf samples, for machines without an hsdis that works with the JDK.

usage: jit-annotate.py JIT_OUTPUT PERF_SCRIPT_OUTPUT METHOD
  JIT_OUTPUT: stdout of a JVM run with -XX:CompileCommand=print,CLASS::METHOD (hex dumps of the machine code);
  PERF_SCRIPT_OUTPUT: `perf script -F ip,sym` of the same run (perf record -e cpu-clock, -XX:+DumpPerfMapAtExit);
  METHOD: "Class::method" as the JIT output names it (the last normal C2 compilation of it is taken, not an OSR one).
Prints the method's instructions (objdump, Intel syntax) with the share of the method's samples that landed on
each; timer samples land on the instruction after the one that waited (skid).
"""
import collections
import re
import subprocess
import sys
import tempfile


def machine_code(lines, method):
    start = None
    for i, l in enumerate(lines):
        if l.startswith('Compiled method (c2)') and ' % ' not in l and l.rstrip().endswith(')') and method in l:
            start = i
    if start is None:
        sys.exit('no C2 compilation of %s in the JIT output' % method)
    i = start
    while '[MachCode]' not in lines[i]:
        i += 1
    base, code = None, bytearray()
    for l in lines[i + 1:]:
        if '[/MachCode]' in l or l.startswith('Compiled method'):
            break
        m = re.match(r'\s+0x([0-9a-f]+): ((?:[0-9a-f]{2,8}\s*\|?\s*)+)$', l)
        if m:
            addr = int(m.group(1), 16)
            if base is None:
                base = addr
            if addr != base + len(code):
                sys.exit('gap in the machine code at %#x' % addr)
            code += bytes.fromhex(re.sub(r'[\s|]', '', m.group(2)))
    return base, code


def main():
    lines = open(sys.argv[1], errors='replace').read().split('\n')
    base, code = machine_code(lines, sys.argv[3])
    with tempfile.NamedTemporaryFile(suffix='.bin') as f:
        f.write(code)
        f.flush()
        dis = subprocess.run(['objdump', '-D', '-b', 'binary', '-mi386:x86-64', '-Mintel', '--adjust-vma=%#x' % base,
                              f.name], capture_output=True, text=True, check=True).stdout
    rows = []
    for l in dis.split('\n'):
        m = re.match(r'\s*([0-9a-f]+):\s+(?:[0-9a-f]{2} )+\s*(.*)$', l)
        if m and m.group(2).strip():
            rows.append((int(m.group(1), 16), m.group(2)))
    samples = collections.Counter()
    for l in open(sys.argv[2], errors='replace'):
        parts = l.split()
        if parts:
            try:
                ip = int(parts[0], 16)
            except ValueError:
                continue
            if base <= ip < base + len(code):
                samples[ip] += 1
    total = sum(samples.values()) or 1
    print('%s: %d bytes of code at %#x, %d samples' % (sys.argv[3], len(code), base, sum(samples.values())))
    for addr, ins in rows:
        c = samples.get(addr, 0)
        print(('%6.2f%% ' % (100.0 * c / total) if c else '        ') + '%x: %s' % (addr, ins))


if __name__ == '__main__':
    main()
