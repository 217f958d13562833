"""Reads POD5 files with ONT's own reader (the `pod5` package) and prints what it sees, for
the writer tests (crates/svb-vbz/tests/pod5_write.rs) to compare with what they wrote.

  pod5_read.py FILE...
      Per file, one JSON line {"file", "reads": N, "run_infos": [{column: value}] (the
      run-info table's rows, maps as [key, value] pairs)}, then one
      per read with every field of ONT's ReadRecord (floats as numbers, NaN as "NaN";
      timestamps as milliseconds since the epoch), "samples" and "sha256" of the int16 LE
      signal.
"""
import datetime
import hashlib
import json
import math
import sys
import warnings

import numpy as np
import pod5


def num(v):
    if isinstance(v, np.generic):
        v = v.item()
    if isinstance(v, float) and math.isnan(v):
        return "NaN"
    return v


def millis(t):
    if isinstance(t, datetime.datetime):
        if t.tzinfo is None:
            t = t.replace(tzinfo=datetime.timezone.utc)
        return round(t.timestamp() * 1000)
    return num(t)


def run_info(row):
    out = {}
    for k, v in row.items():
        if isinstance(v, list):  # a map: (key, value) pairs
            out[k] = [[a, b] for a, b in v]
        elif isinstance(v, datetime.datetime):
            out[k] = millis(v)
        else:
            out[k] = num(v)
    return out


def main():
    # The scaling fields are deprecated in pod5 0.4 and still written: read them quietly.
    warnings.simplefilter("ignore", DeprecationWarning)
    for path in sys.argv[1:]:
        with pod5.Reader(path) as reader:
            runs = [run_info(r) for r in reader.run_info_table.read_all().to_pylist()]
            reads = list(reader.reads())
            print(json.dumps({"file": path, "reads": len(reads), "run_infos": runs}))
            for r in reads:
                sig = np.asarray(r.signal, dtype="<i2")
                print(json.dumps({
                    "read_id": str(r.read_id),
                    "read_number": num(r.read_number),
                    "start_sample": num(r.start_sample),
                    "median_before": num(r.median_before),
                    "num_minknow_events": num(r.num_minknow_events),
                    "tracked_scaling_scale": num(r.tracked_scaling.scale),
                    "tracked_scaling_shift": num(r.tracked_scaling.shift),
                    "predicted_scaling_scale": num(r.predicted_scaling.scale),
                    "predicted_scaling_shift": num(r.predicted_scaling.shift),
                    "num_reads_since_mux_change": num(r.num_reads_since_mux_change),
                    "time_since_mux_change": num(r.time_since_mux_change),
                    "num_samples": num(r.num_samples),
                    "channel": num(r.pore.channel),
                    "well": num(r.pore.well),
                    "pore_type": r.pore.pore_type,
                    "calibration_offset": num(r.calibration.offset),
                    "calibration_scale": num(r.calibration.scale),
                    "end_reason": r.end_reason.name,
                    "end_reason_forced": bool(r.end_reason.forced),
                    "run_info": r.run_info.acquisition_id,
                    "open_pore_level": num(r.open_pore_level),
                    "expected_open_pore_level": num(r.expected_open_pore_level),
                    "selected_read_level": num(r.selected_read_level),
                    "samples": int(sig.size),
                    "sha256": hashlib.sha256(sig.tobytes()).hexdigest(),
                }))


if __name__ == "__main__":
    main()
