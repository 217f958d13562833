"""svb: fast, safe readers of nanopore signal files, on SIMD StreamVByte codecs.

    import svb
    with svb.open("reads.pod5") as reader:          # POD5, BLOW5, SLOW5 or FAST5, by its bytes
        for read in reader:                          # decoded a window ahead on every core
            print(read.read_id, read.channel, read.signal.mean(), read.signal_pa()[:3])
        read = reader["0000173c-bf67-44e7-9a9c-1ad0bc728e74"]
        table = reader.to_arrow(columns=["read_id", "num_samples"], signal="pa").read_all()

Many files: `svb.open_dataset(["run1/", "run2/"])` is one set of reads (`len`, iteration,
`dataset[read_id]`, `dataset.reads(ids)`), a read found by id through an index kept on disk.

Writing: `svb.Pod5Writer(path)` (`add_run_info(acquisition_id, **fields)`, `add_read(read_id,
signal, run, **fields)`) and `svb.Blow5Writer(path, read_groups, aux="standard")`
(`add_record(read_id, signal, ..., **aux)`), as `with` blocks: the file gets its name when
the block ends without an exception, and nothing is left behind otherwise.

`Reader.to_arrow` returns a `pyarrow.RecordBatchReader` fed through the Arrow C stream
interface (no copy); pandas, Polars and DuckDB take it as it is. `svb.dask.read` builds a
Dask DataFrame over many files. Errors are `svb.SvbError` (`FileFormatError` for a bad file,
naming file, table and read; `CodecError` for bad encoded bytes) or the `OSError` of a file
the OS refused; a bad file never crashes the interpreter.
"""

from __future__ import annotations

import os
from typing import Iterable, Optional, Sequence, Union

from . import _svb
from ._svb import (
    Blow5Writer,
    CodecError,
    FileFormatError,
    Pod5Writer,
    Read,
    SvbError,
    exzd_decode,
    exzd_encode,
    streamvbyte_decode,
    streamvbyte_encode,
    svb16_decode,
    svb16_encode,
    svbzd_decode,
    svbzd_encode,
    vbz_compress,
    vbz_decompress,
    pdz_compress,
    pdz_decompress,
)

__version__ = _svb.__version__

__all__ = [
    "open",
    "set_storage_options",
    "open_dataset",
    "to_arrow",
    "convert",
    "subset",
    "merge",
    "split",
    "recover",
    "degrade",
    "Reader",
    "Dataset",
    "Read",
    "Pod5Writer",
    "Blow5Writer",
    "SvbError",
    "FileFormatError",
    "CodecError",
    "streamvbyte_encode",
    "streamvbyte_decode",
    "svb16_encode",
    "svb16_decode",
    "vbz_compress",
    "vbz_decompress",
    "pdz_compress",
    "pdz_decompress",
    "svbzd_encode",
    "svbzd_decode",
    "exzd_encode",
    "exzd_decode",
]

PathLike = Union[str, "os.PathLike[str]"]


def _record_batch_reader(stream):
    import pyarrow as pa

    return pa.RecordBatchReader.from_stream(stream)


class _Reads:
    """What a file and a dataset share: the format, the read count, reads by id, `with`."""

    __slots__ = ("_inner",)

    def __init__(self, inner):
        self._inner = inner

    @property
    def format(self) -> str:
        """'pod5', 'blow5', 'slow5' or 'fast5'."""
        return self._inner.format

    def __len__(self) -> int:
        return len(self._inner)

    def __getitem__(self, read_id: str) -> Read:
        return self._inner[read_id]

    def __contains__(self, read_id: str) -> bool:
        return read_id in self._inner

    def reads(self, ids: Iterable[str], missing_ok: bool = False) -> list:
        """The reads `ids` in that order (KeyError for an absent id unless `missing_ok`)."""
        return self._inner.reads(list(ids), missing_ok)

    # Header metadata under pyslow5's names: a BLOW5 file's own header; for POD5 and FAST5,
    # the header of the BLOW5 `svb convert` makes of the file (a read group per run); for a
    # dataset, the header of the BLOW5 `svb merge` makes of its files.

    def _groups_and_aux(self):
        return self._inner._header()

    def _group(self, read_group: int) -> dict:
        groups, _ = self._groups_and_aux()
        if not 0 <= read_group < len(groups):
            raise ValueError(f"read group {read_group} of a header with {len(groups)}")
        return groups[read_group]

    def get_num_read_groups(self) -> int:
        """Read groups (runs) in the header."""
        return len(self._groups_and_aux()[0])

    def get_header_names(self) -> list:
        """Every header attribute name, of any read group, in header order."""
        groups, _ = self._groups_and_aux()
        return list(groups[0]) if groups else []

    def get_header_value(self, attr: str, read_group: int = 0) -> Optional[str]:
        """Attribute `attr` of `read_group` (None where unset)."""
        return self._group(read_group).get(attr)

    def get_all_headers(self, read_group: int = 0) -> dict:
        """{name: value or None} for every header attribute, of `read_group`."""
        return dict(self._group(read_group))

    def get_aux_names(self) -> list:
        """The auxiliary field names, in record order (`Read.fields` keys)."""
        return [name for name, _, _ in self._groups_and_aux()[1]]

    def get_aux_types(self) -> list:
        """The auxiliary field types, numbered as slow5lib (and pyslow5) number them."""
        return [code for _, code, _ in self._groups_and_aux()[1]]

    def get_aux_enum_labels(self, name: str) -> list:
        """The labels of enum auxiliary field `name`, in index order."""
        aux = self._groups_and_aux()[1]
        for field, _, labels in aux:
            if field == name:
                if labels is None:
                    raise ValueError(f"{name} is not an enum field")
                return list(labels)
        raise ValueError(f"no auxiliary field {name} (there are {[f for f, _, _ in aux]})")

    def close(self) -> None:
        """Nothing to release early: files (and a dataset's temporary index) go with the
        object."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __repr__(self) -> str:
        return repr(self._inner)


class Reader(_Reads):
    """An open POD5, BLOW5 or FAST5 file. Use `svb.open(path)`.

    len(reader) is its read count; iterating gives `svb.Read`s in file order;
    `reader[read_id]` one read (KeyError when absent); `reader.reads(ids)` several, decoded
    in parallel; `reader.to_arrow(...)` a pyarrow RecordBatchReader.
    """

    __slots__ = ()

    @property
    def path(self) -> str:
        return str(self._inner.path)

    @property
    def read_ids(self) -> list:
        """Every read id, in file order."""
        return self._inner.read_ids

    def __iter__(self):
        return iter(self._inner)

    def to_arrow(
        self,
        columns: Optional[Sequence[str]] = None,
        signal: Union[None, bool, str] = None,
        batch_reads: int = 1024,
    ):
        """The reads as a `pyarrow.RecordBatchReader`, one row a read.

        columns: metadata columns in this order (default all; the names `svb view` shows).
        signal: None/False for no signal (none is decoded), True or "raw" for `signal`
        (list<int16>), "pa" for `signal_pa` (list<float32>, calibrated picoamps).
        """
        return _record_batch_reader(
            self._inner._arrow_stream(
                list(columns) if columns is not None else None, _signal(signal), batch_reads
            )
        )



def _signal(signal):
    if signal is None or signal is False:
        return None
    if signal is True:
        return "raw"
    return signal


class Dataset(_Reads):
    """Many files of one format (POD5, BLOW5 / SLOW5 or FAST5) as one set of reads. Use
    `svb.open_dataset(paths)`.

    len(dataset) is the read count of all files; iterating gives every read, file by file
    (each file decoded a window ahead on every core); `dataset[read_id]` one read (KeyError
    when absent), `dataset.reads(ids)` several, in that order, decoded in parallel. A read is
    found by id through an index of every read id kept in a file (`index=`; by default a
    temporary one), built at the first lookup: a lookup reads 4 KiB of it and opens the one
    file that holds the read, so neither the ids nor the files are held in memory.
    """

    __slots__ = ()

    @property
    def paths(self) -> list:
        """The files, in the order their reads are walked."""
        return [str(p) for p in self._inner.paths]

    def counts(self) -> list:
        """Every file's read count, in `paths` order."""
        return self._inner.counts()

    def __iter__(self):
        for i in range(len(self._inner.paths)):
            yield from self._inner._file(i)

    @property
    def read_ids(self):
        """Every read id, file by file (a generator)."""
        for i in range(len(self._inner.paths)):
            yield from self._inner._file(i).read_ids

    def reader(self, path_or_index: Union[int, PathLike]) -> Reader:
        """The `svb.Reader` of one of the files, by its position in `paths` or its path."""
        if isinstance(path_or_index, int):
            return Reader(self._inner._file(path_or_index))
        want = os.path.abspath(os.fspath(path_or_index))
        for i, p in enumerate(self.paths):
            if os.path.abspath(p) == want:
                return Reader(self._inner._file(i))
        raise KeyError(os.fspath(path_or_index))

    def get_read(self, read_id: str) -> Optional[Read]:
        """The read `read_id`, or None (as `pod5.DatasetReader.get_read`)."""
        return self._inner.get_read(read_id)

    def get_path(self, read_id: str) -> Optional[str]:
        """The path of the file that holds `read_id` (the first, if several do), or None."""
        found = self._inner.locate(read_id)
        return None if found is None else str(found[0])

    def locate(self, read_id: str) -> Optional[tuple]:
        """(path, index in that file) of `read_id`, or None."""
        found = self._inner.locate(read_id)
        return None if found is None else (str(found[0]), found[1])

    def duplicates(self) -> list:
        """[(read_id, [(path, index), ...])] for each read id held more than once; a lookup
        gives the first of them."""
        return [
            (rid, [(str(p), i) for p, i in places]) for rid, places in self._inner.duplicates()
        ]

    def has_duplicate(self) -> bool:
        """Whether any read id is held more than once."""
        return bool(self._inner.duplicates())

    def make_index(self) -> None:
        """Builds (or loads, when the kept one fits the files) the read id index now."""
        self._inner.make_index()

    @property
    def index_path(self) -> Optional[str]:
        """Where the index is (None before it is made)."""
        p = self._inner.index_path
        return None if p is None else str(p)

    @property
    def index_note(self) -> Optional[str]:
        """Why a kept index was rebuilt (a file changed, ...), if it was."""
        return self._inner.index_note

    def to_arrow(
        self,
        columns: Optional[Sequence[str]] = None,
        signal: Union[None, bool, str] = None,
        batch_reads: int = 1024,
    ):
        """Every read as a `pyarrow.RecordBatchReader` (see `svb.to_arrow`)."""
        return to_arrow(self.paths, columns, signal, batch_reads)



def open_dataset(
    paths: Union[PathLike, Sequence[PathLike]],
    recursive: bool = True,
    index: Optional[PathLike] = None,
    threads: Optional[int] = None,
    max_open: int = 16,
) -> Dataset:
    """Files and directories (their files of the formats svb reads, subdirectories too
    unless `recursive=False`) as one `svb.Dataset`; all of one format. `index` is where the
    read id index is kept (reused while it fits the files, rebuilt when one changes; a file
    there that is not an svb index is never replaced); by default a temporary one.
    `max_open` files are kept open at most; `threads` decoding threads (default: every
    core).

        >>> data = svb.open_dataset("runs/", index="runs.svbidx")  # doctest: +SKIP
        >>> data["0000173c-bf67-44e7-9a9c-1ad0bc728e74"].num_samples  # doctest: +SKIP
    """
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    return Dataset(
        _svb.open_dataset(
            [os.fspath(p) for p in paths],
            recursive,
            None if index is None else os.fspath(index),
            threads,
            max_open,
        )
    )


def set_storage_options(options: dict) -> None:
    """Sets the object store options (object_store's configuration keys, Dask's
    `storage_options` convention: `skip_signature`, `aws_region`, `aws_endpoint`,
    `allow_http`, `timeout`, ...) that stores opened from now on are built with, on top of the
    environment's credentials (`AWS_*`, `GOOGLE_*`, `AZURE_*`)."""
    _svb.set_storage_options({str(k): str(v).lower() if isinstance(v, bool) else str(v)
                              for k, v in options.items()})


def open(path: PathLike, threads: Optional[int] = None,
         storage_options: Optional[dict] = None) -> Reader:
    """Opens a POD5, BLOW5 or FAST5 file (the format from its first bytes), or an object by
    URL (`s3://`, `gs://`, `az://`, `http(s)://`: read by ranges, nothing downloaded whole);
    `threads` decoding threads (default: every core); `storage_options` as
    `set_storage_options` takes them (e.g. `{"skip_signature": True}` for a public bucket)."""
    if storage_options is not None:
        set_storage_options(storage_options)
    return Reader(_svb.open(os.fspath(path), threads))


def to_arrow(
    paths: Union[PathLike, Sequence[PathLike]],
    columns: Optional[Sequence[str]] = None,
    signal: Union[None, bool, str] = None,
    batch_reads: int = 1024,
    threads: Optional[int] = None,
):
    """The reads of many files of one format as one `pyarrow.RecordBatchReader`."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    return _record_batch_reader(
        _svb.arrow_stream_of(
            [os.fspath(p) for p in paths],
            list(columns) if columns is not None else None,
            _signal(signal),
            batch_reads,
            threads,
        )
    )


def convert(
    inputs: Union[PathLike, Sequence[PathLike]],
    output: PathLike,
    records: Optional[str] = None,
    signal: Optional[str] = None,
    decode_fast: bool = False,
    keep_going: bool = False,
    force: bool = False,
    file_read_count: Optional[int] = None,
    text_floats: Optional[str] = None,
) -> dict:
    """POD5 -> BLOW5 / SLOW5 or back (by the output's extension) with blue-crab's field
    mapping, FAST5 -> POD5 with ONT's and to BLOW5 / SLOW5 with slow5tools f2s's, BLOW5 ->
    SLOW5 text and back, BLOW5 recompressed, POD5 repacked (`decode_fast` for zstd's
    decode-fast profile), any of them to multi-read FAST5 (`.fast5`; POD5 as `pod5 convert
    to_fast5` writes it), as `svb convert` does. `records` ("zstd", "zlib", "none") and
    `signal` ("svb-zd", "ex-zd", "none") are a BLOW5 output's compression (default zstd and
    svb-zd); for a FAST5 output `signal` is its HDF5 filter ("vbz", the default, as ONT
    writes it; "gzip", which every HDF5 reader opens; "none"), and `file_read_count` cuts it
    into files of that many reads (`reads.fast5` -> `reads.0.fast5`, `reads.1.fast5`, ...,
    as `pod5 convert to_fast5 --file-read-count`); for a POD5 output `signal` is its signal
    compression ("vbz", the default; "pdz", ONT's second, `minknow.pdz`; "uncompressed"); for a
    SLOW5 output `text_floats` is "exact" (the default) or "slow5lib" (six decimals, as
    slow5tools and blue-crab write them). Returns {"reads", "samples", "failed", "files",
    "notes"} (notes: what the output has no place for, left out); with
    `keep_going`, inputs and reads that fail are left out and listed in "failed". The output
    appears only when complete; an existing one is replaced only with `force`, and an output
    that is one of the inputs is refused."""
    if isinstance(inputs, (str, os.PathLike)):
        inputs = [inputs]
    return _svb.convert(
        [os.fspath(p) for p in inputs],
        os.fspath(output),
        records,
        signal,
        decode_fast,
        keep_going,
        force,
        file_read_count,
        text_floats,
    )


def subset(
    inputs: Union[PathLike, Sequence[PathLike]],
    read_ids: Iterable[str],
    output: PathLike,
    keep_going: bool = False,
    force: bool = False,
    in_order: bool = False,
) -> dict:
    """The reads named in `read_ids` from POD5 or BLOW5 / SLOW5 `inputs` (one format) into
    `output` (.pod5, or .blow5 / .slow5, the inputs' format; FAST5 inputs into any of them),
    as `svb subset` does: POD5 VBZ chunks copied as
    stored, BLOW5 files read through their slow5lib index. The reads are written in the
    inputs' order, or with `in_order` in the order of `read_ids` (as slow5tools get writes
    them). Returns {"reads", "samples",
    "missing" (ids in no input), "failed" (with `keep_going`), "notes"}. An existing output
    is replaced only with `force`."""
    if isinstance(inputs, (str, os.PathLike)):
        inputs = [inputs]
    return _svb.subset(
        [os.fspath(p) for p in inputs], list(read_ids), os.fspath(output), keep_going, force,
        in_order,
    )


def merge(
    inputs: Union[PathLike, Sequence[PathLike]],
    output: PathLike,
    duplicates: str = "error",
    keep_going: bool = False,
    force: bool = False,
    lossless: bool = True,
    allow: bool = False,
    field_order: str = "inputs",
) -> dict:
    """Many POD5, or BLOW5 / SLOW5, `inputs` into one `output` (.pod5, or .blow5 / .slow5),
    as `svb merge` does: inputs opened one at a time, POD5 runs once each, POD5 VBZ chunks
    copied as stored. BLOW5 / SLOW5 merge as slow5tools merge merges them: read groups
    matched by run id (two of one run whose attributes differ raise FileFormatError unless
    `allow`, which leaves what differs empty), the union of the inputs' auxiliary fields (a
    record without one gets slow5lib's missing value), or none with `lossless=False`; the
    fields in the inputs' order (records copied as stored where they can be), or with
    `field_order="slow5tools"` in slow5tools merge's (enum fields first, then the others by
    name: its bytes). A read
    id in two inputs raises FileFormatError naming both files, unless
    `duplicates="keep-first"`. Returns {"reads", "samples" (None where BLOW5 records were
    copied as stored, their signals not read), "duplicates" (reads left out as later copies), "failed" (with `keep_going`)}. An existing output is replaced only with
    `force`.

        >>> svb.merge(["run1.pod5", "run2.pod5"], "all.pod5")["reads"]  # doctest: +SKIP
    """
    if isinstance(inputs, (str, os.PathLike)):
        inputs = [inputs]
    return _svb.merge(
        [os.fspath(p) for p in inputs], os.fspath(output), duplicates, keep_going, force,
        lossless, allow, field_order,
    )


def split(
    inputs: Union[PathLike, Sequence[PathLike]],
    output_dir: PathLike,
    by: Optional[str] = None,
    reads: Optional[int] = None,
    files: Optional[int] = None,
    table: Union[None, dict, PathLike] = None,
    to: Optional[str] = None,
    max_open: int = 128,
    keep_going: bool = False,
    force: bool = False,
    template: Optional[str] = None,
    column: Optional[str] = None,
    records: Optional[str] = None,
    signal: Optional[str] = None,
    per_input: bool = False,
) -> dict:
    """The reads of POD5, or BLOW5 / SLOW5, `inputs` into many files of that format in
    `output_dir`, as `svb split` does: one of `by` ("run", "read-group", "channel",
    "end-reason"), `reads` (parts of N reads), `files` (N parts) or `table` ({read_id:
    destination}, or the path of a TSV / CSV file with a header line, a read_id column and
    the destination column `column` (default: the other column), read a line at a time so
    that a table of millions of ids takes no more memory than the inputs' reads; reads it
    lacks are left out). `to` ("blow5" or "slow5") picks BLOW5 /
    SLOW5 outputs; `template` names them ("run_{key}": `{key}` replaced by the key, the
    extension added; default "{key}"); `records` ("zstd", "zlib", "none") and `signal`
    ("svb-zd", "ex-zd", "none") recompress BLOW5 outputs (slow5tools split's -c / -s;
    default the first input's). `per_input` splits each input on its own and names its parts
    as slow5tools split does ("rg.blow5" by read group: "rg_0.blow5", "rg_1.blow5"; parts of
    N reads "rg_0.blow5", ...; inputs of one file stem refused). Returns {"reads", "samples" (None where BLOW5 records
    were copied as stored, their signals not read), "unlisted" (reads the
    table does not list), "unknown" (the table's ids that are none of the inputs' reads) and
    "unknown_first" (the first few of them), "outputs" [(key, path, reads)], "failed"}. A
    table's values may be quoted (RFC 4180), its read ids in any UUID spelling. Outputs that
    exist are replaced only with `force`.

        >>> svb.split("reads.pod5", "by_channel", by="channel")["outputs"][:1]  # doctest: +SKIP
    """
    if isinstance(inputs, (str, os.PathLike)):
        inputs = [inputs]
    table_file = None
    if isinstance(table, (str, os.PathLike)):
        table, table_file = None, os.fspath(table)
    elif column is not None:
        raise ValueError("column names the destination column of a table file")
    return _svb.split(
        [os.fspath(p) for p in inputs], os.fspath(output_dir), by, reads, files, table, to,
        max_open, keep_going, force, template, table_file, column, records, signal, per_input,
    )


def recover(input: PathLike, output: PathLike, force: bool = False) -> dict:
    """Every whole record of a BLOW5 or SLOW5 file whose writer died (its end marker
    missing, its last record or line cut), or every read of a POD5 file whose footer is
    missing or damaged (rebuilt from the tables a scan finds), into `output`, as `svb
    recover` does. Returns {"reads" (saved), "samples", "records" (whole records found, or
    the reads the POD5 tables list), "failed" (records or reads that did not decode), "cut"
    (BLOW5: None for a whole file, else {"offset", "bytes", "what"}), and for POD5 "fault"
    (None for a whole file, else what was wrong with its footer)}.

        >>> svb.recover("cut.blow5", "saved.blow5")["cut"]  # doctest: +SKIP
    """
    return _svb.recover(os.fspath(input), os.fspath(output), force)


def degrade(
    input: PathLike,
    output: PathLike,
    bits: Optional[int] = None,
    records: Optional[str] = None,
    signal: Optional[str] = None,
    keep_going: bool = False,
    force: bool = False,
) -> dict:
    """The reads of a BLOW5 or SLOW5 file with each sample's `bits` least significant bits
    rounded away (to the nearest multiple of 2**bits; irreversible, about half the size) into
    `output` (.blow5, or .slow5 for text; a POD5 file into .pod5, VBZ), byte for byte as
    `slow5tools degrade` writes it, as
    `svb degrade` does. `bits` (1 to 16) is chosen from the header when None, as slow5tools
    chooses it (device type, sample frequency, sequencing kit and experiment type; every read
    must then have that dataset's digitisation and sampling rate). `records` ("zlib", "zstd",
    "none") and `signal` ("ex-zd", "svb-zd", "none") default to slow5tools' zlib and ex-zd.
    Returns {"reads", "samples", "bits", "dataset" (the header's, when it chose the bits),
    "failed" (with `keep_going`)}. An existing output is replaced only with `force`.

        >>> svb.degrade("reads.blow5", "small.blow5")["bits"]  # doctest: +SKIP
    """
    return _svb.degrade(
        os.fspath(input), os.fspath(output), bits, records, signal, keep_going, force
    )
