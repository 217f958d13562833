#!/usr/bin/env python3
"""The svb Python package against ONT's `pod5` and slow5lib's `pyslow5`, in one process.

  svb_python.py POD5 BLOW5 [--rounds R] [--dataset DIR]
      POD5 and BLOW5 hold the same reads (`cargo xtask bench-dataset` makes them: 2000 reads,
      310M samples); DIR, the same reads as many POD5 files (DIR/part*.pod5: 1000 of 2 reads). Each task runs R rounds (default 3), ours and the peer alternately; one
      JSON line per task: {"task", "ours", "peer", "samples", "ours_s", "peer_s"} with the
      best time of each (the peer's fields null where it has none).

Tasks: every read with its signal from Python (pod5's `Reader.reads()` and `read.signal`;
svb on 1 and 2 threads); BLOW5 records with their signal (pyslow5's `seq_reads` and its
best mode `seq_reads_multi` on 2 threads; svb on 2 threads); `to_arrow` with the signal
(Msamples/s on 2 cores) and the metadata-only scan; with --dataset, 100 reads by id among
the files (`svb.open_dataset`, its index built by the first lookup or kept from an earlier
session, against `pod5.DatasetReader.get_read`) and every read of the files in turn.
"""

import json
import sys
import time


def best(fn, rounds):
    times = []
    out = None
    for _ in range(rounds):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return min(times), out


def main():
    import pod5
    import pyslow5

    import svb

    pod5_path, blow5_path = sys.argv[1], sys.argv[2]
    rounds = int(sys.argv[sys.argv.index("--rounds") + 1]) if "--rounds" in sys.argv else 3

    def pod5_iter():
        n = 0
        with pod5.Reader(pod5_path) as r:
            for read in r.reads():
                n += len(read.signal)
        return n

    def svb_iter(path, threads):
        def go():
            n = 0
            for read in svb.open(path, threads=threads):
                n += len(read.signal)
            return n
        return go

    def slow5_seq():
        s = pyslow5.Open(blow5_path, "r")
        n = sum(len(r["signal"]) for r in s.seq_reads(pA=False, aux=None))
        s.close()
        return n

    def slow5_multi():
        s = pyslow5.Open(blow5_path, "r")
        n = sum(len(r["signal"]) for r in s.seq_reads_multi(threads=2, batchsize=100, pA=False, aux=None))
        s.close()
        return n

    def to_arrow(signal):
        # A streaming consumer: each batch dropped before the next is read.
        def go():
            n = 0
            reader = svb.open(pod5_path).to_arrow(signal=signal)
            while True:
                try:
                    batch = reader.read_next_batch()
                except StopIteration:
                    return n
                n += len(batch.column(batch.num_columns - 1).values) if signal else batch.num_rows
                del batch
        return go

    def emit(task, ours, peer, ours_fn, peer_fn):
        # Warm-up: page cache, imports.
        ours_fn()
        if peer_fn:
            peer_fn()
        ours_times, peer_times = [], []
        samples = None
        for _ in range(rounds):
            t, samples = best(ours_fn, 1)
            ours_times.append(t)
            if peer_fn:
                t, _ = best(peer_fn, 1)
                peer_times.append(t)
        print(json.dumps({
            "task": task, "ours": ours, "peer": peer, "samples": samples,
            "ours_s": min(ours_times), "peer_s": min(peer_times) if peer_times else None,
        }), flush=True)

    emit("POD5 reads with signal, 1 thread", "svb threads=1", "pod5 (1 thread)",
         svb_iter(pod5_path, 1), pod5_iter)
    emit("POD5 reads with signal, 2 threads", "svb threads=2", "pod5 (1 thread)",
         svb_iter(pod5_path, 2), pod5_iter)
    emit("BLOW5 records with signal, 2 threads", "svb threads=2", "pyslow5 seq_reads_multi(2)",
         svb_iter(blow5_path, 2), slow5_multi)
    emit("BLOW5 records with signal, 1 thread", "svb threads=1", "pyslow5 seq_reads",
         svb_iter(blow5_path, 1), slow5_seq)
    emit("POD5 to_arrow with signal (samples), 2 cores", "svb to_arrow(signal=raw)", None,
         to_arrow("raw"), None)
    emit("POD5 to_arrow metadata only (reads)", "svb to_arrow()", None, to_arrow(None), None)

    if "--dataset" not in sys.argv:
        return
    import glob
    import os
    import tempfile

    files = sorted(glob.glob(os.path.join(sys.argv[sys.argv.index("--dataset") + 1], "part*.pod5")))
    all_ids = list(svb.open_dataset(files).read_ids)
    wanted = all_ids[:: max(1, len(all_ids) // 100)][:100]
    kept = os.path.join(tempfile.mkdtemp(), "parts.svbidx")

    def svb_lookup(index):
        def go():
            data = svb.open_dataset(files, index=index)
            return sum(len(data[rid].signal) for rid in wanted)
        return go

    def pod5_lookup():
        with pod5.DatasetReader(files) as data:
            return sum(len(data.get_read(rid).signal) for rid in wanted)

    def svb_walk():
        return sum(len(r.signal) for r in svb.open_dataset(files))

    def pod5_walk():
        with pod5.DatasetReader(files) as data:
            return sum(len(r.signal) for r in data)

    n = len(files)
    emit(f"{n} POD5 files: 100 reads by id, index built by the first lookup",
         "svb open_dataset", "pod5 DatasetReader", svb_lookup(None), pod5_lookup)
    emit(f"{n} POD5 files: 100 reads by id, index kept from an earlier session",
         "svb open_dataset(index=)", "pod5 DatasetReader", svb_lookup(kept), pod5_lookup)
    emit(f"{n} POD5 files: every read with signal", "svb open_dataset", "pod5 DatasetReader",
         svb_walk, pod5_walk)
    os.unlink(kept)


if __name__ == "__main__":
    main()
