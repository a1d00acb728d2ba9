// The operator fused_bias_gelu and its backward, with their CPU loops and autograd formula:
// the bias + activation family's (csrc/bias_activation/) on this operator's activation,
// fused_bias_gelu.h.
#include "fused_bias_gelu.h"

#include "bias_activation/operator.h"

BIAS_ACTIVATION_OPERATOR(generated_gelu, FusedBiasGelu)
