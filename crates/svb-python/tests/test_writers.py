"""svb.Pod5Writer and svb.Blow5Writer: what they write reads back exactly, with our reader
and with ONT's pod5 / slow5lib's pyslow5; bad input is an error before anything is written;
an exception inside the `with` block leaves no file."""

import os

import numpy as np
import pytest

import svb

RUN = "a08e850aaa44c8b56765eee10b386fc3e516a62b"


def signals():
    rng = np.random.default_rng(3)
    return [np.cumsum(rng.integers(-30, 30, n)).astype(np.int16) for n in [0, 1, 7, 8, 102401, 5000]]


def uuid(i):
    return f"{i:08x}-bf67-44e7-9a9c-1ad0bc728e74"


def test_pod5_writer_round_trip(tmp_path):
    out = tmp_path / "w.pod5"
    sig = signals()
    with svb.Pod5Writer(out) as w:
        w.add_run_info(RUN, sample_rate=5000, adc_min=-4096, adc_max=4095, flow_cell_id="FAB123",
                       context_tags={"sample_frequency": "5000"}, tracking_id={"run_id": "r1"})
        for i, s in enumerate(sig):
            w.add_read(uuid(i), s, RUN, channel=100 + i, well=2, read_number=i, start_sample=1000 * i,
                       calibration_offset=-240.0, calibration_scale=0.17, end_reason="signal_positive",
                       median_before=200.5)
    r = svb.open(out)
    assert r.read_ids == [uuid(i) for i in range(len(sig))]
    for i, read in enumerate(r):
        np.testing.assert_array_equal(read.signal, sig[i])
        assert (read.channel, read.mux, read.read_number) == (100 + i, 2, i)
        assert read.end_reason == "signal_positive"
        assert read.sample_rate == 5000 and read.flow_cell_id == "FAB123"
    pod5 = pytest.importorskip("pod5")
    with pod5.Reader(out) as theirs:
        for i, read in enumerate(theirs.reads()):
            assert str(read.read_id) == uuid(i)
            np.testing.assert_array_equal(read.signal, sig[i])
            assert read.pore.channel == 100 + i
            assert read.run_info.context_tags == {"sample_frequency": "5000"}


def test_pod5_writer_pdz_signal(tmp_path):
    """signal="pdz": ONT's PDZ blocks (minknow.pdz), read back exactly; another signal name is
    a ValueError naming the choices."""
    out = tmp_path / "p.pod5"
    sig = signals()
    with svb.Pod5Writer(out, signal="pdz", chunk_samples=1000) as w:
        w.add_run_info(RUN, sample_rate=5000)
        for i, s in enumerate(sig):
            w.add_read(uuid(i), s, RUN, channel=100 + i)
    r = svb.open(out)
    for i, read in enumerate(r):
        np.testing.assert_array_equal(read.signal, sig[i])
    with pytest.raises(ValueError, match="pdz"):
        svb.Pod5Writer(tmp_path / "x.pod5", signal="zstd")


def test_pod5_writer_refuses_bad_input_and_leaves_nothing(tmp_path):
    out = tmp_path / "bad.pod5"
    with pytest.raises(svb.SvbError, match="run"):
        with svb.Pod5Writer(out) as w:
            w.add_read(uuid(1), np.zeros(10, np.int16), "no-such-run")
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(ValueError, match="not a UUID"):
        with svb.Pod5Writer(out) as w:
            w.add_run_info(RUN)
            w.add_read("read_1", np.zeros(10, np.int16), RUN)
    with pytest.raises(TypeError, match="no field colour"):
        with svb.Pod5Writer(out) as w:
            w.add_run_info(RUN)
            w.add_read(uuid(1), np.zeros(10, np.int16), RUN, colour="red")
    with pytest.raises(svb.SvbError, match="duplicate|twice|already"):
        with svb.Pod5Writer(out) as w:
            w.add_run_info(RUN)
            w.add_read(uuid(1), np.zeros(10, np.int16), RUN)
            w.add_read(uuid(1), np.zeros(10, np.int16), RUN)
    assert list(tmp_path.iterdir()) == []
    w = svb.Pod5Writer(out)
    w.add_run_info(RUN)
    assert w.finish() == 0 and out.exists()
    with pytest.raises(ValueError, match="finished"):
        w.add_run_info("x")


@pytest.mark.parametrize("records,signal", [("zstd", "svb-zd"), ("zlib", "ex-zd"), ("none", "none")])
def test_blow5_writer_round_trip(tmp_path, records, signal):
    out = tmp_path / "w.blow5"
    sig = [s for s in signals() if len(s)]  # slow5lib reads no empty ex-zd signal
    groups = [{"run_id": "r1", "flow_cell_id": "FAB123"}, {"run_id": "r2", "flow_cell_id": "FAB124"}]
    aux = [("channel_number", "char*"), ("median_before", "double"), ("read_number", "int32_t"),
           ("start_mux", "uint8_t"), ("end_reason", "enum{unknown,partial,mux_change,signal_positive}"),
           ("levels", "float*")]
    with svb.Blow5Writer(out, groups, aux=aux, records=records, signal=signal) as w:
        for i, s in enumerate(sig):
            w.add_record(f"read_{i}", s, read_group=i % 2, digitisation=8192.0, offset=-240.0,
                         range=1400.0, sampling_rate=5000.0, channel_number=str(i), median_before=1.5 * i,
                         read_number=-i, start_mux=i % 4, end_reason="signal_positive",
                         levels=[0.5, float(i)])
    r = svb.open(out)
    for i, read in enumerate(r):
        assert read.read_id == f"read_{i}"
        np.testing.assert_array_equal(read.signal, sig[i])
        assert read.read_group == i % 2 and read.channel_number == str(i)
        assert read.read_number == -i and read.start_mux == i % 4
        assert read.end_reason == "signal_positive" and read.levels == [0.5, float(i)]
    pyslow5 = pytest.importorskip("pyslow5")
    s5 = pyslow5.Open(str(out), "r")
    try:
        for i, rec in enumerate(s5.seq_reads(pA=False, aux="all")):
            np.testing.assert_array_equal(rec["signal"], sig[i])
            assert rec["read_number"] == -i
    finally:
        s5.close()


def test_blow5_writer_refuses_bad_input(tmp_path):
    out = tmp_path / "bad.blow5"
    with pytest.raises(ValueError, match="auxiliary field .* missing"):
        with svb.Blow5Writer(out, [{"run_id": "r1"}], aux="standard") as w:
            w.add_record("a", np.zeros(3, np.int16), channel_number="1")
    with pytest.raises(ValueError, match="not a slow5lib field type"):
        svb.Blow5Writer(out, [{"run_id": "r1"}], aux=[("x", "int128_t")])
    with pytest.raises(svb.SvbError, match="read group"):
        with svb.Blow5Writer(out, [{"run_id": "r1"}]) as w:
            w.add_record("a", np.zeros(3, np.int16), read_group=5)
    assert list(tmp_path.iterdir()) == []


def test_outputs_replace_nothing_without_force(tmp_path):
    out = tmp_path / "kept.pod5"
    out.write_bytes(b"someone's data")
    with pytest.raises(svb.SvbError, match="exists"):
        svb.Pod5Writer(out)
    with pytest.raises(svb.SvbError, match="exists"):
        svb.Blow5Writer(tmp_path / "kept.pod5", [{"run_id": "r"}])
    assert out.read_bytes() == b"someone's data"
    with svb.Pod5Writer(out, force=True) as w:
        w.add_run_info(RUN)
    assert svb.open(out).read_ids == []
    # A converted file is refused as its own output (a hard link to it), force or not.
    blow5 = tmp_path / "same.blow5"
    svb.convert(out, blow5)
    link = tmp_path / "link.pod5"
    link.hardlink_to(blow5)
    before = blow5.read_bytes()
    for force in (False, True):
        with pytest.raises(svb.SvbError, match="input"):
            svb.convert(blow5, link, force=force)
    assert blow5.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.pod5", "link.pod5", "same.blow5"]


def test_ctrl_c_stops_an_operation_and_publishes_nothing(data, tmp_path):
    """SIGINT during svb.convert (its work runs with the GIL released: here, waiting for a
    FIFO's bytes) stops it at its next window: KeyboardInterrupt, and no output."""
    import signal
    import threading

    import errno
    import fcntl
    import time

    src = tmp_path / "slow.pod5"
    os.mkfifo(src)
    pod5 = (data / "pod5" / "multi_fast5_zip.pod5").read_bytes()

    def feed():
        # Once svb has opened the FIFO to read it (inside svb.convert: opening it to write
        # succeeds then), the signal; the bytes after it, while svb waits for them.
        deadline = time.monotonic() + 20
        while True:
            try:
                fd = os.open(src, os.O_WRONLY | os.O_NONBLOCK)
                break
            except OSError as e:
                if e.errno != errno.ENXIO or time.monotonic() > deadline:
                    return
                time.sleep(0.01)
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.3)
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)
        with os.fdopen(fd, "wb") as f:
            try:
                f.write(pod5)
            except BrokenPipeError:
                pass

    # Python's own SIGINT handler, whatever the disposition inherited: a process started in
    # the background by a shell without job control ignores SIGINT, and Python then leaves
    # it ignored.
    inherited = signal.signal(signal.SIGINT, signal.default_int_handler)
    feeder = threading.Thread(target=feed)
    feeder.start()
    out = tmp_path / "out.blow5"
    try:
        with pytest.raises(KeyboardInterrupt):
            svb.convert([src], out)
    finally:
        feeder.join()
        signal.signal(signal.SIGINT, inherited)
    assert not out.exists()
    assert [p.name for p in tmp_path.iterdir()] == ["slow.pod5"]


def test_degrade_is_slow5tools_degrade(slow5_repos, tmp_path):
    """svb.degrade writes slow5tools degrade's bytes (its test cases' expected files), with
    the bits chosen from the header or given; a header of no known dataset needs the bits."""
    data = slow5_repos / "slow5tools" / "test" / "data"
    raw, exp = data / "raw" / "degrade", data / "exp" / "degrade"
    got = svb.degrade(raw / "minir10dna.blow5", tmp_path / "auto.blow5")
    assert (got["bits"], got["dataset"], got["reads"]) == (3, "DNA lsk114 5kHz MinION", 8)
    assert (tmp_path / "auto.blow5").read_bytes() == (exp / "minir10dna_b3.blow5").read_bytes()
    got = svb.degrade(raw / "example2.slow5", tmp_path / "b1.slow5", bits=1)
    assert got["dataset"] is None
    assert (tmp_path / "b1.slow5").read_bytes() == (exp / "example2_b1.slow5").read_bytes()
    svb.degrade(raw / "promr10dna4khz.blow5", tmp_path / "svbzd.blow5", signal="svb-zd")
    assert (tmp_path / "svbzd.blow5").read_bytes() == (exp / "promr10dna4khz_b3.blow5").read_bytes()
    with pytest.raises(svb.FileFormatError, match="give the bits"):
        svb.degrade(raw / "promr10dna_badhdr.slow5", tmp_path / "bad.blow5")
    with pytest.raises(FileExistsError):
        svb.degrade(raw / "minir10dna.blow5", tmp_path / "auto.blow5")
    with pytest.raises(ValueError, match="signal"):
        svb.degrade(raw / "minir10dna.blow5", tmp_path / "x.blow5", signal="vbz")


def test_merge_blow5_as_slow5tools(slow5_repos, tmp_path):
    """svb.merge of BLOW5 / SLOW5 files whose auxiliary fields or read groups differ, as
    slow5tools merge merges them: the union of the fields (or none with lossless=False), read
    groups by run id, one run's differing attributes refused unless allow=True."""
    raw = slow5_repos / "slow5tools" / "test" / "data" / "raw" / "merge"
    a, b = raw / "rg0.slow5", raw / "rg1_1_new_aux_field.slow5"
    got = svb.merge([a, b], tmp_path / "union.slow5")
    union = svb.open(tmp_path / "union.slow5")
    assert got["reads"] == len(union) == len(svb.open(a)) + len(svb.open(b))
    names = set(union.get_aux_names())
    assert names == set(svb.open(a).get_aux_names()) | set(svb.open(b).get_aux_names())
    assert names != set(svb.open(a).get_aux_names())
    svb.merge([a, b], tmp_path / "lossy.slow5", lossless=False)
    assert svb.open(tmp_path / "lossy.slow5").get_aux_names() == []
    with pytest.raises(svb.FileFormatError, match="read groups of one run differ"):
        svb.merge([a, raw / "rg0_diff_attr.slow5"], tmp_path / "differ.slow5")
    got = svb.merge([a, raw / "rg0_diff_attr.slow5"], tmp_path / "allowed.slow5", allow=True,
                    duplicates="keep-first")
    assert svb.open(tmp_path / "allowed.slow5").get_num_read_groups() == 1
    # slow5tools merge's field order: enum fields first, the others by name (its bytes).
    four = [raw / f"rg{i}.slow5" for i in range(4)]
    svb.merge(four, tmp_path / "ordered.slow5", field_order="slow5tools")
    assert svb.open(tmp_path / "ordered.slow5").get_aux_names() == [
        "end_reason", "channel_number", "median_before", "read_number", "start_mux",
        "start_time"]
    with pytest.raises(ValueError, match="field_order"):
        svb.merge(four, tmp_path / "x.slow5", field_order="sorted")


def test_subset_in_the_lists_order(pod5_files, tmp_path):
    """svb.subset writes the inputs' order, or with in_order=True the list's."""
    src = pod5_files[0]
    ids = svb.open(src).read_ids
    backwards = list(reversed(ids))
    svb.subset(src, backwards, tmp_path / "files.pod5")
    assert svb.open(tmp_path / "files.pod5").read_ids == ids
    svb.subset(src, backwards, tmp_path / "list.pod5", in_order=True)
    assert svb.open(tmp_path / "list.pod5").read_ids == backwards
