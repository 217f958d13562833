#!/usr/bin/env python3
"""Whole-file decode with ONT's Python reader (pip install pod5), the peer of the
`pod5_file_*` criterion groups: open the file, then every read's signal to int16.

Usage: pod5_decode.py FILE [FILE ...]  ->  one JSON line per file:
{"file": ..., "samples": N, "mean_ns": mean time of one whole-file decode, "runs": R}
`cargo xtask bench` runs it and adds the figures as the `python-pod5` peer.
"""
import json
import sys
import time

import pod5


def decode(path):
    samples = 0
    with pod5.Reader(path) as reader:
        for read in reader.reads():
            samples += len(read.signal)
    return samples


def main():
    for path in sys.argv[1:]:
        decode(path)  # warm-up: page cache, imports
        runs, elapsed, samples = 0, 0.0, 0
        while runs < 5 or elapsed < 2.0:
            t = time.perf_counter()
            samples = decode(path)
            elapsed += time.perf_counter() - t
            runs += 1
        print(json.dumps({"file": path, "samples": samples,
                          "mean_ns": elapsed / runs * 1e9, "runs": runs}))


if __name__ == "__main__":
    main()
