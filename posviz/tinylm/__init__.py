"""The tiny trained models: model (and its shipped weights/), task, train, evaluate.
Imports posviz.pe and posviz.validate only; `python -m posviz.tinylm.train --all --eval` rebuilds weights/."""
