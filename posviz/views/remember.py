"""What to remember (the lecture's last page), as data: the six points of “Same words, different
order…” §16 and the closing of “Position encodings”, each with the page scenes that show it live.

A link is (page, scene, title): `page` is the page's module name (app_pages/<page>.py, its scenes in
posviz.scenes.<page>), `scene` the 1-based number the frame applies for ?scene=N, and `title` the
text key of that scene's title, which tests/pages/test_page_remember.py checks against posviz.scenes so
that a reordered story cannot silently send a hall to the wrong scene. `scene=None` links the page.
"""

# page module -> url path (app.py's PAGES); the nav title is the text key nav.<url path>
URL_PATHS = {"overview": "", "sinusoidal": "sinusoidal", "relative": "relative", "rope": "rope", "decay": "decay",
             "extrapolation": "extrapolation", "length": "length", "lab": "lab", "kv_cache": "kv-cache",
             "checks": "checks"}


def _point(key, *links):
    return {"key": key, "links": [{"page": p, "scene": n, "title": title} for p, n, title in links]}


SECTIONS = (
    ("remember.s16", (      # “Same words, different order…” §16, in its order
        _point("remember.s16.1", ("overview", 1, "overview.scene.bag"), ("overview", 2, "overview.scene.mask"),
               ("length", 6, "length.s5.title")),
        _point("remember.s16.2", ("overview", 3, "overview.scene.sin"), ("sinusoidal", 1, "sinusoidal.scene.waves"),
               ("sinusoidal", 5, "sinusoidal.scene.edge")),
        _point("remember.s16.3", ("rope", 2, "rope.scene.angle"), ("rope", 3, "rope.scene.shift"),
               ("rope", 4, "rope.scene.key")),
        _point("remember.s16.4", ("overview", 4, "overview.scene.rope"), ("rope", None, None),   # apply_rope, SDPA
               ("lab", 4, "lab.scene.qonly")),
        _point("remember.s16.5", ("kv_cache", 1, "kv_cache.scene.diagram"), ("kv_cache", 3, "kv_cache.scene.reread"),
               ("checks", 3, "checks.scene.cache")),
        _point("remember.s16.6", ("lab", 1, "lab.scene.right"), ("lab", 2, "lab.scene.arange"),
               ("lab", 3, "lab.scene.tokid")),
    )),
    ("remember.closing", (  # “Position encodings”, its closing section
        _point("remember.closing.1", ("sinusoidal", 2, "sinusoidal.scene.fp"),
               ("sinusoidal", 4, "sinusoidal.scene.sim"), ("length", 1, "length.s1.title")),
        _point("remember.closing.2", ("relative", 1, "relative.scene.distance"), ("relative", 2, "relative.scene.shaw"),
               ("relative", 3, "relative.scene.t5")),
        _point("remember.closing.3", ("rope", 1, "rope.scene.pair"), ("rope", 2, "rope.scene.angle"),
               ("rope", 3, "rope.scene.shift")),
        _point("remember.closing.4", ("extrapolation", 1, "extrapolation.scene.wave"),
               ("extrapolation", 2, "extrapolation.scene.naive"), ("length", 5, "length.s_alias.title")),
        _point("remember.closing.5", ("extrapolation", 3, "extrapolation.scene.pi"),
               ("extrapolation", 4, "extrapolation.scene.ntk"), ("extrapolation", 5, "extrapolation.scene.yarn"),
               ("length", 3, "length.s3.title")),
    )),
)


def page_file(page):
    """The script of a page module name: "kv_cache" -> "app_pages/kv_cache.py"."""
    return f"app_pages/{page}.py"


def nav_key(page):
    """The text key of a page's navigation title: "kv_cache" -> "nav.kv-cache", "overview" -> "nav.overview"."""
    return f"nav.{URL_PATHS[page] or 'overview'}"
