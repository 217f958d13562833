#!/usr/bin/env python3
"""ONT's Python writer (pip install pod5), the peer of the `pod5_write` criterion group: the
same reads (every read of SRC, COPIES times under fresh read ids) written VBZ-compressed by
`pod5.Writer.add_reads` (lib_pod5 compresses on its own worker threads).

  pod5_write.py SRC COPIES THREADS OUT_DIR
      One JSON line: {"samples": N, "mean_ns": mean time of one whole-file write, "runs": R}
      (after a warm-up write; at least 5 runs and 2 s). THREADS is recorded only: lib_pod5
      sizes its pool itself.

`cargo xtask bench` runs it right after criterion and adds the figure as the `python-pod5`
peer.
"""
import json
import os
import sys
import time
import uuid

import pod5


def load(src, copies):
    with pod5.Reader(src) as reader:
        base = [record.to_read() for record in reader.reads()]
    reads = []
    for c in range(copies):
        for r in base:
            read = r if c == 0 else pod5.Read(
                read_id=uuid.uuid5(r.read_id, str(c)),
                pore=r.pore,
                calibration=r.calibration,
                read_number=r.read_number,
                start_sample=r.start_sample,
                median_before=r.median_before,
                end_reason=r.end_reason,
                run_info=r.run_info,
                signal=r.signal,
            )
            reads.append(read)
    return reads


def write(path, reads):
    with pod5.Writer(path) as writer:
        writer.add_reads(reads)


def main():
    src, copies, _threads, out_dir = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    reads = load(src, copies)
    samples = sum(len(r.signal) for r in reads)
    path = os.path.join(out_dir, "python-pod5-write.pod5")
    if os.path.exists(path):
        os.remove(path)
    write(path, reads)  # warm-up
    runs, elapsed = 0, 0.0
    while runs < 5 or elapsed < 2.0:
        os.remove(path)
        t = time.perf_counter()
        write(path, reads)
        elapsed += time.perf_counter() - t
        runs += 1
    os.remove(path)
    print(json.dumps({"samples": samples, "mean_ns": elapsed / runs * 1e9, "runs": runs}))


if __name__ == "__main__":
    main()
