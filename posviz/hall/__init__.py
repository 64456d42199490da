"""The hall's questions and answers (issue "the hall answers"): a lecturer opens a room, asks a scene's
question, a hundred phones answer, the lecturer reveals the class's answers beside the right one.

rooms: the rules (who may do what, codes and lecturer keys, expiry, limits, rate limits, one answer per
question per browser session); store: the one interface every backend implements and `open_store`, which
picks SQLite (WAL, one machine: the default) or Redis (POSVIZ_REDIS_URL: every replica of a cluster);
sqlite_store, redis_store: the two backends. The questions themselves live with the scenes
(posviz.scenes.QUESTIONS), their texts in posviz.text, their right answers in posviz.views.hall.
No streamlit here: posviz.ui.hall draws it.
"""
