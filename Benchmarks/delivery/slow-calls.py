"""What the tracking thread was doing during track()'s slow calls: TrackTail under perf, each slow call
lined up with the scheduler's events and the page faults of the tracking thread in the same interval.

    python3 Benchmarks/delivery/slow-calls.py [--sched-only] TRACKTAIL [TrackTail's arguments after DIR and URL...]

Runs `perf record -k mono -c 1 -g` on TrackTail (journal in a temporary directory, collector: sink.py,
both started here) for the scheduler's switches and wakeups (with call chains), page faults and system
calls (without: a call chain per fault slows the run enough to change what it measures), then reads
`perf script`. Tracing perturbs what it traces: with --sched-only (no page faults, no system calls)
the run is closest to an untraced one, and a wait for a lock shows best. Each call over 8 µs (TrackTail --slow-log) is put in one class:

  blocked       the thread slept (switched out in state S or D) during the call: on a lock, or in the
                kernel; with the thread that woke it and where (the holder letting go)
  page fault    it took a page fault (a store into a journal page not yet mapped writable)
  preempted     switched out while runnable: another thread took the core (which one is counted)
  none          none of those: an interrupt, the hypervisor, caches

and the page faults and system calls the tracking thread made over the whole run are counted, by where
the fault was and by call (a track() should make none of either). Needs perf with tracepoints (perf_event_paranoid allowing them, or root).
"""

import collections
import os
import re
import subprocess
import sys
import tempfile
import time

here = os.path.dirname(os.path.abspath(__file__))
SYSCALLS = {"202": "futex", "28": "madvise", "285": "fallocate", "87": "unlink", "11": "munmap", "9": "mmap", "257": "openat", "18": "pwrite", "82": "rename", "3": "close"}


def parse(path):
    """perf script output: [tid, time_ns, event, trace, frames, comm]."""
    events, current = [], None
    for line in open(path, errors="replace"):
        match = re.match(r"^\s*(\S.*?)\s+(\d+)\s+(\d+)\.(\d+):\s+(?:\d+\s+)?(\S+):\s*(.*)$", line)
        if match and not line.startswith("\t"):
            if current:
                events.append(current)
            nanoseconds = int(match.group(3)) * 1_000_000_000 + int(match.group(4).ljust(9, "0")[:9])
            current = [int(match.group(2)), nanoseconds, match.group(5), match.group(6), [], match.group(1)]
        elif not line.strip():
            if current:
                events.append(current)
            current = None
        elif current is not None:
            parts = line.split(None, 1)
            if len(parts) == 2:
                current[4].append(parts[1].strip()[:80])
    if current:
        events.append(current)
    return events


def frames(event, skip):
    return [frame for frame in event[4] if not re.match(skip, frame) and "[unknown]" not in frame]


KERNEL = r"^(__schedule|schedule|futex|__futex|do_futex|__x64_sys|do_syscall|entry_SYSCALL|syscall_trace|try_to_wake|ttwu|wake_up|__wake|irqentry|asm_|exit_to_user)"


def main():
    arguments = sys.argv[1:]
    sched_only = "--sched-only" in arguments
    arguments = [argument for argument in arguments if argument != "--sched-only"]
    binary, extra = arguments[0], arguments[1:]
    work = tempfile.mkdtemp(prefix="trackc-slow-calls-")
    sink = subprocess.Popen([sys.executable, os.path.join(here, "sink.py"), work + "/port"], stderr=subprocess.DEVNULL)
    try:
        while not os.path.exists(work + "/port") or not open(work + "/port").read():
            time.sleep(0.1)
        url = "http://127.0.0.1:" + open(work + "/port").read()
        events = "sched:sched_switch,sched:sched_wakeup"
        if not sched_only:
            events += ",page-faults/call-graph=no/,raw_syscalls:sys_enter/call-graph=no/"
        run = subprocess.run(
            ["perf", "record", "-q", "-k", "mono", "-c", "1", "-e", events, "-g", "-o", work + "/perf.data", "--",
             binary, work + "/journal", url, "--slow-log", work + "/slow.txt", *extra],
            capture_output=True, text=True, check=True)
        print(run.stdout.splitlines()[0])
        with open(work + "/script.txt", "w") as out:
            subprocess.run(["perf", "script", "-i", work + "/perf.data", "-F", "comm,tid,time,event,trace,ip,sym"],
                           stdout=out, stderr=subprocess.DEVNULL, check=True)
    finally:
        sink.terminate()
    events = parse(work + "/script.txt")
    main_tid = next(event[0] for event in events if event[5].startswith("TrackTail"))
    slow = [tuple(map(int, line.split())) for line in open(work + "/slow.txt") if line.strip()]
    events.sort(key=lambda event: event[1])
    times = [event[1] for event in events]
    import bisect

    classes, details = collections.Counter(), collections.Counter()
    for start, duration in slow:
        window = events[bisect.bisect_left(times, start):bisect.bisect_right(times, start + duration)]
        mine = [event for event in window if event[0] == main_tid]
        switches = [event for event in mine if "sched_switch" in event[2]]
        asleep = [event for event in switches if re.search(r"prev_state=[SD]", event[3])]
        if asleep:
            classes["blocked"] += 1
            waker = next((event for event in window if "sched_wakeup" in event[2] and re.search(rf"\bpid={main_tid}\b", event[3])
                          and event[1] > asleep[0][1]), None)
            where = " < ".join(frames(waker, KERNEL)[:2]) if waker else "woken by no thread seen"
            details[("blocked", f"woken by [{waker[5] if waker else '?'}] {where}")] += 1
        elif any("page-faults" in event[2] for event in mine):
            classes["page fault"] += 1
            fault = next(event for event in mine if "page-faults" in event[2])
            details[("page fault", "in " + fault[3].split()[-1][:70])] += 1
        elif switches:
            classes["preempted"] += 1
            taker = re.search(r"next_comm=(.*?) next_pid", switches[0][3]).group(1)
            details[("preempted", f"by [{taker}]")] += 1
        else:
            classes["none"] += 1
    print(f"{len(slow)} calls over 8 µs:")
    for name, count in classes.most_common():
        print(f"  {name:<11} {count:6d}")
        for (kind, what), times_seen in details.most_common():
            if kind == name and times_seen * 20 >= count:
                print(f"      {times_seen:6d}  {what}")
    faults, calls = collections.Counter(), collections.Counter()
    started = False
    for event in events:
        if event[0] != main_tid:
            continue
        started = started or "Journal" in event[3] or "Tracker" in event[3]
        if not started:
            continue
        if "page-faults" in event[2]:
            faults[event[3].split()[-1][:70]] += 1
        elif "sys_enter" in event[2]:
            number = re.search(r"NR (\d+)", event[3]).group(1)
            calls[SYSCALLS.get(number, "syscall " + number)] += 1
    if sched_only:
        return
    print(f"{sum(faults.values())} page faults on the tracking thread once tracking began:")
    for where, count in faults.most_common(3):
        print(f"  {count:6d}  in {where}")
    print(f"{sum(calls.values())} system calls on the tracking thread once tracking began:")
    for name, count in calls.most_common(8):
        print(f"  {count:6d}  {name}")


main()
