"""views.warm_up: transformers imported once per process in the background, however often it is called."""
import sys

from posviz import views


def test_warm_up_starts_one_background_import():
    for _ in range(3):
        views.warm_up()
    (thread,) = views._warming
    assert thread.daemon and thread.name == "posviz-warm-up"
    thread.join(timeout=120)
    assert hasattr(sys.modules["transformers"], "CONFIG_MAPPING")
