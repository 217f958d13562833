"""Many POD5, BLOW5 or FAST5 files as one Dask DataFrame, one partition per file.

    import svb.dask
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1) as cluster, Client(cluster):
        df = svb.dask.read("runs/*.pod5", columns=["read_id", "channel"], signal="stats")
        per_channel = df.groupby("channel")["signal_mean_pa"].mean().compute()

Each partition reads its file through `svb.open(...).to_arrow(...)` on the worker, batch by
batch, so a worker holds one Arrow batch of signal at a time. `signal`: False (metadata
only, no signal decoded), "stats" (per read `signal_mean_pa`, `signal_sd_pa`,
`signal_min_pa`, `signal_max_pa` in picoamps, and `signal_length`), True (the raw signal as
a column of int16 arrays) or "pa" (calibrated float32 arrays).

The same partition function serves any engine that maps a function over files: Ray
(`ray.data.from_items(paths).map_batches(...)` calling `svb.open(path).to_arrow(...)`) or
Spark (`mapInArrow` over the paths, yielding the batches of `svb.to_arrow(path, ...)`), since
both take Arrow record batches as they are.
"""

from __future__ import annotations

import glob
import os
from typing import List, Optional, Sequence, Union

import numpy as np

import svb

_STATS = ["signal_length", "signal_mean_pa", "signal_sd_pa", "signal_min_pa", "signal_max_pa"]


def files(paths_or_glob: Union[str, "os.PathLike[str]", Sequence]) -> List[str]:
    """The POD5/BLOW5/SLOW5/FAST5 files named: a glob, a directory (its .pod5, .blow5, .slow5
    and .fast5 files), a file, or a list of these; sorted, each once."""
    items = [paths_or_glob] if isinstance(paths_or_glob, (str, os.PathLike)) else paths_or_glob
    out: List[str] = []
    for item in items:
        item = os.fspath(item)
        if "://" in item:
            # An object, a prefix (ending in "/": every object below it) or a pattern.
            listed = svb._svb.list_objects(item, True)
            if listed is None:
                out.append(item)
            else:
                out.extend(u for u in listed
                           if "*" in item or u.lower().endswith((".pod5", ".blow5", ".slow5", ".fast5")))
        elif os.path.isdir(item):
            out.extend(
                os.path.join(item, n)
                for n in os.listdir(item)
                if n.lower().endswith((".pod5", ".blow5", ".slow5", ".fast5")) and not n.startswith(".")
            )
        elif any(c in item for c in "*?["):
            out.extend(glob.glob(item, recursive=True))
        else:
            out.append(item)
    out = sorted(set(out))
    if not out:
        raise FileNotFoundError(f"no POD5, BLOW5 or FAST5 file in {paths_or_glob!r}")
    return out


def _stats(batch):
    """The stats columns of a batch's `signal_pa` list column, as numpy arrays."""
    lists = batch.column(batch.schema.get_field_index("signal_pa"))
    offsets = np.asarray(lists.offsets)
    values = lists.values.to_numpy(zero_copy_only=False).astype(np.float64, copy=False)
    values = values[offsets[0]:]
    starts = offsets[:-1] - offsets[0]
    lengths = np.diff(offsets)
    nonempty = lengths > 0
    n = len(lengths)
    mean = np.full(n, np.nan)
    sd = np.full(n, np.nan)
    lo = np.full(n, np.nan)
    hi = np.full(n, np.nan)
    if nonempty.any():
        at = starts[nonempty]
        cnt = lengths[nonempty]
        sums = np.add.reduceat(values, at)
        squares = np.add.reduceat(values * values, at)
        mean[nonempty] = sums / cnt
        sd[nonempty] = np.sqrt(np.maximum(squares / cnt - mean[nonempty] ** 2, 0.0))
        lo[nonempty] = np.minimum.reduceat(values, at)
        hi[nonempty] = np.maximum.reduceat(values, at)
    return [lengths.astype(np.uint64), mean, sd, lo, hi]


def partition(path: str, columns=None, signal=False, threads: Optional[int] = None):
    """One file as a pandas DataFrame (what each Dask partition runs)."""
    import pandas as pd
    import pyarrow as pa

    stats = signal == "stats"
    arrow_signal = "pa" if stats else signal
    reader = svb.open(path, threads=threads).to_arrow(columns=columns, signal=arrow_signal)
    frames = []
    for batch in reader:
        if stats:
            extra = _stats(batch)
            keep = [i for i, f in enumerate(batch.schema) if f.name != "signal_pa"]
            batch = pa.RecordBatch.from_arrays(
                [batch.column(i) for i in keep] + [pa.array(x) for x in extra],
                names=[batch.schema.field(i).name for i in keep] + _STATS,
            )
        frames.append(batch.to_pandas())
    if not frames:
        return _empty(reader.schema, stats)
    return pd.concat(frames, ignore_index=True)


def _empty(schema, stats):
    import pyarrow as pa

    if stats:
        fields = [f for f in schema if f.name != "signal_pa"]
        schema = pa.schema(fields + [pa.field("signal_length", pa.uint64())] +
                           [pa.field(n, pa.float64()) for n in _STATS[1:]])
    return schema.empty_table().to_pandas()


def read(
    paths_or_glob,
    columns: Optional[Sequence[str]] = None,
    signal: Union[bool, str] = False,
    threads: Optional[int] = None,
    storage_options: Optional[dict] = None,
):
    """A Dask DataFrame of the reads of many files, one partition per file (see the module
    docs for `signal`). `threads`: decoding threads on each worker (default: every core).
    Objects by URL too (`s3://bucket/run/*.pod5`, a prefix `s3://bucket/run/`), with
    `storage_options` (object_store's keys, e.g. `{"skip_signature": True}`) set on every
    worker."""
    import dask
    import dask.dataframe as dd

    if storage_options is not None:
        svb.set_storage_options(storage_options)

    paths = files(paths_or_glob)
    columns = list(columns) if columns is not None else None
    # The columns and their types from the first file's schema: nothing is decoded here.
    stats = signal == "stats"
    schema = svb.open(paths[0]).to_arrow(columns=columns, signal="pa" if stats else signal).schema
    meta = _empty(schema, stats)
    # The options go to `partition` bound (`_Partition`), not as from_map keywords: from_map
    # takes `columns` as a projection of its own, which declared only those columns (the
    # stats and signal columns missing from the DataFrame while every partition held them).
    # Dask's string conversion is off for this frame: it would turn the signal column's
    # arrays into their text.
    part = _Partition(columns, signal, threads, storage_options)
    with dask.config.set({"dataframe.convert-string": False}):
        return dd.from_map(part, paths, meta=meta, enforce_metadata=False, label="svb-read")


class _Partition:
    """`partition` with the options bound, called with a path alone: a function with a
    `columns` parameter is one Dask hands its own column projection to, which would ask the
    file for derived columns (the stats) it does not have."""

    def __init__(self, columns, signal, threads, storage_options=None):
        self.columns, self.signal, self.threads = columns, signal, threads
        self.storage_options = storage_options

    def __call__(self, path):
        if self.storage_options is not None:
            # A worker process has its own settings.
            svb.set_storage_options(self.storage_options)
        return partition(path, columns=self.columns, signal=self.signal, threads=self.threads)
