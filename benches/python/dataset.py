#!/usr/bin/env python3
"""The dataset commands of `svb` against the tools users run for the same job, in one run.

  dataset.py SVB WORKDIR [--rounds R] [--only TEXT]
      Makes WORKDIR/large.pod5 with ONT's own writer when missing (the 10 shared reads x 200:
      2000 reads, 310M samples), WORKDIR/large.blow5 from it with blue-crab and
      WORKDIR/large_fast5/ with ONT's `pod5 convert to_fast5`, WORKDIR/medium.slow5 (200 of
      the reads as SLOW5 text, by svb), the reads split into 20 and 1000 POD5 files and 20
      BLOW5 files (merge inputs, by svb subset), then times
      each task with svb and its peer alternately (each run started after a sync, on an idle
      disk), R rounds (default 3), and prints one JSON
      line per task: {"task", "ours", "peer", "ours_s", "peer_s", "ours_rss_mb",
      "peer_rss_mb"} with the best wall time and the peak RSS of that run (the peer's
      fields are null where it has none); with --only, the tasks whose name holds TEXT.
      `cargo xtask bench-dataset` runs it.
  dataset.py --hash-peer POD5
      The verify peer: ONT's reader and hashlib in one process (sha256 of every read's
      int16 signal, as `svb pod5 verify` prints).
  dataset.py --slow5-hash-peer SLOW5
      The same with pyslow5 (slow5lib) over a SLOW5 text or BLOW5 file.

Peers: blue-crab 0.6 (`p2s`, `s2p`: zstd records, svb-zd signal, 2 threads, as svb), ONT's
`pod5 convert fast5` (2 processes), `pod5 filter`, `pod5 view`, `pod5 merge` and `pod5 subset
--table`, and the `pod5` and
`pyslow5` readers with hashlib.
"""
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SHARED = Path(os.environ.get("SVB_TEST_DATA", HERE.parents[1] / ".." / "shared" / "data"))


def hash_peer(path):
    import pod5

    with pod5.Reader(path) as reader:
        for read in reader.reads():
            signal = read.signal
            line = json.dumps({"read_id": str(read.read_id), "num_samples": len(signal),
                               "sha256": hashlib.sha256(signal.astype("<i2").tobytes()).hexdigest()})
            sys.stdout.write(line + "\n")


def slow5_hash_peer(path):
    """pyslow5 (slow5lib) reading every record of a SLOW5 or BLOW5 file, its signal hashed,
    as `svb blow5 verify` does."""
    import numpy as np
    import pyslow5

    s5 = pyslow5.Open(str(path), "r")
    for r in s5.seq_reads(pA=False, aux="all"):
        signal = np.asarray(r["signal"], dtype="<i2")
        line = json.dumps({"read_id": r["read_id"], "num_samples": len(signal),
                           "sha256": hashlib.sha256(signal.tobytes()).hexdigest()})
        sys.stdout.write(line + "\n")
    s5.close()


def run(cmd):
    """Wall seconds and peak RSS (MB) of one run of `cmd`, started on an idle disk (what the
    run before left dirty written out first: otherwise a run pays for its predecessor's
    write-back, which moved timings 2x); raises on failure."""
    import tempfile

    os.sync()
    time.sleep(0.3)
    with tempfile.TemporaryFile() as err:
        t = time.perf_counter()
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t
        p.returncode = os.waitstatus_to_exitcode(status)
        if p.returncode != 0:
            err.seek(0)
            raise RuntimeError(f"{' '.join(map(str, cmd))}: exit {p.returncode}: "
                               f"{err.read().decode(errors='replace')[-2000:]}")
    return wall, usage.ru_maxrss / 1024


def remove(*paths):
    def go():
        for p in paths:
            p = Path(p)
            if p.is_dir():
                shutil.rmtree(p)
            else:
                p.unlink(missing_ok=True)
    return go


def slow5tools():
    """slow5tools (`SLOW5TOOLS`, else on the PATH), the BLOW5 commands' peer, where it is
    installed (it is built from its source: not on pip); None elsewhere, and its rows are
    left out."""
    return os.environ.get("SLOW5TOOLS") or shutil.which("slow5tools")


def main():
    if sys.argv[1:2] == ["--hash-peer"]:
        hash_peer(sys.argv[2])
        return
    if sys.argv[1:2] == ["--slow5-hash-peer"]:
        slow5_hash_peer(sys.argv[2])
        return
    svb, work = sys.argv[1], Path(sys.argv[2])
    rounds = int(sys.argv[sys.argv.index("--rounds") + 1]) if "--rounds" in sys.argv else 3
    # `--only TEXT`: the tasks whose name holds TEXT (to measure one change).
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else None
    work.mkdir(parents=True, exist_ok=True)
    large = work / "large.pod5"
    if not large.exists():
        subprocess.run([sys.executable, HERE / "pod5_decode.py", "--make-large",
                        SHARED / "pod5" / "multi_fast5_zip.pod5", large, "200"], check=True)
    # The same reads as FAST5 (VBZ, one multi-read file), by ONT's own converter.
    large_f5 = work / "large_fast5" / "large.0_0.fast5"
    if not large_f5.exists():
        subprocess.run(["pod5", "convert", "to_fast5", large, "--output", large_f5.parent,
                        "-t", "2"], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    large_b5 = work / "large.blow5"
    if not large_b5.exists():
        subprocess.run(["blue-crab", "p2s", large, "-o", large_b5, "-c", "zstd", "-s", "svb-zd",
                        "-t", "2"], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    # The ids through svb view: the parent stays small (a child's peak RSS counts what it
    # had when forked).
    ids = subprocess.run([svb, "view", large, "--fields", "read_id", "--no-header"], check=True,
                         capture_output=True, text=True).stdout.split()
    id_list = work / "ids_1pct.txt"
    id_list.write_text("\n".join(ids[:: len(ids) // 20][:20]) + "\n")
    out = work / "out"
    out.mkdir(exist_ok=True)
    # The 2000 reads as 20 files of 100 and as 1000 files of 2 (POD5, by svb subset), and the
    # 20 as BLOW5: the merge inputs.
    def parts(name, n, ext, src):
        folder = work / name
        if not (folder / f"done.{ext}").exists():
            folder.mkdir(exist_ok=True)
            per = len(ids) // n
            for k in range(n):
                lst = folder / f"ids{k}.txt"
                lst.write_text("\n".join(ids[k * per:(k + 1) * per]) + "\n")
                subprocess.run([svb, "subset", src, "--read-ids", lst, "-o",
                                folder / f"part{k:04d}.{ext}", "--force"], check=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                lst.unlink()
            (folder / f"done.{ext}").write_text("")
        return sorted(folder.glob(f"part*.{ext}"))
    parts20 = parts("parts20", 20, "pod5", large)
    parts1000 = parts("parts1000", 1000, "pod5", large)
    parts20_b5 = parts("parts20_blow5", 20, "blow5", large_b5)
    # The same files with their slow5lib indexes beside them (as `svb index` or slow5tools
    # index leave them): what merge takes the read ids from without reading the records.
    indexed = work / "parts20_blow5_indexed"
    if not (indexed / "done").exists():
        indexed.mkdir(exist_ok=True)
        for f in parts20_b5:
            shutil.copyfile(f, indexed / f.name)
            (indexed / f"{f.name}.idx").unlink(missing_ok=True)
            subprocess.run([svb, "index", indexed / f.name], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        (indexed / "done").write_text("")
    parts20_b5_indexed = sorted(indexed.glob("part*.blow5"))
    # A table sending the 2000 reads to 20 destinations (barcode00..barcode19).
    table20 = work / "table20.tsv"
    table20.write_text("read_id\tbarcode\n" + "".join(
        f"{rid}\tbarcode{k % 20:02d}\n" for k, rid in enumerate(ids)))
    # The same destinations in a table of 10M read ids (the 2000 among 9,998,000 others, as a
    # lab's table of every read of its runs): what `split --table` streams in bounded memory.
    table10m = work / "table10m.tsv"
    if not table10m.exists():
        import random

        rnd = random.Random(7)
        lines, n = 10_000_000, 0
        step = lines // len(ids)
        partial = table10m.with_suffix(".partial")
        with partial.open("w") as f:
            f.write("read_id\tbarcode\n")
            buf = []
            for i in range(lines):
                if i % step == 0 and n < len(ids):
                    buf.append(f"{ids[n]}\tbarcode{n % 20:02d}\n")
                    n += 1
                else:
                    h = "%032x" % rnd.getrandbits(128)
                    buf.append(f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}\tbarcode{i % 20:02d}\n")
                if len(buf) >= 100_000:
                    f.write("".join(buf))
                    buf = []
            f.write("".join(buf))
        partial.rename(table10m)
    # SLOW5 text of 200 of the reads (31M samples, 140 MB: the whole set would be 1.4 GB).
    medium_s5 = work / "medium.slow5"
    if not medium_s5.exists():
        id_10pct = work / "ids_10pct.txt"
        id_10pct.write_text("\n".join(ids[::10]) + "\n")
        subprocess.run([svb, "subset", large_b5, "--read-ids", id_10pct, "-o", medium_s5],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    py = sys.executable
    tasks = [
        ("convert POD5 -> BLOW5",
         [svb, "convert", large, "-o", out / "a.blow5", "--force"],
         "blue-crab p2s", ["blue-crab", "p2s", large, "-o", out / "b.blow5", "-c", "zstd",
                           "-s", "svb-zd", "-t", "2"],
         remove(out / "b.blow5")),
        ("convert BLOW5 -> POD5",
         [svb, "convert", large_b5, "-o", out / "a.pod5", "--force"],
         "blue-crab s2p", ["blue-crab", "s2p", large_b5, "-o", out / "b.pod5"],
         remove(out / "b.pod5")),
        ("convert FAST5 -> POD5",
         [svb, "convert", large_f5, "-o", out / "f.pod5", "--force"],
         "pod5 convert fast5", ["pod5", "convert", "fast5", large_f5, "--output",
                                out / "g.pod5", "-t", "2", "--force-overwrite"],
         None),
        ("convert FAST5 -> POD5, --no-sync",
         [svb, "convert", large_f5, "-o", out / "f.pod5", "--force", "--no-sync"],
         "pod5 convert fast5", ["pod5", "convert", "fast5", large_f5, "--output",
                                out / "g.pod5", "-t", "2", "--force-overwrite"],
         None),
        ("convert POD5 -> FAST5",
         [svb, "convert", large, "-o", out / "p.fast5", "--force"],
         "pod5 convert to_fast5", ["pod5", "convert", "to_fast5", large, "--output",
                                   out / "p5_fast5", "-t", "2", "--force-overwrite"],
         None),
        ("subset 20 reads (1%) of POD5",
         [svb, "subset", large, "--read-ids", id_list, "-o", out / "s.pod5", "--force"],
         "pod5 filter", ["pod5", "filter", large, "--ids", id_list, "--output",
                         out / "f.pod5", "--force-overwrite"],
         None),
        ("view POD5",
         [svb, "view", large, "-o", out / "v.tsv", "--force"],
         "pod5 view", ["pod5", "view", large, "--output", out / "p.tsv", "--force-overwrite"],
         None),
        ("verify POD5 (sha256 of every read)",
         [svb, "pod5", "verify", large],
         "pod5 + hashlib", [py, HERE / "dataset.py", "--hash-peer", large],
         None),
        ("read SLOW5 text (sha256 of every read, 200 reads)",
         [svb, "slow5", "verify", medium_s5],
         "pyslow5 + hashlib", [py, HERE / "dataset.py", "--slow5-hash-peer", medium_s5],
         None),
        ("merge 20 POD5 files of 100 reads",
         [svb, "merge", *parts20, "-o", out / "m20.pod5", "--force"],
         "pod5 merge", ["pod5", "merge", *parts20, "--output", out / "p20.pod5",
                        "--force-overwrite"],
         None),
        ("merge 1000 POD5 files of 2 reads",
         [svb, "merge", *parts1000, "-o", out / "m1000.pod5", "--force"],
         "pod5 merge", ["pod5", "merge", *parts1000, "--output", out / "p1000.pod5",
                        "--force-overwrite"],
         None),
        ("split a 2000-read POD5 into 20 by a table",
         [svb, "split", large, "-o", out / "split_svb", "--table", table20, "--column",
          "barcode", "--force"],
         "pod5 subset --table", ["pod5", "subset", large, "--table", table20, "--columns",
                                 "barcode", "--output", out / "split_pod5", "--force-overwrite"],
         None),
        ("merge 20 POD5 files of 100 reads, --no-sync",
         [svb, "merge", *parts20, "-o", out / "m20.pod5", "--force", "--no-sync"],
         "pod5 merge", ["pod5", "merge", *parts20, "--output", out / "p20.pod5",
                        "--force-overwrite"],
         None),
        ("merge 1000 POD5 files of 2 reads, --no-sync",
         [svb, "merge", *parts1000, "-o", out / "m1000.pod5", "--force", "--no-sync"],
         "pod5 merge", ["pod5", "merge", *parts1000, "--output", out / "p1000.pod5",
                        "--force-overwrite"],
         None),
        ("split a 2000-read POD5 into 20 by a table, --no-sync",
         [svb, "split", large, "-o", out / "split_svb", "--table", table20, "--column",
          "barcode", "--force", "--no-sync"],
         "pod5 subset --table", ["pod5", "subset", large, "--table", table20, "--columns",
                                 "barcode", "--output", out / "split_pod5", "--force-overwrite"],
         None),
        ("split a 2000-read POD5 into 20 by a table of 10M read ids",
         [svb, "split", large, "-o", out / "split_svb10m", "--table", table10m, "--force"],
         None, None, None),
        ("split a 2000-read BLOW5 by read group (1 group)",
         [svb, "split", large_b5, "-o", out / "split_b5", "--by", "read-group", "--force"],
         None, None, None),
        ("merge 20 BLOW5 files of 100 reads",
         [svb, "merge", *parts20_b5, "-o", out / "m20.blow5", "--force"],
         None, None, None),
        # `cat` of the same bytes: what a copy-through cannot beat (its output's 20 parts or
        # its one file, in the page cache as svb's are without sync).
        ("split a 2000-read BLOW5 into 20 files (vs cat), --no-sync",
         [svb, "split", large_b5, "-o", out / "s20_cat", "--files", "20", "--no-sync"],
         "cat", ["sh", "-c", f'cat "{large_b5}" > "{out / "cat_split.blow5"}"'],
         remove(out / "s20_cat", out / "cat_split.blow5")),
        ("merge 20 BLOW5 files of 100 reads (vs cat), --no-sync",
         [svb, "merge", *parts20_b5, "-o", out / "m20_cat.blow5", "--no-sync"],
         "cat", ["sh", "-c", "cat " + " ".join(f'"{f}"' for f in parts20_b5)
                 + f' > "{out / "cat_merge.blow5"}"'],
         remove(out / "m20_cat.blow5", out / "cat_merge.blow5")),
        ("merge 20 indexed BLOW5 files of 100 reads (vs cat), --no-sync",
         [svb, "merge", *parts20_b5_indexed, "-o", out / "m20i_cat.blow5", "--no-sync"],
         "cat", ["sh", "-c", "cat " + " ".join(f'"{f}"' for f in parts20_b5_indexed)
                 + f' > "{out / "cat_mergei.blow5"}"'],
         remove(out / "m20i_cat.blow5", out / "cat_mergei.blow5")),
        ("decode POD5 to one Arrow IPC file",
         [svb, "decode", large, "-o", out / "d.arrow", "--force"],
         None, None, None),
        ("get one read of a 2000-read POD5",
         [svb, "get", large, ids[1234], "-o", out / "one.i16", "--force"],
         None, None, None),
        ("get one read of a 2000-read BLOW5 (indexed)",
         [svb, "get", large_b5, ids[1234], "-o", out / "one.i16", "--force"],
         None, None, None),
    ]
    # Long reads: 60 of 2 million samples (POD5 by ONT's writer, BLOW5 by svb), each
    # command's peak RSS at 1 thread, the default and 16 (the bound: 256 MiB whatever the
    # reads' lengths and the thread count).
    long5 = work / "long.pod5"
    if not long5.exists():
        subprocess.run([sys.executable, HERE / "pod5_decode.py", "--make-long",
                        SHARED / "pod5" / "multi_fast5_zip.pod5", long5, "60", "2000000"],
                       check=True)
    long_b5 = work / "long.blow5"
    if not long_b5.exists():
        subprocess.run([svb, "convert", long5, "-o", long_b5], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    long_ids = work / "long_ids.txt"
    long_ids.write_text("\n".join(reversed(subprocess.run(
        [svb, "view", long5, "--fields", "read_id", "--no-header"], check=True,
        capture_output=True, text=True).stdout.split())) + "\n")
    for threads in [["-t", "1"], [], ["-t", "16"]]:
        t = " ".join(threads) or "default threads"
        long_tasks = [
            ("POD5 -> BLOW5", ["convert", long5, "-o", out / "long.blow5"]),
            ("BLOW5 -> POD5", ["convert", long_b5, "-o", out / "long.pod5"]),
            ("POD5 -> FAST5", ["convert", long5, "-o", out / "long.fast5"]),
            ("BLOW5 -> FAST5 gzip",
             ["convert", long_b5, "-o", out / "long.fast5", "--signal", "gzip"]),
            ("subset --in-order BLOW5",
             ["subset", long_b5, "--read-ids", long_ids, "-o", out / "long.blow5",
              "--in-order"]),
            ("subset --in-order POD5",
             ["subset", long5, "--read-ids", long_ids, "-o", out / "long.pod5", "--in-order"]),
            ("merge BLOW5, records recompressed",
             ["merge", long_b5, "-o", out / "long.blow5", "--records", "zlib"]),
            ("merge POD5", ["merge", long5, "-o", out / "long.pod5"]),
            ("degrade (2 bits)", ["degrade", long_b5, "-o", out / "long.blow5", "--bits", "2"]),
            ("split BLOW5 --reads 10", ["split", long_b5, "-o", out / "long_parts", "--reads",
                                        "10"]),
        ]
        tasks += [(f"60 reads of 2M samples: {name} ({t})", [svb, *args[:1], *threads, *args[1:]],
                   None, None,
                   remove(out / "long.blow5", out / "long.pod5", out / "long.fast5",
                          out / "long_parts"))
                  for name, args in long_tasks]
    s5t = slow5tools()
    if s5t:
        # slow5tools 1.3 with 2 processes where it has the option, writing what svb writes
        # (the input's zstd and svb-zd for split and merge; zlib and ex-zd for degrade); the
        # outputs of both removed before each run (slow5tools refuses a folder or file that
        # exists; svb's replacing one costs a rename over it that the file system flushes).
        tasks += [
            ("split a 2000-read BLOW5 into 20 files",
             [svb, "split", large_b5, "-o", out / "s20_svb", "--files", "20"],
             "slow5tools split", [s5t, "split", large_b5, "-d", out / "s20_s5t", "-f", "20",
                                  "-c", "zstd", "-s", "svb-zd"],
             remove(out / "s20_svb", out / "s20_s5t")),
            ("split a 2000-read BLOW5 into 20 files, --no-sync",
             [svb, "split", large_b5, "-o", out / "s20_svb", "--files", "20", "--no-sync"],
             "slow5tools split", [s5t, "split", large_b5, "-d", out / "s20_s5t", "-f", "20",
                                  "-c", "zstd", "-s", "svb-zd"],
             remove(out / "s20_svb", out / "s20_s5t")),
            ("merge 20 BLOW5 files of 100 reads (vs slow5tools)",
             [svb, "merge", *parts20_b5, "-o", out / "m20_svb.blow5"],
             "slow5tools merge", [s5t, "merge", *parts20_b5, "-o", out / "m20_s5t.blow5",
                                  "-t", "2", "-c", "zstd", "-s", "svb-zd"],
             remove(out / "m20_svb.blow5", out / "m20_s5t.blow5")),
            ("merge 20 BLOW5 files of 100 reads (vs slow5tools), --no-sync",
             [svb, "merge", *parts20_b5, "-o", out / "m20_svb.blow5", "--no-sync"],
             "slow5tools merge", [s5t, "merge", *parts20_b5, "-o", out / "m20_s5t.blow5",
                                  "-t", "2", "-c", "zstd", "-s", "svb-zd"],
             remove(out / "m20_svb.blow5", out / "m20_s5t.blow5")),
            ("degrade a 2000-read BLOW5 (2 bits)",
             [svb, "degrade", large_b5, "-o", out / "deg.blow5", "--bits", "2"],
             "slow5tools degrade", [s5t, "degrade", large_b5, "-o", out / "deg_s5t.blow5",
                                    "-b", "2", "-t", "2"],
             remove(out / "deg.blow5", out / "deg_s5t.blow5")),
            ("degrade a 2000-read BLOW5 (2 bits, zstd records)",
             [svb, "degrade", large_b5, "-o", out / "degz.blow5", "--bits", "2", "--records",
              "zstd"],
             "slow5tools degrade", [s5t, "degrade", large_b5, "-o", out / "degz_s5t.blow5",
                                    "-b", "2", "-t", "2", "-c", "zstd"],
             remove(out / "degz.blow5", out / "degz_s5t.blow5")),
            ("convert BLOW5 -> FAST5",
             [svb, "convert", large_b5, "-o", out / "b.fast5"],
             "slow5tools s2f", [s5t, "s2f", large_b5, "-d", out / "s2f", "-p", "2"],
             remove(out / "b.fast5", out / "s2f")),
            ("index a 2000-read BLOW5",
             [svb, "index", large_b5, "--index", out / "svb.idx", "--force"],
             "slow5tools index", [s5t, "index", out / "copy.blow5"],
             None),
        ]
        shutil.copyfile(large_b5, out / "copy.blow5")
    # The index is built once, as a first `get` would.
    run([svb, "get", large_b5, ids[0], "-o", out / "first.i16", "--force"])
    for task, ours, peer, peer_cmd, before in tasks:
        if only is not None and only not in task:
            continue
        # svb and its peer alternately, so that a slow spell of the machine falls on both.
        ours_runs, peer_runs = [], []
        for _ in range(rounds):
            remove(out / "one.i16")()
            # `before` removes the outputs of both sides (each then writes into nothing, as
            # the first run of a user would).
            if before:
                before()
            ours_runs.append(run(ours))
            if peer_cmd:
                if before:
                    before()
                peer_runs.append(run(peer_cmd))
        ours_s, ours_rss = min(ours_runs)
        peer_s, peer_rss = min(peer_runs) if peer_runs else (None, None)
        print(json.dumps({"task": task, "ours": "svb " + " ".join(map(str, ours[1:2])),
                          "peer": peer, "ours_s": ours_s, "peer_s": peer_s,
                          "ours_rss_mb": ours_rss, "peer_rss_mb": peer_rss}), flush=True)


if __name__ == "__main__":
    main()
