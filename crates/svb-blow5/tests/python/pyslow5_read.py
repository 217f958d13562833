"""Reads BLOW5 files with pyslow5 (slow5lib's own reader) and prints what it sees, for the
writer tests (crates/svb-slow5-signal/tests/blow5_write.rs) to compare with what they wrote.

  pyslow5_read.py [--isolated] FILE...
      Per file, one JSON line {"file", "read_groups": [{attribute: value}], "records": N} (or
      {"file", "error"} when pyslow5 refuses it; with --isolated each file is read in a forked
      child, so that a file slow5lib crashes on is a refusal too), then one per read
      {"read_id", "read_group", "digitisation", "offset", "range", "sampling_rate",
       "samples", "sha256" (of the int16 LE samples), "aux": {name: value}}.
"""
import hashlib
import json
import math
import os
import sys

import numpy as np
import pyslow5


def plain(v):
    """A value as JSON holds it: numpy scalars and arrays as Python's, NaN (a missing
    floating-point value, which JSON has no word for) as null."""
    if isinstance(v, np.generic):
        v = v.item()
    if isinstance(v, np.ndarray):
        return [plain(x) for x in v.tolist()]
    if isinstance(v, float) and math.isnan(v):
        return None
    return v


def read_file(path):
    s5 = pyslow5.Open(path, "r")
    try:
        groups = [
            {k: v for k, v in s5.get_all_headers(read_group=g).items() if v is not None}
            for g in range(s5.get_num_read_groups())
        ]
        aux_names = s5.get_aux_names() or []
        reads = []
        for r in s5.seq_reads(pA=False, aux="all"):
            sig = np.asarray(r["signal"], dtype="<i2")
            reads.append({
                "read_id": r["read_id"],
                "read_group": r["read_group"],
                "digitisation": plain(r["digitisation"]),
                "offset": plain(r["offset"]),
                "range": plain(r["range"]),
                "sampling_rate": plain(r["sampling_rate"]),
                "samples": int(sig.size),
                "sha256": hashlib.sha256(sig.tobytes()).hexdigest(),
                "aux": {n: plain(r[n]) for n in aux_names},
            })
        return groups, reads
    finally:
        s5.close()


def file_lines(path):
    """The JSON lines of one file, or of pyslow5's refusal."""
    try:
        groups, reads = read_file(path)
    except Exception as e:  # pyslow5 refuses the file: said, and on to the next
        return [json.dumps({"file": path, "error": repr(e)})]
    head = json.dumps({"file": path, "read_groups": groups, "records": len(reads)})
    return [head] + [json.dumps(r) for r in reads]


def isolated_lines(path):
    """file_lines in a forked child: slow5lib crashes on some damaged files (a BLOW5 file
    named .slow5 is a segmentation fault), which is then that file's refusal."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        with os.fdopen(w, "w") as out:
            out.write("\n".join(file_lines(path)))
        os._exit(0)
    os.close(w)
    with os.fdopen(r) as inp:
        text = inp.read()
    _, status = os.waitpid(pid, 0)
    if status != 0 or not text:
        return [json.dumps({"file": path, "error": f"pyslow5 died (wait status {status})"})]
    return text.split("\n")


def main():
    args = sys.argv[1:]
    isolated = args[:1] == ["--isolated"]
    for path in args[isolated:]:
        for line in (isolated_lines if isolated else file_lines)(path):
            print(line)
        sys.stdout.flush()


if __name__ == "__main__":
    main()
