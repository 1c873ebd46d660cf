/* libnnopbase stand-in: tensors, scalars and arrays as plain structs. */
#include <stdlib.h>
#include <string.h>

#include "standin.h"

static int64_t* copy_dims(const int64_t* values, uint64_t n) {
  int64_t* out = (int64_t*)calloc(n ? n : 1, sizeof(int64_t));
  if (out && n) memcpy(out, values, n * sizeof(int64_t));
  return out;
}

aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType,
                           const int64_t* stride, int64_t offset, aclFormat format, const int64_t* storageDims,
                           uint64_t storageDimsNum, void* tensorData) {
  (void)storageDims;
  (void)storageDimsNum;
  if ((viewDimsNum && (viewDims == NULL || stride == NULL)) || viewDimsNum > 64) return NULL;
  aclTensor* t = (aclTensor*)calloc(1, sizeof(aclTensor));
  if (t == NULL) return NULL;
  t->dtype = dataType;
  t->format = format;
  t->ndim = viewDimsNum;
  t->dims = copy_dims(viewDims, viewDimsNum);
  t->strides = copy_dims(stride, viewDimsNum);
  t->offset = offset;
  t->data = tensorData;
  return t;
}

aclnnStatus aclDestroyTensor(const aclTensor* tensor) {
  if (tensor) {
    free(tensor->dims);
    free(tensor->strides);
    free((void*)tensor);
  }
  return ACLNN_SUCCESS;
}

static double read_value(const void* value, aclDataType dtype, int* ok) {
  *ok = 1;
  switch (dtype) {
    case ACL_FLOAT: return *(const float*)value;
    case ACL_DOUBLE: return *(const double*)value;
    case ACL_INT8: return *(const int8_t*)value;
    case ACL_INT16: return *(const int16_t*)value;
    case ACL_INT32: return *(const int32_t*)value;
    case ACL_INT64: return (double)*(const int64_t*)value;
    case ACL_UINT8: return *(const uint8_t*)value;
    case ACL_BOOL: return *(const uint8_t*)value != 0;
    default: *ok = 0; return 0.0;
  }
}

aclScalar* aclCreateScalar(void* value, aclDataType dataType) {
  int ok;
  if (value == NULL) return NULL;
  double v = read_value(value, dataType, &ok);
  if (!ok) return NULL;
  aclScalar* s = (aclScalar*)calloc(1, sizeof(aclScalar));
  if (s) {
    s->dtype = dataType;
    s->value = v;
  }
  return s;
}

aclnnStatus aclDestroyScalar(const aclScalar* scalar) {
  free((void*)scalar);
  return ACLNN_SUCCESS;
}

#define DEFINE_ARRAY(Type, Elem, create, destroy)                 \
  Type* create(const Elem* value, uint64_t size) {                \
    if (size && value == NULL) return NULL;                       \
    Type* a = (Type*)calloc(1, sizeof(Type));                     \
    if (a == NULL) return NULL;                                   \
    a->size = size;                                               \
    a->values = (Elem*)calloc(size ? size : 1, sizeof(Elem));     \
    if (size) memcpy(a->values, value, size * sizeof(Elem));      \
    return a;                                                     \
  }                                                               \
  aclnnStatus destroy(const Type* array) {                        \
    if (array) {                                                  \
      free(array->values);                                        \
      free((void*)array);                                         \
    }                                                             \
    return ACLNN_SUCCESS;                                         \
  }

DEFINE_ARRAY(aclIntArray, int64_t, aclCreateIntArray, aclDestroyIntArray)
DEFINE_ARRAY(aclFloatArray, float, aclCreateFloatArray, aclDestroyFloatArray)
DEFINE_ARRAY(aclBoolArray, bool, aclCreateBoolArray, aclDestroyBoolArray)

aclTensorList* aclCreateTensorList(const aclTensor* const* value, uint64_t size) {
  aclTensorList* list = (aclTensorList*)calloc(1, sizeof(aclTensorList));
  if (list == NULL) return NULL;
  list->size = size;
  list->tensors = (const aclTensor**)calloc(size ? size : 1, sizeof(aclTensor*));
  for (uint64_t i = 0; i < size; i++) list->tensors[i] = value[i];
  return list;
}

/* Like CANN, destroying a list destroys its tensors too. */
aclnnStatus aclDestroyTensorList(const aclTensorList* list) {
  if (list) {
    for (uint64_t i = 0; i < list->size; i++) aclDestroyTensor(list->tensors[i]);
    free(list->tensors);
    free((void*)list);
  }
  return ACLNN_SUCCESS;
}

aclScalarList* aclCreateScalarList(const aclScalar* const* value, uint64_t size) {
  aclScalarList* list = (aclScalarList*)calloc(1, sizeof(aclScalarList));
  if (list == NULL) return NULL;
  list->size = size;
  list->scalars = (const aclScalar**)calloc(size ? size : 1, sizeof(aclScalar*));
  for (uint64_t i = 0; i < size; i++) list->scalars[i] = value[i];
  return list;
}

aclnnStatus aclDestroyScalarList(const aclScalarList* list) {
  if (list) {
    for (uint64_t i = 0; i < list->size; i++) aclDestroyScalar(list->scalars[i]);
    free(list->scalars);
    free((void*)list);
  }
  return ACLNN_SUCCESS;
}
