"""Profiles every Python process started with this folder on ``PYTHONPATH`` (all threads,
CPU time, with yappi) and writes ``<CRAWFORD_PROFILE_DIR>/<pid>.pstats`` every few seconds
while it runs (a server's workers may not get to run exit handlers).

``bench_live_matches.py --profile DIR`` starts the web service so; the figures of such a
run are not figures (the profiler costs more than the work), only where the time goes.
"""

import os
import threading
import time

folder = os.environ.get("CRAWFORD_PROFILE_DIR")
if folder:
    import yappi

    yappi.set_clock_type("cpu")
    yappi.start(builtins=False, profile_threads=True)

    def _write_now_and_then() -> None:
        while True:
            time.sleep(5)
            path = os.path.join(folder, f"{os.getpid()}.pstats")
            yappi.get_func_stats().save(path + ".new", type="pstat")
            os.replace(path + ".new", path)

    threading.Thread(target=_write_now_and_then, daemon=True).start()
