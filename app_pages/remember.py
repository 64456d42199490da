"""What to remember: where a lecture ends (seed 000 §16's six points, seed 001's closing), every point
linked to the page scenes that demonstrate it (the mapping is data: posviz.views.remember)."""
import itertools

import streamlit as st

from posviz import ui
from posviz.views import remember as view


def links(items, params):
    """The point's links, grouped by page: the page's name once, then one line per scene (?scene=N), so
    every label fits a phone; an item without a scene links the page itself."""
    for page, grouped in itertools.groupby(items, key=lambda item: item["page"]):
        name, group = ui.t(view.nav_key(page)), list(grouped)
        if all(item["scene"] is None for item in group):
            st.page_link(ui.page(view.page_file(page)), label=name, icon=":material/open_in_new:", query_params=params)
            continue
        st.caption(f"**{name}**")
        for item in group:
            scene = {} if item["scene"] is None else {"scene": str(item["scene"])}
            st.page_link(ui.page(view.page_file(page)), icon=":material/play_circle:", query_params={**params, **scene},
                         label=ui.t("remember.link", n=item["scene"], title=ui.t(item["title"])) if scene else name)


ui.header("remember")
params = {"lang": ui.lang(), **({"present": "1"} if ui.present() else {})}   # the hall stays in its language and mode
for section, points in view.SECTIONS:
    st.header(ui.t(f"{section}.h"), divider="gray")
    st.caption(ui.t(f"{section}.source"))
    for number, point in enumerate(points, 1):
        with st.container(border=True, key=f"remember_{point['key'].replace('.', '_')}"):
            st.subheader(f"{number} · {ui.t(point['key'] + '.title')}")
            st.markdown(ui.t(point["key"] + ".text"))
            st.caption(f"**{ui.t('remember.look')}** {ui.t(point['key'] + '.look')}")
            links(point["links"], params)
