"""Where the four norms' benchmark tables (the records the README's tables show) lie, from
benchmarks/results: read by ai/goal_status.py and av/compare_av.py."""

FILES = {
    "RMSNorm": "bench_rms_norm.json",
    "LayerNorm": "norms/layer_norm/bench_layer_norm.json",
    "residual-add RMSNorm": "norms/fused_add_rms_norm/bench_fused_add_rms_norm.json",
    "residual-add LayerNorm": "norms/fused_add_layer_norm/bench_fused_add_layer_norm.json",
}
