"""Objects on an S3-compatible store (moto's server, which the test starts) read as the local
files: `svb.open(url)` gives every read's fields and signal as `svb.open(path)` does, with
the options given as `storage_options`; a missing key is named."""

import os
import shutil
import socket
import subprocess
import time
import urllib.request

import numpy as np
import pytest

import svb


def moto_server():
    program = os.environ.get("MOTO_SERVER") or shutil.which("moto_server")
    if program and os.path.exists(program):
        return program
    if os.environ.get("CI") == "true":
        pytest.fail('CI=true needs moto_server (pip install "moto[server]")')
    pytest.skip('skipped: moto_server not found (pip install "moto[server]")')


@pytest.fixture(scope="module")
def s3():
    program = moto_server()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([program, "-H", "127.0.0.1", "-p", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    endpoint = f"http://127.0.0.1:{port}"
    deadline = time.time() + 60
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            assert time.time() < deadline, "moto_server did not start"
            time.sleep(0.1)
    yield endpoint
    proc.kill()
    proc.wait()


def put(endpoint, key, body):
    # An explicit content type: a body taken for a form is parsed by moto, and a large one
    # never finishes.
    req = urllib.request.Request(f"{endpoint}/{key}", data=body, method="PUT",
                                 headers={"x-amz-acl": "public-read",
                                          "Content-Type": "application/octet-stream"})
    urllib.request.urlopen(req).read()


def test_objects_read_as_local_files(s3, pod5_files, blow5_files):
    put(s3, "bucket", b"")
    local = [pod5_files[0], blow5_files[0]]
    options = {"aws_endpoint": s3, "allow_http": True, "aws_region": "us-east-1",
               "skip_signature": True}
    for f in local:
        put(s3, f"bucket/run/{f.name}", f.read_bytes())
        here = svb.open(f)
        there = svb.open(f"s3://bucket/run/{f.name}", storage_options=options)
        assert len(here) == len(there)
        for a, b in zip(here, there):
            assert a.read_id == b.read_id
            assert np.array_equal(a.signal, b.signal)
        # Reads picked by id: fetched together (planned), the same reads in the same order.
        ids = [r.read_id for r in here][::-3]
        picked = there.reads(ids)
        assert [r.read_id for r in picked] == ids
        for a, b in zip(here.reads(ids), picked):
            assert np.array_equal(a.signal, b.signal)
    with pytest.raises(FileNotFoundError, match="no such object"):
        svb.open("s3://bucket/run/none.pod5")


def test_dask_reads_objects_by_pattern(s3, pod5_files):
    pytest.importorskip("dask")
    import svb.dask

    options = {"aws_endpoint": s3, "allow_http": True, "aws_region": "us-east-1",
               "skip_signature": True}
    put(s3, "dask", b"")
    f = pod5_files[0]
    for k in ("a", "b"):
        put(s3, f"dask/run/{k}.pod5", f.read_bytes())
    put(s3, "dask/run/notes.txt", b"not a signal file")
    svb.set_storage_options(options)
    assert svb.dask.files("s3://dask/run/") == ["s3://dask/run/a.pod5", "s3://dask/run/b.pod5"]
    assert svb.dask.files("s3://dask/run/*.pod5") == ["s3://dask/run/a.pod5",
                                                      "s3://dask/run/b.pod5"]
    df = svb.dask.read("s3://dask/run/*.pod5", columns=["read_id", "num_samples"],
                       storage_options=options)
    got = df.compute(scheduler="synchronous")
    want = svb.open(f).to_arrow(columns=["read_id", "num_samples"]).read_all().to_pandas()
    assert len(got) == 2 * len(want)
    assert sorted(got["read_id"]) == sorted(list(want["read_id"]) * 2)
    # A dataset over a prefix: every object below it, one format.
    one = svb.open(f)
    put(s3, "dask/one/a.pod5", f.read_bytes())
    ds = svb.open_dataset("s3://dask/one/")
    assert len(ds) == len(one)
    rid = next(iter(one)).read_id
    assert np.array_equal(ds[rid].signal, one[rid].signal)


def test_convert_to_and_from_objects(s3, pod5_files, tmp_path):
    options = {"aws_endpoint": s3, "allow_http": True, "aws_region": "us-east-1",
               "aws_access_key_id": "testing", "aws_secret_access_key": "testing"}
    svb.set_storage_options(options)
    put(s3, "conv", b"")
    f = pod5_files[0]
    svb.convert(f, "s3://conv/out/reads.blow5")
    with pytest.raises(FileExistsError):
        svb.convert(f, "s3://conv/out/reads.blow5")
    # An output that is an input: refused, even with force.
    with pytest.raises(svb.SvbError, match="input"):
        svb.convert("s3://conv/out/reads.blow5", "s3://conv/out/reads.blow5", force=True)
    back = tmp_path / "back.blow5"
    svb.convert("s3://conv/out/reads.blow5", back)
    want = tmp_path / "want.blow5"
    svb.convert(f, want)
    assert back.read_bytes() == want.read_bytes()


def slow5lib_index(blow5):
    """slow5lib's index of an uncompressed BLOW5 file's bytes (FILE.idx's bytes)."""
    import struct
    text_len = struct.unpack_from("<I", blow5, 64)[0]
    at, out = 68 + text_len, bytearray(b"SLOW5IDX\x01" + blow5[6:9])
    out += bytes(64 - len(out))
    while blow5[at:] != b"5WOLB":
        size = struct.unpack_from("<Q", blow5, at)[0]
        id_len = struct.unpack_from("<H", blow5, at + 8)[0]
        out += struct.pack("<H", id_len) + blow5[at + 10:at + 10 + id_len]
        out += struct.pack("<QQ", at, size + 8)
        at += 8 + size
    return bytes(out + b"XDI5WOLS")


def test_a_stale_index_beside_an_object_never_gives_another_read(s3, tmp_path):
    # Reads of one size (records of one size), indexed, then written again in reverse order
    # with the index of the first order left beside the object.
    signal = {f"read_{k:03}": np.arange(k * 1000, k * 1000 + 50, dtype=np.int16) for k in range(10)}

    def write(path, ids):
        with svb.Blow5Writer(path, [{"run_id": "r1"}], records="none", signal="none") as w:
            for i in ids:
                w.add_record(i, signal[i], digitisation=8192.0, offset=0.0, range=1400.0,
                             sampling_rate=4000.0)
        return path.read_bytes()

    ids = sorted(signal)
    index = slow5lib_index(write(tmp_path / "first.blow5", ids))
    put(s3, "stale", b"")
    put(s3, "stale/x.blow5", write(tmp_path / "second.blow5", ids[::-1]))
    put(s3, "stale/x.blow5.idx", index)
    options = {"aws_endpoint": s3, "allow_http": True, "aws_region": "us-east-1",
               "skip_signature": True}
    there = svb.open("s3://stale/x.blow5", storage_options=options)
    for i in [ids[2], ids[7]]:
        np.testing.assert_array_equal(there[i].signal, signal[i])
    picked = there.reads([ids[9], ids[0], ids[4]])
    assert [r.read_id for r in picked] == [ids[9], ids[0], ids[4]]
    for r in picked:
        np.testing.assert_array_equal(r.signal, signal[r.read_id])
    assert "read_999" not in there
