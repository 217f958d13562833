#!/usr/bin/env python3
"""pyslow5 (slow5lib's Python binding) writing BLOW5, the peer of the `blow5_write` criterion
group: the same records (every read of SRC, COPIES times under fresh read ids) written with
zstd records and svb-zd signals by `write_record_batch` on THREADS threads.

  blow5_write.py SRC COPIES THREADS OUT_DIR
      One JSON line: {"samples": N, "mean_ns": mean time of one whole-file write, "runs": R}
      (after a warm-up write; at least 5 runs and 2 s).

`cargo xtask bench` runs it right after criterion and adds the figure as the `pyslow5` peer.
"""
import json
import os
import sys
import time

import pyslow5


def load(src, copies):
    s5 = pyslow5.Open(src, "r")
    reads = list(s5.seq_reads(pA=False))
    headers = s5.get_all_headers(read_group=0)
    s5.close()
    records = []
    for c in range(copies):
        for r in reads:
            rid = r["read_id"] if c == 0 else f"{r['read_id']}-{c}"
            records.append((rid, r))
    return headers, records


def write(path, headers, records, threads):
    s5 = pyslow5.Open(path, "w", rec_press="zstd", sig_press="svb_zd")
    header = s5.get_empty_header()
    for k in header:
        header[k] = headers.get(k) or "."
    s5.write_header(header)
    # Records as pyslow5 builds them (its batch writer checks each field's type against
    # these), keyed by read id.
    batch = {}
    for rid, r in records:
        rec = s5.get_empty_record()
        for k in rec:
            rec[k] = r[k]
        rec["read_id"] = rid
        batch[rid] = rec
    s5.write_record_batch(batch, threads=threads, batchsize=len(batch))
    s5.close()


def main():
    src, copies, threads, out_dir = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    headers, records = load(src, copies)
    samples = sum(len(r["signal"]) for _, r in records)
    path = os.path.join(out_dir, "pyslow5-write.blow5")
    write(path, headers, records, threads)  # warm-up
    runs, elapsed = 0, 0.0
    while runs < 5 or elapsed < 2.0:
        os.remove(path)
        t = time.perf_counter()
        write(path, headers, records, threads)
        elapsed += time.perf_counter() - t
        runs += 1
    os.remove(path)
    print(json.dumps({"samples": samples, "mean_ns": elapsed / runs * 1e9, "runs": runs}))


if __name__ == "__main__":
    main()
