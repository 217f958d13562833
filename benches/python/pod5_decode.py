#!/usr/bin/env python3
"""ONT's Python reader (pip install pod5) as the peer of the `pod5_file_*` criterion groups.

  pod5_decode.py FILE [FILE ...]
      Whole-file decode: open the file, then every read's signal to int16. One JSON line per
      file: {"file": ..., "samples": N, "mean_ns": mean time of one whole-file decode, "runs": R}
  pod5_decode.py --make-large SRC OUT COPIES
      Writes OUT with ONT's own writer: every read of SRC, COPIES times (fresh read ids), for
      a file large enough that opening it and waking threads do not dominate.
  pod5_decode.py --make-long SRC OUT READS SAMPLES
      Writes OUT with ONT's own writer: READS reads of SAMPLES samples each, every one SRC's
      reads' signals one after another, repeated to that length (fresh read ids): long reads,
      for the memory an operation needs per read.

`cargo xtask bench` runs both and adds the figures as the `python-pod5` peer.
"""
import json
import sys
import time
import uuid

import pod5


def decode(path):
    samples = 0
    with pod5.Reader(path) as reader:
        for read in reader.reads():
            samples += len(read.signal)
    return samples


def make_large(src, out, copies):
    with pod5.Reader(src) as reader, pod5.Writer(out) as writer:
        reads = [record.to_read() for record in reader.reads()]
        for copy in range(copies):
            for read in reads:
                original = read.read_id
                read.read_id = uuid.uuid5(original, str(copy)) if copy else original
                writer.add_read(read)
                read.read_id = original


def make_long(src, out, n, samples):
    import numpy

    with pod5.Reader(src) as reader, pod5.Writer(out) as writer:
        reads = [record.to_read() for record in reader.reads()]
        joined = numpy.concatenate([r.signal for r in reads])
        long = numpy.resize(joined, samples).astype(numpy.int16)
        for k in range(n):
            read = reads[k % len(reads)]
            original, signal = read.read_id, read.signal
            read.read_id = uuid.uuid5(original, f"long{k}")
            read.signal = numpy.roll(long, k * 1009)
            writer.add_read(read)
            read.read_id, read.signal = original, signal


def main():
    if sys.argv[1:2] == ["--make-long"]:
        make_long(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
        return
    if sys.argv[1:2] == ["--make-large"]:
        make_large(sys.argv[2], sys.argv[3], int(sys.argv[4]))
        return
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
