"""Writes reads with ONT's pod5.Writer and kills the process after KILL_AFTER of them, before
the writer closes the file: the POD5 file holds the signal table without its Arrow footer,
the reads and run info stay in the writer's hidden .FILE_ID.tmp-reads / .tmp-run-info files.

usage: pod5_killed_writer.py OUT.pod5 KILL_AFTER
"""
import datetime
import os
import sys
import uuid

import numpy as np
import pod5

out, kill_after = sys.argv[1], int(sys.argv[2])
rng = np.random.default_rng(7)
when = datetime.datetime(2024, 1, 2, tzinfo=datetime.timezone.utc)
run_info = pod5.RunInfo(
    acquisition_id="acq-killed", acquisition_start_time=when, adc_max=2047, adc_min=-2048,
    context_tags={"sample_frequency": "4000"}, experiment_name="exp", flow_cell_id="FC1",
    flow_cell_product_code="FLO", protocol_name="proto", protocol_run_id="run",
    protocol_start_time=when, sample_id="sample", sample_rate=4000, sequencing_kit="kit",
    sequencer_position="X1", sequencer_position_type="minion", software="test",
    system_name="sys", system_type="type", tracking_id={"run_id": "run"},
)
with pod5.Writer(out) as writer:
    for i in range(kill_after):
        signal = rng.integers(-500, 500, size=int(rng.integers(500, 6000)), dtype=np.int16)
        writer.add_read(pod5.Read(
            read_id=uuid.UUID(int=i + 1),
            pore=pod5.Pore(channel=1 + i % 512, well=1, pore_type="not_set"),
            calibration=pod5.Calibration(offset=-3.0, scale=0.25),
            read_number=i, start_sample=1000 * i, median_before=200.0 + i % 7,
            end_reason=pod5.EndReason.from_reason_with_default_forced(
                pod5.EndReasonEnum.SIGNAL_POSITIVE),
            run_info=run_info, signal=signal,
        ))
    sys.stdout.flush()
    os._exit(9)  # killed: no close, no footer, the temporary files left
