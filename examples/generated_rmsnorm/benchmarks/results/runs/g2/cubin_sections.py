"""cubin_sections.py OLD NEW: the ELF sections in which two cubins differ (names and, for .strtab,
the strings that differ). Used to check that the RMSNorm example's kernels compile to the same
code with and without the LayerNorm backward's second look (compiled with ../g/compile.sh's flags
but -cubin and without -lineinfo)."""

import struct
import sys


def sections(path):
    data = open(path, "rb").read()
    shoff = struct.unpack_from("<Q", data, 0x28)[0]
    entsize, count, names_index = struct.unpack_from("<HHH", data, 0x3A)
    headers = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * entsize) for i in range(count)]
    names_offset = headers[names_index][4]
    out = {}
    for h in headers:
        name = data[names_offset + h[0] : data.index(b"\0", names_offset + h[0])].decode()
        out[name] = data[h[4] : h[4] + h[5]] if h[1] != 8 else b""  # SHT_NOBITS has no bytes
    return out


old, new = sections(sys.argv[1]), sections(sys.argv[2])
print(f"{len(old)} and {len(new)} sections; only in one: {sorted(set(old) ^ set(new))}")
differing = [name for name in old if name in new and old[name] != new[name]]
print(f"differing: {differing}")
if ".strtab" in differing:
    a, b = set(old[".strtab"].split(b"\0")), set(new[".strtab"].split(b"\0"))
    print("strings only in the first:", sorted(s.decode() for s in a - b))
    print("strings only in the second:", sorted(s.decode() for s in b - a))
