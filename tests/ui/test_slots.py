"""posviz.ui.slots.run_slot: at most MAX_RUNS script runs at once in a process, the others in turn,
and none waits longer than RUN_WAIT_S."""
import threading
import time

from posviz.ui import slots


def _hold(slot_taken, release):
    with slots.run_slot():
        slot_taken.release()
        release.wait(10)


def test_a_run_beyond_the_slots_waits_until_one_is_free(monkeypatch):
    monkeypatch.setattr(slots, "_run_slots", threading.BoundedSemaphore(2))
    taken, release = threading.Semaphore(0), threading.Event()
    holders = [threading.Thread(target=_hold, args=(taken, release)) for _ in range(2)]
    for h in holders:
        h.start()
    assert taken.acquire(timeout=5) and taken.acquire(timeout=5)       # both slots are held

    entered = threading.Event()

    def third():
        with slots.run_slot():
            entered.set()
    t = threading.Thread(target=third)
    t.start()
    assert not entered.wait(0.3)          # no slot free: it waits
    release.set()                          # the first runs end
    assert entered.wait(5)                 # and it goes
    for th in holders + [t]:
        th.join(5)
    assert slots._run_slots.acquire(blocking=False) and slots._run_slots.acquire(blocking=False)   # all given back


def test_a_run_goes_ahead_after_waiting_run_wait_s_and_gives_back_nothing_it_did_not_take(monkeypatch):
    monkeypatch.setattr(slots, "_run_slots", threading.BoundedSemaphore(1))
    monkeypatch.setattr(slots, "RUN_WAIT_S", 0.2)
    taken, release = threading.Semaphore(0), threading.Event()
    holder = threading.Thread(target=_hold, args=(taken, release))
    holder.start()
    assert taken.acquire(timeout=5)
    t0 = time.monotonic()
    with slots.run_slot():                 # the slot is still held: goes ahead after RUN_WAIT_S
        waited = time.monotonic() - t0
    assert 0.15 <= waited < 3
    release.set()
    holder.join(5)
    assert slots._run_slots.acquire(blocking=False)      # exactly one slot, held by nobody now
    slots._run_slots.release()                            # (BoundedSemaphore: a second release would raise)


def test_a_run_that_raises_gives_its_slot_back(monkeypatch):
    monkeypatch.setattr(slots, "_run_slots", threading.BoundedSemaphore(1))
    try:
        with slots.run_slot():
            raise RuntimeError("st.rerun / st.stop end a run with an exception")
    except RuntimeError:
        pass
    assert slots._run_slots.acquire(blocking=False)
