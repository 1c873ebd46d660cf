/* Stand-in of the CANN aclnn_base.h: tensors, scalars and arrays. */
#ifndef STANDIN_ACLNN_BASE_H_
#define STANDIN_ACLNN_BASE_H_

#include <stdbool.h>
#include <stdint.h>

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef int32_t aclnnStatus;
typedef struct aclTensor aclTensor;
typedef struct aclScalar aclScalar;
typedef struct aclIntArray aclIntArray;
typedef struct aclFloatArray aclFloatArray;
typedef struct aclBoolArray aclBoolArray;
typedef struct aclTensorList aclTensorList;
typedef struct aclScalarList aclScalarList;
typedef struct aclOpExecutor aclOpExecutor;

#define ACLNN_SUCCESS 0
#define ACLNN_ERR_PARAM_NULLPTR 161001
#define ACLNN_ERR_PARAM_INVALID 161002
#define ACLNN_ERR_RUNTIME_ERROR 361001
#define ACLNN_ERR_INNER_NULLPTR 561103

aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType,
                           const int64_t* stride, int64_t offset, aclFormat format, const int64_t* storageDims,
                           uint64_t storageDimsNum, void* tensorData);
aclScalar* aclCreateScalar(void* value, aclDataType dataType);
aclIntArray* aclCreateIntArray(const int64_t* value, uint64_t size);
aclFloatArray* aclCreateFloatArray(const float* value, uint64_t size);
aclBoolArray* aclCreateBoolArray(const bool* value, uint64_t size);
aclTensorList* aclCreateTensorList(const aclTensor* const* value, uint64_t size);
aclScalarList* aclCreateScalarList(const aclScalar* const* value, uint64_t size);

aclnnStatus aclDestroyTensor(const aclTensor* tensor);
aclnnStatus aclDestroyScalar(const aclScalar* scalar);
aclnnStatus aclDestroyIntArray(const aclIntArray* array);
aclnnStatus aclDestroyFloatArray(const aclFloatArray* array);
aclnnStatus aclDestroyBoolArray(const aclBoolArray* array);
aclnnStatus aclDestroyTensorList(const aclTensorList* array);
aclnnStatus aclDestroyScalarList(const aclScalarList* array);

#ifdef __cplusplus
}
#endif

#endif /* STANDIN_ACLNN_BASE_H_ */
