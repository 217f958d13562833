"""svb.open_dataset: many files as one set of reads, looked up by id through an index kept on
disk; the same reads and files pod5.DatasetReader finds."""

import os

import numpy as np
import pytest

import svb

RUN = "a08e850aaa44c8b56765eee10b386fc3e516a62b"


def uuid(f, r):
    return f"{f:04x}{r:04x}-bf67-44e7-9a9c-1ad0bc728e74"


def signal(f, r):
    return np.arange(r + 3, dtype=np.int16) * (f + 1)


def write_pod5(path, ids, force=False):
    path.parent.mkdir(parents=True, exist_ok=True)
    with svb.Pod5Writer(path, force=force) as w:
        w.add_run_info(RUN, sample_rate=5000)
        for f, r in ids:
            w.add_read(uuid(f, r), signal(f, r), RUN, channel=f + 1, read_number=r)


def make_dataset(tmp_path, files=9):
    """Files f0..f8 (file f holds 2f reads); the odd ones in a subdirectory."""
    for f in range(files):
        sub = "more/" if f % 2 else ""
        write_pod5(tmp_path / f"data/{sub}f{f}.pod5", [(f, r) for r in range(2 * f)])
    return tmp_path / "data"


def test_reads_by_id_in_order_and_by_iteration(tmp_path):
    root = make_dataset(tmp_path)
    with svb.open_dataset(root, max_open=2) as data:
        assert data.format == "pod5"
        assert [os.path.basename(p) for p in data.paths] == [
            "f0.pod5", "f2.pod5", "f4.pod5", "f6.pod5", "f8.pod5",
            "f1.pod5", "f3.pod5", "f5.pod5", "f7.pod5",
        ]
        assert len(data) == sum(2 * f for f in range(9))
        assert data.counts() == [2 * int(os.path.basename(p)[1]) for p in data.paths]
        walked = [(r.read_id, r.channel) for r in data]
        assert [rid for rid, _ in walked] == list(data.read_ids)
        assert len(set(walked)) == len(data)
        read = data[uuid(5, 7)]
        np.testing.assert_array_equal(read.signal, signal(5, 7))
        assert (read.channel, read.read_number) == (6, 7)
        assert uuid(5, 7).upper() in data
        assert uuid(5, 10) not in data
        assert data.get_read(uuid(5, 10)) is None
        with pytest.raises(KeyError):
            data[uuid(5, 10)]
        assert data.get_path(uuid(3, 1)) == str(root / "more/f3.pod5")
        assert data.locate(uuid(8, 15)) == (str(root / "f8.pod5"), 15)
        asked = [uuid(8, 0), uuid(1, 1), uuid(6, 11), uuid(1, 1), uuid(4, 3)]
        got = data.reads(asked)
        assert [r.read_id for r in got] == asked
        for rid, r in zip(asked, got):
            f, n = int(rid[:4], 16), int(rid[4:8], 16)
            np.testing.assert_array_equal(r.signal, signal(f, n))
        with pytest.raises(KeyError, match=uuid(2, 9)):
            data.reads([uuid(2, 0), uuid(2, 9)])
        assert [r.read_id for r in data.reads([uuid(2, 9), uuid(2, 0)], missing_ok=True)] == [uuid(2, 0)]
        assert not data.has_duplicate()
        assert data.reader(2).path == str(root / "f4.pod5")
        assert len(data.reader(root / "more/f7.pod5")) == 14
        table = data.to_arrow(columns=["read_id", "num_samples"]).read_all()
        assert table.num_rows == len(data)
        index = data.index_path
        assert index is not None and not os.path.exists(index)  # temporary, its name gone


def test_duplicates_listed_first_file_wins(tmp_path):
    root = make_dataset(tmp_path, files=4)
    write_pod5(root / "z.pod5", [(3, 2), (9, 9), (2, 0)])
    data = svb.open_dataset(root)
    dups = sorted(data.duplicates())
    assert dups == [
        (uuid(2, 0), [(str(root / "f2.pod5"), 0), (str(root / "z.pod5"), 2)]),
        (uuid(3, 2), [(str(root / "more/f3.pod5"), 2), (str(root / "z.pod5"), 0)]),
    ]
    assert data.has_duplicate()
    assert data.get_path(uuid(3, 2)) == str(root / "more/f3.pod5")


def test_a_kept_index_is_reused_and_rebuilt_when_a_file_changes(tmp_path):
    root = make_dataset(tmp_path)
    kept = tmp_path / "reads.svbidx"
    data = svb.open_dataset(root, index=kept)
    assert uuid(4, 1) in data
    assert data.index_path == str(kept) and data.index_note is None
    made = kept.stat().st_mtime_ns
    del data
    data = svb.open_dataset(root, index=kept)
    data.make_index()
    assert data.index_note is None and kept.stat().st_mtime_ns == made
    del data
    write_pod5(root / "f4.pod5", [(40, 0)], force=True)
    data = svb.open_dataset(root, index=kept)
    assert uuid(40, 0) in data and uuid(4, 1) not in data
    assert "f4.pod5 changed" in data.index_note


def test_an_index_path_holding_another_file_is_never_replaced(tmp_path):
    root = make_dataset(tmp_path, files=3)
    notes = tmp_path / "notes.txt"
    notes.write_text("keep me")
    data = svb.open_dataset(root, index=notes)
    with pytest.raises(svb.FileFormatError, match="not an svb dataset index"):
        uuid(1, 0) in data
    assert notes.read_text() == "keep me"
    with pytest.raises(FileNotFoundError):
        svb.open_dataset(root, index=tmp_path / "no/such/dir/x.svbidx").make_index()
    (tmp_path / "empty").mkdir()
    with pytest.raises(svb.SvbError, match="no .pod5"):
        svb.open_dataset(tmp_path / "empty")


def test_blow5_dataset_text_ids(tmp_path):
    groups = [{"run_id": "r1"}]
    for f in range(3):
        with svb.Blow5Writer(tmp_path / f"b{f}.blow5", groups) as w:
            for r in range(f + 2):
                w.add_record(f"read-{f}-{r}", np.full(5, f * 10 + r, np.int16), digitisation=8192.0,
                             offset=0.0, range=1400.0, sampling_rate=4000.0)
    data = svb.open_dataset(tmp_path)
    assert data.format == "blow5" and len(data) == 9
    np.testing.assert_array_equal(data["read-2-3"].signal, np.full(5, 23, np.int16))
    assert "READ-2-3" not in data


def test_same_reads_and_files_as_pod5_dataset_reader(data):
    pod5 = pytest.importorskip("pod5")
    files = [data / "pod5/multi_fast5_zip.pod5", data / "pod5/multi_fast5_zip_v4.pod5"]
    ours = svb.open_dataset(files)
    with pod5.DatasetReader(files, warn_duplicate_indexing=False) as theirs:
        assert len(ours) == len(theirs)
        assert sorted(ours.read_ids) == sorted(theirs.read_ids)
        ids = sorted(set(theirs.read_ids))
        # The two files hold the same reads: each id twice; theirs from either file, ours
        # from the first.
        assert ours.has_duplicate() and theirs.has_duplicate()
        assert len(ours.duplicates()) == len(ids) == len(ours) // 2
        for rid in ids:
            assert str(theirs.get_path(rid)) in [str(f) for f in files]
            assert ours.get_path(rid) == str(files[0])
            np.testing.assert_array_equal(ours[rid].signal, theirs.get_read(rid).signal)


def test_dataset_header_is_the_merged_files_header(tmp_path):
    """pyslow5's header calls on a dataset answer as they do on the file `svb.merge` makes
    of its files (read groups by run id, the union of the auxiliary fields); a field whose
    type differs between files is named."""
    runs = ["r1", "r2", "r3"]
    aux = [("channel_number", "char*"), ("end_reason", "enum{unknown,partial,signal_positive}")]
    (tmp_path / "d").mkdir()
    for f, groups in enumerate([[runs[0], runs[1]], [runs[1], runs[2]]]):
        with svb.Blow5Writer(tmp_path / f"d/b{f}.blow5", [{"run_id": g, "exp": f"e-{g}"} for g in groups],
                             aux=aux) as w:
            for rg in range(len(groups)):
                w.add_record(f"read-{f}-{rg}", np.arange(4, dtype=np.int16), read_group=rg,
                             channel_number="1", end_reason="signal_positive")
    # Another run whose records have another field.
    with svb.Blow5Writer(tmp_path / "d/c.blow5", [{"run_id": "r4", "exp": "e-r4"}],
                         aux=[("start_mux", "uint8_t")]) as w:
        w.add_record("read-c", np.arange(4, dtype=np.int16), start_mux=2)
    data = svb.open_dataset(tmp_path / "d")
    svb.merge(data.paths, tmp_path / "m.blow5")
    merged = svb.open(tmp_path / "m.blow5")
    assert data.get_num_read_groups() == merged.get_num_read_groups() == 4
    assert data.get_header_names() == merged.get_header_names()
    for rg in range(4):
        assert data.get_all_headers(rg) == merged.get_all_headers(rg)
        assert data.get_header_value("run_id", rg) == merged.get_header_value("run_id", rg)
    assert data.get_aux_names() == merged.get_aux_names() == ["channel_number", "end_reason", "start_mux"]
    assert data.get_aux_types() == merged.get_aux_types()
    assert data.get_aux_enum_labels("end_reason") == merged.get_aux_enum_labels("end_reason")
    with pytest.raises(ValueError, match="read group 4"):
        data.get_all_headers(4)
    with pytest.raises(ValueError, match="not an enum"):
        data.get_aux_enum_labels("channel_number")
    # A file whose field has another type: named.
    with svb.Blow5Writer(tmp_path / "d/z.blow5", [{"run_id": "r9"}], aux=[("start_mux", "uint16_t")]) as w:
        w.add_record("read-z", np.arange(4, dtype=np.int16), start_mux=2)
    with pytest.raises(svb.FileFormatError, match="z.blow5"):
        svb.open_dataset(tmp_path / "d").get_aux_names()
