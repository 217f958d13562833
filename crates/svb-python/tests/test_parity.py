"""Every read of every shared file, signal and fields, against ONT's `pod5` and slow5lib's
`pyslow5` (the readers users have)."""

import math

import numpy as np
import pytest

import svb

pod5 = pytest.importorskip("pod5")
pyslow5 = pytest.importorskip("pyslow5")


def same_float(a, b):
    return (a is None and b is None) or (math.isnan(a) and math.isnan(b)) or a == pytest.approx(b, rel=1e-6)


def test_pod5_every_read_and_field(pod5_files):
    assert len(pod5_files) >= 3
    for path in pod5_files:
        with pod5.Reader(path) as theirs:
            want = {str(r.read_id): r for r in theirs.reads()}
            expected = {
                rid: dict(
                    signal=r.signal.copy(),
                    channel=r.pore.channel,
                    mux=r.pore.well,
                    read_number=r.read_number,
                    start_sample=r.start_sample,
                    offset=r.calibration.offset,
                    scale=r.calibration.scale,
                    end_reason=r.end_reason.reason.name.lower(),
                    median_before=r.median_before,
                    pore_type=r.pore.pore_type,
                    acquisition_id=r.run_info.acquisition_id,
                    sample_rate=r.run_info.sample_rate,
                    num_samples=r.num_samples,
                )
                for rid, r in want.items()
            }
        ours = svb.open(path)
        assert ours.format == "pod5"
        assert len(ours) == len(expected)
        seen = 0
        for read in ours:
            e = expected[read.read_id]
            assert read.signal.dtype == np.int16
            np.testing.assert_array_equal(read.signal, e["signal"], err_msg=f"{path} {read.read_id}")
            assert read.channel == e["channel"]
            assert read.mux == e["mux"]
            assert read.read_number == e["read_number"]
            assert read.start_sample == e["start_sample"]
            assert read.num_samples == e["num_samples"] == len(read.signal)
            assert read.calibration_offset == pytest.approx(e["offset"])
            assert read.calibration_scale == pytest.approx(e["scale"])
            assert read.end_reason == e["end_reason"]
            assert same_float(read.median_before, e["median_before"])
            assert read.pore_type == e["pore_type"]
            assert read.acquisition_id == e["acquisition_id"]
            assert read.sample_rate == e["sample_rate"]
            pa = (e["signal"].astype(np.float32) + np.float32(e["offset"])) * np.float32(e["scale"])
            np.testing.assert_allclose(read.signal_pa(), pa, rtol=1e-6)
            seen += 1
        assert seen == len(expected)


def test_blow5_every_record_and_field(blow5_files):
    assert len(blow5_files) >= 15
    for path in blow5_files:
        assert_reads_as_pyslow5_reads(path)


def test_slow5_text_we_write_every_record_and_field(blow5_files, tmp_path):
    """Each BLOW5 file converted to SLOW5 text by svb: pyslow5 reads our text, svb.open
    reads it, and both give what pyslow5 gives for the BLOW5 file."""
    for path in blow5_files:
        text = tmp_path / (path.stem + ".slow5")
        stats = svb.convert(path, text)
        assert stats["failed"] == [] and stats["reads"] == len(svb.open(path))
        assert svb.open(text).format == "slow5"
        assert_reads_as_pyslow5_reads(text)
        assert_reads_as_pyslow5_reads(text, like=path)


def assert_reads_as_pyslow5_reads(path, like=None):
    """svb.open(path) gives what pyslow5 gives for `like` (default `path`), every record and
    field."""
    theirs = pyslow5.Open(str(like or path), "r")
    try:
        aux_names = theirs.get_aux_names() or []
        want = list(theirs.seq_reads(pA=False, aux="all"))
    finally:
        theirs.close()
    ours = list(svb.open(path))
    assert len(ours) == len(want), path
    for read, w in zip(ours, want):
        assert read.read_id == w["read_id"]
        np.testing.assert_array_equal(read.signal, np.asarray(w["signal"], dtype=np.int16))
        for k in ["read_group", "digitisation", "offset", "range", "sampling_rate", "len_raw_signal"]:
            assert getattr(read, k) == w[k], (path, k)
        for k in aux_names:
            theirs_v, ours_v = w[k], read.fields[k]
            if isinstance(theirs_v, (list, np.ndarray)):
                assert list(np.asarray(theirs_v).tolist()) == list(ours_v), (path, k)
            elif isinstance(theirs_v, float):
                assert same_float(ours_v, theirs_v), (path, k)
            elif isinstance(ours_v, str) and isinstance(theirs_v, int):
                # An enum: pyslow5 gives the index, we give the label.
                labels = theirs_labels(like or path, k)
                assert labels[theirs_v] == ours_v, (path, k)
            else:
                assert ours_v == theirs_v, (path, k, ours_v, theirs_v)


def theirs_labels(path, field):
    s = pyslow5.Open(str(path), "r")
    try:
        return s.get_aux_enum_labels(field)
    finally:
        s.close()


def _pyslow5_metadata(path):
    s = pyslow5.Open(str(path), "r")
    try:
        groups = s.get_num_read_groups()
        aux = s.get_aux_names() or []
        return dict(
            groups=groups,
            names=set(s.get_header_names()),
            headers=[s.get_all_headers(read_group=g) for g in range(groups)],
            aux=list(aux),
            types=list(s.get_aux_types() or []),
            enums={n: list(s.get_aux_enum_labels(n)) for n, t in zip(aux, s.get_aux_types() or []) if t == 11},
        )
    finally:
        s.close()


def _svb_metadata(path):
    r = svb.open(path)
    groups = r.get_num_read_groups()
    aux = r.get_aux_names()
    types = r.get_aux_types()
    return dict(
        groups=groups,
        names=set(r.get_header_names()),
        headers=[r.get_all_headers(read_group=g) for g in range(groups)],
        aux=aux,
        types=types,
        enums={n: r.get_aux_enum_labels(n) for n, t in zip(aux, types) if t == 11},
    )


def test_header_and_aux_metadata_as_pyslow5(data, tmp_path):
    """pyslow5's header and auxiliary-field calls, by the same names: on BLOW5 files the same
    answers as pyslow5; on POD5 and FAST5 the answers pyslow5 gives on the BLOW5 `svb
    convert` makes of them."""
    blow5s = sorted((data / "blow5" / "slow5tools").glob("*.blow5")) + sorted((data / "blow5").glob("*.blow5"))
    assert blow5s
    for path in blow5s:
        assert _svb_metadata(path) == _pyslow5_metadata(path), path
    r = svb.open(blow5s[0])
    assert r.get_header_value("run_id") == _pyslow5_metadata(blow5s[0])["headers"][0]["run_id"]
    with pytest.raises(ValueError, match="read group"):
        r.get_all_headers(read_group=r.get_num_read_groups())
    with pytest.raises(ValueError, match="no auxiliary field"):
        r.get_aux_enum_labels("no_such_field")
    for src in [data / "pod5" / "multi_fast5_zip.pod5", sorted((data / "fast5").glob("*.fast5"))[0]]:
        out = tmp_path / (src.stem + ".blow5")
        svb.convert(src, out)
        ours = _svb_metadata(src)
        assert ours == _pyslow5_metadata(out), src
        assert ours["groups"] >= 1 and ours["aux"], src
