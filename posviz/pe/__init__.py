"""The public position-encoding library: sinusoidal, learned, rope, relative, scaling, decay,
position_ids, rope_config, models. Torch only; imports nothing of posviz but posviz.validate."""
