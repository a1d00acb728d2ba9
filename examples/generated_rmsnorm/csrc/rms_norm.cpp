// The operator rms_norm and its backward, with their CPU loops and autograd formula:
// the row normalization family's (csrc/row_norm/) on this operator's norm,
// rms_norm.h.
#include "rms_norm.h"

#include "row_norm/operator.h"

ROW_NORM_OPERATOR(generated_rmsnorm, RmsNorm)
