"""svb.dask.read on a 2-worker process cluster gives what one process computes."""

import numpy as np
import pytest

import svb
import svb.dask

dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")


def test_mean_pa_and_length_per_read_on_a_cluster(data):
    folder = data / "pod5"
    want = {}
    for path in sorted(folder.glob("*.pod5")):
        for read in svb.open(path):
            pa = read.signal_pa().astype(np.float64)
            want.setdefault(read.read_id, []).append((len(pa), pa.mean()))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster):
        df = svb.dask.read(str(folder / "*.pod5"), columns=["read_id", "channel"], signal="stats")
        assert df.npartitions == len(list(folder.glob("*.pod5")))
        got = df.compute()
    assert len(got) == sum(len(v) for v in want.values())
    for rid, group in got.groupby("read_id"):
        rows = sorted(zip(group["signal_length"], group["signal_mean_pa"]))
        for (n, mean), (wn, wmean) in zip(rows, sorted(want[rid])):
            assert n == wn
            assert mean == pytest.approx(wmean, rel=1e-9)


def test_metadata_only_and_files(data, tmp_path):
    df = svb.dask.read([data / "pod5" / "multi_fast5_zip.pod5"], columns=["read_id", "num_samples"])
    pdf = df.compute(scheduler="synchronous")
    assert list(pdf.columns) == ["read_id", "num_samples"]
    assert len(pdf) == len(svb.open(data / "pod5" / "multi_fast5_zip.pod5"))
    with pytest.raises(FileNotFoundError):
        svb.dask.files(str(tmp_path / "*.pod5"))


@pytest.mark.parametrize("signal", [False, "stats", True, "pa"])
@pytest.mark.parametrize("fmt,columns", [
    ("pod5", None), ("pod5", ["read_id", "channel"]),
    ("blow5", None), ("blow5", ["read_id", "read_group"]),
    ("fast5", None), ("fast5", ["read_id", "channel_number"]),
])
@pytest.mark.parametrize("many", [False, True], ids=["one-file", "many-files"])
def test_declared_columns_are_what_partitions_hold(data, signal, fmt, columns, many):
    files = sorted((data / fmt).glob("*." + fmt))
    if fmt == "fast5":  # the readable multi-read ones (the folder holds broken files too)
        files = [data / "fast5" / n for n in ("pod5-file-format__multi_fast5_zip.fast5",
                                               "vbz_compression__multi_fast5_vbz.fast5")]
    df = svb.dask.read(files if many else files[0], columns=columns, signal=signal)
    got = df.compute(scheduler="synchronous")
    assert list(df.columns) == list(got.columns)
    assert df.dtypes.to_dict() == got.dtypes.to_dict()
    if columns is not None:
        assert list(got.columns[:len(columns)]) == columns
    if signal == "stats":
        assert "signal_mean_pa" in df.columns and "signal_length" in df.columns
    # Signal columns hold the samples as arrays (not, say, their text).
    name = {True: "signal", "pa": "signal_pa"}.get(signal)
    if name:
        reads = {r.read_id: r for r in svb.open(files[0])}
        row = got.iloc[0]
        want = reads[row["read_id"]]
        value = want.signal if signal is True else want.signal_pa()
        assert isinstance(row[name], np.ndarray)
        assert np.array_equal(row[name], value)
