"""Real models' published RoPE settings, as data, each with its source.

`config` holds the RoPE-relevant fields of the model's config.json exactly as published
(rope_scaling in the transformers-4 spelling the files use); head_dim and rope_parameters are
derived from it by posviz.pe.rope_config.read_config, so the preset and a pasted config.json go
through the same code. `l_train` is the trained context (original_max_position_embeddings for
scaled models, max_position_embeddings otherwise) and `l_target` the context the page opens at.

Checked against copies of these config.json files found in public repositories with the search
tools (the Hugging Face repos themselves are not reachable here); what was seen for each preset is
stated on the page (text key extrapolation.checked.<key>).
"""
import json

from posviz.validate import check_choice
from posviz.pe.rope_config import read_config

PRESETS = {
    "llama2_7b": {
        "name": "Llama 2 7B",
        "repo": "meta-llama/Llama-2-7b-hf",
        "source": "https://huggingface.co/meta-llama/Llama-2-7b-hf/blob/main/config.json",
        "config": {"hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": 4096,
                   "rope_theta": 10000.0, "rope_scaling": None},
        "l_train": 4096, "l_target": 16384,
    },
    "mistral_7b": {
        "name": "Mistral 7B v0.1",
        "repo": "mistralai/Mistral-7B-v0.1",
        "source": "https://huggingface.co/mistralai/Mistral-7B-v0.1/blob/main/config.json",
        "config": {"hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": 32768,
                   "rope_theta": 10000.0, "sliding_window": 4096},
        "l_train": 32768, "l_target": 131072,
    },
    "llama31_8b": {
        "name": "Llama 3.1 8B",
        "repo": "meta-llama/Llama-3.1-8B",
        "source": "https://huggingface.co/meta-llama/Llama-3.1-8B/blob/main/config.json",
        "config": {"hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": 131072,
                   "rope_theta": 500000.0,
                   "rope_scaling": {"factor": 8.0, "high_freq_factor": 4.0, "low_freq_factor": 1.0,
                                    "original_max_position_embeddings": 8192, "rope_type": "llama3"}},
        "l_train": 8192, "l_target": 131072,
    },
    "qwen25_7b": {
        "name": "Qwen2.5 7B Instruct",
        "repo": "Qwen/Qwen2.5-7B-Instruct",
        "source": "https://huggingface.co/Qwen/Qwen2.5-7B-Instruct/blob/main/config.json",
        "config": {"hidden_size": 3584, "num_attention_heads": 28, "max_position_embeddings": 32768,
                   "rope_theta": 1000000.0, "rope_scaling": None},
        "l_train": 32768, "l_target": 131072,
    },
    "qwen25_7b_yarn": {
        "name": "Qwen2.5 7B Instruct + YaRN",
        "repo": "Qwen/Qwen2.5-7B-Instruct",
        "source": "https://huggingface.co/Qwen/Qwen2.5-7B-Instruct (model card, 'Processing Long "
                  "Texts': add rope_scaling to config.json)",
        "config": {"hidden_size": 3584, "num_attention_heads": 28, "max_position_embeddings": 32768,
                   "rope_theta": 1000000.0,
                   "rope_scaling": {"factor": 4.0, "original_max_position_embeddings": 32768,
                                    "type": "yarn"}},
        "l_train": 32768, "l_target": 131072,
    },
    "deepseek_v3": {
        "name": "DeepSeek-V3",
        "repo": "deepseek-ai/DeepSeek-V3",
        "source": "https://huggingface.co/deepseek-ai/DeepSeek-V3/blob/main/config.json",
        "config": {"hidden_size": 7168, "num_attention_heads": 128, "qk_nope_head_dim": 128,
                   "qk_rope_head_dim": 64, "max_position_embeddings": 163840, "rope_theta": 10000,
                   "rope_scaling": {"beta_fast": 32, "beta_slow": 1, "factor": 40, "mscale": 1.0,
                                    "mscale_all_dim": 1.0, "original_max_position_embeddings": 4096,
                                    "type": "yarn"}},
        "l_train": 4096, "l_target": 163840,
    },
}
KEYS = tuple(PRESETS)
# Lengths the page offers: powers of two plus every preset's own lengths.
LENGTHS = tuple(sorted({2 ** k for k in range(8, 21)}
                       | {p[k] for p in PRESETS.values() for k in ("l_train", "l_target")}))


def preset(key):
    """One preset with its derived head_dim and rope_parameters (a new dict each call)."""
    check_choice("preset", key, KEYS)
    p = PRESETS[key]
    r = read_config(json.loads(json.dumps(p["config"])))
    return {**p, "key": key, "config": json.loads(json.dumps(p["config"])),
            "head_dim": r["head_dim"], "rope_parameters": r["rope_parameters"]}


def preset_json(key):
    """The preset's config fields as JSON text (what a user would paste)."""
    check_choice("preset", key, KEYS)
    return json.dumps(PRESETS[key]["config"], indent=2)
