"""Reads BLOW5 files with pyslow5 (slow5lib's own reader) and prints what it sees, for the
writer tests (crates/svb-slow5/tests/blow5_write.rs) to compare with what they wrote.

  pyslow5_read.py FILE...
      Per file, one JSON line {"file", "read_groups": [{attribute: value}]}, then one per read
      {"read_id", "read_group", "digitisation", "offset", "range", "sampling_rate",
       "samples", "sha256" (of the int16 LE samples), "aux": {name: value}}.
"""
import hashlib
import json
import sys

import numpy as np
import pyslow5


def plain(v):
    if isinstance(v, np.generic):
        return v.item()
    if isinstance(v, np.ndarray):
        return v.tolist()
    return v


def main():
    for path in sys.argv[1:]:
        s5 = pyslow5.Open(path, "r")
        groups = [
            {k: v for k, v in s5.get_all_headers(read_group=g).items() if v is not None}
            for g in range(s5.get_num_read_groups())
        ]
        print(json.dumps({"file": path, "read_groups": groups}))
        aux_names = s5.get_aux_names() or []
        for r in s5.seq_reads(pA=False, aux="all"):
            sig = np.asarray(r["signal"], dtype="<i2")
            print(json.dumps({
                "read_id": r["read_id"],
                "read_group": r["read_group"],
                "digitisation": r["digitisation"],
                "offset": r["offset"],
                "range": r["range"],
                "sampling_rate": r["sampling_rate"],
                "samples": int(sig.size),
                "sha256": hashlib.sha256(sig.tobytes()).hexdigest(),
                "aux": {n: plain(r[n]) for n in aux_names},
            }))
        s5.close()


if __name__ == "__main__":
    main()
