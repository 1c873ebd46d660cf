/* libopapi stand-in: the three seed operators, computed on the host in double precision.
 *
 * Status codes follow the seed documents: 161001 for a null required pointer, 161002 for
 * an unsupported dtype or format, a shape that does not broadcast or match, a rank above
 * 8 (tanh backward) and a reduction outside 0/1/2 (soft margin loss backward).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "standin.h"

#define MAX_RANK 64

typedef enum { OP_HARDSHRINK_BACKWARD, OP_TANH_BACKWARD, OP_SOFT_MARGIN_LOSS_BACKWARD } OpKind;

struct aclOpExecutor {
  OpKind kind;
  const aclTensor* in[3];
  aclTensor* out;
  double scalar;
  int64_t reduction;
};

/* ---------------------------------------------------------------- element access */

static float half_to_float(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exponent = (h >> 10) & 0x1fu, mantissa = h & 0x3ffu, bits;
  if (exponent == 0x1f) {
    bits = sign | 0x7f800000u | (mantissa << 13);
  } else if (exponent != 0) {
    bits = sign | ((exponent + 112u) << 23) | (mantissa << 13);
  } else if (mantissa == 0) {
    bits = sign;
  } else {
    exponent = 113;
    while ((mantissa & 0x400u) == 0) {
      mantissa <<= 1;
      exponent--;
    }
    bits = sign | (exponent << 23) | ((mantissa & 0x3ffu) << 13);
  }
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

/* Round to nearest even, as NumPy's float16 conversion does. */
static uint16_t float_to_half(float f) {
  uint32_t bits;
  memcpy(&bits, &f, sizeof bits);
  uint16_t sign = (uint16_t)((bits >> 16) & 0x8000u);
  uint32_t abs = bits & 0x7fffffffu;
  if (abs >= 0x7f800000u) return (uint16_t)(sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u : 0));
  if (abs >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u); /* overflow to infinity */
  if (abs < 0x38800000u) {                                     /* subnormal or zero */
    if (abs < 0x33000000u) return sign;
    uint32_t mantissa = (abs & 0x7fffffu) | 0x800000u;
    int shift = 126 - (int)(abs >> 23);
    uint32_t half = mantissa >> (shift + 1), rest = mantissa & ((1u << (shift + 1)) - 1), mid = 1u << shift;
    if (rest > mid || (rest == mid && (half & 1u))) half++;
    return (uint16_t)(sign | half);
  }
  uint32_t half = ((abs - 0x38000000u) >> 13), rest = abs & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) half++;
  return (uint16_t)(sign | half);
}

static float bf16_to_float(uint16_t b) {
  uint32_t bits = (uint32_t)b << 16;
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

static uint16_t float_to_bf16(float f) {
  uint32_t bits;
  memcpy(&bits, &f, sizeof bits);
  uint32_t rounding = 0x7fffu + ((bits >> 16) & 1u);
  return (uint16_t)((bits + rounding) >> 16);
}

static double load(const aclTensor* t, int64_t i) {
  switch (t->dtype) {
    case ACL_FLOAT: return ((const float*)t->data)[i];
    case ACL_FLOAT16: return half_to_float(((const uint16_t*)t->data)[i]);
    case ACL_BF16: return bf16_to_float(((const uint16_t*)t->data)[i]);
    case ACL_DOUBLE: return ((const double*)t->data)[i];
    default: return 0.0;
  }
}

static void store(aclTensor* t, int64_t i, double v) {
  switch (t->dtype) {
    case ACL_FLOAT: ((float*)t->data)[i] = (float)v; break;
    case ACL_FLOAT16: ((uint16_t*)t->data)[i] = float_to_half((float)v); break;
    case ACL_BF16: ((uint16_t*)t->data)[i] = float_to_bf16((float)v); break;
    case ACL_DOUBLE: ((double*)t->data)[i] = v; break;
    default: break;
  }
}

/* ---------------------------------------------------------------- argument checks */

static int dtype_in(const aclTensor* t, const aclDataType* allowed, int n) {
  for (int i = 0; i < n; i++)
    if (t->dtype == allowed[i]) return 1;
  return 0;
}

static int64_t element_count(const aclTensor* t) {
  int64_t n = 1;
  for (uint64_t i = 0; i < t->ndim; i++) n *= t->dims[i];
  return n;
}

/* The broadcast shape of the tensors into out/out_ndim; 0 when they do not broadcast. */
static int broadcast(const aclTensor* const* ts, int n, int64_t* out, uint64_t* out_ndim) {
  uint64_t ndim = 0;
  for (int k = 0; k < n; k++)
    if (ts[k]->ndim > ndim) ndim = ts[k]->ndim;
  if (ndim > MAX_RANK) return 0;
  for (uint64_t d = 0; d < ndim; d++) out[d] = 1;
  for (int k = 0; k < n; k++) {
    uint64_t pad = ndim - ts[k]->ndim;
    for (uint64_t d = 0; d < ts[k]->ndim; d++) {
      int64_t dim = ts[k]->dims[d], *o = &out[pad + d];
      if (dim == *o || dim == 1) continue;
      if (*o != 1) return 0;
      *o = dim;
    }
  }
  *out_ndim = ndim;
  return 1;
}

static int shape_is(const aclTensor* t, const int64_t* dims, uint64_t ndim) {
  if (t->ndim != ndim) return 0;
  for (uint64_t d = 0; d < ndim; d++)
    if (t->dims[d] != dims[d]) return 0;
  return 1;
}

/* Offset of element `linear` of the output shape in tensor t, broadcasting t. */
static int64_t offset_of(const aclTensor* t, int64_t linear, const int64_t* dims, uint64_t ndim) {
  int64_t offset = t->offset;
  for (uint64_t d = ndim; d-- > 0;) {
    int64_t index = linear % dims[d];
    linear /= dims[d];
    uint64_t pad = ndim - t->ndim;
    if (d >= pad && t->dims[d - pad] != 1) offset += index * t->strides[d - pad];
  }
  return offset;
}

static aclOpExecutor* new_executor(OpKind kind) {
  aclOpExecutor* e = (aclOpExecutor*)calloc(1, sizeof(aclOpExecutor));
  if (e) e->kind = kind;
  return e;
}

static aclnnStatus finish_planning(aclOpExecutor* e, uint64_t* workspaceSize, aclOpExecutor** executor) {
  if (e == NULL) return ACLNN_ERR_INNER_NULLPTR;
  *workspaceSize = 0;
  *executor = e;
  return ACLNN_SUCCESS;
}

/* Tests make a named phase fail with STANDIN_FAIL=<function>, to exercise error paths. */
static int injected_failure(const char* function) {
  const char* name = getenv("STANDIN_FAIL");
  return name != NULL && strcmp(name, function) == 0;
}

/* ---------------------------------------------------------------- the operators */

aclnnStatus aclnnHardshrinkBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                    const aclScalar* lambd, aclTensor* gradInput,
                                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
  static const aclDataType dtypes[] = {ACL_FLOAT16, ACL_FLOAT};
  if (injected_failure(__func__)) return ACLNN_ERR_PARAM_INVALID;
  if (!gradOutput || !self || !lambd || !gradInput || !workspaceSize || !executor) return ACLNN_ERR_PARAM_NULLPTR;
  const aclTensor* tensors[] = {gradOutput, self, gradInput};
  for (int k = 0; k < 3; k++)
    if (!dtype_in(tensors[k], dtypes, 2) || tensors[k]->format != ACL_FORMAT_ND) return ACLNN_ERR_PARAM_INVALID;
  if (lambd->dtype != ACL_FLOAT) return ACLNN_ERR_PARAM_INVALID;
  int64_t dims[MAX_RANK];
  uint64_t ndim;
  if (!broadcast(tensors, 3, dims, &ndim)) return ACLNN_ERR_PARAM_INVALID;
  if (!broadcast(tensors, 2, dims, &ndim) || !shape_is(gradInput, dims, ndim)) return ACLNN_ERR_PARAM_INVALID;
  aclOpExecutor* e = new_executor(OP_HARDSHRINK_BACKWARD);
  if (e) {
    e->in[0] = gradOutput;
    e->in[1] = self;
    e->out = gradInput;
    e->scalar = lambd->value < 0 ? 0.0 : lambd->value; /* λ < 0 counts as 0 */
  }
  return finish_planning(e, workspaceSize, executor);
}

aclnnStatus aclnnTanhBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* output,
                                              aclTensor* gradInput, uint64_t* workspaceSize,
                                              aclOpExecutor** executor) {
  static const aclDataType dtypes[] = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16};
  if (injected_failure(__func__)) return ACLNN_ERR_PARAM_INVALID;
  if (!gradOutput || !output || !gradInput || !workspaceSize || !executor) return ACLNN_ERR_PARAM_NULLPTR;
  const aclTensor* tensors[] = {gradOutput, output, gradInput};
  for (int k = 0; k < 3; k++) {
    if (!dtype_in(tensors[k], dtypes, 4) || tensors[k]->format != ACL_FORMAT_ND) return ACLNN_ERR_PARAM_INVALID;
    if (tensors[k]->dtype != gradOutput->dtype) return ACLNN_ERR_PARAM_INVALID;
    if (!shape_is(tensors[k], gradOutput->dims, gradOutput->ndim)) return ACLNN_ERR_PARAM_INVALID;
    if (tensors[k]->ndim > 8) return ACLNN_ERR_PARAM_INVALID;
  }
  aclOpExecutor* e = new_executor(OP_TANH_BACKWARD);
  if (e) {
    e->in[0] = gradOutput;
    e->in[1] = output;
    e->out = gradInput;
  }
  return finish_planning(e, workspaceSize, executor);
}

aclnnStatus aclnnSoftMarginLossBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                        const aclTensor* target, int64_t reduction,
                                                        aclTensor* gradInput, uint64_t* workspaceSize,
                                                        aclOpExecutor** executor) {
  static const aclDataType dtypes[] = {ACL_FLOAT, ACL_FLOAT16};
  if (injected_failure(__func__)) return ACLNN_ERR_PARAM_INVALID;
  if (!gradOutput || !self || !target || !gradInput || !workspaceSize || !executor) return ACLNN_ERR_PARAM_NULLPTR;
  const aclTensor* tensors[] = {gradOutput, self, target, gradInput};
  for (int k = 0; k < 4; k++)
    if (!dtype_in(tensors[k], dtypes, 2) || tensors[k]->format != ACL_FORMAT_ND) return ACLNN_ERR_PARAM_INVALID;
  int64_t dims[MAX_RANK];
  uint64_t ndim;
  if (!broadcast(tensors, 4, dims, &ndim)) return ACLNN_ERR_PARAM_INVALID;
  if (!broadcast(tensors, 3, dims, &ndim) || !shape_is(gradInput, dims, ndim)) return ACLNN_ERR_PARAM_INVALID;
  if (reduction < 0 || reduction > 2) return ACLNN_ERR_PARAM_INVALID;
  aclOpExecutor* e = new_executor(OP_SOFT_MARGIN_LOSS_BACKWARD);
  if (e) {
    e->in[0] = gradOutput;
    e->in[1] = self;
    e->in[2] = target;
    e->out = gradInput;
    e->reduction = reduction;
  }
  return finish_planning(e, workspaceSize, executor);
}

static aclnnStatus execute(aclOpExecutor* e, OpKind kind, const char* function) {
  if (e == NULL) return ACLNN_ERR_PARAM_NULLPTR;
  if (injected_failure(function)) {
    free(e);
    return ACLNN_ERR_PARAM_INVALID;
  }
  if (e->kind != kind) return ACLNN_ERR_PARAM_INVALID;
  aclTensor* out = e->out;
  int64_t n = element_count(out);
  for (int64_t i = 0; i < n; i++) {
    double result = 0.0;
    if (kind == OP_HARDSHRINK_BACKWARD) {
      double grad = load(e->in[0], offset_of(e->in[0], i, out->dims, out->ndim));
      double x = load(e->in[1], offset_of(e->in[1], i, out->dims, out->ndim));
      result = fabs(x) > e->scalar ? grad : 0.0;
    } else if (kind == OP_TANH_BACKWARD) {
      double y = load(e->in[1], offset_of(e->in[1], i, out->dims, out->ndim));
      result = load(e->in[0], offset_of(e->in[0], i, out->dims, out->ndim)) * (1.0 - y * y);
    } else {
      double grad = load(e->in[0], offset_of(e->in[0], i, out->dims, out->ndim));
      double x = load(e->in[1], offset_of(e->in[1], i, out->dims, out->ndim));
      double y = load(e->in[2], offset_of(e->in[2], i, out->dims, out->ndim));
      result = -y * grad / (1.0 + exp(y * x)); /* -y * grad * sigmoid(-y * x) */
      if (e->reduction == 1) result /= (double)n;
    }
    store(out, offset_of(out, i, out->dims, out->ndim), result);
  }
  free(e);
  return ACLNN_SUCCESS;
}

aclnnStatus aclnnHardshrinkBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                    aclrtStream stream) {
  (void)workspace, (void)workspaceSize, (void)stream;
  return execute(executor, OP_HARDSHRINK_BACKWARD, __func__);
}

aclnnStatus aclnnTanhBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  (void)workspace, (void)workspaceSize, (void)stream;
  return execute(executor, OP_TANH_BACKWARD, __func__);
}

aclnnStatus aclnnSoftMarginLossBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                        aclrtStream stream) {
  (void)workspace, (void)workspaceSize, (void)stream;
  return execute(executor, OP_SOFT_MARGIN_LOSS_BACKWARD, __func__);
}
