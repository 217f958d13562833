"""The reader's API: lookups, Arrow streams, conversion, errors; the codecs against the
reference implementations' bytes."""

import os
import shutil

import numpy as np
import pyarrow as pa
import pytest

import svb


def test_lookup_by_id(pod5_files, blow5_files):
    for path in [pod5_files[0], blow5_files[0]]:
        r = svb.open(path)
        ids = r.read_ids
        assert len(ids) == len(r)
        every = list(r)
        assert [x.read_id for x in every] == ids
        picked = r.reads([ids[-1], ids[0]])
        assert [x.read_id for x in picked] == [ids[-1], ids[0]]
        np.testing.assert_array_equal(picked[1].signal, every[0].signal)
        assert r[ids[2]].read_id == ids[2]
        assert ids[2] in r and "no-such-read" not in r
        with pytest.raises(KeyError):
            r["no-such-read"]
        with pytest.raises(KeyError):
            r.reads([ids[0], "no-such-read"])
        assert [x.read_id for x in r.reads(["no-such-read", ids[1]], missing_ok=True)] == [ids[1]]


def test_threads_and_iteration_agree(pod5_files):
    one = [(x.read_id, x.signal.sum()) for x in svb.open(pod5_files[0], threads=1)]
    two = [(x.read_id, x.signal.sum()) for x in svb.open(pod5_files[0], threads=2)]
    assert one == two
    with pytest.raises(ValueError):
        svb.open(pod5_files[0], threads=0)


def test_to_arrow(pod5_files, blow5_files):
    path = pod5_files[0]
    r = svb.open(path)
    reads = list(r)
    rb = r.to_arrow(columns=["read_id", "channel"], signal="raw", batch_reads=3)
    assert isinstance(rb, pa.RecordBatchReader)
    assert rb.schema.names == ["read_id", "channel", "signal"]
    assert rb.schema.field("signal").type == pa.list_(pa.field("item", pa.int16(), nullable=False))
    table = rb.read_all()
    assert table.num_rows == len(reads)
    assert table.column("read_id").to_pylist() == [x.read_id for x in reads]
    for i, x in enumerate(reads):
        np.testing.assert_array_equal(table.column("signal")[i].values.to_numpy(), x.signal)
    pa_table = r.to_arrow(signal="pa").read_all()
    np.testing.assert_allclose(pa_table.column("signal_pa")[0].values.to_numpy(), reads[0].signal_pa())
    meta = r.to_arrow().read_all()
    assert "signal" not in meta.schema.names and meta.num_rows == len(reads)
    df = meta.to_pandas()
    assert list(df["read_id"]) == [x.read_id for x in reads]
    # Many files as one stream.
    both = svb.to_arrow([blow5_files[0], blow5_files[0]], columns=["read_id"]).read_all()
    assert both.num_rows == 2 * len(svb.open(blow5_files[0]))
    with pytest.raises(ValueError, match="no column nope"):
        r.to_arrow(columns=["nope"])
    with pytest.raises(ValueError):
        r.to_arrow(signal="loud")


def test_convert_round_trip(pod5_files, tmp_path):
    src = pod5_files[0]
    b5 = tmp_path / "reads.blow5"
    back = tmp_path / "back.pod5"
    stats = svb.convert(src, b5)
    assert stats["reads"] == len(svb.open(src)) and stats["failed"] == []
    svb.convert([b5], back, decode_fast=True)
    a, b = list(svb.open(src)), list(svb.open(back))
    assert [x.read_id for x in a] == [x.read_id for x in b]
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x.signal, y.signal)
    with pytest.raises(ValueError):
        svb.convert(src, tmp_path / "out.txt")
    # keep_going: a bad input is listed, the good one converted.
    bad = tmp_path / "bad.pod5"
    bad.write_bytes(b"\x8bPOD\r\n\x1a\nnot really")
    stats = svb.convert([bad, src], tmp_path / "some.blow5", keep_going=True)
    assert stats["reads"] == len(a) and len(stats["failed"]) == 1 and "bad.pod5" in stats["failed"][0]
    with pytest.raises(svb.FileFormatError, match="bad.pod5"):
        svb.convert([bad, src], tmp_path / "none.blow5")
    assert not (tmp_path / "none.blow5").exists()


def test_convert_to_pdz_and_back(pod5_files, tmp_path):
    """signal="pdz" for a POD5 output: ONT's PDZ signal, the same reads; "vbz" back."""
    src = pod5_files[0]
    pdz, back = tmp_path / "pdz.pod5", tmp_path / "back.pod5"
    svb.convert(src, pdz, signal="pdz")
    svb.convert(pdz, back, signal="vbz")
    for other in (pdz, back):
        for x, y in zip(svb.open(src), svb.open(other)):
            assert x.read_id == y.read_id
            np.testing.assert_array_equal(x.signal, y.signal)
    with pytest.raises(ValueError, match="pdz"):
        svb.convert(src, tmp_path / "x.pod5", signal="svb-zd")
    # A BLOW5 output's signal is its own codec's.
    with pytest.raises(ValueError, match="svb-zd"):
        svb.convert(src, tmp_path / "x.blow5", signal="pdz")


def test_convert_to_fast5(pod5_files, blow5_files, tmp_path):
    """POD5 and BLOW5 into multi-read FAST5 (VBZ by default, gzip asked for), read back by
    svb with the same reads and samples."""
    with_fields = next(f for f in blow5_files if f.name == "example_multi_rg_v0.2.0_zstd_svb-zd.blow5")
    for src, out, signal in [
        (pod5_files[0], tmp_path / "from_pod5.fast5", None),
        (with_fields, tmp_path / "from_blow5.fast5", "gzip"),
    ]:
        stats = svb.convert(src, out, signal=signal)
        a, b = list(svb.open(src)), svb.open(out)
        assert stats["reads"] == len(a) == len(b) and stats["failed"] == []
        # FAST5 lists its reads by name: each found by id.
        for x in a:
            np.testing.assert_array_equal(x.signal, b[x.read_id].signal)
    # A BLOW5 without the fields every FAST5 read holds is refused (FAST5 readers need them).
    bare = next(f for f in blow5_files if f.name == "reads_none_none.blow5")
    with pytest.raises(svb.FileFormatError, match="start_time"):
        svb.convert(bare, tmp_path / "bare.fast5")
    assert not (tmp_path / "bare.fast5").exists()
    stats = svb.convert(pod5_files[0], tmp_path / "cut.fast5", file_read_count=4)
    names = [os.path.basename(f) for f in stats["files"]]
    n = len(svb.open(pod5_files[0]))
    assert names == [f"cut.{k}.fast5" for k in range((n + 3) // 4)]
    assert sum(len(svb.open(f)) for f in stats["files"]) == n
    with pytest.raises(ValueError, match="cuts FAST5 outputs"):
        svb.convert(pod5_files[0], tmp_path / "cut.blow5", file_read_count=4)
    with pytest.raises(ValueError, match="vbz, gzip or none"):
        svb.convert(pod5_files[0], tmp_path / "bad.fast5", signal="svb-zd")
    with pytest.raises(ValueError, match="conversions only"):
        svb.merge(pod5_files[:1], tmp_path / "merged.fast5")


def test_operations_raise_errors_by_kind(pod5_files, tmp_path):
    """A missing input is FileNotFoundError, an existing output FileExistsError, from every
    operation; a bad file stays a FileFormatError."""
    missing = tmp_path / "missing.pod5"
    calls = {
        "convert": lambda out: svb.convert(missing, out),
        "subset": lambda out: svb.subset([missing], ["0000173c-bf67-44e7-9a9c-1ad0bc728e74"], out),
        "merge": lambda out: svb.merge([missing], out),
        "recover": lambda out: svb.recover(missing, out),
        "split": lambda out: svb.split(missing, tmp_path / "parts", reads=2),
    }
    for name, call in calls.items():
        with pytest.raises(FileNotFoundError, match="missing.pod5"):
            call(tmp_path / f"{name}.pod5")
    with pytest.raises(FileNotFoundError):
        svb.open_dataset([tmp_path / "no_folder"])
    taken = tmp_path / "taken.pod5"
    taken.write_bytes(b"mine")
    for call in [lambda: svb.convert(pod5_files[0], taken), lambda: svb.merge([pod5_files[0]], taken)]:
        with pytest.raises(FileExistsError, match="taken.pod5"):
            call()
    assert taken.read_bytes() == b"mine"
    junk = tmp_path / "junk.pod5"
    junk.write_bytes(b"\x8bPOD\r\n\x1a\n" + bytes(100))
    with pytest.raises(svb.FileFormatError, match="junk.pod5"):
        svb.merge([junk], tmp_path / "from_junk.pod5")


def test_bad_files_raise_typed_errors(pod5_files, data, tmp_path):
    with pytest.raises(FileNotFoundError, match="missing.pod5"):
        svb.open(tmp_path / "missing.pod5")
    junk = tmp_path / "junk.pod5"
    junk.write_bytes(b"hello")
    with pytest.raises(svb.FileFormatError, match="not a POD5, BLOW5, SLOW5 or FAST5 file"):
        svb.open(junk)
    # A POD5 file cut anywhere is refused at open.
    whole = pod5_files[0].read_bytes()
    for cut in [8, len(whole) // 3, len(whole) - 1]:
        p = tmp_path / "cut.pod5"
        p.write_bytes(whole[:cut])
        with pytest.raises(svb.FileFormatError):
            svb.open(p)
    # A BLOW5 record damaged: iteration raises the error of that record, naming it.
    src = data / "blow5" / "reads_zstd_svb_zd.blow5"
    raw = bytearray(src.read_bytes())
    n = len(list(svb.open(src)))
    damaged = tmp_path / "damaged.blow5"
    for flip in range(len(raw) - 2000, len(raw) - 10, 97):
        raw2 = bytearray(raw)
        raw2[flip] ^= 0x5A
        damaged.write_bytes(bytes(raw2))
        try:
            r = svb.open(damaged)
            got = [x.read_id for x in r]
            assert len(got) <= n
        except svb.SvbError as e:
            assert "damaged.blow5" in str(e)
    assert issubclass(svb.FileFormatError, svb.SvbError) and issubclass(svb.CodecError, svb.SvbError)


def test_codecs_match_the_reference_bytes(data):
    d = data / "streamvbyte"
    names = sorted(p.name[: -len(".u32")] for p in d.glob("*.u32"))
    assert names
    for name in names:
        values = np.fromfile(d / f"{name}.u32", dtype="<u4")
        for variant, ext in [("1234", "1234"), ("0124", "0124")]:
            ref = (d / f"{name}.{ext}.svb").read_bytes()
            assert svb.streamvbyte_encode(values, variant) == ref, name
            np.testing.assert_array_equal(svb.streamvbyte_decode(ref, len(values), variant), values)
            np.testing.assert_array_equal(
                svb.streamvbyte_decode(np.frombuffer(ref, dtype=np.uint8), len(values), variant), values
            )
    v = data / "vbz"
    blobs = sorted(v.glob("*.vbz"))
    assert len(blobs) == 15
    for blob in blobs:
        want = np.fromfile(blob.with_suffix(".i16"), dtype="<i2")
        np.testing.assert_array_equal(svb.vbz_decompress(blob.read_bytes(), len(want)), want)
        if len(want):
            assert svb.vbz_compress(want) == blob.read_bytes(), blob.name
        else:
            # lib_pod5's C++ writer makes the empty zstd frame (the vector's Python wrapper
            # stored no bytes).
            assert svb.vbz_compress(want) == bytes([0x28, 0xB5, 0x2F, 0xFD, 0x20, 0, 1, 0, 0])
    # ONT's PDZ codec's 40 blocks: decoded to their samples, and our blocks are theirs.
    p = data / "pdz"
    blocks = sorted(p.glob("*.pdz"))
    assert len(blocks) == 40
    for block in blocks:
        want = np.fromfile(block.with_suffix(".i16"), dtype="<i2")
        np.testing.assert_array_equal(svb.pdz_decompress(block.read_bytes(), len(want)), want)
        assert svb.pdz_compress(want) == block.read_bytes(), block.name
        with pytest.raises(svb.CodecError):
            svb.pdz_decompress(block.read_bytes(), len(want) + 1)


def test_codec_round_trips_and_errors():
    rng = np.random.default_rng(7)
    sig = np.cumsum(rng.integers(-40, 40, 10_001)).astype(np.int16)
    for enc, dec in [(svb.svbzd_encode, svb.svbzd_decode), (svb.exzd_encode, svb.exzd_decode)]:
        np.testing.assert_array_equal(dec(enc(sig)), sig)
        with pytest.raises(svb.CodecError):
            dec(enc(sig)[:7])
    u16 = rng.integers(0, 65535, 999).astype(np.uint16)
    np.testing.assert_array_equal(svb.svb16_decode(svb.svb16_encode(u16), len(u16)), u16)
    with pytest.raises(svb.CodecError):
        svb.svb16_decode(b"\x00", 999)
    with pytest.raises(svb.CodecError):
        svb.vbz_decompress(b"not zstd", 10)
    with pytest.raises(ValueError):
        svb.streamvbyte_encode(np.arange(4, dtype=np.uint32), "9999")
    with pytest.raises(TypeError):
        svb.streamvbyte_encode(np.arange(4, dtype=np.int64))


def test_subset(pod5_files, data, tmp_path):
    src = pod5_files[0]
    ids = svb.open(src).read_ids
    out = tmp_path / "some.pod5"
    got = svb.subset(src, [ids[3], ids[1], "0000173c-0000-0000-0000-000000000000"], out)
    assert got["reads"] == 2 and got["missing"] == ["0000173c-0000-0000-0000-000000000000"]
    r = svb.open(out)
    assert sorted(r.read_ids) == sorted([ids[1], ids[3]])
    np.testing.assert_array_equal(r[ids[3]].signal, svb.open(src)[ids[3]].signal)
    # BLOW5, through the index (built beside a copy: never beside the shared data).
    b5 = tmp_path / "reads.blow5"
    shutil.copy(data / "blow5" / "reads_zstd_svb_zd.blow5", b5)
    bids = svb.open(b5).read_ids
    got = svb.subset([b5], bids[:4], tmp_path / "some.blow5")
    assert got["reads"] == 4 and got["missing"] == []
    assert (tmp_path / "reads.blow5.idx").exists()
    assert svb.open(tmp_path / "some.blow5").read_ids == bids[:4]
    with pytest.raises(svb.FileFormatError, match="not a UUID"):
        svb.subset(src, ["read_1"], tmp_path / "x.pod5")


def test_merge(pod5_files, data, tmp_path):
    """Two halves of a file merge back into it; an id in two inputs names both files."""
    src = pod5_files[0]
    ids = svb.open(src).read_ids
    a, b = tmp_path / "a.pod5", tmp_path / "b.pod5"
    svb.subset(src, ids[:4], a)
    svb.subset(src, ids[4:], b)
    got = svb.merge([a, b], tmp_path / "ab.pod5")
    assert got["reads"] == len(ids) and got["duplicates"] == 0 and got["failed"] == []
    merged = svb.open(tmp_path / "ab.pod5")
    assert merged.read_ids == ids
    for read in merged:
        np.testing.assert_array_equal(read.signal, svb.open(src)[read.read_id].signal)
    with pytest.raises(svb.FileFormatError, match="a.pod5 and in .*ab.pod5"):
        svb.merge([a, tmp_path / "ab.pod5"], tmp_path / "twice.pod5")
    assert not (tmp_path / "twice.pod5").exists()
    got = svb.merge([a, tmp_path / "ab.pod5"], tmp_path / "twice.pod5", duplicates="keep-first")
    assert got["reads"] == len(ids) and got["duplicates"] == 4
    # BLOW5 into SLOW5 text.
    b5 = data / "blow5" / "reads_zstd_ex_zd.blow5"
    got = svb.merge([b5], tmp_path / "one.slow5")
    assert svb.open(tmp_path / "one.slow5").format == "slow5"
    assert svb.open(tmp_path / "one.slow5").read_ids == svb.open(b5).read_ids
    with pytest.raises(ValueError, match="keep-first"):
        svb.merge([a], tmp_path / "x.pod5", duplicates="drop")


def test_split(pod5_files, data, tmp_path):
    """A file split by a table and by parts: every read in exactly one output."""
    src = pod5_files[0]
    ids = svb.open(src).read_ids
    got = svb.split(src, tmp_path / "t", table={i: ("a" if k % 2 else "b") for k, i in enumerate(ids[1:])})
    assert got["unlisted"] == 1 and got["reads"] == len(ids) - 1
    assert [(k, n) for k, _, n in got["outputs"]] == [("a", 4), ("b", 5)]
    # The same table as a file (streamed), its destination column named.
    tsv = tmp_path / "t.tsv"
    tsv.write_text("read_id\tlane\tbarcode\n" + "".join(
        f"{i}\t1\t{'a' if k % 2 else 'b'}\n" for k, i in enumerate(ids[1:])))
    got = svb.split(src, tmp_path / "f", table=tsv, column="barcode")
    assert got["unlisted"] == 1
    assert [(k, n) for k, _, n in got["outputs"]] == [("a", 4), ("b", 5)]
    with pytest.raises(ValueError, match="column"):
        svb.split(src, tmp_path / "y", table={ids[0]: "a"}, column="barcode")
    got = svb.split(src, tmp_path / "p", reads=4)
    parts = [svb.open(p).read_ids for _, p, _ in got["outputs"]]
    assert sum(parts, []) == ids and [len(p) for p in parts] == [4, 4, 2]
    b5 = data / "blow5" / "reads_zstd_svb_zd.blow5"
    got = svb.split(b5, tmp_path / "s", files=2, to="slow5")
    assert all(svb.open(p).format == "slow5" for _, p, _ in got["outputs"])
    with pytest.raises(ValueError, match="one of"):
        svb.split(src, tmp_path / "x", by="run", reads=2)
    got = svb.split(src, tmp_path / "n", reads=5, template="half_{key}")
    assert [os.path.basename(p) for _, p, _ in got["outputs"]] == [
        "half_part0000.pod5", "half_part0001.pod5"]
    # Each input on its own, its parts named as slow5tools split names them.
    got = svb.split(src, tmp_path / "e", reads=4, per_input=True)
    stem = os.path.splitext(os.path.basename(src))[0]
    assert [os.path.basename(p) for _, p, _ in got["outputs"]] == [
        f"{stem}_0.pod5", f"{stem}_1.pod5", f"{stem}_2.pod5"]


def test_recover_pod5(data, tmp_path):
    """A POD5 file without its footer gives back every read."""
    src = data / "pod5" / "multi_fast5_zip.pod5"
    whole = src.read_bytes()
    cut = tmp_path / "cut.pod5"
    cut.write_bytes(whole[:-100])
    with pytest.raises(svb.FileFormatError, match="svb recover"):
        svb.open(cut)
    got = svb.recover(cut, tmp_path / "saved.pod5")
    assert got["fault"] and got["reads"] == got["records"] == 10 and got["failed"] == []
    saved = svb.open(tmp_path / "saved.pod5")
    orig = svb.open(src)
    assert saved.read_ids == orig.read_ids
    assert all((saved[i].signal == orig[i].signal).all() for i in orig.read_ids)


def test_recover(data, tmp_path):
    """A BLOW5 file cut inside its fourth record gives back its first three records."""
    src = data / "blow5" / "reads_zstd_svb_zd.blow5"
    whole = src.read_bytes()
    cut = tmp_path / "cut.blow5"
    cut.write_bytes(whole[: len(whole) * 2 // 5])
    with pytest.raises(svb.FileFormatError):
        list(svb.open(cut))
    got = svb.recover(cut, tmp_path / "saved.blow5")
    assert got["cut"] is not None and got["cut"]["bytes"] > 0 and got["failed"] == []
    saved = svb.open(tmp_path / "saved.blow5")
    assert len(saved) == got["reads"] == got["records"] > 0
    for mine, theirs in zip(saved, svb.open(src)):
        assert mine.read_id == theirs.read_id
        np.testing.assert_array_equal(mine.signal, theirs.signal)
    assert svb.recover(src, tmp_path / "again.blow5")["cut"] is None


def test_fast5_files_read_as_h5py_reads_them(data):
    """FAST5 through svb.open: the reads, samples and calibration h5py gives (the
    conformance manifest), gzip and VBZ alike."""
    import hashlib
    import json

    manifest = json.loads((data / "fast5" / "manifest.json").read_text())
    checked = 0
    for entry in manifest["files"]:
        if entry["file"] not in ("vbz_compression__multi_fast5_vbz.fast5",
                                 "pod5-file-format__multi_fast5_zip.fast5"):
            continue
        reader = svb.open(data / "fast5" / entry["file"])
        assert reader.format == "fast5"
        assert len(reader) == len(entry["reads"])
        for want in entry["reads"]:
            read = reader[want["read_id"]]
            assert hashlib.sha256(read.signal.astype("<i2").tobytes()).hexdigest() == want["sha256"]
            assert read.channel_number == want["channel"]
            scale = want["range"] / want["digitisation"]
            expected = (read.signal[:8].astype(np.float32) + want["offset"]) * np.float32(scale)
            assert np.allclose(read.signal_pa()[:8], expected, rtol=1e-6)
            checked += 1
    assert checked == 20


def test_fast5_converts_to_pod5_that_onts_reader_reads(data, tmp_path):
    """svb.convert of a FAST5 file: the POD5 holds every read with its samples, and ONT's
    `pod5` reads it (when installed)."""
    src = data / "fast5" / "vbz_compression__multi_fast5_vbz.fast5"
    out = tmp_path / "from_fast5.pod5"
    stats = svb.convert(src, out)
    assert stats["reads"] == 10 and stats["failed"] == []
    ours = svb.open(out)
    fast5 = svb.open(src)
    for read in fast5:
        assert np.array_equal(ours[read.read_id].signal, read.signal)
    pod5 = pytest.importorskip("pod5")
    with pod5.Reader(out) as r:
        got = {str(x.read_id): x.signal for x in r.reads()}
    assert len(got) == 10
    for read in fast5:
        assert np.array_equal(got[read.read_id], read.signal)


def test_split_recompresses_and_degrade_takes_pod5(pod5_files, blow5_files, tmp_path):
    """svb.split's records / signal recompress BLOW5 parts (the same reads back); svb.degrade
    takes a POD5 into POD5, each sample rounded to a multiple of 2**bits, halves up."""
    src = next(f for f in blow5_files if f.name == "example_multi_rg_v0.2.0_zstd_svb-zd.blow5")
    got = svb.split(src, tmp_path / "parts", by="read-group", records="zlib", signal="ex-zd")
    assert got["reads"] == len(svb.open(src)) and got["samples"] > 0
    back = {r.read_id: r.signal for path in got["outputs"] for r in svb.open(path[1])}
    for r in svb.open(src):
        np.testing.assert_array_equal(back[r.read_id], r.signal)
    with pytest.raises(ValueError, match="svb-zd, ex-zd or none"):
        svb.split(src, tmp_path / "bad", by="read-group", signal="vbz")

    out = tmp_path / "small.pod5"
    stats = svb.degrade(pod5_files[0], out, bits=3)
    assert stats["bits"] == 3
    for a, b in zip(svb.open(pod5_files[0]), svb.open(out)):
        want = ((a.signal.astype(np.int32) + 4) >> 3) << 3
        np.testing.assert_array_equal(b.signal, want.astype(np.int16))


def test_convert_text_floats(pod5_files, tmp_path):
    """text_floats="slow5lib": a SLOW5 output's floats with slow5lib's six decimals (as
    slow5tools and blue-crab write them); "exact" (the default) reads back to the same values."""
    src = next(p for p in pod5_files if p.name == "multi_fast5_zip.pod5")
    exact, six = tmp_path / "exact.slow5", tmp_path / "six.slow5"
    svb.convert(src, exact)
    svb.convert(src, six, text_floats="slow5lib")

    def ranges(path):
        lines = [l for l in path.read_text().splitlines() if not l.startswith(("#", "@"))]
        return [l.split("\t")[4] for l in lines]

    assert all(len(r.split(".")[-1]) <= 6 for r in ranges(six) if "." in r)
    assert ranges(exact) != ranges(six)
    with svb.open(exact) as a, svb.open(src) as b:
        assert [r.read_id for r in a] == [r.read_id for r in b]
    with pytest.raises(ValueError, match="text_floats"):
        svb.convert(src, tmp_path / "x.slow5", text_floats="six")
    with pytest.raises(ValueError, match="slow5 output"):
        svb.convert(src, tmp_path / "x.blow5", text_floats="slow5lib")
