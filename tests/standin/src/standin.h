/* Internal layout of the stand-in's objects, shared by libnnopbase and libopapi. */
#ifndef STANDIN_INTERNAL_H_
#define STANDIN_INTERNAL_H_

#include "aclnn/aclnn_base.h"

struct aclTensor {
  aclDataType dtype;
  aclFormat format;
  uint64_t ndim;
  int64_t* dims;
  int64_t* strides; /* in elements */
  int64_t offset;   /* in elements */
  void* data;
};

struct aclScalar {
  aclDataType dtype;
  double value;
};

struct aclIntArray {
  uint64_t size;
  int64_t* values;
};

struct aclFloatArray {
  uint64_t size;
  float* values;
};

struct aclBoolArray {
  uint64_t size;
  bool* values;
};

struct aclTensorList {
  uint64_t size;
  const aclTensor** tensors;
};

struct aclScalarList {
  uint64_t size;
  const aclScalar** scalars;
};

#endif /* STANDIN_INTERNAL_H_ */
